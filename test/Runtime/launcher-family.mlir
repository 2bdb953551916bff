// A small family compiled with typed launchers: the generated header
// (tile-translate --launcher) as a golden, and test/Runtime/launcher.cpp
// (built by test/CMakeLists.txt from this file) compiles it and runs its
// no-GPU path in CTest (and checks its results on a GPU).
// RUN: tile-translate --tile-to-ptx %s -o %t.ptx --launcher=%t-launcher --launcher-namespace=test_kernels --tuning-table=%S/launcher-family.tuning
// RUN: cat %t-launcher.h
// RUN: not tile-translate --tile-to-llvmir %s -o %t.ll --launcher=%t-bad

// c = a * factor + b over n elements, TILE per CTA: the kernel states its
// grid (ceil(n / TILE) CTAs), so each function also comes without `grid`.
tile.kernel @axpy(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>,
                  %factor: f32)
    params(TILE: index = 1024 in [512, 1024, 2048], THREADS: i32 = 128)
    configs([TILE = 1024], [TILE = 2048, THREADS = 256], [TILE = 512])
    threads(THREADS) {
  %bx = gpu.block_id x
  %tile = tile.param "TILE" : index
  %c0 = arith.constant 0 : index
  %n = memref.dim %c, %c0 : memref<?xf32>
  %ctas = arith.ceildivui %n, %tile : index
  tile.grid %ctas
  %base = arith.muli %bx, %tile : index
  %x = tile.alloc_fragment [%tile] : !tile.fragment<?xf32>
  %y = tile.alloc_fragment [%tile] : !tile.fragment<?xf32>
  tile.copy %a[%base] to %x[] : memref<?xf32>, !tile.fragment<?xf32>
  tile.copy %b[%base] to %y[] : memref<?xf32>, !tile.fragment<?xf32>
  tile.elementwise ins(%x, %y : !tile.fragment<?xf32>, !tile.fragment<?xf32>)
                   outs(%x : !tile.fragment<?xf32>) {
  ^bb0(%u: f32, %v: f32):
    %p = arith.mulf %u, %factor : f32
    %s = arith.addf %p, %v : f32
    tile.yield %s : f32
  }
  tile.copy %x[] to %c[%base] : !tile.fragment<?xf32>, memref<?xf32>
}

// A kernel that is not a family: a function of its own name, no table.
tile.kernel @fill(%c: memref<?xi32>, %value: i32, %count: index) threads(128) {
  %bx = gpu.block_id x
  %c512 = arith.constant 512 : index
  %base = arith.muli %bx, %c512 : index
  %x = tile.alloc_fragment : !tile.fragment<512xi32>
  tile.fill %x, %value : !tile.fragment<512xi32>, i32
  tile.copy %x[] to %c[%base] : !tile.fragment<512xi32>, memref<?xi32>
}

// A family over the element type: each configuration takes other argument
// types, so it gets one dispatcher overload per argument types.
!T = !tile.type_param<"T", f32>
tile.kernel @negate(%x: memref<?x!T>)
    params(T: type = f32 in [f32, bf16])
    configs([T = f32], [T = bf16])
    threads(128) {
  %bx = gpu.block_id x
  %c1024 = arith.constant 1024 : index
  %base = arith.muli %bx, %c1024 : index
  %v = tile.alloc_fragment : !tile.fragment<1024x!T>
  tile.copy %x[%base] to %v[] : memref<?x!T>, !tile.fragment<1024x!T>
  tile.elementwise ins(%v : !tile.fragment<1024x!T>) outs(%v : !tile.fragment<1024x!T>) {
  ^bb0(%u: !T):
    %n = arith.negf %u : !T
    tile.yield %n : !T
  }
  tile.copy %v[] to %x[%base] : !tile.fragment<1024x!T>, memref<?x!T>
}
