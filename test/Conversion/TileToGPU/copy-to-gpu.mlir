// tile.copy lowering (convert-tile-to-gpu, which also allocates the operands;
// --cse only merges the repeated constants).
// RUN: tile-opt %s --split-input-file --tile-attach-target --tile-select-instructions --convert-tile-kernel-to-gpu --tile-assign-layouts --convert-tile-to-gpu --cse

// global -> fragment, one run of 4 per thread at %i + 4 * tid: a 16-byte
// vector load when in bounds and aligned, else a masked load (zeros outside).
tile.kernel @global_to_fragment(%g: memref<?xf32>, %i: index) threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.copy %g[%i] to %x[] : memref<?xf32>, !tile.fragment<512xf32>
}

// -----

// fragment -> global: a vector store, or a masked store at the edge.
tile.kernel @fragment_to_global(%g: memref<?xf32>, %i: index) threads(128) {
  %x = tile.alloc_fragment : !tile.fragment<512xf32>
  tile.copy %x[] to %g[%i] : !tile.fragment<512xf32>, memref<?xf32>
}

// -----

// global -> shared, 2-D: 64 runs of 8 bf16 for 128 threads, so threads 64 and
// up do nothing; row = 8 * tid / 64, column = 8 * tid mod 64; the row stride
// takes part in the alignment check. CTA barriers before and after.
tile.kernel @global_to_shared(%g: memref<?x?xbf16>, %m: index, %k: index) threads(128) {
  %s = tile.alloc_shared : memref<8x64xbf16, #gpu.address_space<workgroup>>
  tile.copy %g[%m, %k] to %s[] : memref<?x?xbf16>, memref<8x64xbf16, #gpu.address_space<workgroup>>
}

// -----

// shared -> fragment: two runs per thread (tid and tid + 32), into slots 0
// and 8; no barrier, shared memory is only read.
tile.kernel @shared_to_fragment() threads(32) {
  %s = tile.alloc_shared : memref<8x64xbf16, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment : !tile.fragment<8x64xbf16>
  tile.copy %s[] to %x[] : memref<8x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<8x64xbf16>
}

// -----

// fragment -> shared: writes shared memory, so between CTA barriers.
tile.kernel @fragment_to_shared() threads(64) {
  %s = tile.alloc_shared : memref<8x64xbf16, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment : !tile.fragment<8x64xbf16>
  tile.copy %x[] to %s[] : !tile.fragment<8x64xbf16>, memref<8x64xbf16, #gpu.address_space<workgroup>>
}
