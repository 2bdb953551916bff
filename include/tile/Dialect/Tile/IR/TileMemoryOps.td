//===- TileMemoryOps.td - allocations ----------------------*- tablegen -*-===//

#ifndef TILE_MEMORY_OPS
#define TILE_MEMORY_OPS

include "tile/Dialect/Tile/IR/TileOpBase.td"

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

def Tile_AllocSharedOp : Tile_Op<"alloc_shared"> {
  let summary = "a statically shaped tile buffer in shared memory";
  let description = [{
    Allocates a tile in the CTA's shared memory for the whole kernel. The
    result is a `memref` in `#gpu.address_space<workgroup>`, so upstream
    memref ops can read it too, or in `#tile.shared<swizzle = N>`, which
    says how its rows are swizzled (0, 32, 64 or 128 bytes: the XOR
    swizzle of 16-byte chunks that TMA writes and wgmma reads without bank
    conflicts). Where the type does not say, `tile-assign-layouts` chooses
    the swizzle for tiles a matrix instruction reads and writes it into
    the type; other tiles are not swizzled.

    Example:

    ```mlir
    %As = tile.alloc_shared : memref<128x64xbf16, #gpu.address_space<workgroup>>
    %Cs = tile.alloc_shared : memref<128x32xf32, #tile.shared<swizzle = 128>>
    ```

    In a kernel family, a dimension may be `?` with its size given by an
    index operand, one per `?` in order (a parameter, or arithmetic on
    parameters): `tile.alloc_shared [%bm, %bk] : memref<?x?xbf16, ...>`.
    `tile-specialize` folds the sizes to constants and makes the type
    static; the rules below on the shape wait until then.

    Rules: static shape of positive dimensions, integer or float elements of
    whole bytes, at most the shared memory of the largest chip (232448
    bytes, computed without overflow), identity layout, shared memory
    space, and must be inside a `tile.kernel`. With a swizzle, the innermost
    dimension spans a multiple of the swizzle's bytes; rows wider than
    the swizzle are stored as blocks of columns, each `swizzle` bytes wide
    and contiguous (the layout TMA boxes and MN-major wgmma operands use).
  }];
  let arguments = (ins Variadic<Index>:$sizes);
  let results = (outs Res<AnyMemRef, "", [MemAllocAt<0, FullEffect>]>:$result);
  let assemblyFormat = "(`[` $sizes^ `]`)? attr-dict `:` qualified(type($result))";
  let builders = [OpBuilder<(ins "::mlir::Type":$type), [{
    build($_builder, $_state, type, ::mlir::ValueRange());
  }]>];
  let hasVerifier = 1;
}

def Tile_AllocFragmentOp : Tile_Op<"alloc_fragment"> {
  let summary = "a tile held in registers across the CTA";
  let description = [{
    Allocates a register fragment. Its contents are undefined until a
    `tile.fill`, `tile.copy`, `tile.gemm` or `tile.elementwise` writes it.

    Example: `%acc = tile.alloc_fragment : !tile.fragment<128x128xf32>`

    In a kernel family, dimensions may be `?`, sized by index operands
    as for `tile.alloc_shared`:
    `tile.alloc_fragment [%bm, %bn] : !tile.fragment<?x?xf32>`.

    Rules: must be inside a `tile.kernel`; one size per `?` dimension;
    with a layout, each thread's share fits 255 32-bit registers
    (`tile-assign-layouts` checks the layouts it chooses the same way).
  }];
  let arguments = (ins Variadic<Index>:$sizes);
  let results = (outs Res<Tile_FragmentType, "",
                          [MemAllocAt<0, FullEffect>]>:$result);
  let assemblyFormat = "(`[` $sizes^ `]`)? attr-dict `:` qualified(type($result))";
  let builders = [OpBuilder<(ins "::mlir::Type":$type), [{
    build($_builder, $_state, type, ::mlir::ValueRange());
  }]>];
  let hasVerifier = 1;
}

def Tile_AllocTmemOp : Tile_Op<"alloc_tmem"> {
  let summary = "allocates a tile of sm_100 tensor memory";
  let description = [{
    Allocates tensor memory for the CTA (`tcgen05.alloc`); the hardware rounds
    the column count up to a power of two of at least 32. All allocations of
    a kernel together must fit in 512 columns. Free it with
    `tile.dealloc_tmem` before the kernel ends.

    Example: `%t = tile.alloc_tmem : !tile.tmem<128x256xf32>`
  }];
  let results = (outs Res<Tile_TmemType, "",
                          [MemAllocAt<0, FullEffect>]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Tile_DeallocTmemOp : Tile_Op<"dealloc_tmem"> {
  let summary = "frees tensor memory";
  let description = [{
    Frees a `tile.alloc_tmem` allocation (`tcgen05.dealloc`) and gives up the
    CTA's allocation permit.

    Example: `tile.dealloc_tmem %t : !tile.tmem<128x256xf32>`

    Rules: the operand must come straight from `tile.alloc_tmem`.
  }];
  let arguments = (ins Arg<Tile_TmemType, "", [MemFreeAt<0, FullEffect>]>:$tmem);
  let assemblyFormat = "$tmem attr-dict `:` qualified(type($tmem))";
  let hasVerifier = 1;
}


#endif // TILE_MEMORY_OPS
