//===- PeerAccess.h - threads that move a tile to or from a peer -*- C++ -*-===//
//
// What the mechanisms that move a tile with the scope's own loads and
// stores share (`dsmem` through distributed shared memory, `p2p` through
// the address NVSHMEM gives for a peer's buffer): the scope's threads, its
// synchronisation, its leader, and each thread moving its runs.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETOGPU_DISTRIBUTED_PEERACCESS_H
#define TILE_LIB_CONVERSION_TILETOGPU_DISTRIBUTED_PEERACCESS_H

#include "../Common.h"

namespace mlir::tile::lowering {

/// The threads that run a put or get together and their index among them.
struct ScopeThreads {
  Value tid;
  int64_t count;
  bool warp;
};

/// `scope`'s threads for `op`: the lanes of a warp, or the CTA's (its
/// role's) threads.
ScopeThreads scopeThreads(OpBuilder &b, Location loc, Operation *op,
                          Scope scope);

/// Every thread of the scope has reached this point (and its stores are
/// ordered before what follows in the scope).
void syncScope(OpBuilder &b, Location loc, const ScopeThreads &scope);

/// `body` in the scope's first thread.
void inLeader(OpBuilder &b, Location loc, const ScopeThreads &scope,
              function_ref<void(OpBuilder &)> body);

/// How a thread reaches one run: the pointer to the local run at tile
/// coordinates `local` (null to use vector loads and stores on the local
/// tile), the pointer to the peer's run at `remote` (the remote buffer's
/// indices), and the alignment both accesses may assume.
struct RunAccess {
  function_ref<Value(OpBuilder &, Location, ValueRange local)> localPointer;
  function_ref<Value(OpBuilder &, Location, ValueRange remote)> remotePointer;
  unsigned align;
};

/// Moves the tile between `local` and the peer's buffer at `offsets`, each
/// thread of the scope its runs (the tile's blocked distribution over the
/// scope's threads, runs of up to 16 bytes); `toPeer` for a put.
void moveRuns(OpBuilder &b, Location loc, Value local, ValueRange offsets,
              const ScopeThreads &scope, bool toPeer, const RunAccess &access);

/// `op` (a tile.wait) on the word at `word`: the CTA's (role's) first
/// thread spins on `load` (inline PTX "ld.acquire.<scope>... $0, [$1];")
/// until the word compares true against `value` (the op's comparison,
/// unsigned), then runs `after` (a fence the mechanism needs), then the
/// CTA synchronises.
void waitOnWord(OpBuilder &b, Location loc, WaitOp op, Value word,
                Value value, StringRef load,
                function_ref<void(OpBuilder &, Location)> after);

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILETOGPU_DISTRIBUTED_PEERACCESS_H
