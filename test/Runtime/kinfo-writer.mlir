// tile-translate --kernel-info writes the runtime's kernel description from
// the attributes the lowering leaves on each kernel (hand-written here), in
// the shared kinfo format; values the description cannot hold are refused.
// RUN: tile-translate --tile-to-llvmir %s -o %t.ll --kernel-info=%t.kinfo && cat %t.kinfo
// RUN: sed 's/param = 2 : i64/param = -2 : i64/' %s > %t.bad-param.mlir
// RUN: not tile-translate --tile-to-llvmir %t.bad-param.mlir -o %t.ll --kernel-info=%t.bad.kinfo 2>&1 | grep -o "error: .*"
// RUN: sed 's/4096 : i64/4294967296 : i64/' %s > %t.bad-smem.mlir
// RUN: not tile-translate --tile-to-llvmir %t.bad-smem.mlir -o %t.ll --kernel-info=%t.bad.kinfo 2>&1 | grep -o "error: .*"
// A failed description leaves no file behind.
// RUN: test ! -e %t.bad.kinfo && echo "no kinfo"

module {
  llvm.func @k(%a: !llvm.ptr<1>) attributes {nvvm.kernel,
      nvvm.reqntid = array<i32: 128, 2, 1>,
      nvvm.cluster_dim = array<i32: 2, 1, 1>,
      tile.dynamic_shared_bytes = 4096 : i64,
      tile.tma = [
        {param = 1 : i64, arg = 0 : i64, type = "bf16",
         box = array<i64: 64, 64>, swizzle = 128 : i64},
        {param = 2 : i64, arg = 0 : i64, type = "f32",
         box = array<i64: 8, 16, 4>, swizzle = 0 : i64}]} {
    llvm.return
  }
  llvm.func @plain() attributes {nvvm.kernel} {
    llvm.return
  }
  // NVSHMEM's barrier inside: linked with NVSHMEM, a collective launch.
  llvm.func @nvshmemx_barrier_all_block()
  llvm.func @barrier() attributes {nvvm.kernel} {
    llvm.call @nvshmemx_barrier_all_block() : () -> ()
    llvm.return
  }
  // An NVSHMEM put without a barrier or wait: linked, launched as usual.
  llvm.func @nvshmemx_putmem_signal_nbi_block(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64, i32, i32)
  llvm.func @put(%d: !llvm.ptr, %s: !llvm.ptr) attributes {nvvm.kernel} {
    %n = llvm.mlir.constant(16 : i64) : i64
    %one = llvm.mlir.constant(1 : i32) : i32
    llvm.call @nvshmemx_putmem_signal_nbi_block(%d, %s, %n, %d, %n, %one, %one) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64, i32, i32) -> ()
    llvm.return
  }
}
