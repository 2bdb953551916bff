//===- TileTypes.td - tile dialect types -------------------*- tablegen -*-===//

#ifndef TILE_TYPES
#define TILE_TYPES

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

// A statically shaped tile that is not addressable memory.
class Tile_ShapedStorageType<string name, string typeMnemonic,
                             code extraDecls = "">
    : Tile_Type<name, typeMnemonic, [ShapedTypeInterface]> {
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        DefaultValuedParameter<"::mlir::Attribute", "::mlir::Attribute()">:$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
                                        "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType, ::mlir::Attribute());
    }]>
  ];
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    ::mlir::ShapedType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                                 ::mlir::Type elementType) const {
      return get(getContext(), shape ? *shape : getShape(), elementType, getLayout());
    }
  }] # extraDecls;
}

def Tile_FragmentType : Tile_ShapedStorageType<"Fragment", "fragment"> {
  let summary = "a tile held in the registers of a CTA's threads";
  let description = [{
    A statically shaped tile spread across the registers of the threads of a
    CTA. The lowering chooses which thread holds which element (the layout):
    for element-wise work a blocked layout with 16-byte vectors per thread,
    for `tile.gemm` accumulators the layout of the matrix instruction.
    Integer and floating-point elements are allowed; at most 2^24 elements
    (more could never fit a CTA's registers).

    Example: `!tile.fragment<128x128xf32>`
  }];
}

def Tile_TmemType : Tile_ShapedStorageType<"Tmem", "tmem", [{
    /// Columns of 32 bits the tile occupies before rounding.
    int64_t getColumns() const;
    /// Columns the hardware allocates: a power of two, at least 32.
    int64_t getAllocatedColumns() const;
  }]> {
  let summary = "a tile in sm_100 tensor memory";
  let description = [{
    A two-dimensional tile in tensor memory (sm_100a): 128 lanes by up to
    512 columns of 32 bits per CTA. The first dimension is the lane count
    (64 or 128); the second, times the element width over 32 bits, is the
    number of columns, at most 512.

    Example: `!tile.tmem<128x256xf32>` (256 columns)
  }];
}

def Tile_BarrierType : Tile_Type<"Barrier", "barrier"> {
  let summary = "a ring of mbarriers in shared memory";
  let description = [{
    `count` mbarriers in shared memory, indexed from 0. A pipelined loop
    uses a ring with one barrier per stage; a single barrier is `<1>`.

    Example: `!tile.barrier<3>`
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
}

def Tile_TypeParamType : Tile_Type<"TypeParam", "type_param", [
    DeclareTypeInterfaceMethods<FloatTypeInterface, ["getFloatSemantics"]>,
    MemRefElementTypeInterface]> {
  let summary = "a kernel family's element-type parameter";
  let description = [{
    Stands for the floating-point type of the family's type parameter
    `name` (declared `params(T: type = f32 in [f32, bf16])`) wherever a
    type is written: memref and fragment elements, scalars, `arith` ops.
    Until `tile-specialize` replaces it with the configuration's type, it
    behaves as `standsFor` (the type its verifiers check it as, normally
    the parameter's default). An alias keeps the body readable:

    ```mlir
    !T = !tile.type_param<"T", f32>
    tile.kernel @vadd(%a: memref<?x!T>, ...) params(T: type = f32 in [f32, bf16]) ...
      %s = arith.addf %u, %v : !T
    ```

    Rules: `standsFor` is a floating-point type; the enclosing kernel
    declares `name` as a type parameter (checked by tile-specialize).
  }];
  let parameters = (ins StringRefParameter<"parameter name">:$name,
                        "::mlir::FloatType":$standsFor);
  let assemblyFormat = "`<` $name `,` $standsFor `>`";
}

def Tile_AnyTile : AnyTypeOf<[AnyMemRef, Tile_FragmentType, Tile_TmemType]>;

#endif // TILE_TYPES
