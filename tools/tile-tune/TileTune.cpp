//===- tile-tune.cpp - tuning a kernel family ahead of time ---------------===//
//
// tile-tune compiles the candidate configurations of a kernel family (a
// search space file: variants x configurations x sweeps), runs each on the
// GPU at every problem shape, checks it against the reference, times the
// survivors interleaved with the reference and writes a tuning table
// (include/tile/Runtime/Tuning.h) and a plot. tile-translate
// --tuning-table then compiles the table into the family's launcher, whose
// <family>_tuned() dispatches by shape.
//
//   tile-tune compile FAMILY.mlir --space SPACE -o DIR [--chip C]
//                     [--tile-translate PATH]
//   tile-tune measure DIR [--shapes SHAPES] [--table FILE] [--svg FILE]
//                     [--check-only: run and check each candidate once,
//                      time nothing, write no table (for the sanitizers)]
//                     [--every-time: print every candidate's time at each
//                      shape, not only the fastest's]
//                     [--reference FILE: the reference's figures, for
//                      families whose reference runs elsewhere: attention's,
//                      PyTorch's cuDNN attention, from sdpa_attention.py]
//   tile-tune run FAMILY.mlir --space SPACE -o DIR [--shapes SHAPES] ...
//
// `compile` needs the compiler (tile-translate), `measure` a GPU and the
// reference's library, `run` both: on a machine with only one, compile
// there and carry DIR. The problems it knows (the reference each is
// checked and timed against) are listed in problemFor().
//
//===----------------------------------------------------------------------===//

#include "TileTune.h"

#include "tile/Runtime/Driver.h"
#include "tile/Version.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace tile;
using namespace tile::tune;

namespace {

[[noreturn]] void usage(const std::string &why) {
  std::fprintf(
      stderr,
      "tile-tune: %s\n"
      "usage:\n"
      "  tile-tune compile FAMILY.mlir --space SPACE -o DIR [--chip CHIP]\n"
      "                    [--tile-translate PATH]\n"
      "  tile-tune measure DIR [--shapes SHAPES] [--table FILE] [--svg FILE]\n"
      "                    [--check-only] [--every-time] [--reference FILE]\n"
      "  tile-tune run FAMILY.mlir --space SPACE -o DIR [--shapes SHAPES]\n"
      "                [--table FILE] [--svg FILE] [--reference FILE]\n"
      "SHAPES: a shape file (lines 'M N K  # what') or MxNxK,...; every\n"
      "variant's shapes (default: each variant's file in the space)\n"
      "--reference: for attention, sdpa_attention.py's output on this GPU\n",
      why.c_str());
  std::exit(2);
}

} // namespace

namespace tile::tune {

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw rt::Error(path + ": cannot read it");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeFile(const std::string &path, const std::string &text) {
  // Written whole or not at all: a partial table must not be compiled.
  std::string temporary = path + ".partial";
  bool written;
  {
    std::ofstream out(temporary, std::ios::binary);
    out << text;
    written = bool(out.flush());
  }
  if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw rt::Error(path + ": cannot write it");
  }
}

/// Fails now, before any GPU time is spent, when `path` cannot be written
/// (its folder missing, say); leaves no file behind.
void checkWritable(const std::string &path) {
  std::string probe = path + ".partial";
  {
    std::ofstream out(probe, std::ios::binary);
    if (!out)
      throw rt::Error(path + ": cannot write it (does its folder exist?)");
  }
  std::remove(probe.c_str());
}

} // namespace tile::tune

int main(int argc, char **argv) {
  if (argc >= 2 && (!std::strcmp(argv[1], "--version"))) {
    std::printf("tile-tune (tile) %s\n", TILE_VERSION);
    return 0;
  }
  if (argc < 3)
    usage("expected a command and its input");
  std::string command = argv[1], input = argv[2];
  std::string space, dir, chip = "sm_90a", translate, shapes, table, svg,
      reference;
  bool checkOnly = false, everyTime = false;
  for (int i = 3; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--space")
      space = value();
    else if (arg == "-o")
      dir = value();
    else if (arg == "--chip")
      chip = value();
    else if (arg == "--tile-translate")
      translate = value();
    else if (arg == "--shapes")
      shapes = value();
    else if (arg == "--table")
      table = value();
    else if (arg == "--svg")
      svg = value();
    else if (arg == "--reference")
      reference = value();
    else if (arg == "--check-only")
      checkOnly = true;
    else if (arg == "--every-time")
      everyTime = true;
    else
      usage("unknown option '" + arg + "'");
  }
  try {
    if (command == "compile" || command == "run") {
      if (space.empty() || dir.empty())
        usage(command + " needs --space and -o");
      int status = compile(input, space, dir, chip,
                           findTranslate(translate, argv[0]));
      if (status != 0 || command == "compile")
        return status;
      input = dir;
    } else if (command != "measure") {
      usage("unknown command '" + command + "' (compile, measure, run)");
    }
    if (table.empty())
      table = input + "/tuning.txt";
    MeasureInputs inputs =
        readMeasureInputs(input, shapes, reference, checkOnly);
    checkWritable(table);
    if (!svg.empty())
      checkWritable(svg);
    std::string why;
    if (!rt::driverAvailable(&why)) {
      std::fprintf(stderr, "tile-tune: no GPU here (%s): measure on a "
                           "machine with one\n", why.c_str());
      return 77;
    }
    return measure(std::move(inputs), table, svg, checkOnly, everyTime);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "tile-tune: %s\n", e.what());
    return 1;
  }
}
