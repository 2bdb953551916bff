//===- TileOps.td - tile dialect ops -----------------------*- tablegen -*-===//
//
// The op reference: every op carries its summary, a description with an
// example, and the rules its verifier enforces. docs/generated/ is built
// from this file.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_OPS
#define TILE_OPS

include "tile/Dialect/Tile/IR/TileOpBase.td"
include "tile/Dialect/Tile/IR/TileMemoryOps.td"
include "tile/Dialect/Tile/IR/TileSyncOps.td"
include "tile/Dialect/Tile/IR/TileComputeOps.td"
include "tile/Dialect/Tile/IR/TileDistributedOps.td"

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    IsolatedFromAbove, FunctionOpInterface, Symbol,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>,
    SingleBlockImplicitTerminator<"YieldOp">, AutomaticAllocationScope,
    RecursiveMemoryEffects]> {
  let summary = "a GPU kernel: its arguments, threads per CTA and cluster shape";
  let description = [{
    Defines a kernel symbol. Arguments are global-memory `memref`s (dynamic
    sizes allowed: they travel as MLIR memref descriptors) and scalars
    (integers, floats, `index`). `threads` is the CTA size, used for launch
    bounds and to distribute tile work; `cluster` is the optional thread-block
    cluster shape (sm_90+). The body uses `gpu.block_id` / `gpu.thread_id` for
    its position in the grid.

    Example:

    ```mlir
    tile.kernel @vadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>)
        threads(128) {
      %bx = gpu.block_id x
      ...
    }
    ```

    **Families.** A kernel may declare compile-time parameters, which make
    it a family of kernels: integers (tile sizes, stages, threads) and
    flags (`i1`), each with an optional default and optional constraints,
    a list of allowed values and a divisor. The body reads a parameter
    with `tile.param`, sizes shared tiles and fragments with it
    (`tile.alloc_shared [%bm, %bk] : memref<?x?xbf16, ...>`), and
    `threads(NAME)`, any dimension of `cluster(...)` and a
    `tile.pipelined_for`'s `stages(NAME)` and `pingpong(NAME)` may name
    one. `configs(...)` lists the configurations the family is meant for,
    each setting some parameters (the others keep their defaults).
    `tile-specialize` turns a family into ordinary kernels, one per
    configuration, named `<kernel>__<NAME><value>_...`; every pass after
    it sees only static IR, and selection refuses a kernel that still has
    parameters.

    ```mlir
    tile.kernel @vadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>)
        params(TILE: index = 1024 in [512, 1024, 2048], THREADS: i32 = 128)
        configs([TILE = 1024], [TILE = 2048, THREADS = 256])
        threads(THREADS) {
      %tile = tile.param "TILE" : index
      %x = tile.alloc_fragment [%tile] : !tile.fragment<?xf32>
      ...
    }
    ```

    The arguments' names as written (`%A`) are kept (`arg_names`): they
    name the parameters of the kernel's description and of its generated
    C++ launcher.

    Rules: no results; `threads` in [1, 1024]; cluster dims positive with a
    product of at most 16; arguments are memrefs in global memory or scalars;
    the tensor memory the body allocates fits in 512 columns. Parameters:
    unique names, integer types, defaults and allowed values that fit the
    type and meet the constraints; each configuration sets only declared
    parameters, to values they allow; `threads(NAME)` and a cluster
    dimension's NAME name integer parameters (the limits above are checked
    once `tile-specialize` has set them).
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       I32Attr:$threads,
                       OptionalAttr<DenseI32ArrayAttr>:$cluster,
                       OptionalAttr<TypedArrayAttrBase<Tile_ParamAttr,
                           "compile-time parameters">>:$params,
                       OptionalAttr<TypedArrayAttrBase<DictionaryAttr,
                           "configurations">>:$configs,
                       OptionalAttr<StrAttr>:$threads_param,
                       OptionalAttr<StrArrayAttr>:$cluster_params,
                       OptionalAttr<StrArrayAttr>:$arg_names,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// Cluster shape, 1x1x1 when absent.
    ::llvm::SmallVector<int32_t, 3> getClusterShape();
    /// CTAs per cluster (1 without a cluster).
    int64_t getClusterSize();
    /// The declared parameter `name`, if any.
    ::mlir::tile::ParamAttr lookupParam(::llvm::StringRef name);
    /// Whether the kernel is a family still to be specialised: it declares
    /// parameters or its body reads one.
    bool isFamily();
  }];
}

def Tile_ParamOp : Tile_Op<"param", [Pure]> {
  let summary = "reads a compile-time parameter of the enclosing kernel family";
  let description = [{
    The value of the kernel's parameter `name`, usable wherever a constant
    is: arithmetic, loop bounds, offsets, and the sizes of
    `tile.alloc_shared` and `tile.alloc_fragment`. `tile-specialize`
    replaces it with an `arith.constant` and folds what depends on it.

    Example: `%bm = tile.param "BM" : index`

    Rules: directly in a `tile.kernel` body or nested in it (not in a
    helper: pass the value as an argument); the kernel declares `name`;
    the result has the parameter's type.
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs AnySignlessIntegerOrIndex:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_GridOp : Tile_Op<"grid", [HasParent<"KernelOp">]> {
  let summary = "states the grid a kernel is launched with, for the host";
  let description = [{
    The launch grid (x, and optionally y and z; 1 where absent) of the
    enclosing kernel, computed from what the host knows at launch: the
    kernel's scalar arguments, the sizes of its memref arguments
    (`memref.dim`), constants, parameters, `tile.num_sms` and integer
    arithmetic (`arith` add, sub, mul, div, ceildiv, rem, min, max, casts),
    and `arith.select` by a condition computed from parameters and
    constants alone (a family's choice, which `tile-specialize` folds: the
    host evaluates no select). The kernel body may use the same values.
    `tile-record-grid` turns the op into the kernel's `tile.grid_rule`,
    which the kernel description carries and the generated launchers
    evaluate: a launcher function without a `grid` argument then launches
    the kernel.

    Example (a persistent GEMM: a CTA per tile, no more than SMs):

    ```mlir
    %tiles = arith.muli %tiles_m, %tiles_n : index
    %sms = tile.num_sms : index
    %ctas = arith.minui %tiles, %sms : index
    tile.grid %ctas
    ```

    Rules: directly in a `tile.kernel` body, at most once; one to three
    `index` operands, each computed only from the values above.
  }];
  let arguments = (ins Variadic<Index>:$sizes);
  let assemblyFormat = "$sizes attr-dict";
  let hasVerifier = 1;
}

def Tile_ZeroBeforeLaunchOp : Tile_Op<"zero_before_launch",
                                      [HasParent<"KernelOp">]> {
  let summary = "asks the launcher to zero a memref argument before each launch";
  let description = [{
    The generated launcher (and any `BoundLaunch`) sets every element of
    memref argument `target` to zero on the launch's stream before each
    launch of the kernel: for kernels whose CTAs add partial results into
    their output (split-K with `tile.copy ... {atomic_add}`), which no CTA
    can zero without ordering itself against the others. Like `tile.grid`,
    it is host code: `tile-record-grid` records it as the kernel's
    `tile.zeroed_args` (the kernel description's `zero` record) and erases
    it. With `if %flag` the zeroing applies only where `%flag` is true: a
    family parameter, or arithmetic on parameters and constants, known once
    `tile-specialize` has run. The launcher zeroes the view the argument's
    sizes and strides describe (its rows, not the gaps between them).

    Example (a family whose SPLITK > 1 configurations add their parts):

    ```mlir
    %split = arith.cmpi ugt, %splitk, %c1 : index
    tile.zero_before_launch %C if %split : memref<?x?xf32>
    ```

    Rules: directly in a `tile.kernel` body; `target` is one of the
    kernel's memref arguments, named at most once.
  }];
  let arguments = (ins AnyMemRef:$target, Optional<I1>:$condition);
  let assemblyFormat =
      "$target (`if` $condition^)? attr-dict `:` type($target)";
  let hasVerifier = 1;
}

def Tile_StaticAssertOp : Tile_Op<"static_assert"> {
  let summary = "refuses the configurations of a family that a rule excludes";
  let description = [{
    States a rule between a family's parameters that every configuration
    must keep, as Triton's `tl.static_assert` does: `%condition` is
    computed from parameters and constants, so `tile-specialize` folds it
    to a constant; a configuration where it is false is refused with
    `message` (and dropped, with a warning, under `skip-invalid` or
    `tile-translate --skip-failing-configs`). `tile-record-grid` erases the
    op and refuses a condition that is still not a constant.

    Example (split-K adds partial sums, so it takes no epilogue):

    ```mlir
    %fused = arith.andi %split, %has_bias : i1
    %ok = arith.xori %fused, %true : i1
    tile.static_assert %ok, "SPLITK > 1 takes no BIAS"
    ```

    Rules: inside a `tile.kernel`.
  }];
  let arguments = (ins I1:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict";
  let hasVerifier = 1;
}

def Tile_NumSmsOp : Tile_Op<"num_sms", [Pure]> {
  let summary = "the launching device's SM count, for a grid rule";
  let description = [{
    The number of streaming multiprocessors of the device the kernel is
    launched on, known only on the host: usable in the operands of
    `tile.grid` (a persistent kernel's grid), refused anywhere the kernel
    itself would need it.

    Example: `%sms = tile.num_sms : index`
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["KernelOp", "ElementwiseOp", "PipelinedForOp",
               "WarpSpecializeOp"]>]> {
  let summary = "terminates a tile region";
  let description = [{
    Ends the body of `tile.kernel`, `tile.pipelined_for` and the regions of
    `tile.warp_specialize` (no operands,
    implicit in the custom form) and yields the per-element results of a
    `tile.elementwise` body.

    Example: `tile.yield %sum : f32`
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let hasVerifier = 1;
}

def Tile_PipelinedForOp : Tile_Op<"pipelined_for", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<LoopLikeOpInterface,
        ["getLoopInductionVars", "getLoopLowerBounds",
         "getLoopUpperBounds", "getLoopSteps"]>]> {
  let summary = "a k-loop whose copies overlap its compute";
  let description = [{
    A counted loop (`%iv` from `%lb` to `%ub` by `%step`) whose body loads
    tiles and computes on them. The lowering multi-buffers each shared tile
    the body's copies write into `stages` copies, issues the copies of
    iteration i + stages - 1 before the compute of iteration i, and makes the
    copies complete on a ring of `stages` mbarriers whose phase parities it
    computes. `stages = 1` is an ordinary loop.

    Example:

    ```mlir
    tile.pipelined_for %k = %c0 to %kt step %c1 stages(3) {
      tile.copy %A[%m, %k] to %As[] : memref<?x?xbf16>, memref<128x64xbf16, #gpu.address_space<workgroup>>
      ...
      tile.gemm %As, %Bs, %acc : ...
    }
    ```

    With `warp_specialized` (sm_90a) the loop is split between warps instead:
    a producer warp issues the copies into the ring as soon as a slot is
    free (an "empty" barrier per slot, on which the consumers release it)
    and the kernel's original warpgroups, the consumers, wait for each slot
    and compute. The lowering adds the producer warpgroup to the kernel
    (`threads` grows by 128) and wraps the kernel body from the loop on in a
    `tile.warp_specialize`; the loop must then sit directly in the kernel
    body, and what precedes it must not be needed by the copies unless it is
    free of side effects.

    With `warp_specialized pingpong` the loop sits in a persistent `scf.for`
    over tiles, and the kernel's threads are one consumer team: the lowering
    runs two teams (`threads` becomes 2 x threads + 128) that take the tile
    loop's iterations in turn (team 0 the even ones, team 1 the odd ones).
    The teams' pipelined loops run one at a time, in tile order (each hands
    the turn to the other once its last product is issued), so what a team
    does after its loop, its epilogue, overlaps the other team's loop
    (CUTLASS's "ping-pong" schedule). The loop's bounds must not depend on
    the tile. Each team gets its own copy of every other shared tile the
    teams use (an epilogue's staging buffers: a pair, each team viewing its
    slot), which only the teams' code may use; barriers other than the
    loop's own would be shared by the teams and are refused; side-effecting
    ops before the tile loop run once per team.

    In a kernel family, `stages(NAME)` takes the stage count from the
    integer parameter NAME (`tile-specialize` sets it; until then the loop
    holds 2 as a placeholder and the rules below wait for the value), and
    `pingpong(NAME)` takes the schedule from the flag NAME (ping-pong where
    it is true).

    Stages: in a `warp_specialized` loop (not `pingpong`), the kernel
    author may give ops of the body `{tile.stage = 1}` (the others are
    stage 0). An op of stage 1 runs one iteration late: the consumers' step
    i runs, in body order, the ops of stage 0 for iteration i and those of
    stage 1 for iteration i - 1; a first step runs stage 0 of the first
    iteration and a last one stage 1 of the last, where each
    `tile.wait_gemms` waits for every product. The ring slot of iteration i
    - 1 is released after step i. This is how an `{async}` product of one
    iteration runs while the next iteration's other work is done
    (FlashAttention-3's overlap of P V with the next softmax): a stage-1
    op reads the slots and body values of its own iteration, and only pure
    ops of stage 0 may compute values it uses.

    Gates: a `tile.wait` in the body, or an `scf.if` without results that
    holds only waits (and ops without memory effects), gates the loads of
    its iteration: the copies' issuer (the producer warp, or the prologue
    and refills of a software-pipelined loop) runs it before them,
    iterations ahead of the compute, which runs no wait (it reads what the
    copies brought). A GEMM's k-loop waits so for a peer's chunk of K
    (an `scf.if` on the chunk's first iteration). The word is read early,
    so a gate compares with `ge` or `gt` on a word that only grows; a wait
    in any other region of the body is refused.

    A loop with nothing to multi-buffer (no global-to-shared copy in its
    body, or no body at all) runs as a plain loop, as `stages(1)` does;
    with `warp_specialized` that is an error (the producer has nothing to
    load). A pipelined load of a tile wider than a TMA box (256 elements
    per dimension) uses cp.async on chips with TMA too.

    Rules: `stages` in [1, 16] (at least 2 with `warp_specialized`);
    `pingpong` only with `warp_specialized`; inside a `tile.kernel`.
  }];
  let arguments = (ins Index:$lowerBound, Index:$upperBound, Index:$step,
                       I32Attr:$stages, UnitAttr:$warp_specialized,
                       UnitAttr:$pingpong, OptionalAttr<StrAttr>:$stages_param,
                       OptionalAttr<StrAttr>:$pingpong_param);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Value getInductionVar() { return getBody().getArgument(0); }
  }];
}

def Tile_WarpSpecializeOp : Tile_Op<"warp_specialize", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects]> {
  let summary = "splits the kernel's warps into named roles";
  let description = [{
    Each `role` region runs on its own range of the kernel's warps. Roles
    are laid out in order from warp 0: a role whose warp count is a multiple
    of 4 (`warpgroups(N)` is `warps(4 N)`) or that sets `registers` starts
    on a warpgroup boundary (wgmma and setmaxnreg act per warpgroup), and a
    role that sets `registers` is padded to whole warpgroups; warps left
    between roles by that alignment run nothing (but the padding warps of a
    role with `registers` hand over their registers). The roles' warps,
    padding included, must be exactly the kernel's `threads`.

    Inside a role, thread ids count from 0, and layouts, elected threads
    and CTA barriers are those of a kernel of the role's threads (a barrier
    becomes a named barrier of the role's threads only). With `teams(T)`
    the role's warps are T teams that each see a kernel of warps x 32 / T
    threads, with their own thread ids and barriers; the region then takes
    the team's index as its argument (`teams(2) as %team`). The compiler
    allocates the named barriers (ids 1 to 15; 0 is the CTA's), one per
    role or team whose code synchronises, in role order.

    `registers(R)` sets the role's register budget with setmaxnreg at its
    start (`.dec` when R is at most what the kernel starts with, `.inc`
    otherwise); without it the role keeps what ptxas gives the kernel.
    Roles communicate through shared memory and mbarriers allocated before
    this op.

    `tile.pipelined_for ... warp_specialized` produces this op (roles
    "producer" and "consumers"); it can also be written by hand.

    Example:

    ```mlir
    tile.warp_specialize {
      role "producer" warps(1) registers(40) {
        scf.for %i = %c0 to %n step %c1 {
          tile.mbarrier.wait %empty[%slot], %phase : !tile.barrier<4>
          tile.copy %A[%m, %k] to %As[] barrier %full[%slot] : ...
        }
      }
      role "consumers" warpgroups(2) registers(232) teams(2) as %team {
        ...
      }
    }
    ```

    Rules: directly in a `tile.kernel` body; at least one role; role names
    unique; warp counts positive; `teams` at least 1 and dividing the role's
    warps; a region takes the team's index (index) with teams, nothing
    otherwise; register budgets multiples of 8 in [24, 256], and the
    registers asked for (each role's threads, padding included, times its
    budget or what the kernel starts with: R = 65536 / threads rounded down
    to a multiple of 8, at most 248) at most threads x R; a role with
    asynchronous TMA stores (`tile.copy {tma, async}`) also waits for them
    (`tile.wait_tma_stores`).
  }];
  let arguments = (ins StrArrayAttr:$roleNames, DenseI32ArrayAttr:$roleWarps,
                       DenseI32ArrayAttr:$roleRegisters,
                       DenseI32ArrayAttr:$roleTeams);
  let regions = (region VariadicRegion<SizedRegion<1>>:$roles);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// One role as written: its warps, register budget (none: keeps the
    /// kernel's) and teams.
    struct Role {
      ::std::string name;
      int64_t warps = 1;
      ::std::optional<int64_t> registers;
      int64_t teams = 1;
    };
    /// Where a role's threads lie: [begin, active) run it; threads up to
    /// `end` (the next role's begin, or the end of the last role's
    /// warpgroups) are its padding or the alignment gap after it, which
    /// run nothing but take the role's setmaxnreg.
    struct Placement {
      int64_t begin, active, end;
    };
    /// A warp_specialize with `roles` (empty regions; with teams, the
    /// region's block takes the team's index).
    static WarpSpecializeOp createWithRoles(::mlir::OpBuilder &b,
                                            ::mlir::Location loc,
                                            ::llvm::ArrayRef<Role> roles);

    static constexpr int64_t kWarpThreads = 32;
    static constexpr int64_t kWarpgroupThreads = 128;
    /// Named barrier ids the hardware has (0 is the CTA's own).
    static constexpr int64_t kNamedBarriers = 16;

    unsigned getNumRoles() { return getRoles().size(); }
    ::llvm::StringRef getRoleName(unsigned role) {
      return ::llvm::cast<::mlir::StringAttr>(getRoleNames()[role]).getValue();
    }
    Role getRole(unsigned role);
    /// Threads of one team of `role` (all its threads without teams).
    int64_t getTeamThreads(unsigned role) {
      return int64_t(getRoleWarps()[role]) * kWarpThreads /
             getRoleTeams()[role];
    }
    /// Where each role's threads lie (see the placement rule above).
    ::llvm::SmallVector<Placement> getPlacement();
    /// Whether some role sets a register budget (setmaxnreg).
    bool setsRegisters() {
      return ::llvm::any_of(getRoleRegisters(),
                            [](int32_t r) { return r != 0; });
    }

    /// Registers per thread a kernel of `threads` threads starts with (what
    /// ptxas gives it, a multiple of 8): setmaxnreg moves registers between
    /// warpgroups of the CTA, so the CTA's total, threads times this, bounds
    /// what the roles ask for.
    static int64_t entryRegisters(int64_t threads) {
      return std::min<int64_t>(65536 / threads / 8 * 8, 248);
    }
    /// The most each of the other threads of a kernel of `threads` threads
    /// can have once `lowered` threads are down to `loweredRegisters`.
    static int64_t raisedRegisters(int64_t threads, int64_t lowered,
                                   int64_t loweredRegisters) {
      int64_t entry = entryRegisters(threads);
      int64_t freed = lowered * (entry - loweredRegisters);
      return std::min<int64_t>(
          entry + freed / (threads - lowered) / 8 * 8, 256);
    }
    /// The region of `op`'s ancestors directly under a warp_specialize, if
    /// any, and that op.
    static WarpSpecializeOp getEnclosing(::mlir::Operation *op,
                                         ::mlir::Region **region = nullptr);
  }];
}

#endif // TILE_OPS
