; The kernel tile-nvshmem-pe launches, as tile-translate emits kernels that
; call NVSHMEM: external calls to its device functions, assembled as
; relocatable code (ptxas -c), which the runtime links at load time:
;   llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx86 nvshmem-ring.ll
;   ptxas -c -arch=sm_90a nvshmem-ring.s -o nvshmem-ring.cubin
; Same kernel as nvshmem-ring.cu.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @nvshmem_my_pe()
declare i32 @nvshmem_n_pes()
declare void @nvshmemx_putmem_signal_nbi_block(ptr, ptr, i64, ptr, i64, i32, i32)
declare i64 @nvshmem_signal_wait_until(ptr, i32, i64)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

define ptx_kernel void @ring(ptr %dst, ptr %src, ptr %signal, i64 %count, ptr %peInfo) {
entry:
  %me = call i32 @nvshmem_my_pe()
  %n = call i32 @nvshmem_n_pes()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %info, label %put
info:
  store i32 %me, ptr %peInfo
  %p1 = getelementptr i32, ptr %peInfo, i64 1
  store i32 %n, ptr %p1
  br label %put
put:
  %bytes = mul i64 %count, 4
  %me1 = add i32 %me, 1
  %right = srem i32 %me1, %n
  call void @nvshmemx_putmem_signal_nbi_block(ptr %dst, ptr %src, i64 %bytes, ptr %signal, i64 1, i32 9, i32 %right)
  br i1 %t0, label %wait, label %done
wait:
  %v = call i64 @nvshmem_signal_wait_until(ptr %signal, i32 0, i64 1)
  br label %done
done:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  ret void
}
