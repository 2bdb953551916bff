// The explicit-style sm_100a GEMM (python-free-examples/gemm-sm100/
// gemm-explicit.mlir: tensor memory, barriers and parities written by the
// program) from tile IR to a cubin. Compiled and assembled only: nothing
// here has run on a Blackwell GPU.
// REQUIRES: ptxas
// RUN: tile-translate --tile-to-ptx --chip=sm_100a %S/../../python-free-examples/gemm-sm100/gemm-explicit.mlir -o %t.ptx
// The tensor-memory and barrier instructions in program order: warp 0
// allocates 256 columns and relinquishes the permit; fences around the CTA
// barrier that publishes the address; the barriers' initialisation; the
// loop, rotated by LLVM (the wait on `done` for the previous step comes
// first): the two TMA loads, the wait for them; thread 0 fences after it, issues four kind::f16 MMAs (one per 16 of K) and commits
// them to the `done` barrier (mbarrier::arrive::one); the wait on it;
// after the loop, a fence after that synchronisation, two 32x32b.x64 loads
// per thread (its warpgroup's 128 columns), wait::ld, a fence before the
// next synchronisation; the kernel's end: fences around the last barrier,
// then warp 0 frees the columns.
// RUN: grep -oE 'tcgen05\.[a-z_:]+(\.[a-z0-9_:]+)*|mbarrier\.try_wait|mbarrier\.arrive\.expect_tx|bar\.sync' %t.ptx | uniq -c
// ptxas assembles it for sm_100a with no spills and no stack frame.
// RUN: tile-translate --tile-to-cubin --chip=sm_100a %S/../../python-free-examples/gemm-sm100/gemm-explicit.mlir -o %t.cubin --ptxas-options=-v 2>%t.ptxas
// RUN: grep -iE 'warning' %t.ptxas || echo 'no ptxas warnings'
// RUN: grep -oE '[0-9]+ bytes (stack frame|spill stores|spill loads)' %t.ptxas
