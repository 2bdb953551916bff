// tile-specialize with an element-type parameter: every !tile.type_param
// (memrefs, fragments, block arguments, the function type) becomes the
// configuration's type and float constants of it are converted to that
// type (1.5 in bf16 too); the kernel names carry the type (Tbf16).
// RUN: tile-opt %s --tile-specialize
// RUN: tile-opt %s --tile-specialize="values=T=bf16" | grep -E "tile.kernel|arith.constant 1.5|tile.config"

!T = !tile.type_param<"T", f32>

tile.kernel @scale(%a: memref<?x!T>, %factor: !T)
    params(T: type = f32 in [f32, bf16, f16], TILE: index = 1024)
    configs([T = f32], [T = bf16, TILE = 2048])
    threads(128) {
  %bx = gpu.block_id x
  %tile = tile.param "TILE" : index
  %base = arith.muli %bx, %tile : index
  %x = tile.alloc_fragment [%tile] : !tile.fragment<?x!T>
  tile.copy %a[%base] to %x[] : memref<?x!T>, !tile.fragment<?x!T>
  tile.elementwise ins(%x : !tile.fragment<?x!T>) outs(%x : !tile.fragment<?x!T>) {
  ^bb0(%u: !T):
    %c = arith.constant 1.5 : !T
    %p = arith.mulf %u, %factor : !T
    %s = arith.addf %p, %c : !T
    tile.yield %s : !T
  }
  tile.copy %x[] to %a[%base] : !tile.fragment<?x!T>, memref<?x!T>
}

// A product and a rounding copy over element types: the verifiers check
// !T as the type it stands for (bf16 here), tile-specialize's verification
// the real one.
!AB = !tile.type_param<"AB", bf16>
!CT = !tile.type_param<"CT", f32>
tile.kernel @product(%A: memref<?x?x!AB>, %B: memref<?x?x!AB>, %C: memref<?x?x!CT>)
    params(AB: type = bf16 in [bf16, f16], CT: type = f32 in [f32, bf16])
    configs([AB = bf16, CT = f32], [AB = f16, CT = bf16])
    threads(128) {
  %c0 = arith.constant 0 : index
  %As = tile.alloc_shared : memref<64x64x!AB, #gpu.address_space<workgroup>>
  %Bs = tile.alloc_shared : memref<64x64x!AB, #gpu.address_space<workgroup>>
  %acc = tile.alloc_fragment : !tile.fragment<64x64xf32>
  tile.copy %A[%c0, %c0] to %As[] : memref<?x?x!AB>, memref<64x64x!AB, #gpu.address_space<workgroup>>
  tile.copy %B[%c0, %c0] to %Bs[] : memref<?x?x!AB>, memref<64x64x!AB, #gpu.address_space<workgroup>>
  tile.gemm %As, %Bs, %acc {transpose_b} : memref<64x64x!AB, #gpu.address_space<workgroup>>, memref<64x64x!AB, #gpu.address_space<workgroup>>, !tile.fragment<64x64xf32>
  tile.copy %acc[] to %C[%c0, %c0] : !tile.fragment<64x64xf32>, memref<?x?x!CT>
}
