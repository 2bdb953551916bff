// Kernel families: what the verifiers and the parser refuse before
// specialisation, each naming the parameter.
// RUN: tile-opt %s --split-input-file --verify-diagnostics -o /dev/null

tile.kernel @k() params(BM: index = 128) threads(128) {
  // expected-error @+1 {{'tile.param' op reads parameter BN, which kernel @k does not declare; declare it in params(...)}}
  %bn = tile.param "BN" : index
}

// -----

tile.kernel @k() params(BM: index = 128) threads(128) {
  // expected-error @+1 {{'tile.param' op reads parameter BM of type 'index' as 'i32'; write `: 'index'`}}
  %bm = tile.param "BM" : i32
}

// -----

// expected-error @+1 {{parameter BM has a default it cannot take: 96 is not one of its values [64, 128]}}
tile.kernel @k() params(BM: index = 96 in [64, 128]) threads(128) {
}

// -----

// expected-error @+1 {{parameter BM lists a value it cannot take: 96 is not a multiple of 64}}
tile.kernel @k() params(BM: index = 128 in [96, 128] multiple_of 64) threads(128) {
}

// -----

// expected-error @+1 {{configuration sets BK, which is not a parameter of the kernel (declare it in params(...) first)}}
tile.kernel @k() params(BM: index = 128) configs([BK = 64]) threads(128) {
}

// -----

// expected-error @+1 {{'tile.kernel' op configuration 1 sets BM = 32, but 32 is not one of its values [64, 128]}}
tile.kernel @k() params(BM: index = 128 in [64, 128]) configs([BM = 64], [BM = 32]) threads(128) {
}

// -----

// expected-error @+1 {{'tile.kernel' op configuration 0 sets no value for BK, which has no default; set it in every configuration or give it a default}}
tile.kernel @k() params(BM: index = 128, BK: index) configs([BM = 64]) threads(128) {
}

// -----

// expected-error @+1 {{'tile.kernel' op declares parameter BM twice}}
tile.kernel @k() params(BM: index = 128, BM: index = 64) threads(128) {
}

// -----

// expected-error @+1 {{'tile.kernel' op takes threads(T) but declares no parameter T; declare it in params(...)}}
tile.kernel @k() params(BM: index = 128) threads(T) {
}

// -----

// expected-error @+1 {{value 300 of parameter F does not fit its type 'i8'}}
tile.kernel @k() params(F: i8 = 300) threads(128) {
}

// -----

// expected-error @+1 {{parameter F must be an integer (index, iN; i1 for a flag), got 'f32'}}
tile.kernel @k() params(F: f32) threads(128) {
}

// -----

tile.kernel @k(%a: memref<?xf32>) params(S: i32 = 3) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.pipelined_for' op takes stages(T) but the enclosing kernel declares no parameter T; declare it in params(...)}}
  tile.pipelined_for %k = %c0 to %c1 step %c1 stages(T) {
  }
}

// -----

tile.kernel @k() params(N: index = 128) threads(128) {
  %n = tile.param "N" : index
  // expected-error @+1 {{'tile.alloc_fragment' op expects one size per `?` dimension of '!tile.fragment<?x?xf32>' (2), got 1; in a kernel family write `[%size, ...]` with the parameters (tile.param) that size them}}
  %x = tile.alloc_fragment [%n] : !tile.fragment<?x?xf32>
}

// -----

tile.kernel @k() params(N: index = 128) threads(128) {
  %n = tile.param "N" : index
  // expected-error @+1 {{'tile.alloc_shared' op takes sizes only for `?` dimensions, and 'memref<128xf32, #gpu.address_space<workgroup>>' has none}}
  %x = tile.alloc_shared [%n] : memref<128xf32, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @k() params(N: index = 128) threads(128) {
  %n = tile.param "N" : index
  %x = tile.alloc_fragment [%n] : !tile.fragment<?xf32>
  %y = tile.alloc_shared : memref<64x4xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.copy' op expects equal shapes}}
  tile.copy %x[] to %y[] : !tile.fragment<?xf32>, memref<64x4xf32, #gpu.address_space<workgroup>>
}

// -----

// expected-error @+1 {{parameter name 'tile size' must be an identifier (letters, digits, '_', not starting with a digit)}}
tile.kernel @k() params("tile size": index = 128) threads(128) {
}

// -----

tile.kernel @k() params(T: type = f32) threads(128) {
  // expected-error @+1 {{'tile.param' op reads type parameter T as a value; write the type as !tile.type_param<"T", ...>}}
  %t = tile.param "T" : index
}

// -----

// expected-error @+1 {{parameter T has a default it cannot take: f16 is not one of its types [f32, bf16]}}
tile.kernel @k() params(T: type = f16 in [f32, bf16]) threads(128) {
}

// -----

// expected-error @+1 {{parameter T lists a type it cannot take: i32 is not a floating-point type}}
tile.kernel @k() params(T: type = f32 in [f32, i32]) threads(128) {
}

// -----

// expected-error @+1 {{'tile.kernel' op configuration 0 sets T = f64, but f64 is not one of its types [f32, bf16]}}
tile.kernel @k() params(T: type = f32 in [f32, bf16]) configs([T = f64]) threads(128) {
}

// -----

// expected-error @+1 {{'tile.kernel' op takes cluster(CN) but declares no parameter CN; declare it in params(...)}}
tile.kernel @k() params(CM: i32 = 2) threads(128) cluster(CM, CN, 1) {
}

// -----

// expected-error @+1 {{'tile.kernel' op takes threads(FLAG), but parameter FLAG is of type 'i1'; threads takes an integer (index or iN, not i1)}}
tile.kernel @k() params(FLAG: i1 = true) threads(FLAG) {
}

// -----

tile.kernel @k(%A: memref<?x?xbf16>) params(PP: i32 = 1) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.pipelined_for' op takes pingpong(PP), but parameter PP is of type 'i32'; pingpong takes a flag (i1)}}
  tile.pipelined_for %k = %c0 to %c1 step %c1 stages(2) warp_specialized pingpong(PP) {
    tile.copy %A[%c0, %k] to %s[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
  }
}
