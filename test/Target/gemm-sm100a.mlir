// The shipped Hopper GEMM program (python-free-examples/gemm/gemm.mlir:
// persistent, stages(4), warp_specialized) compiled for sm_100a with only
// the chip changed: tcgen05 with the accumulator in tensor memory, TMA
// loads, and warp specialisation chosen by the compiler (a TMA producer
// warp, a single MMA-issuing warp, two epilogue warpgroups, two
// tensor-memory accumulators so that one tile's epilogue overlaps the next
// tile's MMAs). Compiled, assembled and checked here only: nothing has run
// on a Blackwell GPU.
// REQUIRES: ptxas
// RUN: tile-translate --tile-to-ptx --chip=sm_100a %S/../../python-free-examples/gemm/gemm.mlir --tile-values=TMASTORE=0 -o %t.ptx
// The instructions, in the order of the PTX (LLVM lays the roles' loops
// out as it likes): warp 0 allocates 512 columns (two 256-column
// accumulators) and relinquishes the permit; fences around the CTA barrier
// that publishes the address; the barrier rings' initialisation; the
// producer's empty wait, expect_tx and two TMA loads; the MMA warp's
// commit of a finished tile to acc_full, its waits (acc_empty, full), the
// fence after them, the four kind::f16 MMAs of a 64-wide k-step (one per 16
// of K; the buffer and clear_accum branches folded into one sequence), the
// commit to the slot's empty barrier; the epilogue's release (arrive on
// acc_empty), its wait on acc_full, the fence, two 32x32b.x64 loads per
// thread (its warpgroup's 128 columns of one 128 x 256 buffer), wait::ld
// and the fence before the release; the end: fences around the last
// barrier and the dealloc. No setmaxnreg: the producer and MMA warps share
// warpgroup 0 with two idle warps, and the epilogue fits the 168 registers
// each of the 384 threads starts with.
// RUN: grep -oE 'tcgen05\.(alloc|dealloc|relinquish_alloc_permit|mma|commit|ld|wait::ld|fence::[a-z_]+)|mbarrier\.try_wait|mbarrier\.arrive\.expect_tx|mbarrier\.arrive\.shared|cp\.async\.bulk\.tensor|setmaxnreg|bar\.sync' %t.ptx | uniq -c
// RUN: tile-translate --tile-to-cubin --chip=sm_100a %S/../../python-free-examples/gemm/gemm.mlir --tile-values=TMASTORE=0 -o %t.cubin --kernel-info=%t.kinfo --ptxas-options=-v 2>%t.ptxas
// RUN: grep -iE 'warning' %t.ptxas || echo 'no ptxas warnings'
// RUN: grep -oE '[0-9]+ bytes (stack frame|spill stores|spill loads)' %t.ptxas
// The kernel description: 384 threads (two epilogue warpgroups and the
// producer/MMA warpgroup), 4 x (16 KiB of A + 32 KiB of B) of ring, 1 KiB
// for the tensor-memory address slot and 1 KiB to realign.
// RUN: cat %t.kinfo
// The epilogue through shared memory and TMA on sm_100a: gemm.mlir with
// TMASTORE, only the chip changed. The accumulator comes back by tcgen05.ld into
// the #tile.tmem_32x32b layout, whose warpgroups hold different columns, so
// each 128 x 32 slice is written to its swizzled shared buffer by the
// threads that hold it (a run-time check per run) and stored by TMA.
// RUN: tile-translate --tile-to-cubin --chip=sm_100a %S/../../python-free-examples/gemm/gemm.mlir --tile-values=TMASTORE=1 -o %ttma.cubin --ptxas-options=-v 2>%ttma.ptxas
// RUN: grep -oE '[0-9]+ bytes (stack frame|spill stores|spill loads)' %ttma.ptxas
// RUN: tile-translate --tile-to-ptx --chip=sm_100a %S/../../python-free-examples/gemm/gemm.mlir --tile-values=TMASTORE=1 -o %ttma.ptx
// RUN: grep -oE 'tcgen05\.(mma|ld|commit)|cp\.async\.bulk\.tensor\.2d\.global\.shared::cta|cp\.async\.bulk\.wait_group\.read' %ttma.ptx | sort | uniq -c
