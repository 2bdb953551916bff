//===- TileAttrs.td - tile dialect enums and attributes ----*- tablegen -*-===//

#ifndef TILE_ATTRS
#define TILE_ATTRS

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "tile/Dialect/Tile/IR/TileLayoutInterface.td"

// Which threads execute a distributed op together.
def Tile_ScopeThread : I32EnumAttrCase<"thread", 0>;
def Tile_ScopeWarp : I32EnumAttrCase<"warp", 1>;
def Tile_ScopeWarpgroup : I32EnumAttrCase<"warpgroup", 2>;
def Tile_ScopeBlock : I32EnumAttrCase<"block", 3>;
def Tile_Scope : I32EnumAttr<"Scope", "threads that execute an op together",
    [Tile_ScopeThread, Tile_ScopeWarp, Tile_ScopeWarpgroup, Tile_ScopeBlock]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tile";
}
def Tile_ScopeAttr : EnumAttr<Tile_Dialect, Tile_Scope, "scope">;

// Which peers a distributed op talks to: CTAs of the cluster (distributed
// shared memory) or processes of the whole job (NVSHMEM processing elements).
def Tile_LevelCluster : I32EnumAttrCase<"cluster", 0>;
def Tile_LevelWorld : I32EnumAttrCase<"world", 1>;
def Tile_Level : I32EnumAttr<"Level", "peers a distributed op reaches",
    [Tile_LevelCluster, Tile_LevelWorld]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tile";
}
def Tile_LevelAttr : EnumAttr<Tile_Dialect, Tile_Level, "level">;

def Tile_CmpEq : I32EnumAttrCase<"eq", 0>;
def Tile_CmpNe : I32EnumAttrCase<"ne", 1>;
def Tile_CmpGt : I32EnumAttrCase<"gt", 2>;
def Tile_CmpGe : I32EnumAttrCase<"ge", 3>;
def Tile_CmpLt : I32EnumAttrCase<"lt", 4>;
def Tile_CmpLe : I32EnumAttrCase<"le", 5>;
def Tile_Cmp : I32EnumAttr<"Cmp", "comparison a wait spins on",
    [Tile_CmpEq, Tile_CmpNe, Tile_CmpGt, Tile_CmpGe, Tile_CmpLt, Tile_CmpLe]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tile";
}
def Tile_CmpAttr : EnumAttr<Tile_Dialect, Tile_Cmp, "cmp">;

def Tile_SignalSet : I32EnumAttrCase<"set", 0>;
def Tile_SignalAdd : I32EnumAttrCase<"add", 1>;
def Tile_SignalKind : I32EnumAttr<"SignalKind", "how a signal updates its word",
    [Tile_SignalSet, Tile_SignalAdd]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tile";
}
def Tile_SignalKindAttr : EnumAttr<Tile_Dialect, Tile_SignalKind, "signal_kind">;

// What a tile.reduce combines its elements with.
def Tile_ReduceSum : I32EnumAttrCase<"sum", 0>;
def Tile_ReduceMax : I32EnumAttrCase<"max", 1>;
def Tile_ReduceMin : I32EnumAttrCase<"min", 2>;
def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "how a tile.reduce combines",
    [Tile_ReduceSum, Tile_ReduceMax, Tile_ReduceMin]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tile";
}
def Tile_ReduceKindAttr : EnumAttr<Tile_Dialect, Tile_ReduceKind, "reduce_kind">;

//===----------------------------------------------------------------------===//
// Target and instruction selection
//===----------------------------------------------------------------------===//

def Tile_TargetAttr : AttrDef<Tile_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "the chip a module is compiled for";
  let description = [{
    Names the NVIDIA chip (as ptxas spells it: `sm_80`, `sm_86`, `sm_89`,
    `sm_90`, `sm_90a`, `sm_100a`) that every pass lowering the module
    compiles for. `tile-attach-target` puts it on the module as
    `tile.target`, and the `tile-to-nvvm` pipeline and `tile-translate` run
    that pass first, so passes run one at a time read the same chip and
    cannot disagree. What the chip can do (cp.async, TMA, clusters, wgmma,
    setmaxnreg, tcgen05, tensor memory) comes from tile's chip table.

    Kernel outlining also gives the `gpu.module` upstream's
    `#nvvm.target<chip = ...>`, so upstream passes such as
    `gpu-module-to-binary` see the same chip.

    Example: `module attributes {tile.target = #tile.target<"sm_90a">} { ... }`
  }];
  let parameters = (ins StringRefParameter<"chip name">:$chip);
  let assemblyFormat = "`<` $chip `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

def Tile_SharedAttr : AttrDef<Tile_Dialect, "Shared"> {
  let mnemonic = "shared";
  let summary = "shared memory addressed through a swizzle";
  let description = [{
    The memory space of a shared tile whose swizzle is known: CTA shared
    memory (as `#gpu.address_space<workgroup>`) in which the 16-byte chunks
    of each row are XOR-permuted over `swizzle`-byte spans (0, 32, 64 or
    128; 0 for none), the layout TMA writes and wgmma and tcgen05 read
    without bank conflicts. Rows wider than the swizzle are stored as
    blocks of columns, each `swizzle` bytes wide and contiguous.

    The swizzle is a property of the memory a tile lives in, not of the
    indices: views of the tile (`memref.subview`, a pipelined ring's
    slots) keep it, and every lowering that needs it (TMA copies, matrix
    descriptors, stores from registers) reads it from the operand's type,
    whichever pass lowered the allocation. `tile.alloc_shared` may write it
    (`memref<128x64xbf16, #tile.shared<swizzle = 128>>`); a tile in
    `#gpu.address_space<workgroup>` has its swizzle chosen by
    `tile-assign-layouts` where a matrix instruction reads it, and none
    otherwise. The lowering maps this memory space to
    `#gpu.address_space<workgroup>`.

    Ordinary loads and stores (`memref.load`, `tile.fill`,
    `tile.elementwise`, register copies) do not swizzle their addresses,
    so they refuse a tile whose swizzle is not 0.
  }];
  let parameters = (ins "int64_t":$swizzle);
  let assemblyFormat = "`<` `swizzle` `=` $swizzle `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Kernel families
//===----------------------------------------------------------------------===//

def Tile_ParamAttr : AttrDef<Tile_Dialect, "Param"> {
  let mnemonic = "param";
  let summary = "a compile-time parameter of a kernel family";
  let description = [{
    One entry of a `tile.kernel`'s `params(...)`: a name, an integer type
    (`index`, `i32`, `i64`, or `i1` for a flag), an optional default, and
    optional constraints: the values it may take (`in [...]`) and a
    divisor (`multiple_of N`). An element-type parameter (`T: type = f32
    in [f32, bf16]`, stored with `type` NoneType) takes floating-point
    types; the body writes it as `!tile.type_param<"T", f32>`. `tile-specialize` substitutes a value for
    every parameter and checks the constraints. The kernel prints these in
    its own syntax (`params(BM: index = 128 in [64, 128])`); standing
    alone the attribute reads:

    `#tile.param<name = "BM", type = index, default_value = 128 : index>`
  }];
  let parameters = (ins "::mlir::StringAttr":$name, "::mlir::Type":$type,
                        OptionalParameter<"::mlir::IntegerAttr">:$default_value,
                        OptionalParameter<"::mlir::DenseI64ArrayAttr">:$allowed,
                        OptionalParameter<"::mlir::IntegerAttr">:$multiple_of,
                        OptionalParameter<"::mlir::TypeAttr">:$default_type,
                        OptionalParameter<"::mlir::ArrayAttr">:$allowed_types);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Why `value` is not a value this parameter may take (empty: it may).
    std::string explainRejection(int64_t value) const;
    /// An element-type parameter (`T: type`): its `type` is NoneType and
    /// its values are floating-point types.
    bool isTypeParam() const { return ::llvm::isa<::mlir::NoneType>(getType()); }
    /// Why `value` (an IntegerAttr, or a TypeAttr for a type parameter) is
    /// not one this parameter may take (empty: it may).
    std::string explainRejection(::mlir::Attribute value) const;
  }];
}

// The mechanism a tile.copy lowers to, chosen by tile-select-instructions.
def Tile_CopyVector : I32EnumAttrCase<"vector", 0>;
def Tile_CopyCpAsync : I32EnumAttrCase<"cp_async", 1>;
def Tile_CopyTmaLoad : I32EnumAttrCase<"tma_load", 2>;
def Tile_CopyTmaStore : I32EnumAttrCase<"tma_store", 3>;
def Tile_CopyTmemLoad : I32EnumAttrCase<"tmem_load", 4>;
def Tile_CopyTmemStore : I32EnumAttrCase<"tmem_store", 5>;
def Tile_CopyMechanism : I32EnumAttr<"CopyMechanism",
    "hardware mechanism of a tile.copy",
    [Tile_CopyVector, Tile_CopyCpAsync, Tile_CopyTmaLoad, Tile_CopyTmaStore,
     Tile_CopyTmemLoad, Tile_CopyTmemStore]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tile";
}
def Tile_CopyMechanismAttr
    : EnumAttr<Tile_Dialect, Tile_CopyMechanism, "copy_mechanism"> {
  let summary = "how a tile.copy moves its data";
  let description = [{
    - `vector`: each thread moves its runs (up to 16 bytes) through
      registers with ordinary loads and stores (predicated at tile edges).
    - `cp_async`: global -> shared as `cp.async` 16-byte runs (sm_80+);
      rows that are not 16-byte aligned at run time go through registers.
    - `tma_load`: global -> shared, issued by one thread as
      `cp.async.bulk.tensor` completing on the copy's mbarrier (sm_90+);
      with `{multicast}` each CTA of the cluster loads a slice for all.
    - `tma_store`: shared -> global as a bulk tensor store (sm_90+).
    - `tmem_load`: tensor memory -> registers, `tcgen05.ld` 32x32b then
      `tcgen05.wait::ld` (sm_100a); the fragment has the
      `#tile.tmem_32x32b` layout.
    - `tmem_store`: registers -> tensor memory, `tcgen05.st` 32x32b then
      `tcgen05.wait::st` (sm_100a).
  }];
  let assemblyFormat = "`<` $value `>`";
}

// How a communication op reaches its peers (CommunicationOpInterface).
def Tile_CommDsmem : I32EnumAttrCase<"dsmem", 0>;
def Tile_CommNvshmem : I32EnumAttrCase<"nvshmem", 1>;
def Tile_CommP2p : I32EnumAttrCase<"p2p", 2>;
def Tile_CommMechanism : I32EnumAttr<"CommMechanism",
    "mechanism of a communication op",
    [Tile_CommDsmem, Tile_CommNvshmem, Tile_CommP2p]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tile";
}
def Tile_CommMechanismAttr
    : EnumAttr<Tile_Dialect, Tile_CommMechanism, "comm_mechanism"> {
  let summary = "how a put, get, signal, wait or barrier reaches its peers";
  let description = [{
    - `dsmem`: `level cluster`, the CTAs of the kernel's cluster through
      distributed shared memory (sm_90+): `mapa` and loads and stores to
      `shared::cluster`, signals and waits as release stores and acquire
      loads at cluster scope, `barrier.cluster` (Distributed/Cluster.cpp).
    - `nvshmem`: `level world`, the processes of the job through calls of
      NVSHMEM's device library, linked in when the runtime loads the
      kernel (Distributed/Nvshmem.cpp). A put or get moves its tile in
      one call when the tile is contiguous and its rows follow each other
      in the remote buffer, else one call per row.
    - `p2p`: `level world`, tile.put, tile.get and tile.wait only. A put
      or get: each thread of the
      scope moves its runs (up to 16 bytes) with its own loads and stores
      through the address `nvshmem_ptr` gives for the peer's buffer (a
      peer on the same node, over NVLink or PCIe); a signal follows
      `nvshmem_fence`, as NVSHMEM's own put-with-signal does. A peer that
      `nvshmem_ptr` cannot reach gets the `nvshmem` calls instead.
      tile-select-instructions picks it for tiles that NVSHMEM would move
      row by row, and for every wait: one thread spins on acquire loads of
      the local word at system scope, with no call (a call in a kernel
      makes ptxas serialise its wgmmas) (Distributed/Nvshmem.cpp).
  }];
  let assemblyFormat = "`<` $value `>`";
}

// The matrix instruction a tile.gemm lowers to.
def Tile_MmaSync : I32EnumAttrCase<"mma_sync", 0>;
def Tile_MmaWgmma : I32EnumAttrCase<"wgmma", 1>;
def Tile_MmaTcgen05 : I32EnumAttrCase<"tcgen05", 2>;
def Tile_MmaMechanism : I32EnumAttr<"MmaMechanism",
    "matrix instruction of a tile.gemm",
    [Tile_MmaSync, Tile_MmaWgmma, Tile_MmaTcgen05]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tile";
}
def Tile_MmaMechanismAttr
    : EnumAttr<Tile_Dialect, Tile_MmaMechanism, "mma_mechanism"> {
  let summary = "which tensor-core instruction a tile.gemm issues";
  let description = [{
    - `mma_sync`: per warp, `mma.sync` m16n8k16 with operands read by
      `ldmatrix` (sm_80+); C has the `#tile.mma` layout.
    - `wgmma`: per warpgroup, `wgmma.mma_async` from swizzled shared tiles,
      or with A in registers (sm_90a); C has the `#tile.wgmma` layout.
    - `tcgen05`: one thread issues `tcgen05.mma` (cta_group::1) from
      swizzled shared tiles into a tensor-memory accumulator and commits
      it to the gemm's barrier (sm_100a). In a `warp_specialized`
      `tile.pipelined_for` C may be a fragment: the pipeliner keeps the
      accumulator in tensor memory and the epilogue reads it into C, which
      then has the `#tile.tmem_32x32b` layout.
  }];
  let assemblyFormat = "`<` $value `>`";
}

#endif // TILE_ATTRS

//===----------------------------------------------------------------------===//
// Fragment layouts
//===----------------------------------------------------------------------===//

#ifndef TILE_LAYOUT_ATTRS
#define TILE_LAYOUT_ATTRS
// Each implements Tile_FragmentLayoutAttrInterface (TileLayoutInterface.td),
// which says what the layout means; the lowerings and verifiers ask it.
class Tile_FragmentLayoutAttr<string name>
    : AttrDef<Tile_Dialect, name,
              [DeclareAttrInterfaceMethods<Tile_FragmentLayoutAttrInterface>]>;

def Tile_BlockedLayoutAttr : Tile_FragmentLayoutAttr<"BlockedLayout"> {
  let mnemonic = "blocked";
  let summary = "fragment layout for element-wise work and plain copies";
  let description = [{
    Element `i` (in row-major order) of a fragment with this layout is held by
    thread `(i / vector) mod threads`, in its register slot
    `(i / (vector * threads)) * vector + i mod vector`. Each thread thus
    holds runs of `vector` consecutive elements (16 bytes where the shape
    allows), and consecutive threads hold consecutive runs, so copies to and
    from global memory are coalesced 16-byte accesses. When the runs do
    not divide evenly over the threads (a 1x1 fragment in a CTA of 128, a
    1x200 one), the last threads hold a run fewer, or none: copies and
    element-wise ops guard those runs, and `tile.reduce` refuses such a
    fragment (its rows would not lie at fixed offsets).

    With `part = P` (a multiple of 32 that divides `threads`, less than
    it), the fragment is first cut into `threads / P` consecutive parts of
    equal size, and part `k` is dealt as above to threads `kP .. kP + P - 1`.
    With `part = 32` each warp holds a part of its own: whole rows when the
    parts are whole rows, so a reduction along a row needs shuffles only
    (no shared memory, no CTA barrier), and narrow rows go several to a
    warp. tile-assign-layouts chooses it for tiles reduced along their rows.

    A fragment needs `vector` to divide its innermost dimension and
    `threads x vector` to divide its element count; `threads` is the
    kernel's (or its warp-specialised team's) thread count.
    `FragmentLayoutAttrInterface` answers the mapping's questions
    (docs/generated/TileLayoutInterface.md).

    Examples: `!tile.fragment<128x64xf32, #tile.blocked<threads = 128, vector = 4>>`,
    `!tile.fragment<4x1024xbf16, #tile.blocked<threads = 128, vector = 8, part = 32>>`
    (a row per warp).
  }];
  let parameters = (ins "int64_t":$threads, "int64_t":$vector,
                        DefaultValuedParameter<"int64_t", "0">:$part);
  let builders = [
    AttrBuilder<(ins "int64_t":$threads, "int64_t":$vector,
                     CArg<"int64_t", "0">:$part), [{
      return $_get($_ctxt, threads, vector, part);
    }]>
  ];
  let skipDefaultBuilders = 1;
  let assemblyFormat = "`<` `threads` `=` $threads `,` `vector` `=` $vector (`,` `part` `=` $part^)? `>`";
  let extraClassDeclaration = [{
    /// Threads that share a part: `part`, or all of them when it is 0.
    int64_t getPartThreads() const {
      return getPart() ? getPart() : getThreads();
    }
  }];
}
#endif

#ifndef TILE_WGMMA_LAYOUT_ATTR
#define TILE_WGMMA_LAYOUT_ATTR
def Tile_WgmmaLayoutAttr : Tile_FragmentLayoutAttr<"WgmmaLayout"> {
  let mnemonic = "wgmma";
  let summary = "fragment layout of sm_90a wgmma accumulators";
  let description = [{
    The accumulator layout of `wgmma.mma_async` m64nNk*: warpgroup `g` of the
    CTA holds rows [64 B g, 64 B (g + 1)) of an M x N tile (M = 64 x B x
    warpgroups), as `B` = `blocks` blocks of 64 rows, one m64 wgmma each per
    K step. Within block `i`, lane `l` of warp `w` holds, for every 8-column
    chunk `c`, the pairs (row 64 (B g + i) + 16 w + l / 4 + 8 h, columns
    8 c + 2 (l mod 4) + {0, 1}) for h = 0, 1: `N / 2` registers per block
    and thread, in slots `N i / 2 + 4 c + 2 h + {0, 1}`.

    The tile must be (64 x blocks x warpgroups) x N with N a multiple of 8
    up to 256, in a kernel (or team) of 128 x warpgroups threads. Two blocks
    give each warpgroup a 128-row tile (a 256 x 128 CTA tile with two
    warpgroups, or 128-row ping-pong teams): per K step the warpgroup reads
    B once per block, and each thread holds N registers.

    Examples: `!tile.fragment<128x256xf32, #tile.wgmma<warpgroups = 2>>`,
    `!tile.fragment<256x128xf32, #tile.wgmma<warpgroups = 2, blocks = 2>>`
  }];
  let parameters = (ins "int64_t":$warpgroups,
                        DefaultValuedParameter<"int64_t", "1">:$blocks);
  let assemblyFormat =
      "`<` `warpgroups` `=` $warpgroups (`,` `blocks` `=` $blocks^)? `>`";
}
#endif

#ifndef TILE_TMEM_LAYOUT_ATTR
#define TILE_TMEM_LAYOUT_ATTR
def Tile_Tmem32x32bLayoutAttr : Tile_FragmentLayoutAttr<"Tmem32x32bLayout"> {
  let mnemonic = "tmem_32x32b";
  let summary = "fragment layout of a tcgen05.ld/st 32x32b access to 128 lanes";
  let description = [{
    The registers a `tcgen05.ld` / `tcgen05.st` of shape 32x32b fills from
    (or drains into) a 128-lane tensor-memory tile: a warp may only reach
    the 32 lanes of its quarter of tensor memory (its warp index within the
    warpgroup), lane `l` of the warp reading row `32 (w mod 4) + l`. With
    several warpgroups they split the columns: thread `tid` = 128 g + 32 w
    + l holds row `32 w + l` and the `N / warpgroups` columns from
    `g N / warpgroups`, in runs of 4 consecutive columns (slot `j` is
    column `g N / warpgroups + j`). This is the row-per-thread layout of an
    sm_100a accumulator read back for the epilogue.

    The tile must be 128 x N with N a multiple of 4 x warpgroups, in a
    kernel (or team) of 128 x warpgroups threads.

    Example: `!tile.fragment<128x256xf32, #tile.tmem_32x32b<warpgroups = 2>>`
  }];
  let parameters = (ins "int64_t":$warpgroups);
  let assemblyFormat = "`<` `warpgroups` `=` $warpgroups `>`";
}
#endif

#ifndef TILE_MMA_LAYOUT_ATTR
#define TILE_MMA_LAYOUT_ATTR
def Tile_MmaLayoutAttr : Tile_FragmentLayoutAttr<"MmaLayout"> {
  let mnemonic = "mma";
  let summary = "fragment layout of sm_80 mma.sync m16n8k16 accumulators";
  let description = [{
    The CTA's warps form a `warps_m x warps_n` grid; warp (wm, wn) holds the
    (M / warps_m) x (N / warps_n) block at (wm, wn), as tm x tn tiles of
    16 x 8. In tile (i, j), lane `l` holds rows `l / 4` and `l / 4 + 8` and
    columns `2 (l mod 4) + {0, 1}` (the mma.sync C layout), in slots
    `((i tn + j) 2 + h) 2 + {0, 1}`.

    M must be a multiple of 16 x warps_m and N of 8 x warps_n, in a kernel
    (or team) of 32 x warps_m x warps_n threads.

    Example: `!tile.fragment<128x128xf32, #tile.mma<warps_m = 2, warps_n = 4>>`
  }];
  let parameters = (ins "int64_t":$warps_m, "int64_t":$warps_n);
  let assemblyFormat = "`<` `warps_m` `=` $warps_m `,` `warps_n` `=` $warps_n `>`";
}
#endif

#ifndef TILE_SLICE_LAYOUT_ATTR
#define TILE_SLICE_LAYOUT_ATTR
def Tile_SliceLayoutAttr : AttrDef<Tile_Dialect, "SliceLayout", [
    DeclareAttrInterfaceMethods<Tile_FragmentLayoutAttrInterface,
        ["getRunsPerThread", "isEven", "hasRun", "buildHasRun"]>]> {
  let mnemonic = "slice";
  let summary = "fragment layout of one row or column of a laid-out tile";
  let description = [{
    The layout of a tile whose dimension `dim` is 1, seen as a slice of a
    tile of the same shape but `extent` along `dim`, laid out by `parent`:
    every thread that holds elements of the parent tile at some coordinate
    along `dim` holds the slice's element with that coordinate dropped to 0.
    Threads along `dim` (lanes of a warp, warps of the CTA, runs of one
    thread) thus hold copies of the same element.

    It is what `tile.reduce` along `dim` leaves (each thread holds the
    result for every row it held elements of) and what a row or column
    broadcast into a `tile.elementwise` reads (each thread finds the value
    for each of its parent runs in its own registers: no shuffle, no shared
    memory). Thread `tid` holds one run per distinct position its parent
    runs take once the coordinate along `dim` is set to 0 (parent runs
    whose offsets from run 0 differ only along `dim` share a run), in the
    order of the parent runs; a run has the parent's run width, or 1
    element when `dim` is the innermost dimension. Where the parent's run
    offsets depend on the thread, each parent run keeps its own run. Slices
    nest (a scalar broadcast over a 2-D tile is a slice of a slice).

    `tile-assign-layouts` chooses slice layouts; writing one by hand is
    rarely needed.

    Example: `!tile.fragment<4x1xf32, #tile.slice<dim = 1, extent = 1024,
    parent = #tile.blocked<threads = 128, vector = 8>>>` (the sums of the
    rows of a 4x1024 tile).
  }];
  let parameters = (ins "int64_t":$dim, "int64_t":$extent,
                        "::mlir::Attribute":$parent);
  let assemblyFormat = [{
    `<` `dim` `=` $dim `,` `extent` `=` $extent `,` `parent` `=` $parent `>`
  }];
  let extraClassDeclaration = [{
    /// The parent's layout interface (null when the parent is not a layout).
    ::mlir::tile::FragmentLayoutAttrInterface getParentLayout() const;
    /// `shape` with `dim` set to `extent`: the tile the parent lays out.
    ::llvm::SmallVector<int64_t> getParentShape(::llvm::ArrayRef<int64_t> shape) const;
    /// For each run of the slice on `shape`, the first parent run it
    /// stands for.
    ::llvm::SmallVector<int64_t> getParentRuns(::llvm::ArrayRef<int64_t> shape) const;
    /// For each parent run, the slice's run that holds its elements.
    ::llvm::SmallVector<int64_t> getSliceRuns(::llvm::ArrayRef<int64_t> shape) const;
  }];
}
#endif
