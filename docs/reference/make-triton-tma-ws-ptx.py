# Triton 3.6's sm_100a PTX for the GEMM tile's gemm.mlir is: bf16 A (M x K)
# and B (N x K), fp32 C, 128 x 256 x 64 tiles, TMA descriptors, a persistent
# tile loop with warp specialisation (Triton's tutorial 09 persistent matmul
# with warp_specialize=True), for the cross-check in docs/tcgen05-crosscheck.md.
# ../../shared/reference/make-triton-reference-ptx.py makes the plain-pointer
# version. Runs where Triton is installed (the GPU machine); compiling for
# sm_100a needs no Blackwell GPU.
# Usage: python3 make-triton-tma-ws-ptx.py [OUTPUT_DIR]
import re, sys, triton, triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

print("triton", triton.__version__)


@triton.jit
def mm_tma_ws(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, NUM_SMS: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    tiles_n = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * tiles_n
    for t in tl.range(tl.program_id(0), tiles, NUM_SMS, flatten=True, warp_specialize=True):
        pm = t // tiles_n
        pn = t % tiles_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kt in range(tl.cdiv(K, BK)):
            a = a_desc.load([pm * BM, kt * BK])
            b = b_desc.load([pn * BN, kt * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([pm * BM, pn * BN], acc)


sig = {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*fp32", "M": "constexpr", "N": "constexpr",
       "K": "constexpr", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr", "NUM_SMS": "constexpr"}
out = sys.argv[1] if len(sys.argv) > 1 else "."
src = ASTSource(fn=mm_tma_ws, signature=sig,
                constexprs={"M": 8192, "N": 8192, "K": 8192, "BM": 128, "BN": 256, "BK": 64, "NUM_SMS": 148})
k = triton.compile(src, target=GPUTarget("cuda", 100, 32), options={"num_warps": 4, "num_stages": 4})
ptx = k.asm["ptx"]
name = f"{out}/triton-3.6-gemm-bf16-128x256x64-sm100a-tma-ws.ptx"
open(name, "w").write(ptx)
ops = re.findall(r"\b(tcgen05\.[a-z0-9_.:]+|cp\.async\.bulk\.tensor[a-z0-9_.:]*|mbarrier\.[a-z_.]+|setmaxnreg[a-z0-9_.]*|elect\.sync)", ptx)
counts = {}
for o in ops:
    counts[o] = counts.get(o, 0) + 1
print(f"{name}: {len(ptx)} bytes")
for o, c in sorted(counts.items()):
    print(f"{c:5d} {o}")
