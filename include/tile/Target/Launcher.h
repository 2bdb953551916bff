//===- Launcher.h - typed C++ launchers generated from kernels --*- C++ -*-===//
//
// tile-translate --launcher=<prefix> writes <prefix>.h and <prefix>.cpp from
// the kernel descriptions of what it compiled: the image and the
// descriptions embedded, a typed function per kernel, and per family a
// table of its configurations with a dispatcher (include/tile/Runtime/
// Launcher.h has the runtime side). Depends on neither MLIR nor CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_LAUNCHER_H
#define TILE_TARGET_LAUNCHER_H

#include "tile/Runtime/KernelInfo.h"
#include "tile/Runtime/Tuning.h"

#include <optional>
#include <string>
#include <vector>

namespace tile {

struct LauncherSources {
  std::string header;
  std::string source;
};

/// The header and source of a launcher in namespace `cppNamespace` (a C++
/// namespace, '::'-separated) for `kernels`, whose image (cubin or PTX) and
/// description text are embedded; the source includes `headerName`. Each
/// of `tables` (a family's tuning table) is embedded too, with
/// <family>_tuned(), which launches the configuration the table gives the
/// operands' shape. An error message instead when a kernel cannot get a
/// typed launcher (no args record, or a name that is not a C identifier),
/// or a table's family is not among the kernels, or states no grid.
std::optional<std::string>
generateLauncher(const std::vector<rt::KernelInfo> &kernels,
                 const std::string &image, const std::string &kernelInfoText,
                 const std::string &cppNamespace, const std::string &headerName,
                 const std::vector<rt::TuningTable> &tables,
                 LauncherSources &out);

/// A C++ identifier made from `text` (a file name, say): other characters
/// become '_', and a leading digit gets a '_' before it.
std::string toIdentifier(const std::string &text);

} // namespace tile

#endif // TILE_TARGET_LAUNCHER_H
