// What a chip cannot do, refused by tile-select-instructions with a located
// error naming the op and the chip (never an LLVM "Cannot select" later).
// RUN: tile-opt %s --split-input-file --tile-select-instructions --verify-diagnostics -o /dev/null

// expected-error @+1 {{has no target chip: run --tile-attach-target=chip=<chip> first (tile-to-nvvm does); known chips: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a}}
module {
  tile.kernel @k() threads(32) {
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @tma_load(%g: memref<?xf32>) threads(128) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc_shared : memref<512xf32, #gpu.address_space<workgroup>>
    %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
    // expected-error @+1 {{'tile.copy' op completing on a barrier (a TMA load) needs TMA, which sm_80 does not have}}
    tile.copy %g[%c0] to %s[] barrier %bar[%c0] : memref<?xf32>, memref<512xf32, #gpu.address_space<workgroup>>, !tile.barrier<1>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_89">} {
  tile.kernel @tma_store(%g: memref<?xf32>) threads(128) {
    %c0 = arith.constant 0 : index
    %s = tile.alloc_shared : memref<512xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op {tma} (a TMA store) needs TMA, which sm_89 does not have}}
    tile.copy %s[] to %g[%c0] {tma} : memref<512xf32, #gpu.address_space<workgroup>>, memref<?xf32>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @wgmma_layout() threads(128) {
    %a = tile.alloc_shared : memref<64x16xbf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<16x16xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x16xf32, #tile.wgmma<warpgroups = 1>>
    // expected-error @+1 {{'tile.gemm' op a #tile.wgmma accumulator needs wgmma, which sm_80 does not have}}
    tile.gemm %a, %b, %acc : memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<16x16xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x16xf32, #tile.wgmma<warpgroups = 1>>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_90">} {
  tile.kernel @wgmma_by_hand() threads(128) {
    %a = tile.alloc_shared : memref<64x16xbf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<16x16xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x16xf32>
    // expected-error @+1 {{'tile.gemm' op mechanism wgmma needs wgmma, which sm_90 does not have}}
    tile.gemm %a, %b, %acc {mechanism = #tile.mma_mechanism<wgmma>} : memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<16x16xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x16xf32>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @blocked_accumulator() threads(128) {
    %a = tile.alloc_shared : memref<64x16xbf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<16x16xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<64x16xf32, #tile.blocked<threads = 128, vector = 4>>
    // expected-error @+1 {{'tile.gemm' op expects C in a fragment with a matrix layout (#tile.wgmma, #tile.mma or #tile.tmem_32x32b, which tile-assign-layouts gives), got #tile.blocked<threads = 128, vector = 4>}}
    tile.gemm %a, %b, %acc : memref<64x16xbf16, #gpu.address_space<workgroup>>, memref<16x16xbf16, #gpu.address_space<workgroup>>, !tile.fragment<64x16xf32, #tile.blocked<threads = 128, vector = 4>>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_86">} {
  // expected-error @+1 {{'tile.kernel' op a cluster needs thread-block clusters, which sm_86 does not have}}
  tile.kernel @cluster() threads(128) cluster(2, 1, 1) {
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_90">} {
  tile.kernel @setmaxnreg() threads(384) {
    // expected-error @+1 {{'tile.warp_specialize' op registers(...) (setmaxnreg) needs setmaxnreg, which sm_90 does not have}}
    tile.warp_specialize {
      role "producer" warps(1) registers(40) {
      }
      role "consumers" warpgroups(2) registers(232) {
      }
    }
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @tmem_on_hopper() threads(128) {
    // expected-error @+1 {{'tile.alloc_tmem' op needs tensor memory, which sm_90a does not have}}
    %t = tile.alloc_tmem : !tile.tmem<128x64xf32>
    tile.dealloc_tmem %t : !tile.tmem<128x64xf32>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @tcgen05_on_hopper() threads(128) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
    // expected-error @+1 {{'tile.alloc_tmem' op needs tensor memory, which sm_90a does not have}}
    %t = tile.alloc_tmem : !tile.tmem<128x64xf32>
    tile.gemm %a, %b, %t barrier %bar[%c0] : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.tmem<128x64xf32>, !tile.barrier<1>
  }
}

// -----

// A hand-written tcgen05 mechanism on a chip without it.
module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @tcgen05_by_hand() threads(128) {
    %a = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
    // expected-error @+1 {{'tile.gemm' op mechanism tcgen05 needs tcgen05, which sm_90a does not have}}
    tile.gemm %a, %b, %acc {mechanism = #tile.mma_mechanism<tcgen05>} : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32>
  }
}

// -----

// Registers accumulate only where the chip's products do: on sm_100a, C in
// registers outside a warp-specialised pipeline says what to write.
module attributes {tile.target = #tile.target<"sm_100a">} {
  tile.kernel @register_accumulator() threads(128) {
    %a = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : !tile.fragment<128x64xf32>
    // expected-error @+1 {{'tile.gemm' op accumulates in registers, but on sm_100a products accumulate in tensor memory: allocate C with tile.alloc_tmem (and give the gemm a barrier), put the gemm in a warp_specialized tile.pipelined_for (which keeps C in tensor memory for you), or ask for mma.sync with mechanism = #tile.mma_mechanism<mma_sync>}}
    tile.gemm %a, %b, %acc : memref<128x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, !tile.fragment<128x64xf32>
  }
}

// -----

// Kinds tile does not lower: fp8 into tensor memory.
module attributes {tile.target = #tile.target<"sm_100a">} {
  tile.kernel @fp8_kind() threads(128) {
    %c0 = arith.constant 0 : index
    %a = tile.alloc_shared : memref<128x64xf8E4M3FN, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
    %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
    %t = tile.alloc_tmem : !tile.tmem<128x64xf32>
    // expected-error @+1 {{'tile.gemm' op multiplies 'f8E4M3FN' into 'f32', but tile lowers tcgen05.mma for kind::f16 (bf16 or f16 inputs) and kind::tf32 (f32 inputs) with an f32 accumulator only}}
    tile.gemm %a, %b, %t barrier %bar[%c0] : memref<128x64xf8E4M3FN, #gpu.address_space<workgroup>>, memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>, !tile.tmem<128x64xf32>, !tile.barrier<1>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_100a">} {
  tile.kernel @shared_to_tmem() threads(128) {
    %s = tile.alloc_shared : memref<128x64xf16, #gpu.address_space<workgroup>>
    %t = tile.alloc_tmem : !tile.tmem<128x64xf16>
    // expected-error @+1 {{'tile.copy' op from shared to tensor memory (tcgen05.cp) is not lowered yet; copy through a fragment (shared -> fragment -> tensor memory)}}
    tile.copy %s[] to %t[] : memref<128x64xf16, #gpu.address_space<workgroup>>, !tile.tmem<128x64xf16>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @rank() threads(128) {
    // expected-error @+1 {{'tile.rank' op level cluster needs thread-block clusters, which sm_80 does not have}}
    %r = tile.rank level cluster : i32
  }
}

// -----

// A cluster-level wait acquires at cluster scope, which sm_80 lacks (ptxas
// used to refuse the PTX, located at <file>:0:0).
module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @shared_wait() threads(128) {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i64
    %s = tile.alloc_shared : memref<1xi64, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.wait' op level cluster needs thread-block clusters, which sm_80 does not have}}
    tile.wait %s[%c0] ge %one level cluster : memref<1xi64, #gpu.address_space<workgroup>>
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_80">} {
  tile.kernel @pipeline_on_sm80(%A: memref<?x?xbf16>, %n: index) threads(128) cluster(2, 1, 1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.pipelined_for %k = %c0 to %n step %c1 stages(2) {
      // expected-error @+1 {{'tile.copy' op {multicast} (TMA) needs TMA, which sm_80 does not have}}
      tile.copy %A[%c0, %k] to %a[] {multicast} : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
    }
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_90a">} {
  tile.kernel @commit_on_hopper() threads(128) {
    %c0 = arith.constant 0 : index
    %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
    // expected-error @+1 {{'tile.commit_gemms' op (tcgen05.commit) needs tcgen05, which sm_90a does not have}}
    tile.commit_gemms barrier %bar[%c0] : !tile.barrier<1>
  }
}
