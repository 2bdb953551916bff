// tile-opt registers what mlir-opt does for the GPU path (dialects,
// extensions such as the NVVM target attach interface, and the GPU/NVVM/LLVM
// translations to LLVM IR), so upstream pipelines that serialise gpu.modules
// run in it. format=isa stops at PTX text (LLVM's NVPTX back-end, no ptxas
// and no CUDA needed); the compile-time property is masked, it varies.

// RUN: tile-opt %s --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=isa" \
// RUN:   | sed -E 's/LLVMIRToISATimeInMs = [0-9]+ : i64, //'
// RUN: tile-opt %s --nvvm-attach-target="chip=sm_90a" --convert-gpu-to-nvvm \
// RUN:   --reconcile-unrealized-casts --gpu-module-to-binary="format=isa" \
// RUN:   | sed -E 's/LLVMIRToISATimeInMs = [0-9]+ : i64, //'
// The attach interface alone (no serialisation).
// RUN: tile-opt %s --nvvm-attach-target="chip=sm_90a features=+ptx80 O=3"

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<32xf32>, %s: f32) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %buf[%tid] : memref<32xf32>
      %r = arith.mulf %v, %s : f32
      memref.store %r, %buf[%tid] : memref<32xf32>
      gpu.return
    }
  }
}
