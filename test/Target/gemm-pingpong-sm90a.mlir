// python-free-examples/gemm/gemm.mlir's ping-pong configuration (64 x 256
// tiles, two consumer teams taking turns) compiled for sm_90a. The PTX holds one
// team's k-step (4 wgmma m64n256k16, the group left in flight), the
// producer's 2 TMA loads, 3 kinds of phase wait (the producer's on
// "empty", the teams' on "full" and on their turn), the register
// hand-over for 384 threads, and no CTA barrier after the split (bar.sync 0
// only at the barriers' initialisation).
// REQUIRES: ptxas
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %S/../../python-free-examples/gemm/gemm.mlir --tile-values=BM=64,BN=256,GROUP=16,STAGES=5,THREADS=128,PINGPONG=1 -o %t.ptx
// RUN: grep -oE 'wgmma\.mma_async\.sync\.aligned\.m64n[0-9]+k16|cp\.async\.bulk\.tensor|mbarrier\.try_wait\.parity|setmaxnreg\.(inc|dec)\.sync\.aligned\.u32[[:space:]]+[0-9]+|bar(rier)?\.sync[[:space:]]+[0-9]+' %t.ptx | tr -s '\t' ' ' | sort | uniq -c
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %S/../../python-free-examples/gemm/gemm.mlir --tile-values=BM=64,BN=256,GROUP=16,STAGES=5,THREADS=128,PINGPONG=1 -o %t.cubin --kernel-info=%t.kinfo --ptxas-options=-v 2>%t.ptxas
// RUN: grep -iE 'C75(10|11|17|19)|warning' %t.ptxas || echo 'no ptxas warnings'
// RUN: grep -oE '[0-9]+ bytes (stack frame|spill stores|spill loads)' %t.ptxas
// 5 stages of 8 KiB (A) + 32 KiB (B), and 1 KiB to realign them.
// RUN: grep -E '^(kernel|tma)' %t.kinfo
