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

namespace mlir {
class DialectRegistry;
namespace tile {
/// mlir-opt's main, with tile's output and crash handling.
int tileOptMain(int argc, char **argv, DialectRegistry &registry);
/// mlir-translate's main, with tile's output and crash handling.
int tileTranslateMain(int argc, char **argv);
} // namespace tile
} // namespace mlir

#endif // TILE_TOOLS_TOOLMAIN_H
