// tile-specialize's errors: located, naming the parameter and the value.
// RUN: tile-opt %s --split-input-file --tile-specialize --verify-diagnostics -o /dev/null

// expected-error @+1 {{'tile.kernel' op has parameters without a value (the defaults): BM; give them defaults, list configurations, or pass them to tile-specialize as values=NAME=VALUE,...}}
tile.kernel @missing() params(BM: index) threads(128) {
  %bm = tile.param "BM" : index
}

// -----

tile.kernel @too_big(%a: memref<?x?xf32>) params(N: index = 8192) threads(128) {
  %c0 = arith.constant 0 : index
  %n = tile.param "N" : index
  // expected-error @+1 {{'tile.alloc_shared' op needs more shared memory than any chip has (232448 bytes per CTA at most) for 'memref<8192x8192xf32, #gpu.address_space<workgroup>>'; split the tile or keep it in global memory}}
  %s = tile.alloc_shared [%n, %n] : memref<?x?xf32, #gpu.address_space<workgroup>>
  tile.copy %a[%c0, %c0] to %s[] : memref<?x?xf32>, memref<?x?xf32, #gpu.address_space<workgroup>>
}
// expected-error @-7 {{'tile.kernel' op fails to specialise for configuration [N = 8192] (@too_big); the error above names what is wrong}}

// -----

tile.kernel @not_constant(%a: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  // expected-error @+1 {{'tile.alloc_fragment' op has a size that is not a compile-time constant after specialisation (dimension 0); size tiles with parameters and arithmetic on them only}}
  %x = tile.alloc_fragment [%n] : !tile.fragment<?xf32>
  tile.copy %a[%c0] to %x[] : memref<?xf32>, !tile.fragment<?xf32>
}

// -----

tile.kernel @zero(%a: memref<?xf32>) params(N: index = 0) threads(128) {
  %c0 = arith.constant 0 : index
  %n = tile.param "N" : index
  // expected-error @+1 {{'tile.alloc_fragment' op gets a size of 0 for its `?` dimension 0 in this configuration; sizes must be positive}}
  %x = tile.alloc_fragment [%n] : !tile.fragment<?xf32>
  tile.copy %a[%c0] to %x[] : memref<?xf32>, !tile.fragment<?xf32>
}
// expected-error @-7 {{'tile.kernel' op fails to specialise for configuration [N = 0] (@zero); the error above names what is wrong}}

// -----

// expected-error @+2 {{'tile.kernel' op expects threads in [1, 1024], got 2048}}
// expected-error @+1 {{'tile.kernel' op fails to specialise for configuration [T = 2048] (@big_threads)}}
tile.kernel @big_threads() params(T: i32 = 2048) threads(T) {
}

// -----

// A type parameter the kernel does not declare.
tile.kernel @undeclared(%a: memref<?xf32>) params(N: index = 128) threads(128) {
  %c0 = arith.constant 0 : index
  %n = tile.param "N" : index
  // expected-error @+1 {{'tile.alloc_fragment' op uses a type parameter that kernel @undeclared does not declare as `NAME: type` in params(...)}}
  %x = tile.alloc_fragment [%n] : !tile.fragment<?x!tile.type_param<"U", f32>>
}
// expected-error @-6 {{'tile.kernel' op fails to specialise for configuration [N = 128] (@undeclared); the error above names what is wrong}}

// -----

// A configuration whose fragment cannot be held in registers.
tile.kernel @huge(%a: memref<?xf32>) params(N: index = 1024 in [1024, 33554432])
    configs([N = 1024], [N = 33554432]) threads(128) {
  %c0 = arith.constant 0 : index
  %n = tile.param "N" : index
  // expected-error @+1 {{'tile.alloc_fragment' op fragment of more than 16777216 elements (2^24) cannot be held in registers, got 33554432; keep a tile that large in shared or global memory, or split it}}
  %x = tile.alloc_fragment [%n] : !tile.fragment<?xf32>
  tile.copy %a[%c0] to %x[] : memref<?xf32>, !tile.fragment<?xf32>
}
// expected-error @-8 {{'tile.kernel' op fails to specialise for configuration [N = 33554432] (@huge__N33554432); the error above names what is wrong}}

// -----

// A configuration whose cluster is too large is refused once set.
// expected-error @+1 {{expects at most 16 CTAs in a cluster, got 32}}
tile.kernel @k() params(CM: i32 = 2) configs([CM = 32]) threads(128) cluster(CM, 1, 1) {
}
// expected-error @-2 {{'tile.kernel' op fails to specialise for configuration [CM = 32] (@k__CM32); the error above names what is wrong}}

// -----

// A put's tile sized at run time, not by parameters: verified again after
// specialisation.
tile.kernel @put_runtime_size(%X: memref<?xf32> {tile.symmetric}) params(N: index = 4) threads(128) {
  %c0 = arith.constant 0 : index
  %n = tile.param "N" : index
  %d = memref.dim %X, %c0 : memref<?xf32>
  %me = tile.rank level world : i32
  %chunk = memref.subview %X[%n] [%d] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  // expected-error @+1 {{'tile.put' op expects the source to have a static shape (in a kernel family, size it with parameters)}}
  tile.put %chunk to %X[%c0] peer %me scope block level world : memref<?xf32, strided<[1], offset: ?>>, memref<?xf32>
}
// expected-error @-9 {{'tile.kernel' op fails to specialise for configuration}}
