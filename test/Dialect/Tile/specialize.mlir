// tile-specialize: a family with a configuration list becomes one kernel
// per configuration (mangled names, every parameter in declaration order),
// with tile.param folded to constants, the `?` tiles static, threads(NAME)
// and stages(NAME) set, an scf.if on a flag folded away, the helper call
// inlined and the private helper erased; tile.family / tile.config record
// where each kernel came from. A kernel that is not a family is unchanged
// but for its constant-sized tiles. With values=..., one kernel of the
// family's own name.
// RUN: tile-opt %s --tile-specialize
// RUN: tile-opt %s | tile-opt | grep -E "cluster\(CM|pingpong\(PP"
// RUN: tile-opt %s --tile-specialize="values=BN=64,SCALE=false,STAGES=3" | grep -E "tile.kernel|alloc_|stages|mulf|tile.config"

// The grouped tile order, written once.
func.func private @grouped(%t: index, %tiles_m: index, %tiles_n: index, %group: index) -> (index, index) {
  %per_group = arith.muli %tiles_n, %group : index
  %g = arith.divui %t, %per_group : index
  %first_m = arith.muli %g, %group : index
  %rows_left = arith.subi %tiles_m, %first_m : index
  %group_m = arith.minui %rows_left, %group : index
  %in_group = arith.remui %t, %per_group : index
  %pm_off = arith.remui %in_group, %group_m : index
  %pm = arith.addi %first_m, %pm_off : index
  %pn = arith.divui %in_group, %group_m : index
  func.return %pm, %pn : index, index
}

tile.kernel @scale(%A: memref<?x?xf32>, %C: memref<?x?xf32>)
    params(BM: index = 64, BN: index = 128 in [64, 128, 256] multiple_of 64,
           THREADS: i32 = 128, STAGES: i32 = 2, SCALE: i1 = true)
    configs([BN = 128], [BN = 256, THREADS = 256, STAGES = 4])
    threads(THREADS) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %bm = tile.param "BM" : index
  %bn = tile.param "BN" : index
  %scale = tile.param "SCALE" : i1
  %tiles_m = arith.ceildivui %bm, %c8 : index
  %t = gpu.block_id x
  %pm, %pn = func.call @grouped(%t, %tiles_m, %c8, %c8) : (index, index, index, index) -> (index, index)
  %m0 = arith.muli %pm, %bm : index
  %n0 = arith.muli %pn, %bn : index
  %s = tile.alloc_shared [%bm, %bn] : memref<?x?xf32, #gpu.address_space<workgroup>>
  %x = tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xf32>
  %cols = memref.dim %s, %c1 : memref<?x?xf32, #gpu.address_space<workgroup>>
  tile.pipelined_for %k = %c0 to %cols step %c1 stages(STAGES) {
    tile.copy %A[%m0, %k] to %s[] : memref<?x?xf32>, memref<?x?xf32, #gpu.address_space<workgroup>>
  }
  tile.copy %s[] to %x[] : memref<?x?xf32, #gpu.address_space<workgroup>>, !tile.fragment<?x?xf32>
  scf.if %scale {
    tile.elementwise ins(%x : !tile.fragment<?x?xf32>) outs(%x : !tile.fragment<?x?xf32>) {
    ^bb0(%v: f32):
      %two = arith.constant 2.0 : f32
      %y = arith.mulf %v, %two : f32
      tile.yield %y : f32
    }
  }
  tile.copy %x[] to %C[%m0, %n0] : !tile.fragment<?x?xf32>, memref<?x?xf32>
}

tile.kernel @plain(%a: memref<?xf32>) threads(128) {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : index
  %x = tile.alloc_fragment [%c512] : !tile.fragment<?xf32>
  tile.copy %a[%c0] to %x[] : memref<?xf32>, !tile.fragment<?xf32>
}

// cluster(CM, 1, 1) and pingpong(PP) take their values from parameters:
// CM = 1 keeps a 1x1x1 cluster, PP = false drops the ping-pong schedule.
tile.kernel @teams(%A: memref<?x?xbf16>)
    params(CM: i32 = 2 in [1, 2], PP: i1 = true)
    configs([CM = 2, PP = true], [CM = 1, PP = false])
    threads(128) cluster(CM, 1, 1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %s = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
  tile.pipelined_for %k = %c0 to %c8 step %c1 stages(2) warp_specialized pingpong(PP) {
    tile.copy %A[%c0, %k] to %s[] : memref<?x?xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
  }
}

// A {multicast} copy in a family whose cluster is a parameter: kept in the
// configuration of two CTAs per cluster; in the one of one CTA, the kernel
// has no cluster and the copy is a plain load.
tile.kernel @shared_b(%B: memref<?x?xbf16>)
    params(CLUSTER: index = 1 in [1, 2])
    configs([CLUSTER = 1], [CLUSTER = 2])
    threads(128) cluster(CLUSTER, 1, 1) {
  %c0 = arith.constant 0 : index
  %s = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
  %bar = tile.alloc_barrier arrivals(1) : !tile.barrier<1>
  tile.copy %B[%c0, %c0] to %s[] barrier %bar[%c0] {multicast} : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>, !tile.barrier<1>
}

// A one-CTA cluster that an op works at keeps its cluster (the op needs
// one to be lowered).
tile.kernel @cluster_sync(%B: memref<?x?xbf16>)
    params(CLUSTER: index = 1 in [1, 2])
    configs([CLUSTER = 1])
    threads(128) cluster(CLUSTER, 1, 1) {
  tile.barrier_all level cluster
}

// Views of a parameter-sized shared tile (a row of CHUNK columns of a
// staged buffer) take the static types their source implies, the cast that
// folding the view's constant size left removed: the copy sees a
// contiguous static tile.
tile.kernel @staged_rows(%x: memref<?x?xbf16>)
    params(CHUNK: index = 512)
    configs([CHUNK = 512], [CHUNK = 1024])
    threads(64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %chunk = tile.param "CHUNK" : index
  %staged = tile.alloc_shared [%c4, %chunk] : memref<?x?xbf16, #gpu.address_space<workgroup>>
  %row = gpu.block_id x
  scf.for %i = %c0 to %c4 step %c1 {
    %c = arith.muli %i, %chunk : index
    %part = memref.subview %staged[%i, 0] [1, %chunk] [1, 1] : memref<?x?xbf16, #gpu.address_space<workgroup>> to memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %x[%row, %c] to %part[] : memref<?x?xbf16>, memref<1x?xbf16, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>
  }
}
