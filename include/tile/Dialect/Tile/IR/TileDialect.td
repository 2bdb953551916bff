//===- TileDialect.td - the tile dialect -------------------*- tablegen -*-===//

#ifndef TILE_DIALECT
#define TILE_DIALECT

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Tile programs for NVIDIA GPUs: copies, matrix products and "
                "synchronisation named at the granularity of a tile";
  let description = [{
    The `tile` dialect describes a GPU kernel as work on tiles: a CTA copies
    tiles between global memory, shared memory, register fragments and tensor
    memory (`tile.copy`), multiplies them (`tile.gemm`), applies scalar code to
    every element (`tile.elementwise`), and synchronises with mbarriers or with
    other CTAs and GPUs (`tile.put`, `tile.get`, `tile.signal`, `tile.wait`).

    Global and shared memory are builtin `memref`s (shared memory carries
    `#gpu.address_space<workgroup>`), so upstream `memref`, `arith`, `scf` and
    `gpu` ops work on them. Storage that is not addressable memory has types of
    its own: `!tile.fragment` (a tile spread over the registers of a CTA's
    threads, whose per-thread layout the compiler chooses) and `!tile.tmem`
    (a tile in sm_100 tensor memory). `!tile.barrier<N>` is a ring of N
    mbarriers in shared memory.

    Which instructions an op becomes depends on the target chip, which is
    IR: `tile.target = #tile.target<"sm_90a">` on the module, attached by
    `tile-attach-target`. `tile-select-instructions` then records on each
    copy and gemm the mechanism it takes (`#tile.copy_mechanism`,
    `#tile.mma_mechanism`); where a chip cannot do what the IR asks, that
    pass fails with a located error naming the op and the chip rather than
    changing meaning.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // `tile.target` on a module must be a #tile.target.
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT
