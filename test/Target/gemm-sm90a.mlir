// The shipped GEMM example (python-free-examples/gemm/gemm.mlir, a family:
// here at its defaults, 128 x 256 tiles, persistent, stages(4),
// warp_specialized) compiled for sm_90a. The PTX holds: 4
// wgmma.mma_async (one m64n256k16 per 16 of the 64-wide K tile; each
// consumer warpgroup issues it for its 64 rows) between one fence and one
// commit, 2 waits (wait_group 1 in the loop, the group staying in flight,
// and wait_group 0 after it), the producer warp's 2 TMA loads and 2
// arrive.expect_tx (A and B, no prologue: the producer runs ahead on its
// own), 2 phase waits (the producer's on "empty", the consumers' on "full"),
// the consumers' releases (mbarrier.arrive), and the register hand-over
// (setmaxnreg.dec 40 for the producer warpgroup, .inc 232 for the two
// consumer warpgroups).
// REQUIRES: ptxas
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %S/../../python-free-examples/gemm/gemm.mlir --tile-values=TMASTORE=0 -o %t.ptx
// RUN: grep -oE 'wgmma\.(mma_async|fence|commit_group|wait_group)|cp\.async\.bulk\.tensor|mbarrier\.(try_wait\.parity|arrive\.expect_tx|arrive\.shared)|setmaxnreg\.(inc|dec)\.sync\.aligned\.u32[[:space:]]+[0-9]+' %t.ptx | tr -s '\t' ' ' | sort | uniq -c
// ptxas must accept it without complaint: no C7510/C7511/C7517/C7519
// (wgmma serialised or accumulators moved between wgmmas) and no other
// warning: any such line changes the output below.
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %S/../../python-free-examples/gemm/gemm.mlir --tile-values=TMASTORE=0 -o %t.cubin --kernel-info=%t.kinfo --ptxas-options=-v 2>%t.ptxas
// RUN: grep -iE 'C75(10|11|17|19)|warning' %t.ptxas || echo 'no ptxas warnings'
// No spills and no stack frame (128 fp32 accumulators per thread).
// RUN: grep -oE '[0-9]+ bytes (stack frame|spill stores|spill loads)' %t.ptxas
// The same for every configuration of gemm-tiles.mlir's family, compiled
// into one cubin (128 x 128, 5 stages; 128 x 64, 6 stages; 128 x 192, 5
// stages; one CTA per tile).
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %S/../../python-free-examples/gemm/gemm-tiles.mlir -o %ttiles.cubin --kernel-info=%ttiles.kinfo --ptxas-options=-v 2>%ttiles.ptxas
// RUN: grep -iE 'C75(10|11|17|19)|warning' %ttiles.ptxas || echo 'no ptxas warnings'
// RUN: grep -oE '[0-9]+ bytes (stack frame|spill stores|spill loads)' %ttiles.ptxas
// RUN: grep -E '^(kernel|config)' %ttiles.kinfo
// And for gemm.mlir with TMASTORE (the epilogue through shared memory and
// asynchronous TMA stores; 4 x 48 KiB of ring + 2 x 16 KiB of buffers).
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %S/../../python-free-examples/gemm/gemm.mlir --tile-values=TMASTORE=1 -o %ttma.cubin --kernel-info=%ttma.kinfo --ptxas-options=-v 2>%ttma.ptxas
// RUN: grep -iE 'C75(10|11|17|19)|warning' %ttma.ptxas || echo 'no ptxas warnings'
// RUN: grep -oE '[0-9]+ bytes (stack frame|spill stores|spill loads)' %ttma.ptxas
// RUN: grep -E '^(kernel|tma)' %ttma.kinfo
// And for gemm-streamk.mlir's two kernels: each partial tile leaves in
// 128 x 32 chunks, one TMA bulk reduction each (8 for 128 x 256 tiles, 4
// for 128 x 128), with no spills; C gets a tensor map (box 128 x 32).
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %S/../../python-free-examples/gemm/gemm-streamk.mlir -o %tsk.ptx
// RUN: grep -oE '^\.visible \.entry [A-Za-z_0-9]+|cp\.reduce\.async\.bulk\.tensor\.2d\.global\.shared::cta\.add\.tile\.bulk_group' %tsk.ptx | uniq -c
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %S/../../python-free-examples/gemm/gemm-streamk.mlir -o %tsk.cubin --kernel-info=%tsk.kinfo --ptxas-options=-v 2>%tsk.ptxas
// RUN: grep -iE 'C75(10|11|17|19)|warning' %tsk.ptxas || echo 'no ptxas warnings'
// RUN: grep -oE '[0-9]+ bytes (stack frame|spill stores|spill loads)' %tsk.ptxas
// RUN: grep -E '^(kernel|tma)' %tsk.kinfo
// The runtime's kernel description: 384 threads (256 + the producer), 4 x (16 KiB of A + 32 KiB
// of B) of dynamic shared memory plus 1 KiB to realign it, and one tensor
// map per operand.
// RUN: cat %t.kinfo
// Warp specialisation is lowered for sm_90a only: for sm_80, one clean
// error. The 128 x 192 kernel (software-pipelined) would take mma.sync and a
// cp.async pipeline there, but its 5 stages of 40 KiB do not fit in sm_80's
// 163 KiB of shared memory: one clean error, no cubin.
// RUN: not tile-translate --tile-to-cubin --chip=sm_80 %S/../../python-free-examples/gemm/gemm.mlir --tile-values=TMASTORE=0 -o %t80ws.cubin 2>&1 | grep error: | sed -E -e 's|^.*: error: |error: |' -e 's|^.*: note: |note: |'
// RUN: rm -f %t80.cubin
// RUN: not tile-translate --tile-to-cubin --chip=sm_80 %S/../../python-free-examples/gemm/gemm-tiles.mlir --tile-values=BN=192 -o %t80.cubin 2>&1 | grep error: | sed -E -e 's|^.*: error: |error: |' -e 's|^.*: note: |note: |'
// RUN: test ! -e %t80.cubin && echo 'no cubin written'
