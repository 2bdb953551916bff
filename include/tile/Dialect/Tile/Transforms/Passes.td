//===- Passes.td - tile dialect transformations ------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TileAttachTarget : Pass<"tile-attach-target", "ModuleOp"> {
  let summary = "Records the chip the module is compiled for";
  let description = [{
    Sets `tile.target = #tile.target<"chip">` on the module. Every later
    pass (selection, layouts, pipelining, conversion, translation) reads the
    chip from there, so passes run one at a time cannot disagree about it.
    With no `chip` the module keeps the target it has, or gets `sm_90a`; a
    `chip` other than the one the module already names is an error.

    Example: `tile-opt k.mlir --tile-attach-target=chip=sm_80` gives
    `module attributes {tile.target = #tile.target<"sm_80">}`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileSpecialize : Pass<"tile-specialize", "ModuleOp"> {
  let summary = "Turns kernel families into ordinary kernels and inlines helpers";
  let description = [{
    The first step of `tile-to-nvvm` (after `tile-attach-target`): every
    later pass sees only kernels with static shapes, fixed thread counts
    and stage counts, and no calls.

    **Helpers.** A `func.call` in a kernel body to a `func.func` of the
    module (a helper: fragments, shared tiles, barriers and scalars in,
    scalars out) is inlined, helpers calling helpers included; private
    helpers are then erased. A helper must have a single block and must
    not call itself.

    **Families.** A kernel that declares `params(...)` becomes:
    - with `values=NAME=V,...`: one kernel of the same name, each parameter
      taking its value from `values`, else its default;
    - else, with `configs(...)`: one kernel per configuration, named
      `<kernel>__<NAME><value>_...` over every parameter in declaration
      order (a negative value as `m<abs>`, a flag as 0 or 1), each
      parameter taking its value from the configuration, else its default;
    - else: one kernel of the same name at the defaults.
    Each `tile.param` becomes an `arith.constant`, `threads(NAME)` and
    `stages(NAME)` take their values, what depends on the parameters is
    folded (canonicalisation of the ops that use them, `scf.if` on a flag
    included), and every `tile.alloc_shared` / `tile.alloc_fragment` with
    `?` dimensions gets the static type its folded sizes give. The kernel
    keeps `tile.family` (the family's name) and `tile.config` (every
    parameter's value), which kernel outlining and `--kernel-info` pass on
    to the runtime.

    Errors, located and naming the parameter: a parameter without a value
    (no default, not in the configuration or `values`), a value outside the
    declared list or not a multiple of the declared divisor, a `values`
    entry naming a parameter no kernel declares, a size that does not fold
    to a positive constant; a specialised kernel that fails its verifiers
    (a tile too large for shared memory or registers, say) is an error
    naming the configuration, or with `skip-invalid` a warning, and the
    configuration is dropped.

    Example: `tile-opt gemm.mlir --tile-specialize="values=BN=128,STAGES=6"`.
  }];
  let options = [
    ListOption<"values", "values", "std::string",
               "Parameter values NAME=VALUE, applied to every family that "
               "declares NAME (its configuration list is then ignored)">,
    Option<"skipInvalid", "skip-invalid", "bool", /*default=*/"false",
           "Drop a configuration whose kernel fails verification, with a "
           "warning, instead of failing">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::func::FuncDialect"];
}

def TileRecordGrid : Pass<"tile-record-grid", "ModuleOp"> {
  let summary = "Turns each kernel's tile.grid into its grid rule for the host";
  let description = [{
    After `tile-specialize` (the grid may read parameters): a kernel's
    `tile.grid` becomes its `tile.grid_rule`, three grid expressions (x, y,
    z; 1 where the op gives none) over the kernel's arguments, which kernel
    outlining and `--kernel-info` pass on as the description's grid record
    and the generated launchers evaluate at launch. The op is erased, and
    with it what only it used; a `tile.num_sms` still used by the kernel
    itself is an error (the device does not know the value). Likewise each
    `tile.zero_before_launch` whose condition holds adds its argument to
    the kernel's `tile.zeroed_args` (the description's zero record, which
    the launchers act on) and is erased; a condition still unknown here is
    an error. Each `tile.static_assert` (a false one failed verification
    in `tile-specialize`) is erased; one whose condition is still not a
    constant is an error.

    Example: `tile.grid %ctas` with `%ctas = arith.minui %tiles, %sms`
    gives `tile.grid_rule = ["min(mul(ceildiv(dim(0,0),128),...),sms)",
    "1", "1"]`.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileCheckBarriers : Pass<"tile-check-barriers", "ModuleOp"> {
  let summary = "Reports mbarrier protocols that cannot work, before they hang on the GPU";
  let description = [{
    A located error for each hand-written mbarrier protocol that cannot
    match, found from the IR alone (no pass changes anything):

    - **Arrival counts.** Each `tile.alloc_barrier arrivals(N)` phase
      completes after N arrivals. The arrivals on a barrier slot are
      counted per phase: `tile.copy ... barrier`, `tile.mbarrier.expect_tx`,
      `tile.commit_gemms`, a gemm into tensor memory and
      `tile.mbarrier.arrive leader` arrive once (per team of a role with
      teams); `tile.mbarrier.arrive` once per thread that runs it (the
      kernel's or the role's threads), `... cluster` once per warp of every
      CTA of the cluster; a gemm with C in registers once per thread (each
      op's rule, from its BarrierArrivalOpInterface, which the pipeliner
      sizes its rings with too). A
      phase is what one block arrives between two waits on the slot; a
      loop body with no wait on it arrives one phase per iteration, and in
      a loop body the arrivals after the last wait join those before the
      first. A count other than N is an error (fewer: the phase never
      completes and its waiters hang; more: the extra arrivals complete
      the next phase early).
    - **Parities.** A loop body that waits once on a slot (the same slot
      every iteration) with a parity that does not change between
      iterations, on a barrier the loop arrives on again: the slot's
      phases alternate parity, so from the second iteration on the wait
      passes at once or hangs.
    - **Expected bytes.** `tile.mbarrier.expect_tx` raises a phase's
      expected bytes, but every `tile.copy` with a barrier announces its own
      bytes and nothing else delivers any: the phase can never complete.

    A barrier is checked only where the count is certain. Each block's
    arrivals (through `scf.if` branches) are counted alone: a block whose
    phases arrive more often than N is an error, fewer only where that
    block makes all of the barrier's arrivals (elsewhere another block may
    complete the phase). An `scf.if` that arrives in one branch only is a
    phase that happens or not (a pipeline's first and last ones), checked
    when nothing else arrives in that phase and it arrives more than N
    times. Slots must be the same in every thread (not derived from a
    thread id or a team's index) and known apart: constants, or one value
    plus different constants modulo the ring's size (`(i + 2) mod 3` and
    `i mod 3`). Protocols beyond that (slots that may alias, a loop whose
    arrivals a wait after it collects, a gemm into registers in a role of
    several teams) are left to the programmer.
    Runs at the start of `tile-to-nvvm`, on the IR as written, and again
    after `tile-pipeline-loops`, on the rings and barriers it derives.

    Example error: `'tile.alloc_barrier' op expects 1 arrival per phase,
    but each phase of its loop arrives 2 times on slot 0: write
    arrivals(2), or arrive 1 time per phase`, with notes at the arrivals
    and at the wait.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileSelectInstructions : Pass<"tile-select-instructions", "ModuleOp"> {
  let summary = "Chooses the mechanism of every copy, gemm and communication op";
  let description = [{
    The one place that decides how data moves and which matrix instruction
    runs, from the target chip (`tile.target`) and each op's operands; the
    choice is recorded on the op (`mechanism = #tile.copy_mechanism<...>`,
    `#tile.mma_mechanism<...>`) where tests and later passes read it, and
    each mechanism has its own lowering. Runs before `tile-assign-layouts`
    (the accumulator layout follows the matrix instruction) and
    `tile-pipeline-loops` (the pipeline follows its producers' mechanism).

    `tile.copy`:
    - with a barrier: `tma_load`; `{tma}`: `tma_store` (both need TMA);
    - a global -> shared producer of a `tile.pipelined_for` with stages > 1:
      `tma_load` where the chip has TMA, else as any global -> shared copy;
    - global -> shared whose runs are 16 bytes, on chips with cp.async:
      `cp_async`;
    - everything else: `vector`.

    - tensor memory -> fragment: `tmem_load`; fragment -> tensor memory:
      `tmem_store` (sm_100a).

    `tile.gemm`: `mma_sync` when C has the `#tile.mma` layout (the fallback
    the IR can ask for) or the chip has neither wgmma nor tcgen05; `wgmma`
    when the chip has it; `tcgen05` (sm_100a) when C is in tensor memory, or
    is a fragment in a `warp_specialized` pipelined loop (whose split keeps
    it in tensor memory); a fragment accumulator anywhere else on sm_100a is
    an error saying what to write.

    Communication ops (put, get, signal, wait, fence, quiet, barrier_all,
    rank, num_ranks; `#tile.comm_mechanism<...>`): `dsmem` at `level
    cluster` (chips with clusters, kernels with a cluster), `nvshmem` at
    `level world`, but `p2p` for every world-level wait (a spin on the local
    word, no call) and for a world-level put or get whose tile is not one
    contiguous block on both sides (NVSHMEM would move it row by row).

    What the chip cannot do is a located error naming the op and the chip:
    TMA copies without TMA, a `#tile.wgmma` accumulator without wgmma,
    tensor memory and tcgen05 without them, clusters (and cluster-level
    communication) on chips without them or in kernels without a cluster,
    pipelined loops on chips with neither TMA nor cp.async; so are forms not
    lowered yet (shared -> tensor memory, A in tensor memory, tcgen05 kinds
    but f16 and tf32). A mechanism already on an op (written by hand) is
    checked, not replaced.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileAssignLayouts : Pass<"tile-assign-layouts", "ModuleOp"> {
  let summary = "Chooses the per-thread layout of every register fragment";
  let description = [{
    Runs after `tile-select-instructions`. Accumulator fragments of
    `tile.gemm` get the layout of the gemm's matrix instruction
    (`#tile.wgmma` for `wgmma`, `#tile.mma` for `mma_sync`,
    `#tile.tmem_32x32b` for `tcgen05`, whose accumulator is read back from
    tensor memory), and so do fragments copied from or to tensor memory and
    fragments that share a `tile.elementwise` with one. Shared tiles read by
    a `wgmma` or `tcgen05` gemm get the swizzle that TMA writes and the
    instruction reads (128 bytes for rows of 128 bytes, and so on);
    `mma_sync` reads them plain.

    Every other `!tile.fragment` without a layout gets the `#tile.blocked` layout
    for its kernel's thread count: runs of up to 16 bytes per thread, as
    long as the run divides the innermost dimension and the runs divide
    evenly over the threads. Fragment types are rewritten on the allocation
    and every use. Fails with a located error where no such layout exists
    (fewer elements than threads, say).

    Example: in a kernel with `threads(128)`,
    `!tile.fragment<1024xf32>` becomes
    `!tile.fragment<1024xf32, #tile.blocked<threads = 128, vector = 4>>`.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileScheduleLoops : Pass<"tile-schedule-loops", "ModuleOp"> {
  let summary = "States each tile.pipelined_for's schedule in its body, for tile-pipeline-loops to build";
  let description = [{
    The first step of pipelining (the second is `tile-pipeline-loops`,
    which builds the rings, barriers, prologue and roles from what this
    pass leaves in the IR). Runs after `tile-select-instructions`, whose
    mechanisms decide which pipeline a loop can have. Per loop:

    - **Plain loops.** A loop with `stages(1)`, or with nothing to
      multi-buffer (no global-to-shared copy in its body) and not
      `warp_specialized`, gets `stages(1)`: it runs as an ordinary loop.
      An op of stage 1 (`tile.stage`) in such a loop is an error; an
      explicit `tile.stage = 0` is dropped (it is every op's stage).
    - **Legality**, each a located error: producers (global-to-shared
      copies) of one kind (all `tma_load`, or all cp.async and vector
      copies, which complete in commit groups); `warp_specialized` with
      TMA producers and wgmma or tcgen05 gemms only; a `{multicast}` copy
      only with `warp_specialized`; stages (`tile.stage = 1`) only in a
      `warp_specialized` loop on wgmma without `pingpong`, never on a
      producer, and no stage-0 op reading a stage-1 value.
    - **Products in flight.** In a loop without stages, a wgmma gemm whose
      A and B are tiles the loop's producers write and whose accumulator
      only gemms touch in the loop becomes `{async}`, followed by
      `tile.wait_gemms pending(1)`: the product of iteration i runs while
      iteration i + 1 waits for its tiles, and `tile-pipeline-loops`
      releases (or refills) a slot one iteration late.

    Example: in a `stages(4)` GEMM loop, `tile.gemm %As, %Bs, %acc`
    becomes `tile.gemm %As, %Bs, %acc {async}` followed by
    `tile.wait_gemms pending(1)`.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TilePipelineLoops : Pass<"tile-pipeline-loops", "ModuleOp"> {
  let summary = "Multi-buffers the loads of tile.pipelined_for loops (TMA + mbarriers, or cp.async groups)";
  let description = [{
    Rewrites each `tile.pipelined_for` with `stages(S)`, S > 1, whose body
    copies global tiles into shared tiles (the producers), into an `scf.for`
    over an explicit pipeline:

    - each shared tile a producer writes becomes a ring of S tiles
      (`tile.alloc_shared` of `S x shape`, read through `memref.subview`);
    - one `!tile.barrier<S>` ring, each barrier expecting one arrival per
      producer copy; the copies become asynchronous (`tile.copy ... barrier`,
      TMA), each arriving with its byte count;
    - a prologue issues the copies of the first S - 1 iterations;
    - iteration i waits for barrier `i mod S` with parity `(i / S) mod 2`,
      runs the rest of the body on slot `i mod S`, synchronises the CTA
      (everyone is done with the slot iteration i - 1 used) and issues the
      copies of iteration i + S - 1 into it, so the loads of stages
      i + 1 .. i + S - 1 overlap the math of stage i.

    Which of the two pipelines a loop gets follows the mechanism
    `tile-select-instructions` gave its producers: `tma_load` as above;
    otherwise (chips without TMA: sm_80, sm_86, sm_89) the copies stay
    cp.async or vector copies marked `{async}` (their lowering neither
    commits nor synchronises): every issue point commits one group (empty
    when the iteration does not exist), and iteration i starts with
    `cp.async.wait_group S - 2` and a CTA barrier in place of the mbarrier
    wait (which also makes the barrier before the refill unnecessary).

    The schedule is read from the body as `tile-schedule-loops` (or the
    kernel author) left it: where the body ends with a product still in
    flight (an `{async}` gemm after the body's last `tile.wait_gemms` that
    counts it), the slot an iteration read is refilled or released only
    after the next iteration's wait, and `tile.wait_gemms pending(0)`
    follows the loop. More than one product in flight at the end of an
    iteration is an error.

    `warp_specialized` needs every producer to be `tma_load` and every
    gemm of the loop `wgmma` (its slots are released after a wgmma wait).
    It emits a `tile.warp_specialize` with two roles: "producer" (one warp,
    which its register budget pads to warpgroup 0) and "consumers" (the
    kernel's original threads, `teams(2)` with `pingpong`); the budgets
    (`registers(40)` and the most the consumers can then have) are set only
    on chips with setmaxnreg.

    Loops with `stages(1)` are left alone. Producers must write shared tiles
    allocated outside the loop and used only inside it. The legality rules
    of `tile-schedule-loops` are checked again here, so that this pass can
    run alone on a schedule written by hand.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES
