// The shipped GEMM example (python-free-examples/gemm/gemm.mlir, stages(4))
// compiled for sm_90a. The PTX holds: 4 wgmma.mma_async (one m64n256k16 per
// 16 of the 64-wide K tile; each warpgroup issues it for its 64 rows)
// between one fence and one commit, 2 waits (wait_group 1 in the loop, the
// group staying in flight, and wait_group 0 after it), 8 TMA loads and 8
// arrive.expect_tx (A and B for the 3 prologue iterations and the in-loop
// refill), and the loop's one phase wait.
// REQUIRES: ptxas
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %S/../../python-free-examples/gemm/gemm.mlir -o %t.ptx
// RUN: grep -oE 'wgmma\.(mma_async|fence|commit_group|wait_group)|cp\.async\.bulk\.tensor|mbarrier\.(try_wait\.parity|arrive\.expect_tx)' %t.ptx | sort | uniq -c
// ptxas must accept it without complaint: no C7510/C7511/C7517/C7519
// (wgmma serialised or accumulators moved between wgmmas) and no other
// warning: any such line changes the output below.
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %S/../../python-free-examples/gemm/gemm.mlir -o %t.cubin --kernel-info=%t.kinfo --ptxas-options=-v 2>%t.ptxas
// RUN: grep -iE 'C75(10|11|17|19)|warning' %t.ptxas || echo 'no ptxas warnings'
// No spills and no stack frame (128 fp32 accumulators per thread).
// RUN: grep -oE '[0-9]+ bytes (stack frame|spill stores|spill loads)' %t.ptxas
// The same for the 128 x 128 variant (5 stages).
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %S/../../python-free-examples/gemm/gemm-128x128.mlir -o %t128.cubin --ptxas-options=-v 2>%t128.ptxas
// RUN: grep -iE 'C75(10|11|17|19)|warning' %t128.ptxas || echo 'no ptxas warnings'
// RUN: grep -oE '[0-9]+ bytes (stack frame|spill stores|spill loads)' %t128.ptxas
// And for the 128 x 192 variant (5 stages).
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %S/../../python-free-examples/gemm/gemm-128x192.mlir -o %t192.cubin --ptxas-options=-v 2>%t192.ptxas
// RUN: grep -iE 'C75(10|11|17|19)|warning' %t192.ptxas || echo 'no ptxas warnings'
// RUN: grep -oE '[0-9]+ bytes (stack frame|spill stores|spill loads)' %t192.ptxas
// The runtime's kernel description: 256 threads, 4 x (16 KiB of A + 32 KiB
// of B) of dynamic shared memory plus 1 KiB to realign it, and one tensor
// map per operand.
// RUN: cat %t.kinfo
// For sm_80 the same program would take mma.sync and a cp.async pipeline, but
// its 4 stages of 48 KiB do not fit in sm_80's 163 KiB of shared memory: one
// clean error, no cubin.
// RUN: rm -f %t80.cubin
// RUN: not tile-translate --tile-to-cubin --chip=sm_80 %S/../../python-free-examples/gemm/gemm.mlir -o %t80.cubin 2>&1 | grep error: | sed -E 's|^.*: error: |error: |'
// RUN: test ! -e %t80.cubin && echo 'no cubin written'
