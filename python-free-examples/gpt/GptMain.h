//===- GptMain.h - the command line of the GPT check/bench programs -*- C++ -*-===//
//
//   PROGRAM [--check] [--bench] [--seed S] [FILTER]
//
// --check compares the kernels with CPU references on fresh random inputs
// (from rng(), seeded with S or a random seed that is printed), --bench
// times them; without either, both. FILTER, where the program takes one,
// keeps the kernels whose name contains it. Exits 1 when a check fails or
// CUDA reports an error, 2 on a bad command line, 77 without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_GPT_GPTMAIN_H
#define TILE_EXAMPLES_GPT_GPTMAIN_H

#include "GptReference.h"

#include <functional>
#include <string>

namespace tile::examples::gpt {

struct RunOptions {
  bool check = false, bench = false;
  const char *filter = nullptr;
};

/// Parses the command line, opens the GPU and runs `run`, which returns
/// whether every check passed.
inline int
gptMain(int argc, char **argv, const char *program, bool takesFilter,
        const std::function<bool(const rt::Device &, const RunOptions &)> &run) {
  RunOptions options;
  uint64_t seed = std::random_device{}();
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--check") {
      options.check = true;
    } else if (arg == "--bench") {
      options.bench = true;
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 0);
    } else if (takesFilter && arg.rfind("-", 0) != 0 && !options.filter) {
      options.filter = argv[i];
    } else {
      std::fprintf(stderr, "usage: %s [--check] [--bench] [--seed S]%s\n",
                   program, takesFilter ? " [FILTER]" : "");
      return 2;
    }
  }
  if (!options.check && !options.bench)
    options.check = options.bench = true;
  requireGpu(program);
  try {
    rt::Device device = rt::Device::open();
    rng().seed(seed);
    if (options.check)
      std::printf("check on %s (--seed %llu)\n", device.name().c_str(),
                  (unsigned long long)seed);
    bool ok = run(device, options);
    if (options.check)
      std::printf("%s: %s\n", program, ok ? "all checks passed" : "FAILED");
    return ok ? 0 : 1;
  } catch (const rt::Error &error) {
    std::fprintf(stderr, "%s: %s\n", program, error.what());
    return 1;
  }
}

} // namespace tile::examples::gpt

#endif // TILE_EXAMPLES_GPT_GPTMAIN_H
