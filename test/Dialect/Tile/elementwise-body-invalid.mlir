// A tile.elementwise body runs once per element in every thread: it holds
// only side-effect-free scalar code. Tile ops, copies, gemms, barriers and
// anything else with memory effects are refused where they stand.
// RUN: tile-opt %s --split-input-file --verify-diagnostics -o /dev/null

tile.kernel @copy_in_body(%g: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<512xf32, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.elementwise ins(%x : !tile.fragment<512xf32>) outs(%x : !tile.fragment<512xf32>) {
  ^bb0(%a: f32):
    // expected-error @+1 {{'tile.copy' op is in a 'tile.elementwise' body, which runs once per element in every thread and so holds only side-effect-free scalar code (arith, math, ...); move it before or after the 'tile.elementwise'}}
    tile.copy %g[%c0] to %s[] : memref<?xf32>, memref<512xf32, #gpu.address_space<workgroup>>
    tile.yield %a : f32
  }
}

// -----

tile.kernel @gemm_in_body() threads(128) {
  %a = tile.alloc_shared : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<16x16xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x16xf32>
  tile.elementwise ins(%acc : !tile.fragment<64x16xf32>) outs(%acc : !tile.fragment<64x16xf32>) {
  ^bb0(%v: f32):
    // expected-error @+1 {{'tile.gemm' op is in a 'tile.elementwise' body}}
    tile.gemm %a, %b, %acc : memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<16x16xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x16xf32>
    tile.yield %v : f32
  }
}

// -----

tile.kernel @mbarrier_in_body() threads(128) {
  %c0 = arith.constant 0 : index
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  %x = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.elementwise ins(%x : !tile.fragment<512xf32>) outs(%x : !tile.fragment<512xf32>) {
  ^bb0(%a: f32):
    // expected-error @+1 {{'tile.mbarrier.arrive' op is in a 'tile.elementwise' body}}
    tile.mbarrier.arrive %bar[%c0] : !tile.barrier<1>
    tile.yield %a : f32
  }
}

// -----

tile.kernel @fill_in_body() threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.elementwise ins(%x : !tile.fragment<512xf32>) outs(%x : !tile.fragment<512xf32>) {
  ^bb0(%a: f32):
    // expected-error @+1 {{'tile.fill' op is in a 'tile.elementwise' body}}
    tile.fill %x, %a : !tile.fragment<512xf32>, f32
    tile.yield %a : f32
  }
}

// -----

// Any op with memory effects, not only tile ops; nested ones too.
tile.kernel @store_in_body(%g: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.elementwise ins(%x : !tile.fragment<512xf32>) outs(%x : !tile.fragment<512xf32>) {
  ^bb0(%a: f32):
    %p = arith.constant true
    scf.if %p {
      // expected-error @+1 {{'memref.store' op is in a 'tile.elementwise' body}}
      memref.store %a, %g[%c0] : memref<?xf32>
    }
    tile.yield %a : f32
  }
}

// -----

// Side-effect-free scalar code, control flow included, is what a body holds.
tile.kernel @scalar_body() threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.elementwise ins(%x : !tile.fragment<512xf32>) outs(%x : !tile.fragment<512xf32>) {
  ^bb0(%a: f32):
    %zero = arith.constant 0.0 : f32
    %neg = arith.cmpf olt, %a, %zero : f32
    %r = scf.if %neg -> f32 {
      %e = math.exp %a : f32
      scf.yield %e : f32
    } else {
      scf.yield %a : f32
    }
    tile.yield %r : f32
  }
}
