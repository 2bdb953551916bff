// Every verifier rule of the tile dialect, one per split.
// RUN: tile-opt %s --split-input-file --verify-diagnostics -o /dev/null

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// expected-error @+1 {{fragment dimensions must be positive, got 0}}
func.func private @fragment_zero_dim(!tile.fragment<0x4xf32>)

// -----

// expected-error @+1 {{fragment must have at least one dimension}}
func.func private @fragment_no_dims(!tile.fragment<f32>)

// -----

// expected-error @+1 {{fragment element type must be a non-empty integer or float, got 'index'}}
func.func private @fragment_index(!tile.fragment<4xindex>)

// -----

// expected-error @+1 {{fragment element type must be a non-empty integer or float, got 'vector<4xf32>'}}
func.func private @fragment_vector(!tile.fragment<4xvector<4xf32>>)

// -----

// expected-error @+1 {{tensor memory tile dimensions must be positive, got 0}}
func.func private @tmem_zero_dim(!tile.tmem<128x0xf32>)

// -----

// expected-error @+1 {{tensor memory tile element type must be a non-empty integer or float, got 'index'}}
func.func private @tmem_index(!tile.tmem<128x4xindex>)

// -----

// expected-error @+1 {{tensor memory tile must be 2-D (lanes x columns), got 1 dimensions}}
func.func private @tmem_1d(!tile.tmem<128xf32>)

// -----

// expected-error @+1 {{tensor memory tile must be 2-D (lanes x columns), got 3 dimensions}}
func.func private @tmem_3d(!tile.tmem<128x4x4xf32>)

// -----

// expected-error @+1 {{tensor memory tile must span 64 or 128 lanes, got 32}}
func.func private @tmem_lanes(!tile.tmem<32x4xf32>)

// -----

// expected-error @+1 {{tensor memory element width must divide 32 bits, got 64}}
func.func private @tmem_f64(!tile.tmem<128x4xf64>)

// -----

// expected-error @+1 {{tensor memory element width must divide 32 bits, got 24}}
func.func private @tmem_i24(!tile.tmem<128x4xi24>)

// -----

// expected-error @+1 {{tensor memory tile needs 513 columns, more than the 512 a CTA has}}
func.func private @tmem_columns(!tile.tmem<128x513xf32>)

// -----

// Columns count 32-bit words: 1026 bf16 need 513.
// expected-error @+1 {{tensor memory tile needs 513 columns}}
func.func private @tmem_columns_bf16(!tile.tmem<64x1026xbf16>)

// -----

// expected-error @+1 {{barrier ring size must be in [1, 64], got 0}}
func.func private @barrier_empty(!tile.barrier<0>)

// -----

// expected-error @+1 {{barrier ring size must be in [1, 64], got 65}}
func.func private @barrier_big(!tile.barrier<65>)

//===----------------------------------------------------------------------===//
// tile.kernel, tile.yield
//===----------------------------------------------------------------------===//

// -----

// Kernel names become PTX entry names: letters, digits and '_'.
// expected-error @+1 {{'tile.kernel' op name "a b" is not a PTX entry name: use letters, digits and '_', not starting with a digit, e.g. @a_b}}
tile.kernel @"a b"() threads(32) {
}

// -----

// expected-error @+1 {{'tile.kernel' op name "1k" is not a PTX entry name: use letters, digits and '_', not starting with a digit, e.g. @_1k}}
tile.kernel @"1k"() threads(32) {
}

// -----

// expected-error @+1 {{'tile.kernel' op name "a.b" is not a PTX entry name: use letters, digits and '_', not starting with a digit, e.g. @a_b}}
tile.kernel @"a.b"() threads(32) {
}

// -----

// expected-error @+1 {{'tile.kernel' op name "k-x" is not a PTX entry name}}
tile.kernel @"k-x"() threads(32) {
}

// -----

// Types no NVIDIA GPU computes with, wherever they appear in a kernel.
tile.kernel @f128_fragment() threads(32) {
  // expected-error @+1 {{kernel value of type '!tile.fragment<32xf128>': 'f128' has no arithmetic on NVIDIA GPUs; use i1, i8, i16, i32 or i64 integers and f64, f32, tf32, f16, bf16, f8E4M3FN or f8E5M2 floats}}
  %f = tile.alloc_fragment : !tile.fragment<32xf128>
}

// -----

// expected-error @+1 {{kernel value of type 'f80': 'f80' has no arithmetic on NVIDIA GPUs}}
tile.kernel @f80_argument(%x: f80) threads(32) {
}

// -----

// expected-error @+1 {{kernel value of type 'memref<?xi128>': 'i128' has no arithmetic on NVIDIA GPUs}}
tile.kernel @i128_memref(%x: memref<?xi128>) threads(32) {
}

// -----

// A kernel's own memref is per-thread stack memory, not global memory.
tile.kernel @alloca_as_global(%y: memref<?xf32>) threads(32) {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{allocated here}}
  %a = memref.alloca() : memref<64xf32>
  %v = memref.subview %a[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  %f = tile.alloc_fragment : !tile.fragment<32xf32>
  // expected-error @+1 {{'tile.copy' op takes a memref allocated in the kernel (memref.alloca: per-thread stack memory) as global memory; use tile.alloc_fragment for a thread's tile or tile.alloc_shared for the CTA's}}
  tile.copy %v[%c0] to %f[] : memref<32xf32, strided<[1]>>, !tile.fragment<32xf32>
}

// -----

tile.kernel @f128_constant() threads(32) {
  // expected-error @+1 {{kernel value of type 'f128': 'f128' has no arithmetic on NVIDIA GPUs}}
  %c = arith.constant 1.0 : f128
}

// -----

// expected-error @+1 {{'tile.kernel' op expects threads in [1, 1024], got 0}}
tile.kernel @threads_zero() threads(0) {
}

// -----

// expected-error @+1 {{'tile.kernel' op expects threads in [1, 1024], got 1025}}
tile.kernel @threads_big() threads(1025) {
}

// -----

// expected-error @+1 {{'tile.kernel' op expects threads in [1, 1024], got}}
tile.kernel @threads_negative() threads(-32) {
}

// -----

// expected-error @+1 {{'tile.kernel' op expects a cluster shape of 3 dimensions, got 2}}
tile.kernel @cluster_rank() threads(128) cluster(2, 1) {
}

// -----

// expected-error @+1 {{'tile.kernel' op expects a cluster shape of 3 dimensions, got 4}}
tile.kernel @cluster_rank4() threads(128) cluster(2, 1, 1, 1) {
}

// -----

// expected-error @+1 {{'tile.kernel' op expects positive cluster dimensions, got 0}}
tile.kernel @cluster_zero() threads(128) cluster(2, 0, 1) {
}

// -----

// expected-error @+1 {{'tile.kernel' op expects positive cluster dimensions, got -2}}
tile.kernel @cluster_negative() threads(128) cluster(-2, -1, 1) {
}

// -----

// expected-error @+1 {{'tile.kernel' op expects at most 16 CTAs in a cluster, got 32}}
tile.kernel @cluster_big() threads(128) cluster(4, 4, 2) {
}

// -----

// expected-error @+1 {{'tile.kernel' op must not return values, got 1 results}}
tile.kernel @results() -> i32 threads(128) {
}

// -----

// expected-error @+1 {{'tile.kernel' op argument 1 must be a global-memory memref or a scalar, got 'memref<4xf32, #gpu.address_space<workgroup>>'}}
tile.kernel @shared_arg(%a: memref<4xf32>, %b: memref<4xf32, #gpu.address_space<workgroup>>) threads(128) {
}

// -----

// expected-error @+1 {{'tile.kernel' op argument 0 must be a global-memory memref or a scalar, got 'vector<4xf32>'}}
tile.kernel @vector_arg(%a: vector<4xf32>) threads(128) {
}

// -----

// expected-error @+1 {{'tile.kernel' op argument 0 must be a global-memory memref or a scalar, got '!tile.fragment<4xf32>'}}
tile.kernel @fragment_arg(%a: !tile.fragment<4xf32>) threads(128) {
}

// -----

// expected-error @+1 {{argument 0 must be a global-memory memref or a scalar, got 'memref<4xf32, 5>'}}
tile.kernel @other_space_arg(%a: memref<4xf32, 5>) threads(128) {
}

// -----

tile.kernel @tmem_budget() threads(128) {
  %a = tile.alloc_tmem : !tile.tmem<128x256xf32>
  %b = tile.alloc_tmem : !tile.tmem<128x200xf32>
  // 256 + 256 (rounded up) + 32 (the minimum) columns.
  // expected-error @+1 {{'tile.alloc_tmem' op exceeds the 512 tensor-memory columns of a CTA: the kernel's allocations need 544}}
  %c = tile.alloc_tmem : !tile.tmem<128x1xf32>
}

// -----

tile.kernel @yield_in_kernel() threads(128) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.yield' op yields values only in a 'tile.elementwise' body}}
  tile.yield %c0 : index
}

// -----

tile.kernel @yield_in_loop(%n: index) threads(128) {
  %c0 = arith.constant 0 : index
  tile.pipelined_for %k = %c0 to %n step %n stages(2) {
    // expected-error @+1 {{'tile.yield' op yields values only in a 'tile.elementwise' body}}
    tile.yield %k : index
  }
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

// -----

tile.kernel @shared_dynamic() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op expects a static shape of rank 1 or more, got 'memref<?x64xf32, #gpu.address_space<workgroup>>'}}
  %s = tile.alloc_shared : memref<?x64xf32, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @shared_layout() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op expects the identity layout}}
  %s = tile.alloc_shared : memref<4x4xf32, strided<[1, 4]>, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @shared_space() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op expects a memref in #gpu.address_space<workgroup> or #tile.shared<swizzle = N>, got 'memref<4xf32>'}}
  %s = tile.alloc_shared : memref<4xf32>
}

// -----

tile.kernel @shared_private() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op expects a memref in #gpu.address_space<workgroup>}}
  %s = tile.alloc_shared : memref<4xf32, #gpu.address_space<private>>
}

// -----

func.func @shared_outside() {
  // expected-error @+1 {{'tile.alloc_shared' op must be nested in a 'tile.kernel'}}
  %s = tile.alloc_shared : memref<4xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @fragment_outside() {
  // expected-error @+1 {{'tile.alloc_fragment' op must be nested in a 'tile.kernel'}}
  %f = tile.alloc_fragment : !tile.fragment<4xf32>
  return
}

// -----

func.func @tmem_outside() {
  // expected-error @+1 {{'tile.alloc_tmem' op must be nested in a 'tile.kernel'}}
  %t = tile.alloc_tmem : !tile.tmem<128x32xf32>
  return
}

// -----

func.func @barrier_outside() {
  // expected-error @+1 {{'tile.alloc_barrier' op must be nested in a 'tile.kernel'}}
  %b = tile.alloc_barrier arrivals(1) : !tile.barrier<2>
  return
}

// -----

func.func @dealloc_argument(%t: !tile.tmem<128x32xf32>) {
  // expected-error @+1 {{'tile.dealloc_tmem' op expects a value produced by 'tile.alloc_tmem'}}
  tile.dealloc_tmem %t : !tile.tmem<128x32xf32>
  return
}

// -----

tile.kernel @dealloc_cast() threads(128) {
  %t = builtin.unrealized_conversion_cast to !tile.tmem<128x32xf32>
  // expected-error @+1 {{'tile.dealloc_tmem' op expects a value produced by 'tile.alloc_tmem'}}
  tile.dealloc_tmem %t : !tile.tmem<128x32xf32>
}

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

// -----

tile.kernel @arrivals_zero() threads(128) {
  // expected-error @+1 {{'tile.alloc_barrier' op expects arrivals in [1, 1048575], got 0}}
  %b = tile.alloc_barrier arrivals(0) : !tile.barrier<2>
}

// -----

tile.kernel @arrivals_big() threads(128) {
  // expected-error @+1 {{'tile.alloc_barrier' op expects arrivals in [1, 1048575], got 1048576}}
  %b = tile.alloc_barrier arrivals(1048576) : !tile.barrier<2>
}

// -----

func.func @expect_tx_zero(%b: !tile.barrier<2>, %i: index) {
  // expected-error @+1 {{'tile.mbarrier.expect_tx' op expects bytes in [1, 1048575], got 0}}
  tile.mbarrier.expect_tx %b[%i], 0 : !tile.barrier<2>
  return
}

// -----

func.func @expect_tx_big(%b: !tile.barrier<2>, %i: index) {
  // expected-error @+1 {{'tile.mbarrier.expect_tx' op expects bytes in [1, 1048575], got 1048576}}
  tile.mbarrier.expect_tx %b[%i], 1048576 : !tile.barrier<2>
  return
}

// -----

func.func @expect_tx_index(%b: !tile.barrier<2>) {
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'tile.mbarrier.expect_tx' op barrier index 2 is outside the ring of 2}}
  tile.mbarrier.expect_tx %b[%c2], 128 : !tile.barrier<2>
  return
}

// -----

func.func @arrive_index(%b: !tile.barrier<3>) {
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{'tile.mbarrier.arrive' op barrier index 3 is outside the ring of 3}}
  tile.mbarrier.arrive %b[%c3] : !tile.barrier<3>
  return
}

// -----

func.func @arrive_negative_index(%b: !tile.barrier<3>) {
  %m1 = arith.constant -1 : index
  // expected-error @+1 {{'tile.mbarrier.arrive' op barrier index -1 is outside the ring of 3}}
  tile.mbarrier.arrive %b[%m1] leader : !tile.barrier<3>
  return
}

// -----

func.func @wait_index(%b: !tile.barrier<1>, %p: i1) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.mbarrier.wait' op barrier index 1 is outside the ring of 1}}
  tile.mbarrier.wait %b[%c1], %p : !tile.barrier<1>
  return
}

//===----------------------------------------------------------------------===//
// tile.copy
//===----------------------------------------------------------------------===//

// -----

func.func @copy_private(%g: memref<?xf32>, %p: memref<4xf32, #gpu.address_space<private>>, %i: index) {
  // expected-error @+1 {{'tile.copy' op expects memrefs in global or workgroup memory, fragments or tensor memory}}
  tile.copy %g[%i] to %p[] : memref<?xf32>, memref<4xf32, #gpu.address_space<private>>
  return
}

// -----

func.func @copy_numeric_space(%s: memref<4xf32, 5>, %f: !tile.fragment<4xf32>) {
  // expected-error @+1 {{'tile.copy' op expects memrefs in global or workgroup memory, fragments or tensor memory}}
  tile.copy %s[] to %f[] : memref<4xf32, 5>, !tile.fragment<4xf32>
  return
}

// -----

func.func @copy_global_global(%a: memref<?xf32>, %b: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'tile.copy' op cannot copy from global memory to global memory}}
  tile.copy %a[%i] to %b[%i] : memref<?xf32>, memref<4xf32>
  return
}

// -----

func.func @copy_fragment_fragment(%a: !tile.fragment<4xf32>, %b: !tile.fragment<4xf32>) {
  // expected-error @+1 {{'tile.copy' op cannot copy from fragment memory to fragment memory}}
  tile.copy %a[] to %b[] : !tile.fragment<4xf32>, !tile.fragment<4xf32>
  return
}

// -----

func.func @copy_shared_shared(%a: memref<4xf32, #gpu.address_space<workgroup>>, %b: memref<4xf32, 3>) {
  // expected-error @+1 {{'tile.copy' op cannot copy from shared memory to shared memory}}
  tile.copy %a[] to %b[] : memref<4xf32, #gpu.address_space<workgroup>>, memref<4xf32, 3>
  return
}

// -----

func.func @copy_tmem_global(%t: !tile.tmem<128x32xf32>, %g: memref<?x?xf32>, %i: index) {
  // expected-error @+1 {{'tile.copy' op cannot copy from tensor memory to global memory}}
  tile.copy %t[] to %g[%i, %i] : !tile.tmem<128x32xf32>, memref<?x?xf32>
  return
}

// -----

func.func @copy_global_tmem(%g: memref<?x?xf32>, %t: !tile.tmem<128x32xf32>, %i: index) {
  // expected-error @+1 {{'tile.copy' op cannot copy from global memory to tensor memory}}
  tile.copy %g[%i, %i] to %t[] : memref<?x?xf32>, !tile.tmem<128x32xf32>
  return
}

// -----

func.func @copy_tmem_shared(%t: !tile.tmem<128x32xf32>, %s: memref<128x32xf32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'tile.copy' op cannot copy from tensor memory to shared memory}}
  tile.copy %t[] to %s[] : !tile.tmem<128x32xf32>, memref<128x32xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @copy_tmem_tmem(%a: !tile.tmem<128x32xf32>, %b: !tile.tmem<128x32xf32>) {
  // expected-error @+1 {{'tile.copy' op cannot copy from tensor memory to tensor memory}}
  tile.copy %a[] to %b[] : !tile.tmem<128x32xf32>, !tile.tmem<128x32xf32>
  return
}

// -----

func.func @copy_element_type(%g: memref<?x?xf16>, %s: memref<4x4xf32, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error @+1 {{'tile.copy' op expects equal element types, got 'f16' and 'f32' (only a copy from a fragment to memory may change the type: it rounds f32 to bf16 or f16; convert with tile.elementwise otherwise)}}
  tile.copy %g[%i, %i] to %s[] : memref<?x?xf16>, memref<4x4xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// A fragment may round to a narrower float on the way out, not widen.
tile.kernel @copy_fragment_widens(%g: memref<?x?xf32>, %i: index) threads(128) {
  %f = tile.alloc_fragment : !tile.fragment<4x4xbf16>
  // expected-error @+1 {{'tile.copy' op expects equal element types, got 'bf16' and 'f32'}}
  tile.copy %f[] to %g[%i, %i] : !tile.fragment<4x4xbf16>, memref<?x?xf32>
}

// -----

// ... nor round to types other than bf16 and f16.
tile.kernel @copy_fragment_to_fp8(%g: memref<?x?xf8E4M3FN>, %i: index) threads(128) {
  %f = tile.alloc_fragment : !tile.fragment<4x4xf32>
  // expected-error @+1 {{'tile.copy' op expects equal element types, got 'f32' and 'f8E4M3FN'}}
  tile.copy %f[] to %g[%i, %i] : !tile.fragment<4x4xf32>, memref<?x?xf8E4M3FN>
}

// -----

// ... nor change integers.
tile.kernel @copy_fragment_integer(%g: memref<?x?xi8>, %i: index) threads(128) {
  %f = tile.alloc_fragment : !tile.fragment<4x4xi32>
  // expected-error @+1 {{'tile.copy' op expects equal element types, got 'i32' and 'i8'}}
  tile.copy %f[] to %g[%i, %i] : !tile.fragment<4x4xi32>, memref<?x?xi8>
}

// -----

func.func @copy_dynamic_tile(%g: memref<?x?xf32>, %s: memref<?x4xf32, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error @+1 {{'tile.copy' op expects the tile side to have a static shape of rank 1 or more, got 'memref<?x4xf32, #gpu.address_space<workgroup>>'}}
  tile.copy %g[%i, %i] to %s[] : memref<?x?xf32>, memref<?x4xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @copy_dynamic_tile_store(%s: memref<4x?xf32, #gpu.address_space<workgroup>>, %g: memref<?x?xf32>, %i: index) {
  // expected-error @+1 {{'tile.copy' op expects the tile side to have a static shape}}
  tile.copy %s[] to %g[%i, %i] : memref<4x?xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
  return
}

// -----

func.func @copy_rank(%g: memref<?xf32>, %f: !tile.fragment<4x4xf32>, %i: index) {
  // expected-error @+1 {{'tile.copy' op expects the global operand's rank (1) to equal the tile's rank (2); view the memref with the tile's rank first, e.g. `memref.expand_shape %m [[0, 1]] output_shape [%rows, 4]` for a 1-D memref of rows of 4, then copy to that view at [%row, 0]}}
  tile.copy %g[%i] to %f[] : memref<?xf32>, !tile.fragment<4x4xf32>
  return
}

// -----

// A memref of higher rank than the tile.
func.func @copy_rank_higher(%g: memref<?x?xf32>, %f: !tile.fragment<64xf32>, %i: index) {
  // expected-error @+1 {{'tile.copy' op expects the global operand's rank (2) to equal the tile's rank (1); give the tile the memref's rank (a 1x64 tile for one row of a 2-D memref), or collapse the memref with memref.collapse_shape}}
  tile.copy %g[%i, %i] to %f[] : memref<?x?xf32>, !tile.fragment<64xf32>
  return
}

// -----

func.func @copy_offset_count(%g: memref<?x?xf32>, %f: !tile.fragment<4x4xf32>, %i: index) {
  // expected-error @+1 {{'tile.copy' op expects 2 global offsets (one per dimension), got 1}}
  tile.copy %g[%i] to %f[] : memref<?x?xf32>, !tile.fragment<4x4xf32>
  return
}

// -----

func.func @copy_offset_count_store(%f: !tile.fragment<4x4xf32>, %g: memref<?x?xf32>, %i: index) {
  // expected-error @+1 {{'tile.copy' op expects 2 global offsets (one per dimension), got 3}}
  tile.copy %f[] to %g[%i, %i, %i] : !tile.fragment<4x4xf32>, memref<?x?xf32>
  return
}

// -----

func.func @copy_tile_offsets(%g: memref<?x?xf32>, %f: !tile.fragment<4x4xf32>, %i: index) {
  // expected-error @+1 {{'tile.copy' op expects no offsets on the tile side}}
  tile.copy %g[%i, %i] to %f[%i, %i] : memref<?x?xf32>, !tile.fragment<4x4xf32>
  return
}

// -----

func.func @copy_tile_offsets_store(%s: memref<4x4xf32, #gpu.address_space<workgroup>>, %g: memref<?x?xf32>, %i: index) {
  // expected-error @+1 {{'tile.copy' op expects no offsets on the tile side}}
  tile.copy %s[%i, %i] to %g[%i, %i] : memref<4x4xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
  return
}

// -----

func.func @copy_on_chip_offsets(%s: memref<4x4xf32, #gpu.address_space<workgroup>>, %f: !tile.fragment<4x4xf32>, %i: index) {
  // expected-error @+1 {{'tile.copy' op expects no offsets when neither side is global memory}}
  tile.copy %s[%i, %i] to %f[] : memref<4x4xf32, #gpu.address_space<workgroup>>, !tile.fragment<4x4xf32>
  return
}

// -----

func.func @copy_on_chip_shape(%s: memref<4x8xf32, #gpu.address_space<workgroup>>, %f: !tile.fragment<8x4xf32>) {
  // expected-error @+1 {{'tile.copy' op expects equal shapes, got 'memref<4x8xf32, #gpu.address_space<workgroup>>' and '!tile.fragment<8x4xf32>'}}
  tile.copy %s[] to %f[] : memref<4x8xf32, #gpu.address_space<workgroup>>, !tile.fragment<8x4xf32>
  return
}

// -----

func.func @copy_on_chip_rank(%t: !tile.tmem<128x32xf32>, %f: !tile.fragment<4096xf32>) {
  // expected-error @+1 {{'tile.copy' op expects equal shapes}}
  tile.copy %t[] to %f[] : !tile.tmem<128x32xf32>, !tile.fragment<4096xf32>
  return
}

// -----

func.func @copy_on_chip_dynamic_dest(%f: !tile.fragment<4xf32>, %s: memref<?xf32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'tile.copy' op expects equal shapes}}
  tile.copy %f[] to %s[] : !tile.fragment<4xf32>, memref<?xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @copy_barrier_fragment(%g: memref<?xf32>, %f: !tile.fragment<4xf32>, %b: !tile.barrier<2>, %i: index) {
  // expected-error @+1 {{'tile.copy' op takes a barrier only for global to shared copies}}
  tile.copy %g[%i] to %f[] barrier %b[%i] : memref<?xf32>, !tile.fragment<4xf32>, !tile.barrier<2>
  return
}

// -----

func.func @copy_barrier_store(%s: memref<4xf32, #gpu.address_space<workgroup>>, %g: memref<?xf32>, %b: !tile.barrier<2>, %i: index) {
  // expected-error @+1 {{'tile.copy' op takes a barrier only for global to shared copies}}
  tile.copy %s[] to %g[%i] barrier %b[%i] : memref<4xf32, #gpu.address_space<workgroup>>, memref<?xf32>, !tile.barrier<2>
  return
}

// -----

func.func @copy_barrier_index(%g: memref<?xf32>, %s: memref<4xf32, #gpu.address_space<workgroup>>, %b: !tile.barrier<2>, %i: index) {
  %c5 = arith.constant 5 : index
  // expected-error @+1 {{'tile.copy' op barrier index 5 is outside the ring of 2}}
  tile.copy %g[%i] to %s[] barrier %b[%c5] : memref<?xf32>, memref<4xf32, #gpu.address_space<workgroup>>, !tile.barrier<2>
  return
}

// -----

// The custom syntax ties the index to the barrier; the generic form can omit it.
func.func @copy_barrier_no_index(%g: memref<?xf32>, %s: memref<4xf32, #gpu.address_space<workgroup>>, %b: !tile.barrier<2>, %i: index) {
  // expected-error @+1 {{'tile.copy' op expects an index into the barrier ring}}
  "tile.copy"(%g, %i, %s, %b) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>}> : (memref<?xf32>, index, memref<4xf32, #gpu.address_space<workgroup>>, !tile.barrier<2>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// tile.gemm
//===----------------------------------------------------------------------===//

// -----

func.func @gemm_a_global(%a: memref<16x16xf16>, %b: memref<16x16xf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<16x16xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects A in shared memory, a fragment or tensor memory, got global memory}}
  tile.gemm %a, %b, %c : memref<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>, !tile.fragment<16x16xf32>
  return
}

// -----

func.func @gemm_a_private(%a: memref<16x16xf16, #gpu.address_space<private>>, %b: memref<16x16xf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<16x16xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects A in shared memory, a fragment or tensor memory, got unsupported memory}}
  tile.gemm %a, %b, %c : memref<16x16xf16, #gpu.address_space<private>>, memref<16x16xf16, #gpu.address_space<workgroup>>, !tile.fragment<16x16xf32>
  return
}

// -----

func.func @gemm_b_global(%a: !tile.fragment<16x16xf16>, %b: memref<16x16xf16>, %c: !tile.fragment<16x16xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects B in shared memory, got global memory}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xf16>, memref<16x16xf16>, !tile.fragment<16x16xf32>
  return
}

// -----

func.func @gemm_b_fragment(%a: !tile.fragment<16x16xf16>, %b: !tile.fragment<16x16xf16>, %c: !tile.fragment<16x16xf32>) {
  // B is a memref by its operand type.
  // expected-error @+1 {{invalid kind of type specified: expected builtin.memref}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xf16>, !tile.fragment<16x16xf16>, !tile.fragment<16x16xf32>
  return
}

// -----

func.func @gemm_c_shared(%a: !tile.fragment<16x16xf16>, %b: memref<16x16xf16, #gpu.address_space<workgroup>>, %c: memref<16x16xf32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'tile.gemm' op expects C in a fragment or tensor memory, got shared memory}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @gemm_c_global(%a: !tile.fragment<16x16xf16>, %b: memref<16x16xf16, #gpu.address_space<workgroup>>, %c: memref<16x16xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects C in a fragment or tensor memory, got global memory}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32>
  return
}

// -----

func.func @gemm_a_tmem_c_fragment(%a: !tile.tmem<128x64xbf16>, %b: memref<64x128xbf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<128x128xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects C in tensor memory when A is}}
  tile.gemm %a, %b, %c : !tile.tmem<128x64xbf16>, memref<64x128xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x128xf32>
  return
}

// -----

func.func @gemm_a_1d(%a: !tile.fragment<16xf16>, %b: memref<16x16xf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<16x16xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects A to be a static 2-D tile, got '!tile.fragment<16xf16>'}}
  tile.gemm %a, %b, %c : !tile.fragment<16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>, !tile.fragment<16x16xf32>
  return
}

// -----

func.func @gemm_b_3d(%a: !tile.fragment<16x16xf16>, %b: memref<1x16x16xf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<16x16xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects B to be a static 2-D tile, got 'memref<1x16x16xf16, #gpu.address_space<workgroup>>'}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xf16>, memref<1x16x16xf16, #gpu.address_space<workgroup>>, !tile.fragment<16x16xf32>
  return
}

// -----

func.func @gemm_b_dynamic(%a: !tile.fragment<16x16xf16>, %b: memref<16x?xf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<16x16xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects B to be a static 2-D tile, got 'memref<16x?xf16, #gpu.address_space<workgroup>>'}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xf16>, memref<16x?xf16, #gpu.address_space<workgroup>>, !tile.fragment<16x16xf32>
  return
}

// -----

func.func @gemm_c_1d(%a: !tile.fragment<16x16xf16>, %b: memref<16x16xf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<256xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects C to be a static 2-D tile, got '!tile.fragment<256xf32>'}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>, !tile.fragment<256xf32>
  return
}

// -----

func.func @gemm_ab_types(%a: !tile.fragment<16x16xf16>, %b: memref<16x16xbf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<16x16xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects A and B of one element type, got 'f16' and 'bf16'}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xf16>, memref<16x16xbf16, #gpu.address_space<workgroup>>, !tile.fragment<16x16xf32>
  return
}

// -----

func.func @gemm_bf16_to_bf16(%a: !tile.fragment<16x16xbf16>, %b: memref<16x16xbf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<16x16xbf16>) {
  // expected-error @+1 {{'tile.gemm' op has no tensor-core form for 'bf16' inputs with a 'bf16' accumulator}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xbf16>, memref<16x16xbf16, #gpu.address_space<workgroup>>, !tile.fragment<16x16xbf16>
  return
}

// -----

func.func @gemm_f16_to_i32(%a: !tile.fragment<16x16xf16>, %b: memref<16x16xf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<16x16xi32>) {
  // expected-error @+1 {{'tile.gemm' op has no tensor-core form for 'f16' inputs with a 'i32' accumulator}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>, !tile.fragment<16x16xi32>
  return
}

// -----

func.func @gemm_f32_to_f16(%a: !tile.fragment<16x16xf32>, %b: memref<16x16xf32, #gpu.address_space<workgroup>>, %c: !tile.fragment<16x16xf16>) {
  // expected-error @+1 {{'tile.gemm' op has no tensor-core form for 'f32' inputs with a 'f16' accumulator}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xf32>, memref<16x16xf32, #gpu.address_space<workgroup>>, !tile.fragment<16x16xf16>
  return
}

// -----

func.func @gemm_i8_to_f32(%a: !tile.fragment<16x16xi8>, %b: memref<16x16xi8, #gpu.address_space<workgroup>>, %c: !tile.fragment<16x16xf32>) {
  // expected-error @+1 {{'tile.gemm' op has no tensor-core form for 'i8' inputs with a 'f32' accumulator}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xi8>, memref<16x16xi8, #gpu.address_space<workgroup>>, !tile.fragment<16x16xf32>
  return
}

// -----

func.func @gemm_f8_to_f16(%a: !tile.fragment<16x16xf8E4M3FN>, %b: memref<16x16xf8E4M3FN, #gpu.address_space<workgroup>>, %c: !tile.fragment<16x16xf16>) {
  // expected-error @+1 {{'tile.gemm' op has no tensor-core form for 'f8E4M3FN' inputs with a 'f16' accumulator}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xf8E4M3FN>, memref<16x16xf8E4M3FN, #gpu.address_space<workgroup>>, !tile.fragment<16x16xf16>
  return
}

// -----

func.func @gemm_f64(%a: !tile.fragment<16x16xf64>, %b: memref<16x16xf64, #gpu.address_space<workgroup>>, %c: !tile.fragment<16x16xf64>) {
  // expected-error @+1 {{'tile.gemm' op has no tensor-core form for 'f64' inputs with a 'f64' accumulator}}
  tile.gemm %a, %b, %c : !tile.fragment<16x16xf64>, memref<16x16xf64, #gpu.address_space<workgroup>>, !tile.fragment<16x16xf64>
  return
}

// -----

func.func @gemm_k(%a: !tile.fragment<128x64xbf16>, %b: memref<32x128xbf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<128x128xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects A's K (64) to equal B's K (32)}}
  tile.gemm %a, %b, %c : !tile.fragment<128x64xbf16>, memref<32x128xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x128xf32>
  return
}

// -----

// Without the transpose this product would be well-formed.
func.func @gemm_k_transpose_a(%a: memref<128x64xbf16, #gpu.address_space<workgroup>>, %b: memref<64x128xbf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<128x128xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects A's K (128) to equal B's K (64)}}
  tile.gemm %a, %b, %c {transpose_a} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x128xf32>
  return
}

// -----

func.func @gemm_k_transpose_b(%a: memref<128x64xbf16, #gpu.address_space<workgroup>>, %b: memref<64x128xbf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<128x128xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects A's K (64) to equal B's K (128)}}
  tile.gemm %a, %b, %c {transpose_b} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x128xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x128xf32>
  return
}

// -----

func.func @gemm_k_transpose_both(%a: memref<64x128xbf16, #gpu.address_space<workgroup>>, %b: memref<64x32xbf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<128x64xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects A's K (64) to equal B's K (32)}}
  tile.gemm %a, %b, %c {transpose_a, transpose_b} : memref<64x128xbf16, #gpu.address_space<workgroup>>, memref<64x32xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32>
  return
}

// -----

func.func @gemm_c_shape(%a: !tile.fragment<128x64xbf16>, %b: memref<64x256xbf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<128x128xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects C to be 128x256 (M x N), got 128x128}}
  tile.gemm %a, %b, %c : !tile.fragment<128x64xbf16>, memref<64x256xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x128xf32>
  return
}

// -----

func.func @gemm_c_shape_transposed(%a: memref<64x128xbf16, #gpu.address_space<workgroup>>, %b: memref<256x64xbf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<64x64xf32>) {
  // expected-error @+1 {{'tile.gemm' op expects C to be 128x256 (M x N), got 64x64}}
  tile.gemm %a, %b, %c {transpose_a, transpose_b} : memref<64x128xbf16, #gpu.address_space<workgroup>>, memref<256x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  return
}

// -----

func.func @gemm_barrier_index(%a: !tile.tmem<128x64xbf16>, %b: memref<64x128xbf16, #gpu.address_space<workgroup>>, %c: !tile.tmem<128x128xf32>, %bar: !tile.barrier<1>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.gemm' op barrier index 1 is outside the ring of 1}}
  tile.gemm %a, %b, %c barrier %bar[%c1] : !tile.tmem<128x64xbf16>, memref<64x128xbf16, #gpu.address_space<workgroup>>, !tile.tmem<128x128xf32>, !tile.barrier<1>
  return
}

// -----

// The custom syntax ties the index to the barrier; the generic form can omit it.
func.func @gemm_barrier_no_index(%a: !tile.tmem<128x64xbf16>, %b: memref<64x128xbf16, #gpu.address_space<workgroup>>, %c: !tile.tmem<128x128xf32>, %bar: !tile.barrier<1>) {
  // expected-error @+1 {{'tile.gemm' op expects an index into the barrier ring}}
  "tile.gemm"(%a, %b, %c, %bar) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> : (!tile.tmem<128x64xbf16>, memref<64x128xbf16, #gpu.address_space<workgroup>>, !tile.tmem<128x128xf32>, !tile.barrier<1>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// tile.fill
//===----------------------------------------------------------------------===//

// -----

func.func @fill_global(%g: memref<4xf32>, %v: f32) {
  // expected-error @+1 {{'tile.fill' op fills a fragment or a shared-memory tile, got global memory}}
  tile.fill %g, %v : memref<4xf32>, f32
  return
}

// -----

func.func @fill_tmem(%t: !tile.tmem<128x32xf32>, %v: f32) {
  // expected-error @+1 {{'tile.fill' op fills a fragment or a shared-memory tile, got tensor memory}}
  tile.fill %t, %v : !tile.tmem<128x32xf32>, f32
  return
}

// -----

func.func @fill_value_type(%f: !tile.fragment<4xf32>, %v: f16) {
  // expected-error @+1 {{'tile.fill' op expects a value of the element type 'f32', got 'f16'}}
  tile.fill %f, %v : !tile.fragment<4xf32>, f16
  return
}

// -----

func.func @fill_value_vector(%s: memref<4xf32, #gpu.address_space<workgroup>>, %v: vector<4xf32>) {
  // expected-error @+1 {{'tile.fill' op expects a value of the element type 'f32', got 'vector<4xf32>'}}
  tile.fill %s, %v : memref<4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  return
}

//===----------------------------------------------------------------------===//
// tile.elementwise
//===----------------------------------------------------------------------===//

// -----

// The custom syntax always has an outs list; the generic form can leave it
// empty.
func.func @elementwise_no_outputs(%x: !tile.fragment<4xf32>) {
  // expected-error @+1 {{'tile.elementwise' op expects at least one output}}
  "tile.elementwise"(%x) <{operandSegmentSizes = array<i32: 1, 0>}> ({
  ^bb0(%a: f32):
    "tile.yield"() : () -> ()
  }) : (!tile.fragment<4xf32>) -> ()
  return
}

// -----

func.func @elementwise_global(%x: memref<4xf32>, %y: !tile.fragment<4xf32>) {
  // expected-error @+1 {{'tile.elementwise' op works on fragments and shared-memory tiles, got global memory}}
  tile.elementwise ins(%x : memref<4xf32>) outs(%y : !tile.fragment<4xf32>) {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @elementwise_tmem_output(%x: !tile.fragment<128x32xf32>, %t: !tile.tmem<128x32xf32>) {
  // expected-error @+1 {{'tile.elementwise' op works on fragments and shared-memory tiles, got tensor memory}}
  tile.elementwise ins(%x : !tile.fragment<128x32xf32>) outs(%t : !tile.tmem<128x32xf32>) {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @elementwise_shape(%x: !tile.fragment<8xf32>, %y: !tile.fragment<4xf32>) {
  // expected-error @+1 {{'tile.elementwise' op expects each input to have the outputs' shape, or 1 where it is broadcast, got '!tile.fragment<8xf32>' for outputs of '!tile.fragment<4xf32>'}}
  tile.elementwise ins(%x : !tile.fragment<8xf32>) outs(%y : !tile.fragment<4xf32>) {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  return
}

// -----

// A row sum written element-wise: the error points to tile.reduce.
func.func @elementwise_row_sum(%x: !tile.fragment<4x128xf32>, %y: !tile.fragment<4x1xf32>) {
  // expected-error @+1 {{'tile.elementwise' op expects each input to have the outputs' shape, or 1 where it is broadcast, got '!tile.fragment<4x128xf32>' for outputs of '!tile.fragment<4x1xf32>'; to combine the 128 elements along dim 1 into one, write `tile.reduce sum %in into %out dim 1` (or max, min)}}
  tile.elementwise ins(%x : !tile.fragment<4x128xf32>) outs(%y : !tile.fragment<4x1xf32>) {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  return
}

// -----

// A 1-D bias row over a 2-D tile: the error says how to hold it as 1xN.
func.func @elementwise_bias_rank(%x: !tile.fragment<4x128xf32>, %b: !tile.fragment<128xbf16>) {
  // expected-error @+1 {{'tile.elementwise' op expects every tile to have the outputs' rank (2) and a static shape, got '!tile.fragment<128xbf16>'; a row broadcast over the tile is a 1x128 tile: load it into !tile.fragment<1x128xbf16> from a 1-row view of the memref (`memref.expand_shape %v [[0, 1]] output_shape [1, %n]`)}}
  tile.elementwise ins(%x, %b : !tile.fragment<4x128xf32>, !tile.fragment<128xbf16>) outs(%x : !tile.fragment<4x128xf32>) {
  ^bb0(%a: f32, %c: bf16):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @elementwise_output_shapes(%y: !tile.fragment<4xf32>, %z: memref<2x2xf32, #gpu.address_space<workgroup>>) {
  %c = arith.constant 1.0 : f32
  // expected-error @+1 {{'tile.elementwise' op expects every tile to have the outputs' rank (1) and a static shape, got 'memref<2x2xf32, #gpu.address_space<workgroup>>'}}
  tile.elementwise outs(%y, %z : !tile.fragment<4xf32>, memref<2x2xf32, #gpu.address_space<workgroup>>) {
    tile.yield %c, %c : f32, f32
  }
  return
}

// -----

func.func @elementwise_dynamic(%x: memref<?xf32, #gpu.address_space<workgroup>>, %y: !tile.fragment<4xf32>) {
  // expected-error @+1 {{'tile.elementwise' op expects every tile to have the outputs' rank (1) and a static shape, got 'memref<?xf32, #gpu.address_space<workgroup>>'}}
  tile.elementwise ins(%x : memref<?xf32, #gpu.address_space<workgroup>>) outs(%y : !tile.fragment<4xf32>) {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @elementwise_arg_count(%x: !tile.fragment<4xf32>, %y: !tile.fragment<4xf32>) {
  // expected-error @+1 {{'tile.elementwise' op expects one body argument per input (2), then optionally one index per dimension (1), got 1}}
  tile.elementwise ins(%x, %y : !tile.fragment<4xf32>, !tile.fragment<4xf32>) outs(%y : !tile.fragment<4xf32>) {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @elementwise_arg_type(%x: !tile.fragment<4xf32>, %y: !tile.fragment<4xi32>) {
  // expected-error @+1 {{'tile.elementwise' op expects body argument 1 of type 'i32', got 'f32'}}
  tile.elementwise ins(%x, %y : !tile.fragment<4xf32>, !tile.fragment<4xi32>) outs(%x : !tile.fragment<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @elementwise_yield_count(%x: !tile.fragment<4xf32>, %y: !tile.fragment<4xf32>) {
  // expected-error @+1 {{'tile.elementwise' op expects the body to yield one value per output (2), got 1}}
  tile.elementwise ins(%x : !tile.fragment<4xf32>) outs(%x, %y : !tile.fragment<4xf32>, !tile.fragment<4xf32>) {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @elementwise_implicit_yield(%x: !tile.fragment<4xf32>) {
  // expected-error @+1 {{'tile.elementwise' op expects the body to yield one value per output (1), got 0}}
  tile.elementwise ins(%x : !tile.fragment<4xf32>) outs(%x : !tile.fragment<4xf32>) {
  ^bb0(%a: f32):
  }
  return
}

// -----

func.func @elementwise_yield_type(%x: !tile.fragment<4xf32>, %y: !tile.fragment<4xf16>) {
  // expected-error @+1 {{'tile.elementwise' op expects yielded value 1 of type 'f16', got 'f32'}}
  tile.elementwise ins(%x : !tile.fragment<4xf32>) outs(%x, %y : !tile.fragment<4xf32>, !tile.fragment<4xf16>) {
  ^bb0(%a: f32):
    tile.yield %a, %a : f32, f32
  }
  return
}

//===----------------------------------------------------------------------===//
// tile.pipelined_for
//===----------------------------------------------------------------------===//

// -----

tile.kernel @stages_zero(%n: index) threads(128) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.pipelined_for' op expects stages in [1, 16], got 0}}
  tile.pipelined_for %k = %c0 to %n step %n stages(0) {
  }
}

// -----

tile.kernel @stages_big(%n: index) threads(128) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.pipelined_for' op expects stages in [1, 16], got 17}}
  tile.pipelined_for %k = %c0 to %n step %n stages(17) {
  }
}

// -----

func.func @loop_outside(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.pipelined_for' op must be nested in a 'tile.kernel'}}
  tile.pipelined_for %k = %c0 to %n step %n stages(2) {
  }
  return
}

// -----

// The custom syntax always declares an index induction variable; the generic
// form can get it wrong.
tile.kernel @loop_iv_type(%n: index) threads(128) {
  // expected-error @+1 {{'tile.pipelined_for' op expects one index induction variable}}
  "tile.pipelined_for"(%n, %n, %n) <{stages = 2 : i32}> ({
  ^bb0(%k: i32):
    "tile.yield"() : () -> ()
  }) : (index, index, index) -> ()
}

// -----

tile.kernel @loop_no_iv(%n: index) threads(128) {
  // expected-error @+1 {{'tile.pipelined_for' op expects one index induction variable}}
  "tile.pipelined_for"(%n, %n, %n) <{stages = 2 : i32}> ({
    "tile.yield"() : () -> ()
  }) : (index, index, index) -> ()
}

//===----------------------------------------------------------------------===//
// tile.put, tile.get, tile.signal, tile.wait
//===----------------------------------------------------------------------===//

// -----

func.func @put_source_private(%s: memref<4xf32, #gpu.address_space<private>>, %d: memref<?xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.put' op expects the source in global or shared memory, got unsupported memory}}
  tile.put %s to %d[%i] peer %p scope block level world : memref<4xf32, #gpu.address_space<private>>, memref<?xf32>
  return
}

// -----

func.func @put_source_dynamic(%s: memref<?xf32>, %d: memref<?xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.put' op expects the source to have a static shape}}
  tile.put %s to %d[%i] peer %p scope block level world : memref<?xf32>, memref<?xf32>
  return
}

// -----

func.func @put_world_shared_dest(%s: memref<4xf32>, %d: memref<16xf32, #gpu.address_space<workgroup>>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.put' op expects the destination in global memory at level 'world', got shared memory}}
  tile.put %s to %d[%i] peer %p scope block level world : memref<4xf32>, memref<16xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @put_cluster_global_dest(%s: memref<4xf32>, %d: memref<?xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.put' op expects the destination in shared memory at level 'cluster', got global memory}}
  tile.put %s to %d[%i] peer %p scope block level cluster : memref<4xf32>, memref<?xf32>
  return
}

// -----

func.func @put_element_type(%s: memref<4xf32>, %d: memref<?xf16>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.put' op expects equal element types, got 'f32' and 'f16'}}
  tile.put %s to %d[%i] peer %p scope block level world : memref<4xf32>, memref<?xf16>
  return
}

// -----

func.func @put_rank(%s: memref<4x4xf32>, %d: memref<?xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.put' op expects the remote buffer's rank (1) to equal the tile's rank (2)}}
  tile.put %s to %d[%i] peer %p scope block level world : memref<4x4xf32>, memref<?xf32>
  return
}

// -----

func.func @put_offsets(%s: memref<4x4xf32>, %d: memref<?x?xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.put' op expects 2 remote offsets (one per dimension), got 1}}
  tile.put %s to %d[%i] peer %p scope block level world : memref<4x4xf32>, memref<?x?xf32>
  return
}

// -----

func.func @put_signal_type(%s: memref<4xf32>, %d: memref<?xf32>, %f: memref<?xi32>, %i: index, %p: i32, %v: i64) {
  // expected-error @+1 {{'tile.put' op expects signal words in a 1-D memref of i64, got 'memref<?xi32>'}}
  tile.put %s to %d[%i] peer %p scope block level world signal %f[%i] set %v : memref<4xf32>, memref<?xf32>, memref<?xi32>
  return
}

// -----

func.func @put_signal_rank(%s: memref<4xf32>, %d: memref<?xf32>, %f: memref<2x2xi64>, %i: index, %p: i32, %v: i64) {
  // expected-error @+1 {{'tile.put' op expects signal words in a 1-D memref of i64, got 'memref<2x2xi64>'}}
  tile.put %s to %d[%i] peer %p scope block level world signal %f[%i] add %v : memref<4xf32>, memref<?xf32>, memref<2x2xi64>
  return
}

// -----

func.func @put_signal_space(%s: memref<4xf32>, %d: memref<?xf32>, %f: memref<4xi64, #gpu.address_space<workgroup>>, %i: index, %p: i32, %v: i64) {
  // expected-error @+1 {{'tile.put' op expects the signal in global memory at level 'world', got shared memory}}
  tile.put %s to %d[%i] peer %p scope block level world signal %f[%i] set %v : memref<4xf32>, memref<?xf32>, memref<4xi64, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @put_cluster_signal_space(%s: memref<4xf32>, %d: memref<16xf32, #gpu.address_space<workgroup>>, %f: memref<?xi64>, %i: index, %p: i32, %v: i64) {
  // expected-error @+1 {{'tile.put' op expects the signal in shared memory at level 'cluster', got global memory}}
  tile.put %s to %d[%i] peer %p scope block level cluster signal %f[%i] set %v : memref<4xf32>, memref<16xf32, #gpu.address_space<workgroup>>, memref<?xi64>
  return
}

// -----

// The custom syntax gives the signal operands together; the generic form can
// give some of them.
func.func @put_partial_signal(%s: memref<4xf32>, %d: memref<?xf32>, %f: memref<?xi64>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.put' op expects a signal buffer, index, kind and value together}}
  "tile.put"(%s, %d, %i, %p, %f, %i) <{level = #tile<level world>, scope = #tile<scope block>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 0>}> : (memref<4xf32>, memref<?xf32>, index, i32, memref<?xi64>, index) -> ()
  return
}

// -----

func.func @put_signal_kind_only(%s: memref<4xf32>, %d: memref<?xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.put' op expects a signal buffer, index, kind and value together}}
  "tile.put"(%s, %d, %i, %p) <{level = #tile<level world>, scope = #tile<scope block>, signalKind = #tile<signal_kind add>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0>}> : (memref<4xf32>, memref<?xf32>, index, i32) -> ()
  return
}

// -----

func.func @put_signal_no_kind(%s: memref<4xf32>, %d: memref<?xf32>, %f: memref<?xi64>, %i: index, %p: i32, %v: i64) {
  // expected-error @+1 {{'tile.put' op expects a signal buffer, index, kind and value together}}
  "tile.put"(%s, %d, %i, %p, %f, %i, %v) <{level = #tile<level world>, scope = #tile<scope block>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>}> : (memref<4xf32>, memref<?xf32>, index, i32, memref<?xi64>, index, i64) -> ()
  return
}

// -----

func.func @get_dest_private(%s: memref<?xf32>, %d: memref<4xf32, #gpu.address_space<private>>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.get' op expects the destination in global or shared memory, got unsupported memory}}
  tile.get %s[%i] peer %p scope block level world to %d : memref<?xf32>, memref<4xf32, #gpu.address_space<private>>
  return
}

// -----

func.func @get_dest_dynamic(%s: memref<?xf32>, %d: memref<?xf32, #gpu.address_space<workgroup>>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.get' op expects the destination to have a static shape}}
  tile.get %s[%i] peer %p scope block level world to %d : memref<?xf32>, memref<?xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @get_world_shared_source(%s: memref<16xf32, #gpu.address_space<workgroup>>, %d: memref<4xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.get' op expects the source in global memory at level 'world', got shared memory}}
  tile.get %s[%i] peer %p scope block level world to %d : memref<16xf32, #gpu.address_space<workgroup>>, memref<4xf32>
  return
}

// -----

func.func @get_cluster_global_source(%s: memref<?xf32>, %d: memref<4xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.get' op expects the source in shared memory at level 'cluster', got global memory}}
  tile.get %s[%i] peer %p scope warp level cluster to %d : memref<?xf32>, memref<4xf32>
  return
}

// -----

func.func @get_element_type(%s: memref<?xi32>, %d: memref<4xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.get' op expects equal element types, got 'f32' and 'i32'}}
  tile.get %s[%i] peer %p scope block level world to %d : memref<?xi32>, memref<4xf32>
  return
}

// -----

func.func @get_rank(%s: memref<?x?xf32>, %d: memref<4xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.get' op expects the remote buffer's rank (2) to equal the tile's rank (1)}}
  tile.get %s[%i, %i] peer %p scope block level world to %d : memref<?x?xf32>, memref<4xf32>
  return
}

// -----

func.func @get_offsets(%s: memref<?x?xf32>, %d: memref<4x4xf32>, %i: index, %p: i32) {
  // expected-error @+1 {{'tile.get' op expects 2 remote offsets (one per dimension), got 0}}
  tile.get %s[] peer %p scope block level world to %d : memref<?x?xf32>, memref<4x4xf32>
  return
}

// -----

func.func @signal_type(%f: memref<?xf32>, %i: index, %p: i32, %v: i64) {
  // expected-error @+1 {{'tile.signal' op expects signal words in a 1-D memref of i64, got 'memref<?xf32>'}}
  tile.signal %f[%i] set %v peer %p level world : memref<?xf32>
  return
}

// -----

func.func @signal_rank(%f: memref<?x?xi64>, %i: index, %p: i32, %v: i64) {
  // expected-error @+1 {{'tile.signal' op expects signal words in a 1-D memref of i64, got 'memref<?x?xi64>'}}
  tile.signal %f[%i] add %v peer %p level world : memref<?x?xi64>
  return
}

// -----

func.func @signal_world_shared(%f: memref<4xi64, #gpu.address_space<workgroup>>, %i: index, %p: i32, %v: i64) {
  // expected-error @+1 {{'tile.signal' op expects the signal in global memory at level 'world', got shared memory}}
  tile.signal %f[%i] set %v peer %p level world : memref<4xi64, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @signal_cluster_global(%f: memref<?xi64>, %i: index, %p: i32, %v: i64) {
  // expected-error @+1 {{'tile.signal' op expects the signal in shared memory at level 'cluster', got global memory}}
  tile.signal %f[%i] add %v peer %p level cluster : memref<?xi64>
  return
}

// -----

func.func @wait_type(%f: memref<?xi32>, %i: index, %v: i64) {
  // expected-error @+1 {{'tile.wait' op expects signal words in a 1-D memref of i64, got 'memref<?xi32>'}}
  tile.wait %f[%i] eq %v level world : memref<?xi32>
  return
}

// -----

func.func @wait_rank(%f: memref<1x4xi64>, %i: index, %v: i64) {
  // expected-error @+1 {{'tile.wait' op expects signal words in a 1-D memref of i64, got 'memref<1x4xi64>'}}
  tile.wait %f[%i] ge %v level world : memref<1x4xi64>
  return
}

// -----

func.func @wait_space(%f: memref<4xi64, #gpu.address_space<private>>, %i: index, %v: i64) {
  // expected-error @+1 {{'tile.wait' op expects the signal in global memory at level 'world', got unsupported memory}}
  tile.wait %f[%i] lt %v level world : memref<4xi64, #gpu.address_space<private>>
  return
}

// -----

// A wait states its level: a shared signal word is the cluster's.
func.func @wait_shared_world(%f: memref<4xi64, #gpu.address_space<workgroup>>, %i: index, %v: i64) {
  // expected-error @+1 {{'tile.wait' op expects the signal in global memory at level 'world', got shared memory}}
  tile.wait %f[%i] ge %v level world : memref<4xi64, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @wait_global_cluster(%f: memref<?xi64>, %i: index, %v: i64) {
  // expected-error @+1 {{'tile.wait' op expects the signal in shared memory at level 'cluster', got global memory}}
  tile.wait %f[%i] ge %v level cluster : memref<?xi64>
  return
}

// -----

// A recorded mechanism belongs to the op's level.
func.func @mechanism_level() {
  // expected-error @+1 {{'tile.fence' op at level 'world' cannot use mechanism 'dsmem' (it reaches peers at level 'cluster'); drop the mechanism and let tile-select-instructions record it}}
  tile.fence level world {mechanism = #tile.comm_mechanism<dsmem>}
  return
}

// -----

func.func @p2p_fence() {
  // expected-error @+1 {{'tile.fence' op cannot use mechanism 'p2p', which moves tiles (tile.put and tile.get) or waits on a local word (tile.wait); drop the mechanism and let tile-select-instructions record it}}
  tile.fence level world {mechanism = #tile.comm_mechanism<p2p>}
  return
}

// -----

func.func @p2p_cluster(%t: memref<64xf32, #gpu.address_space<workgroup>>, %r: memref<64xf32, #gpu.address_space<workgroup>>, %p: i32) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.put' op at level 'cluster' cannot use mechanism 'p2p' (it reaches peers at level 'world')}}
  tile.put %t to %r[%c0] peer %p scope block level cluster {mechanism = #tile.comm_mechanism<p2p>} : memref<64xf32, #gpu.address_space<workgroup>>, memref<64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// What a put or get moves: rows with unit innermost stride, whole-byte
// elements, tiles that are not swizzled.
tile.kernel @put_column(%X: memref<?x?xf32> {tile.symmetric}, %g: memref<64x64xf32>, %p: i32) threads(128) {
  %c0 = arith.constant 0 : index
  %col = memref.subview %g[0, 0] [64, 1] [1, 2] : memref<64x64xf32> to memref<64x1xf32, strided<[64, 2]>>
  // expected-error @+1 {{'tile.put' op expects the source to have unit stride in its innermost dimension, got 'memref<64x1xf32, strided<[64, 2]>>'}}
  tile.put %col to %X[%c0, %c0] peer %p scope block level world : memref<64x1xf32, strided<[64, 2]>>, memref<?x?xf32>
}

// -----

tile.kernel @get_strided_remote(%X: memref<?x?xf32, strided<[1, ?]>> {tile.symmetric}, %p: i32) threads(128) {
  %c0 = arith.constant 0 : index
  %t = tile.alloc_shared : memref<4x64xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.get' op expects the remote buffer to have unit stride in its innermost dimension}}
  tile.get %X[%c0, %c0] peer %p scope block level world to %t : memref<?x?xf32, strided<[1, ?]>>, memref<4x64xf32, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @put_bits(%X: memref<?xi1> {tile.symmetric}, %g: memref<64xi1>, %p: i32) threads(128) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.put' op moves elements of whole bytes (1, 2, 4, 8 or 16); the source has 'i1'}}
  tile.put %g to %X[%c0] peer %p scope block level world : memref<64xi1>, memref<?xi1>
}

// -----

tile.kernel @put_swizzled(%X: memref<?x?xbf16> {tile.symmetric}, %p: i32) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
  // expected-error @+1 {{'tile.put' op accesses a 128-byte swizzled shared tile with ordinary loads and stores}}
  tile.put %s to %X[%c0, %c0] peer %p scope block level world : memref<64x64xbf16, #tile.shared<swizzle = 128>>, memref<?x?xbf16>
}

// -----

// NVSHMEM's block routines synchronise the whole CTA: not from one role.
tile.kernel @block_put_in_role(%dst: memref<?xf32> {tile.symmetric}, %p: i32) threads(256) {
  %c0 = arith.constant 0 : index
  %t = tile.alloc_shared : memref<128xf32, #gpu.address_space<workgroup>>
  tile.warp_specialize {
    role "producer" warps(4) {
      // expected-error @+1 {{'tile.put' op at level world calls an NVSHMEM block routine, which every thread of the CTA must call; inside a tile.warp_specialize role write scope warp (each warp of the role moves the whole tile), or move the op out of the tile.warp_specialize}}
      tile.put %t to %dst[%c0] peer %p scope block level world : memref<128xf32, #gpu.address_space<workgroup>>, memref<?xf32>
    }
    role "consumers" warps(4) {
    }
  }
}

// -----

tile.kernel @block_get_in_role(%src: memref<?xf32> {tile.symmetric}, %p: i32) threads(256) {
  %c0 = arith.constant 0 : index
  %t = tile.alloc_shared : memref<128xf32, #gpu.address_space<workgroup>>
  tile.warp_specialize {
    role "producer" warps(4) {
      // expected-error @+1 {{'tile.get' op at level world calls an NVSHMEM block routine}}
      tile.get %src[%c0] peer %p scope block level world to %t : memref<?xf32>, memref<128xf32, #gpu.address_space<workgroup>>
    }
    role "consumers" warps(4) {
    }
  }
}

// -----

tile.kernel @barrier_all_in_role() threads(256) {
  tile.warp_specialize {
    role "producer" warps(4) {
      // expected-error @+1 {{'tile.barrier_all' op at level world calls an NVSHMEM block routine, which every thread of the CTA must call; inside a tile.warp_specialize role it cannot be: put it before or after the tile.warp_specialize}}
      tile.barrier_all level world
    }
    role "consumers" warps(4) {
    }
  }
}

//===----------------------------------------------------------------------===//
// Shared swizzles and fragment layouts
//===----------------------------------------------------------------------===//

// -----

tile.kernel @swizzle_value() threads(128) {
  // expected-error @+1 {{expects a swizzle of 0, 32, 64 or 128 bytes, got 16}}
  %s = tile.alloc_shared : memref<64x8xbf16, #tile.shared<swizzle = 16>>
}

// -----

tile.kernel @swizzle_attribute() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op takes its swizzle in its type, not as an attribute: write memref<..., #tile.shared<swizzle = N>>}}
  %s = tile.alloc_shared {swizzle = 128} : memref<64x64xbf16, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @swizzled_fill() threads(128) {
  %s = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
  %z = arith.constant 0.0 : bf16
  // expected-error @+1 {{'tile.fill' op accesses a 128-byte swizzled shared tile with ordinary loads and stores, which is not lowered (TMA, wgmma, tcgen05 and copies from fragments handle swizzled tiles)}}
  tile.fill %s, %z : memref<64x64xbf16, #tile.shared<swizzle = 128>>, bf16
}

// -----

tile.kernel @swizzled_read(%g: memref<?x?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 64>>
  %f = tile.alloc_fragment : !tile.fragment<64x64xbf16>
  // expected-error @+1 {{'tile.copy' op accesses a 64-byte swizzled shared tile with ordinary loads and stores}}
  tile.copy %s[] to %f[] : memref<64x64xbf16, #tile.shared<swizzle = 64>>, !tile.fragment<64x64xbf16>
}

// -----

tile.kernel @swizzled_vector_copy(%g: memref<?x?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
  // expected-error @+1 {{'tile.copy' op accesses a 128-byte swizzled shared tile with ordinary loads and stores, which is not lowered (TMA, wgmma, tcgen05 and copies from fragments handle swizzled tiles); make it a TMA load, which completes on a barrier: `%bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>`, `tile.copy ... to %tile[] barrier %bar[%c0]`, then `tile.mbarrier.wait %bar[%c0], %false` before the tile is read; or leave the swizzle out}}
  tile.copy %g[%c0, %c0] to %s[] {mechanism = #tile.copy_mechanism<vector>} : memref<?x?xbf16>, memref<64x64xbf16, #tile.shared<swizzle = 128>>
}

// -----

// A plain store from a swizzled tile: the error says how to make it TMA's.
tile.kernel @swizzled_plain_store(%g: memref<?x?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #tile.shared<swizzle = 128>>
  // expected-error @+1 {{'tile.copy' op accesses a 128-byte swizzled shared tile with ordinary loads and stores, which is not lowered (TMA, wgmma, tcgen05 and copies from fragments handle swizzled tiles); make it a TMA store (`tile.copy %tile[] to ... {tma}`, then tile.wait_tma_stores before the tile is written again), or leave the swizzle out}}
  tile.copy %s[] to %g[%c0, %c0] : memref<64x64xbf16, #tile.shared<swizzle = 128>>, memref<?x?xbf16>
}

// -----

tile.kernel @swizzle_rows() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op expects rows of a multiple of 128 bytes for a 128-byte swizzle, got 64}}
  %s = tile.alloc_shared : memref<64x32xbf16, #tile.shared<swizzle = 128>>
}

// -----

tile.kernel @swizzle_wide_rows() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op expects rows of a multiple of 32 bytes for a 32-byte swizzle, got 48}}
  %s = tile.alloc_shared : memref<8x12xf32, #tile.shared<swizzle = 32>>
}

// -----

tile.kernel @blocked_threads() threads(128) {
  // expected-error @+1 {{'tile.alloc_fragment' op has a layout for 256 threads in a kernel of 128; write threads = 128 (or leave the layout to tile-assign-layouts)}}
  %f = tile.alloc_fragment : !tile.fragment<1024xf32, #tile.blocked<threads = 256, vector = 4>>
}

// -----

tile.kernel @wgmma_threads() threads(128) {
  // expected-error @+1 {{'tile.alloc_fragment' op has a layout for 256 threads in a kernel of 128; write #tile.wgmma<warpgroups = 1, blocks = 2>}}
  %f = tile.alloc_fragment : !tile.fragment<128x64xf32, #tile.wgmma<warpgroups = 2>>
}

// -----

// expected-error @+1 {{wgmma layout needs a (64 x blocks x warpgroups) x N tile with N a multiple of 8 up to 256, got 64x64 with warpgroups = 2, blocks = 1; for 64 rows write #tile.wgmma<warpgroups = 1>}}
func.func private @wgmma_rows(!tile.fragment<64x64xf32, #tile.wgmma<warpgroups = 2>>)

// -----

// expected-error @+1 {{wgmma layout needs a (64 x blocks x warpgroups) x N tile with N a multiple of 8 up to 256, got 64x12 with warpgroups = 1, blocks = 1}}
func.func private @wgmma_n_multiple(!tile.fragment<64x12xf32, #tile.wgmma<warpgroups = 1>>)

// -----

// expected-error @+1 {{wgmma layout needs a (64 x blocks x warpgroups) x N tile with N a multiple of 8 up to 256, got 64x264 with warpgroups = 1, blocks = 1}}
func.func private @wgmma_n_max(!tile.fragment<64x264xf32, #tile.wgmma<warpgroups = 1>>)

// -----

// expected-error @+1 {{wgmma layout needs a (64 x blocks x warpgroups) x N tile with N a multiple of 8 up to 256, got 64x8x8 with warpgroups = 1, blocks = 1}}
func.func private @wgmma_rank(!tile.fragment<64x8x8xf32, #tile.wgmma<warpgroups = 1>>)

// -----

// expected-error @+1 {{blocked layout vector (8) must divide the innermost dimension (12); vector = 4 would fit}}
func.func private @blocked_vector(!tile.fragment<64x12xf32, #tile.blocked<threads = 32, vector = 8>>)

// -----

// expected-error @+1 {{blocked layout with parts spreads runs of 4 over 128 threads, which does not divide the 256 elements; vector = 2 would fit; leave part out for a layout in which some threads hold fewer runs}}
func.func private @blocked_spread(!tile.fragment<256xf32, #tile.blocked<threads = 128, vector = 4, part = 32>>)

// -----

// expected-error @+1 {{blocked layout needs positive threads and vector}}
func.func private @blocked_zero(!tile.fragment<256xf32, #tile.blocked<threads = 0, vector = 4>>)

// -----

// expected-error @+1 {{fragment layout must be a tile layout attribute, got 42 : i64}}
func.func private @fragment_layout_attr(!tile.fragment<256xf32, 42>)

// -----

tile.kernel @shared_rank0() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op expects a static shape of rank 1 or more, got 'memref<f32, #gpu.address_space<workgroup>>'}}
  %s = tile.alloc_shared : memref<f32, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @shared_sub_byte() threads(128) {
  // expected-error @+1 {{'tile.alloc_shared' op expects elements of whole bytes, got 'i1'}}
  %s = tile.alloc_shared : memref<64xi1, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @zero_step(%n: index) threads(128) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.pipelined_for' op expects a positive step, got 0}}
  tile.pipelined_for %k = %c0 to %n step %c0 stages(1) {
  }
}

// -----

tile.kernel @tma_on_load(%A: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.copy' op takes {tma} only for shared to global copies (loads use TMA when they complete on a barrier)}}
  tile.copy %A[%c0, %c0] to %s[] {tma} : memref<?x?xf32>, memref<8x32xf32, #gpu.address_space<workgroup>>
}

// -----

// {atomic_add} adds partial sums from registers, or from shared memory by
// TMA, into f32 global memory only.
tile.kernel @atomic_add_from_shared(%C: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.copy' op takes {atomic_add} only for an f32 fragment, or an f32 shared tile copied by {tma}, to f32 global memory (partial sums added into the result); got 'memref<8x32xf32, #gpu.address_space<workgroup>>' to 'memref<?x?xf32>' without {tma}}}
  tile.copy %s[] to %C[%c0, %c0] {atomic_add} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}

// -----

tile.kernel @atomic_add_rounding(%C: memref<?x?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<8x64xf32>
  // expected-error @+1 {{'tile.copy' op takes {atomic_add} only for an f32 fragment, or an f32 shared tile copied by {tma}, to f32 global memory}}
  tile.copy %f[] to %C[%c0, %c0] {atomic_add} : !tile.fragment<8x64xf32>, memref<?x?xbf16>
}

// -----

tile.kernel @atomic_add_tma_rounding(%C: memref<?x?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.copy' op takes {atomic_add} only for an f32 fragment, or an f32 shared tile copied by {tma}, to f32 global memory (partial sums added into the result); got 'memref<8x64xbf16, #gpu.address_space<workgroup>>' to 'memref<?x?xbf16>'}}
  tile.copy %s[] to %C[%c0, %c0] {tma, atomic_add} : memref<8x64xbf16, #gpu.address_space<workgroup>>, memref<?x?xbf16>
}

// -----

tile.kernel @atomic_add_load(%A: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<8x64xf32>
  // expected-error @+1 {{'tile.copy' op takes {atomic_add} only for an f32 fragment, or an f32 shared tile copied by {tma}, to f32 global memory}}
  tile.copy %A[%c0, %c0] to %f[] {atomic_add} : memref<?x?xf32>, !tile.fragment<8x64xf32>
}

// -----

func.func @gemm_a_fragment_transposed(%a: !tile.fragment<16x16xf16>, %b: memref<16x16xf16, #gpu.address_space<workgroup>>, %c: !tile.fragment<16x16xf32>) {
  // expected-error @+1 {{'tile.gemm' op takes A in registers as M x K: transpose_a applies to shared tiles only}}
  tile.gemm %a, %b, %c {transpose_a} : !tile.fragment<16x16xf16>, memref<16x16xf16, #gpu.address_space<workgroup>>, !tile.fragment<16x16xf32>
  return
}

//===----------------------------------------------------------------------===//
// Warp specialisation
//===----------------------------------------------------------------------===//

// -----

tile.kernel @ws_one_stage(%n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.pipelined_for' op with warp_specialized expects at least 2 stages}}
  tile.pipelined_for %k = %c0 to %n step %c1 stages(1) warp_specialized {
  }
}

// -----

//===----------------------------------------------------------------------===//
// Fragment slices and asynchronous TMA stores
//===----------------------------------------------------------------------===//

func.func @slice_offset_not_constant(%f: !tile.fragment<64x64xf32>, %s: memref<64x32xf32, #gpu.address_space<workgroup>>, %i: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.copy' op expects constant offsets into a fragment}}
  tile.copy %f[%c0, %i] to %s[] : !tile.fragment<64x64xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @slice_out_of_range(%f: !tile.fragment<64x64xf32>, %s: memref<64x32xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %c48 = arith.constant 48 : index
  // expected-error @+1 {{'tile.copy' op copies a slice of 32 at offset 48 of a fragment dimension of 64}}
  tile.copy %f[%c0, %c48] to %s[] : !tile.fragment<64x64xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// An offset near INT64_MAX: offset + size would wrap to a negative number.
func.func @slice_offset_wraps(%f: !tile.fragment<64x64xf32>, %s: memref<64x32xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %big = arith.constant 9223372036854775800 : index
  // expected-error @+1 {{'tile.copy' op copies a slice of 32 at offset 9223372036854775800 of a fragment dimension of 64}}
  tile.copy %f[%c0, %big] to %s[] : !tile.fragment<64x64xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @slice_offsets_on_dest(%f: !tile.fragment<64x64xf32>, %s: memref<64x32xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.copy' op expects offsets only on the fragment}}
  tile.copy %f[%c0, %c0] to %s[%c0, %c0] : !tile.fragment<64x64xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @offsets_into_fragment_dest(%s: memref<64x32xf32, #gpu.address_space<workgroup>>, %f: !tile.fragment<64x32xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.copy' op expects no offsets when neither side is global memory (a fragment -> shared copy may take offsets on the fragment)}}
  tile.copy %s[%c0, %c0] to %f[] : memref<64x32xf32, #gpu.address_space<workgroup>>, !tile.fragment<64x32xf32>
  return
}

// -----

tile.kernel @async_without_tma(%C: memref<?x?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x32xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.copy' op takes {async} only with {tma} (an asynchronous TMA store)}}
  tile.copy %s[] to %C[%c0, %c0] {async} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<?x?xf32>
}

// -----

tile.kernel @wait_too_many() threads(128) {
  // expected-error @+1 {{'tile.wait_tma_stores' op expects pending in [0, 7], got 8}}
  tile.wait_tma_stores pending(8)
}

// -----

func.func @wait_outside_kernel() {
  // expected-error @+1 {{'tile.wait_tma_stores' op must be nested in a 'tile.kernel'}}
  tile.wait_tma_stores pending(0)
  return
}

// -----

func.func @slice_rank(%f: !tile.fragment<64x64xf32>, %s: memref<64x32xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.copy' op expects one offset per fragment dimension and a shared tile of the fragment's rank}}
  tile.copy %f[%c0] to %s[] : !tile.fragment<64x64xf32>, memref<64x32xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @slice_dynamic_tile(%f: !tile.fragment<64x64xf32>, %s: memref<64x?xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.copy' op expects a shared tile of static shape for a slice of a fragment}}
  tile.copy %f[%c0, %c0] to %s[] : !tile.fragment<64x64xf32>, memref<64x?xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// Multicast shares one tile between the CTAs of a cluster.
tile.kernel @multicast_no_cluster(%A: memref<?x?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.copy' op takes {multicast} only in a kernel whose cluster has more than one CTA}}
  tile.copy %A[%c0, %c0] to %s[] {multicast} : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @multicast_uneven(%A: memref<?x?xbf16>) threads(128) cluster(3, 1, 1) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.copy' op multicasts a tile of 128 rows, which its cluster's 3 CTAs cannot load in equal slices}}
  tile.copy %A[%c0, %c0] to %s[] {multicast} : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @multicast_store(%A: memref<?x?xbf16>) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.copy' op takes {multicast} only for global to shared copies}}
  tile.copy %s[] to %A[%c0, %c0] {multicast} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<?x?xbf16>
}

// -----

tile.kernel @arrive_leader_cluster() threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %b = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  // expected-error @+1 {{'tile.mbarrier.arrive' op takes either `leader` (one thread of the CTA) or `cluster` (one lane per warp, to every CTA), not both}}
  tile.mbarrier.arrive %b[%c0] leader cluster : !tile.barrier<1>
}

// -----

tile.kernel @pingpong_alone(%n: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.pipelined_for' op takes pingpong only with warp_specialized (the teams are consumers of a producer warp)}}
  tile.pipelined_for %i = %c0 to %n step %c1 stages(2) pingpong {
  }
}

// -----

tile.kernel @multicast_rank1(%A: memref<?xbf16>) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<512xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.copy' op multicasts rows of a tile, so it takes a tile of rank 2 or more}}
  tile.copy %A[%c0] to %s[] {multicast} : memref<?xbf16>, memref<512xbf16, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @multicast_small_slices(%A: memref<?x?xbf16>) threads(128) cluster(4, 1, 1) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<4x16xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.copy' op multicasts slices of 32 bytes per CTA; they must be a multiple of 128 bytes}}
  tile.copy %A[%c0, %c0] to %s[] {multicast} : memref<?x?xbf16>, memref<4x16xbf16, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @multicast_swizzle_slices(%A: memref<?x?xbf16>) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<8x64xbf16, #tile.shared<swizzle = 128>>
  // expected-error @+1 {{'tile.copy' op multicasts slices of 512 bytes per CTA; they must be a multiple of 1024 bytes}}
  tile.copy %A[%c0, %c0] to %s[] {multicast} : memref<?x?xbf16>, memref<8x64xbf16, #tile.shared<swizzle = 128>>
}

// -----

//===----------------------------------------------------------------------===//
// Target, mechanisms, asynchronous gemms
//===----------------------------------------------------------------------===//

// expected-error @+1 {{unknown chip 'sm_1'; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a}}
module attributes {tile.target = #tile.target<"sm_1">} {}

// -----

// expected-error @+1 {{expects 'tile.target' to be a #tile.target<"chip">, got "sm_90a"}}
module attributes {tile.target = "sm_90a"} {}

// -----

// expected-error @+1 {{expects 'tile.target' on a builtin.module}}
func.func @target_on_func() attributes {tile.target = #tile.target<"sm_90a">} {
  return
}

// -----

tile.kernel @wait_gemms_range() threads(128) {
  // expected-error @+1 {{'tile.wait_gemms' op expects pending in [0, 7], got 8}}
  tile.wait_gemms pending(8)
}

// -----

// expected-error @+1 {{'tile.wait_gemms' op must be nested in a 'tile.kernel'}}
tile.wait_gemms pending(0)

// -----

tile.kernel @async_gemm_barrier() threads(128) {
  %c0 = arith.constant 0 : index
  %a = tile.alloc_shared : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<16x16xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x16xf32>
  %bar = tile.alloc_barrier arrivals(128) : !tile.barrier<1>
  // expected-error @+1 {{takes {async} or a barrier, not both: a product that completes on a barrier is waited for by it}}
  tile.gemm %a, %b, %acc barrier %bar[%c0] {async} : memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<16x16xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x16xf32>, !tile.barrier<1>
}

// -----

tile.kernel @gemm_mechanism_layout() threads(128) {
  %a = tile.alloc_shared : memref<64x16xbf16, #gpu.address_space<workgroup>>
  %b = tile.alloc_shared : memref<16x16xbf16, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x16xf32, #tile.mma<warps_m = 4, warps_n = 1>>
  // expected-error @+1 {{takes mechanism wgmma, whose C has the #tile.wgmma layout, not #tile.mma<warps_m = 4, warps_n = 1>}}
  tile.gemm %a, %b, %acc {mechanism = #tile.mma_mechanism<wgmma>} : memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<16x16xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x16xf32, #tile.mma<warps_m = 4, warps_n = 1>>
}

// -----

tile.kernel @copy_async_direction(%g: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %f = tile.alloc_fragment : !tile.fragment<512xf32>
  // expected-error @+1 {{takes {async} only with {tma} (an asynchronous TMA store) or on a global to shared copy without a barrier (cp.async groups the program waits for)}}
  tile.copy %f[] to %g[%c0] {async} : !tile.fragment<512xf32>, memref<?xf32>
}

// -----

tile.kernel @copy_tma_store_mechanism(%g: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<512xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{takes mechanism tma_store only with {tma}}}
  tile.copy %s[] to %g[%c0] {mechanism = #tile.copy_mechanism<tma_store>} : memref<512xf32, #gpu.address_space<workgroup>>, memref<?xf32>
}

// -----

tile.kernel @copy_cp_async_mechanism(%g: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<512xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{takes mechanism cp_async only for a global to shared copy without a barrier}}
  tile.copy %s[] to %g[%c0] {mechanism = #tile.copy_mechanism<cp_async>} : memref<512xf32, #gpu.address_space<workgroup>>, memref<?xf32>
}

// -----

tile.kernel @copy_tma_load_mechanism(%g: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<512xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{takes mechanism tma_load only for a global to shared copy with a barrier (or a producer of a tile.pipelined_for)}}
  tile.copy %g[%c0] to %s[] {mechanism = #tile.copy_mechanism<tma_load>} : memref<?xf32>, memref<512xf32, #gpu.address_space<workgroup>>
}

// -----

tile.kernel @copy_vector_mechanism(%g: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<512xf32, #gpu.address_space<workgroup>>
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  // expected-error @+1 {{is a TMA copy (barrier or {tma}); its mechanism must be tma_load or tma_store, not vector}}
  tile.copy %g[%c0] to %s[] barrier %bar[%c0] {mechanism = #tile.copy_mechanism<vector>} : memref<?xf32>, memref<512xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
}

// -----

tile.kernel @multicast_vector(%g: memref<?x?xbf16>) threads(128) cluster(2, 1, 1) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{with {multicast} takes mechanism tma_load, not vector}}
  tile.copy %g[%c0, %c0] to %s[] {multicast, mechanism = #tile.copy_mechanism<vector>} : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
}

// -----

// expected-error @+1 {{expects 'tile.scratch_request' to be [bytes, alignment] with bytes > 0 and the alignment a power of two of at most 1024, got array<i64: 64, 3>}}
func.func @scratch_alignment() attributes {tile.scratch_request = array<i64: 64, 3>} {
  return
}

// -----

func.func @elementwise_outputs_differ(%x: !tile.fragment<4x8xf32>, %y: !tile.fragment<4x1xf32>) {
  // expected-error @+1 {{'tile.elementwise' op expects every output to have one shape, got '!tile.fragment<4x1xf32>' beside '!tile.fragment<4x8xf32>'}}
  tile.elementwise outs(%x, %y : !tile.fragment<4x8xf32>, !tile.fragment<4x1xf32>) {
    %c = arith.constant 0.0 : f32
    tile.yield %c, %c : f32, f32
  }
  return
}

// -----

func.func @elementwise_broadcast_shared(%x: memref<1x8xf32, #gpu.address_space<workgroup>>, %y: !tile.fragment<4x8xf32>) {
  // expected-error @+1 {{'tile.elementwise' op broadcasts only fragments; copy the shared tile 'memref<1x8xf32, #gpu.address_space<workgroup>>' into a fragment first}}
  tile.elementwise ins(%x : memref<1x8xf32, #gpu.address_space<workgroup>>) outs(%y : !tile.fragment<4x8xf32>) {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @elementwise_coordinate_type(%x: !tile.fragment<4x8xf32>) {
  // expected-error @+1 {{'tile.elementwise' op expects body argument 2 (the coordinate along dimension 1) of type index, got 'i32'}}
  tile.elementwise ins(%x : !tile.fragment<4x8xf32>) outs(%x : !tile.fragment<4x8xf32>) {
  ^bb0(%a: f32, %i: index, %j: i32):
    tile.yield %a : f32
  }
  return
}

// -----

tile.kernel @reduce_dim(%a: memref<?xf32>) threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<4x128xf32>
  %s = tile.alloc_fragment : !tile.fragment<4x1xf32>
  // expected-error @+1 {{'tile.reduce' op reduces dim 2, which is not a dimension of '!tile.fragment<4x128xf32>'}}
  tile.reduce sum %x into %s dim 2 : !tile.fragment<4x128xf32>, !tile.fragment<4x1xf32>
}

// -----

// A negative dim is reported as written (it printed as 18446744073709551615).
tile.kernel @reduce_negative_dim() threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<4x128xf32>
  %s = tile.alloc_fragment : !tile.fragment<4x1xf32>
  // expected-error @+1 {{'tile.reduce' op reduces dim -1, which is not a dimension of '!tile.fragment<4x128xf32>'; write dim 0 to 1}}
  tile.reduce sum %x into %s dim -1 : !tile.fragment<4x128xf32>, !tile.fragment<4x1xf32>
}

// -----

tile.kernel @reduce_shape(%a: memref<?xf32>) threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<4x128xf32>
  %s = tile.alloc_fragment : !tile.fragment<4x1xf32>
  // expected-error @+1 {{'tile.reduce' op expects the destination to have the source's shape with 1 at dim 0: write '!tile.fragment<1x128xf32>', got '!tile.fragment<4x1xf32>'}}
  tile.reduce max %x into %s dim 0 : !tile.fragment<4x128xf32>, !tile.fragment<4x1xf32>
}

// -----

tile.kernel @reduce_types(%a: memref<?xf32>) threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<4x128xf32>
  %s = tile.alloc_fragment : !tile.fragment<4x1xbf16>
  // expected-error @+1 {{'tile.reduce' op reduces 'f32' into 'bf16'; the element types must agree, or bf16/f16 reduce into f32}}
  tile.reduce min %x into %s dim 1 : !tile.fragment<4x128xf32>, !tile.fragment<4x1xbf16>
}

// -----

// Rows held by every thread (runs of 4 over 128 threads) cannot land in a
// row-per-warp slice: each thread would hold one row's result, not four.
tile.kernel @reduce_dest_layout() threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<4x1024xf32, #tile.blocked<threads = 128, vector = 4>>
  %s = tile.alloc_fragment : !tile.fragment<4x1xf32, #tile.slice<dim = 1, extent = 1024, parent = #tile.blocked<threads = 128, vector = 8, part = 32>>>
  // expected-error @+1 {{'tile.reduce' op needs a destination layout that holds the results as #tile.slice<dim = 1, extent = 1024, parent = #tile.blocked<threads = 128, vector = 4>> (the source's sliced along dim 1) does, got #tile.slice<dim = 1, extent = 1024, parent = #tile.blocked<threads = 128, vector = 8, part = 32>>; leave it to tile-assign-layouts}}
  tile.reduce sum %x into %s dim 1 : !tile.fragment<4x1024xf32, #tile.blocked<threads = 128, vector = 4>>, !tile.fragment<4x1xf32, #tile.slice<dim = 1, extent = 1024, parent = #tile.blocked<threads = 128, vector = 8, part = 32>>>
}

// -----

func.func @reduce_outside_kernel(%x: !tile.fragment<4x128xf32>, %s: !tile.fragment<4x1xf32>) {
  // expected-error @+1 {{'tile.reduce' op}}
  tile.reduce sum %x into %s dim 1 : !tile.fragment<4x128xf32>, !tile.fragment<4x1xf32>
  return
}

// -----

// expected-error @+1 {{slice layout along dim 1 needs extent 1 there, got 4x8}}
func.func @slice_extent(%x: !tile.fragment<4x8xf32, #tile.slice<dim = 1, extent = 8, parent = #tile.blocked<threads = 32, vector = 1>>>) {
  return
}

// -----

// expected-error @+1 {{slice layout dim 2 is not a dimension of 4x1}}
func.func @slice_dim(%x: !tile.fragment<4x1xf32, #tile.slice<dim = 2, extent = 8, parent = #tile.blocked<threads = 32, vector = 1>>>) {
  return
}

// -----

// expected-error @+1 {{slice layout's parent must be a fragment layout}}
func.func @slice_parent(%x: !tile.fragment<4x1xf32, #tile.slice<dim = 1, extent = 8, parent = 5 : i64>>) {
  return
}

// -----

func.func @elementwise_broadcast_into_shared(%x: !tile.fragment<4x1xf32>, %y: memref<4x8xf32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'tile.elementwise' op broadcasts '!tile.fragment<4x1xf32>' into shared-memory outputs, which is not lowered; write the result to a fragment and copy it to shared memory}}
  tile.elementwise ins(%x : !tile.fragment<4x1xf32>) outs(%y : memref<4x8xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%a: f32):
    tile.yield %a : f32
  }
  return
}

// -----

// expected-error @+1 {{slice layout extent must be in [1, 2^24], got 1125899906842624}}
func.func @slice_huge_extent(%x: !tile.fragment<4x1xf32, #tile.slice<dim = 1, extent = 1125899906842624, parent = #tile.blocked<threads = 128, vector = 1>>>) {
  return
}

// -----

// expected-error @+1 {{slice layout's parent tile has more than 2^24 elements}}
func.func @slice_huge_parent(%x: !tile.fragment<4096x1xf32, #tile.slice<dim = 1, extent = 16777216, parent = #tile.blocked<threads = 128, vector = 1>>>) {
  return
}

// -----

// A pipeline stage is 0 or 1.
tile.kernel @stage_two(%kt: index) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) {
    // expected-error @below {{expects 'tile.stage' to be 0 or 1 (the stage of a pipelined loop's op: 1 runs it one iteration late), got 2 : i64}}
    %x = arith.addi %k, %c1 {tile.stage = 2} : index
  }
}

// -----

// Stages belong to the ops of a pipelined loop's body itself.
tile.kernel @stage_nested(%kt: index, %flag: i1) threads(128) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.pipelined_for %k = %c0 to %kt step %c1 stages(2) {
    scf.if %flag {
      // expected-error @below {{expects 'tile.stage' only on an op directly in a tile.pipelined_for's body}}
      %x = arith.addi %k, %c1 {tile.stage = 1} : index
    }
  }
}
