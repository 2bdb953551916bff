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

    Between passes, and from the compiler to the runtime, information
    travels in declared attributes only: `tile.target` (#tile.target), the
    `mechanism`, `async` and `multicast` attributes of the ops, and the
    dialect's discardable attributes, each with its type checked on every
    op: `tile.dynamic_shared_bytes` and `tile.tma` (on an outlined kernel:
    its dynamic shared memory and the tensor maps it takes, which
    `tile-translate --kernel-info` writes for the runtime),
    `tile.tma_param` (a TMA copy's tensor-map parameter),
    `tile.shared_offset` (a shared tile's offset),
    `tile.scratch_request` / `tile.scratch_offset` (shared scratch a
    lowering asked for and got), `tile.family` / `tile.config` (the family
    and parameter values a specialised kernel was made from), `tile.signature`
    (an outlined kernel's arguments as written), `tile.grid_rule` (the grid
    a kernel's `tile.grid` states, as expressions for the host),
    `tile.zeroed_args` (the arguments its `tile.zero_before_launch` names),
    `tile.stage` (an op's pipeline stage in a `tile.pipelined_for`, which
    the kernel author gives) and `tile.test_scratch_bytes` (tests).
  }];
  // The attributes passes leave on ops for later passes and the runtime
  // (`tile.target` is a #tile.target, verified on its own). Each is named
  // here once; C++ reads it through TileDialect::<Name>AttrHelper.
  let discardableAttrs = (ins
    // On a gpu.func: its dynamic shared memory bytes (kernel description).
    "::mlir::IntegerAttr":$dynamic_shared_bytes,
    // On a gpu.func: one dictionary per tensor map the kernel takes as an
    // extra parameter (param, arg, type, box, swizzle; kernel description).
    "::mlir::ArrayAttr":$tma,
    // On a TMA tile.copy: the kernel parameter of its tensor map (the
    // swizzle it is encoded with is the shared tile's, in its type).
    "::mlir::IntegerAttr":$tma_param,
    // On a tile.alloc_shared: its byte offset in dynamic shared memory.
    "::mlir::IntegerAttr":$shared_offset,
    // On an op whose lowering needs shared scratch: [bytes, alignment]
    // asked for, and the offset the allocator gave it.
    "::mlir::DenseI64ArrayAttr":$scratch_request,
    "::mlir::IntegerAttr":$scratch_offset,
    // Tests only: asks for this many bytes of scratch for the op.
    "::mlir::IntegerAttr":$test_scratch_bytes,
    // On a tile.kernel argument (a global memref): a symmetric buffer,
    // allocated on every rank by the runtime's symmetric allocator
    // (NVSHMEM), which world-level put/get/signal/wait may address.
    "::mlir::UnitAttr":$symmetric,
    // On a kernel that tile-specialize made from a family (a tile.kernel
    // with params), and on its outlined gpu.func: the family's name and the
    // parameter values of this configuration (kernel description).
    "::mlir::StringAttr":$family,
    "::mlir::DictionaryAttr":$config,
    // On an outlined gpu.func: the tile.kernel's arguments as written, one
    // {name, type} dictionary each (kernel description, launchers).
    "::mlir::ArrayAttr":$signature,
    // On a tile.kernel (left by tile-record-grid) and its outlined gpu.func:
    // the kernel's grid rule, three expressions over its arguments (x, y,
    // z; kernel description, launchers).
    "::mlir::ArrayAttr":$grid_rule,
    // On a tile.kernel (left by tile-record-grid) and its outlined gpu.func:
    // the memref arguments the launcher zeroes before each launch (kernel
    // description's zero record).
    "::mlir::DenseI64ArrayAttr":$zeroed_args,
    // On an op directly in a warp-specialised tile.pipelined_for's body, set
    // by the kernel author: its pipeline stage, 0 (the default) or 1 (the
    // op runs one iteration late, beside the next iteration's stage 0).
    "::mlir::IntegerAttr":$stage
  );
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // `tile.target` on a module must be a #tile.target.
  let hasOperationAttrVerify = 1;
  // `tile.symmetric` on a kernel argument must be a unit on a global memref.
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT
