//===- ToolMain.h - tile-opt's and tile-translate's drivers -----*- C++ -*-===//
//
// The tools' mains register what they need and hand over here. Both drivers
// - write -o through a temporary renamed over it on success, so that a
//   failed or crashed run leaves the old file (or none), never a partial one;
// - turn a crash (signal, LLVM abort, stack overflow) into one line naming
//   what was running and a non-zero exit, without a stack dump.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TOOLMAIN_H
#define TILE_TOOLS_TOOLMAIN_H

#include "mlir/Support/LLVM.h"

namespace llvm {
class MemoryBuffer;
} // namespace llvm

namespace mlir {
class DialectRegistry;
namespace tile {
/// Refuses input whose brackets ({, (, [) nest deeper than the parser and
/// the passes can recurse (1000 levels), with an error printed to `errors`
/// at the bracket that goes too deep. Comments and strings do not count.
LogicalResult checkNesting(const llvm::MemoryBuffer &input,
                           llvm::raw_ostream &errors);

/// Prints tile's version and the LLVM/MLIR it was built with.
void printTileVersion(llvm::raw_ostream &os);
/// Makes --version print printTileVersion (not LLVM's version).
void useTileVersionPrinter();
/// mlir-opt's main, with tile's output and crash handling.
int tileOptMain(int argc, char **argv, DialectRegistry &registry);
/// mlir-translate's main, with tile's output and crash handling.
int tileTranslateMain(int argc, char **argv);
} // namespace tile
} // namespace mlir

#endif // TILE_TOOLS_TOOLMAIN_H
