//===- TileTune.h - tile-tune's parts -----------------------------*- C++ -*-===//
//
// tile-tune (TileTune.cpp, the command line) in three parts: Compile.cpp
// (the search space and its candidates, compiled with tile-translate),
// Problems.cpp (how a family is fed, checked and compared with its
// reference) and Measure.cpp (the GPU half: checks, timings, the table).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_TUNE_TILETUNE_H
#define TILE_TOOLS_TILE_TUNE_TILETUNE_H

#include "tile/Runtime/KernelInfo.h"
#include "tile/Runtime/Tuning.h"

#include <string>
#include <vector>

namespace tile::tune {

std::string readFile(const std::string &path);
/// Writes `text` to `path` whole or not at all (through a temporary).
void writeFile(const std::string &path, const std::string &text);
/// Fails now, before any GPU time is spent, when `path` cannot be written
/// (its folder missing, say); leaves no file behind.
void checkWritable(const std::string &path);

/// tile-translate: `given`, else $TILE_TRANSLATE, else beside `argv0`,
/// else on PATH.
std::string findTranslate(const std::string &given, const char *argv0);

/// `tile-tune compile`: the candidates of the space file `spacePath` for
/// `source`'s family, compiled into DIR with `translate`; its exit status.
int compile(const std::string &source, const std::string &spacePath,
            const std::string &dir, const std::string &chip,
            const std::string &translate);

using Shape = rt::ProblemShape;

struct Manifest {
  std::string family, chip;
  std::vector<rt::ParamValues> variants;
  std::vector<std::string> variantShapes; // a path in DIR, or empty
};

/// What `measure` reads from DIR and --shapes, checked before any GPU is
/// touched: the manifest, the family's candidate kernels (the module may
/// hold others) and each variant's shapes.
struct MeasureInputs {
  std::string dir;
  Manifest manifest;
  std::vector<rt::KernelInfo> infos;
  std::vector<std::vector<Shape>> shapesOf;
  /// --reference: the reference's figures where it is measured beside.
  std::string referenceFile;
};

/// What `measure` reads from DIR and --shapes (every variant's shapes when
/// given, else each variant's file), checked without a GPU, with
/// --reference's file (required where the family's reference is measured
/// beside, unless `checkOnly`; refused elsewhere).
MeasureInputs readMeasureInputs(const std::string &dir,
                                const std::string &shapesArg,
                                const std::string &referenceFile,
                                bool checkOnly);

/// `tile-tune measure`: the table (and plot) of `inputs` measured on the
/// GPU, or with `checkOnly` each candidate checked once; its exit status.
/// `everyTime` prints each candidate's time at each shape.
int measure(MeasureInputs inputs, const std::string &tablePath,
            const std::string &svgPath, bool checkOnly, bool everyTime);

} // namespace tile::tune

#endif // TILE_TOOLS_TILE_TUNE_TILETUNE_H
