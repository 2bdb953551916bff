// tile-promote-fragments: per-thread allocas read and written at constant
// positions become SSA values, threaded through scf.for and scf.if as
// iter_args and results for the positions each of them writes. The pass's
// own output: an llvm.mlir.undef stands for elements not written yet (unused
// here), a vector store becomes one vector.extract per element, and the
// branch yields the element it writes or the one it found.
// RUN: tile-opt %s --split-input-file --tile-promote-fragments

// A loop accumulates into both elements, as the gemm lowering does; a
// branch writes one of them; a vector load reads both after the loop.
gpu.module @m {
  gpu.func @k(%n: index, %c: i1, %out: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant dense<0.0> : vector<2xf32>
    %acc = memref.alloca() : memref<2xf32>
    vector.store %zero, %acc[%c0] : memref<2xf32>, vector<2xf32>
    scf.for %i = %c0 to %n step %c1 {
      %a = memref.load %acc[%c0] : memref<2xf32>
      %b = memref.load %acc[%c1] : memref<2xf32>
      %r = llvm.inline_asm has_side_effects "step", "=f,=f,0,1" %a, %b : (f32, f32) -> !llvm.struct<(f32, f32)>
      %x = llvm.extractvalue %r[0] : !llvm.struct<(f32, f32)>
      %y = llvm.extractvalue %r[1] : !llvm.struct<(f32, f32)>
      memref.store %x, %acc[%c0] : memref<2xf32>
      memref.store %y, %acc[%c1] : memref<2xf32>
    }
    scf.if %c {
      %one = arith.constant 1.0 : f32
      memref.store %one, %acc[%c1] : memref<2xf32>
    }
    %v = vector.load %acc[%c0] : memref<2xf32>, vector<2xf32>
    vector.store %v, %out[%c0] : memref<2xf32>, vector<2xf32>
    gpu.return
  }
}

// -----

// A dynamic position keeps the alloca in memory, unchanged.
gpu.module @m {
  gpu.func @k(%i: index, %out: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    %acc = memref.alloca() : memref<4xf32>
    %v = memref.load %acc[%i] : memref<4xf32>
    memref.store %v, %out[%c0] : memref<1xf32>
    gpu.return
  }
}
