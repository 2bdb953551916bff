//===- TileOpInterfaces.td - what passes ask tile ops -----*- tablegen -*-===//

#ifndef TILE_OP_INTERFACES
#define TILE_OP_INTERFACES

include "mlir/IR/OpBase.td"

def Tile_CommunicationOpInterface : OpInterface<"CommunicationOpInterface"> {
  let cppNamespace = "::mlir::tile";
  let description = [{
    An op that talks to peers: put, get, signal, wait, fence, quiet,
    barrier_all, rank and num_ranks. `level` says which peers (the CTAs of
    the cluster or the processes of the job); `mechanism` says how the op
    reaches them. `tile-select-instructions` records the mechanism, as it
    does for tile.copy and tile.gemm, and each mechanism's lowering matches
    only the ops that name it; an op that reaches the conversion without
    one was never selected.
  }];
  let methods = [
    InterfaceMethod<"The peers the op reaches.", "::mlir::tile::Level",
                    "getLevel">,
    InterfaceMethod<"The mechanism recorded on the op, if any.",
                    "::std::optional<::mlir::tile::CommMechanism>",
                    "getMechanism">,
    InterfaceMethod<"Records the mechanism the op lowers to.", "void",
                    "setMechanism",
                    (ins "::std::optional<::mlir::tile::CommMechanism>":$mechanism)>,
  ];
  let verify = [{
    return ::mlir::tile::detail::verifyCommunicationOp($_op);
  }];
}

def Tile_BarrierArrivalOpInterface : OpInterface<"BarrierArrivalOpInterface"> {
  let cppNamespace = "::mlir::tile";
  let description = [{
    An op that arrives on a slot of an mbarrier ring each time it runs: a
    tile.copy or tile.gemm that completes on its barrier,
    tile.commit_gemms, tile.mbarrier.expect_tx and tile.mbarrier.arrive.
    How many arrivals one run makes is the op's rule, stated once
    (lib/Dialect/Tile/IR/TileBarrierArrivals.cpp): tile-check-barriers
    counts a protocol's arrivals with it, the pipeliner sizes the rings it
    allocates with the same rules, and the op's lowering implements it.
  }];
  let methods = [
    InterfaceMethod<"The ring the op arrives on; null when it arrives on "
                    "none (a copy or gemm without a barrier).",
                    "::mlir::Value", "getArrivalBarrier">,
    InterfaceMethod<"The slot of the ring it arrives on.", "::mlir::Value",
                    "getArrivalSlot">,
    InterfaceMethod<[{
      Arrivals on the slot each time the op runs, run by `by`; none where
      the count depends on something the IR does not say.
    }], "::std::optional<int64_t>", "getArrivals",
    (ins "const ::mlir::tile::ArrivingThreads &":$by)>,
  ];
}

#endif // TILE_OP_INTERFACES
