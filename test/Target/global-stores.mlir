// Stores to (and loads from) global memory are predicated inline PTX, one
// block per run:
// a vector store when the run is a power of two of at most 16 bytes, then
// the element-by-element edge path. Each element width and run shape here
// must assemble (ptxas) and show the expected instructions (the PTX whole,
// kernel by kernel: the vector access under @f, the elements under @p).
// Loads the same way, into zeroed registers (16-bit elements unpacked from
// 32-bit words; 8-bit ones always one by one, as u8 into 16-bit registers).
// REQUIRES: ptxas
// RUN: tile-translate --tile-to-cubin --chip=sm_90a %s -o %t.cubin && echo 'ptxas accepts it'
// RUN: tile-translate --tile-to-ptx --chip=sm_90a %s

// i8, runs of 1 (odd width): st.global.b8 only.
tile.kernel @i8_single(%a: memref<?xi8>, %b: memref<?xi8>) threads(128) {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<384xi8, #tile.blocked<threads = 128, vector = 1>>
  tile.copy %a[%c0] to %x[] : memref<?xi8>, !tile.fragment<384xi8, #tile.blocked<threads = 128, vector = 1>>
  tile.copy %x[] to %b[%c0] : !tile.fragment<384xi8, #tile.blocked<threads = 128, vector = 1>>, memref<?xi8>
}

// bf16, runs of 8 (16 bytes): st.global.v4.b32, then b16 elements.
tile.kernel @bf16_vector(%a: memref<?xbf16>, %b: memref<?xbf16>) threads(128) {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<1024xbf16>
  tile.copy %a[%c0] to %x[] : memref<?xbf16>, !tile.fragment<1024xbf16>
  tile.copy %x[] to %b[%c0] : !tile.fragment<1024xbf16>, memref<?xbf16>
}

// f32, runs of 3 (a blocked layout given by hand): elements only.
tile.kernel @f32_three(%a: memref<?xf32>, %b: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<384xf32, #tile.blocked<threads = 128, vector = 3>>
  tile.copy %a[%c0] to %x[] : memref<?xf32>, !tile.fragment<384xf32, #tile.blocked<threads = 128, vector = 3>>
  tile.copy %x[] to %b[%c0] : !tile.fragment<384xf32, #tile.blocked<threads = 128, vector = 3>>, memref<?xf32>
}

// f64, runs of 2: st.global.v2.b64, then b64 elements.
tile.kernel @f64_pair(%a: memref<?xf64>, %b: memref<?xf64>) threads(128) {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<256xf64>
  tile.copy %a[%c0] to %x[] : memref<?xf64>, !tile.fragment<256xf64>
  tile.copy %x[] to %b[%c0] : !tile.fragment<256xf64>, memref<?xf64>
}

// i8, runs of 2 (2 bytes): st.global.b16 of the pair, then b8 elements.
tile.kernel @i8_pair(%a: memref<?xi8>, %b: memref<?xi8>) threads(128) {
  %c0 = arith.constant 0 : index
  %x = tile.alloc_fragment : !tile.fragment<256xi8, #tile.blocked<threads = 128, vector = 2>>
  tile.copy %a[%c0] to %x[] : memref<?xi8>, !tile.fragment<256xi8, #tile.blocked<threads = 128, vector = 2>>
  tile.copy %x[] to %b[%c0] : !tile.fragment<256xi8, #tile.blocked<threads = 128, vector = 2>>, memref<?xi8>
}
