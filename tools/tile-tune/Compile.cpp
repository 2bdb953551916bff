//===- Compile.cpp - tile-tune's candidates, compiled ----------------------===//
//
// The search space file, its candidates, and their compile by
// tile-translate (all at once, or one by one to find those that fail).
//
//===----------------------------------------------------------------------===//

#include "TileTune.h"

#include "tile/Runtime/Error.h"
#include "tile/Version.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tile;

namespace tile::tune {
namespace {

//===----------------------------------------------------------------------===//
// The search space
//===----------------------------------------------------------------------===//

/// A search space file:
///   family NAME
///   variant NAME=V,... [SHAPES]  (the values that change what is
///                                 computed, '-' for none;
///                                 measured at SHAPES, a shape
///                                 file beside the space, else --shapes)
///   config NAME=V,...            (a configuration to try)
///   sweep NAME=V1|V2|...         (every config that does not set NAME
///                                 itself at each of these values)
///   max-spill-bytes N            (a candidate may spill up to N bytes;
///                                 default 0: those that spill are dropped)
/// The candidates are every variant x config x sweep value combination.
struct Space {
  std::string family;
  int64_t maxSpillBytes = 0;
  std::vector<rt::ParamValues> variants, configs;
  std::vector<std::string> variantShapes; // a path, or empty
  std::vector<std::pair<std::string, std::vector<std::string>>> sweeps;
};

Space parseSpace(const std::string &path) {
  Space space;
  std::string folder = path.substr(0, path.rfind('/') + 1);
  std::istringstream lines(readFile(path));
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream in(line);
    std::string record, value, shapes, extra;
    if (!(in >> record))
      continue;
    auto fail = [&](const std::string &why) {
      throw rt::Error(path + ":" + std::to_string(number) + ": " + why);
    };
    if (!(in >> value) || (in >> shapes && record != "variant") ||
        in >> extra)
      fail("expected '" + record + " VALUE" +
           (record == "variant" ? " [SHAPES]" : "") +
           "' (no spaces in the value)");
    try {
      if (record == "family")
        space.family = value;
      else if (record == "variant") {
        space.variants.push_back(value == "-" ? rt::ParamValues{}
                                              : rt::parseParamValues(value));
        space.variantShapes.push_back(shapes.empty() ? "" : folder + shapes);
      } else if (record == "config") {
        space.configs.push_back(rt::parseParamValues(value));
      } else if (record == "max-spill-bytes") {
        if (value.size() > 6 ||
            value.find_first_not_of("0123456789") != std::string::npos)
          fail("max-spill-bytes is a number of bytes under 10^6");
        space.maxSpillBytes = std::stoll(value);
      } else if (record == "sweep") {
        rt::ParamValues one = rt::parseParamValues(value, ';');
        if (one.size() != 1)
          fail("a sweep is NAME=V1|V2|...");
        std::vector<std::string> values;
        std::stringstream list(one[0].value);
        std::string v;
        while (std::getline(list, v, '|'))
          values.push_back(v);
        space.sweeps.emplace_back(one[0].name, values);
      } else
        fail("unknown record '" + record +
             "' (family, variant, config, sweep, max-spill-bytes)");
    } catch (const rt::Error &e) {
      if (std::string(e.what()).rfind(path, 0) == 0)
        throw;
      fail(e.what());
    }
  }
  if (space.family.empty() || space.variants.empty() || space.configs.empty())
    throw rt::Error(path + ": a space names its family and at least one "
                           "variant and one config");
  return space;
}

/// Every candidate: variant values first, then the configuration's.
std::vector<rt::ParamValues> candidates(const Space &space) {
  std::vector<rt::ParamValues> swept = space.configs;
  for (const auto &[name, values] : space.sweeps) {
    std::vector<rt::ParamValues> next;
    for (const rt::ParamValues &config : swept) {
      // A configuration that names the parameter keeps its own value.
      if (std::any_of(config.begin(), config.end(),
                      [&](const rt::ParamValue &v) { return v.name == name; })) {
        next.push_back(config);
        continue;
      }
      for (const std::string &value : values) {
        rt::ParamValues one;
        for (const rt::ParamValue &v : config)
          if (v.name != name)
            one.push_back(v);
        one.emplace_back(name, value);
        next.push_back(one);
      }
    }
    swept = next;
  }
  std::vector<rt::ParamValues> all;
  for (const rt::ParamValues &variant : space.variants)
    for (const rt::ParamValues &config : swept) {
      rt::ParamValues values = variant;
      for (const rt::ParamValue &v : config)
        if (std::none_of(variant.begin(), variant.end(),
                         [&](const rt::ParamValue &f) {
                           return f.name == v.name;
                         }))
          values.push_back(v);
      if (std::find(all.begin(), all.end(), values) == all.end())
        all.push_back(values);
    }
  return all;
}

//===----------------------------------------------------------------------===//
// compile
//===----------------------------------------------------------------------===//


/// Starts `argv` with its output to `log`; its process id.
pid_t startLogged(const std::vector<std::string> &argv,
                  const std::string &log) {
  pid_t pid = fork();
  if (pid < 0)
    throw rt::Error("cannot start " + argv[0]);
  if (pid == 0) {
    FILE *out = std::fopen(log.c_str(), "w");
    if (out) {
      dup2(fileno(out), 1);
      dup2(fileno(out), 2);
    }
    std::vector<char *> args;
    for (const std::string &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "tile-tune: cannot run %s\n", argv[0].c_str());
    _exit(127);
  }
  return pid;
}

int waitExit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/// tile-translate compiling the configurations in `configs` (a
/// --tile-configs file) into `out`.cubin and `out`.kinfo.
std::vector<std::string> translateCommand(const std::string &translate,
                                          const std::string &source,
                                          const std::string &chip,
                                          const std::string &configs,
                                          const std::string &out,
                                          int64_t maxSpillBytes) {
  return {translate, "--tile-to-cubin", source, "--chip=" + chip,
          "--tile-configs=" + configs, "--skip-failing-configs",
          "--max-spill-bytes=" + std::to_string(maxSpillBytes),
          "--kernel-info=" + out + ".kinfo", "-o", out + ".cubin"};
}

/// The candidates that compile alone, each in its own tile-translate, as
/// many at once as the machine has cores: what remains when one fails in a
/// later stage than those --skip-failing-configs leaves out.
std::vector<rt::ParamValues>
compilingAlone(const std::vector<rt::ParamValues> &all,
               const std::string &family, const std::string &translate,
               const std::string &source, const std::string &chip,
               const std::string &dir, int64_t maxSpillBytes) {
  size_t jobs = std::max<long>(1, sysconf(_SC_NPROCESSORS_ONLN));
  std::vector<rt::ParamValues> kept;
  std::vector<std::pair<pid_t, size_t>> running;
  auto finish = [&](std::pair<pid_t, size_t> job) {
    std::string probe = dir + "/probe" + std::to_string(job.second);
    if (waitExit(job.first) == 0) {
      kept.push_back(all[job.second]);
    } else {
      std::string log = readFile(probe + ".log");
      // The reason a configuration was skipped (left nothing to compile,
      // the error that follows says only that), else the first error.
      std::string reason = "tile-translate failed";
      size_t skip = log.find("warning: skips configuration");
      size_t from = skip == std::string::npos ? std::string::npos
                                              : log.find("): ", skip);
      size_t error = log.find("error: ");
      if (from != std::string::npos && from < log.find('\n', skip))
        reason = log.substr(from + 3, log.find('\n', from) - from - 3);
      else if (error != std::string::npos)
        reason = log.substr(error + 7, log.find('\n', error) - error - 7);
      std::printf("  dropped %s: %s\n",
                  rt::formatParamValues(all[job.second]).c_str(),
                  reason.c_str());
    }
    for (const char *ext : {".configs", ".log", ".cubin", ".kinfo"})
      std::remove((probe + ext).c_str());
  };
  for (size_t i = 0; i < all.size(); ++i) {
    if (running.size() == jobs) {
      finish(running.front());
      running.erase(running.begin());
    }
    std::string probe = dir + "/probe" + std::to_string(i);
    writeFile(probe + ".configs",
              family + " " + rt::formatParamValues(all[i]) + "\n");
    std::vector<std::string> argv = translateCommand(
        translate, source, chip, probe + ".configs", probe, maxSpillBytes);
    argv.insert(argv.begin() + 1,
                {"--codegen-threads=1", "--ptxas-threads=1"});
    running.emplace_back(startLogged(argv, probe + ".log"), i);
  }
  for (const auto &job : running)
    finish(job);
  // In the order of the space, as the batch would have them.
  std::vector<rt::ParamValues> ordered;
  for (const rt::ParamValues &c : all)
    if (std::find(kept.begin(), kept.end(), c) != kept.end())
      ordered.push_back(c);
  return ordered;
}

} // namespace

/// tile-translate: --tile-translate, else $TILE_TRANSLATE, else beside this
/// program, else on PATH.
std::string findTranslate(const std::string &given, const char *argv0) {
  if (!given.empty())
    return given;
  if (const char *env = std::getenv("TILE_TRANSLATE"))
    return env;
  std::string self = argv0;
  size_t slash = self.rfind('/');
  if (slash != std::string::npos) {
    std::string beside = self.substr(0, slash + 1) + "tile-translate";
    if (access(beside.c_str(), X_OK) == 0)
      return beside;
  }
  return "tile-translate";
}

int compile(const std::string &source, const std::string &spacePath,
            const std::string &dir, const std::string &chip,
            const std::string &translate) {
  Space space = parseSpace(spacePath);
  std::vector<rt::ParamValues> all = candidates(space);
  mkdir(dir.c_str(), 0777);
  auto writeConfigs = [&](const std::vector<rt::ParamValues> &list) {
    std::string configs;
    for (const rt::ParamValues &c : list)
      configs += space.family + " " + rt::formatParamValues(c) + "\n";
    writeFile(dir + "/candidates.configs", configs);
  };
  writeConfigs(all);
  std::string manifest = "# tile-tune " TILE_VERSION "\nfamily " +
                         space.family + "\nchip " + chip + "\n";
  // Each variant's shape file is copied into DIR, which is all that
  // `measure` reads (carry it to the GPU machine).
  for (size_t i = 0; i < space.variants.size(); ++i) {
    manifest += "variant " + (space.variants[i].empty()
                                  ? std::string("-")
                                  : rt::formatParamValues(space.variants[i]));
    if (!space.variantShapes[i].empty()) {
      std::string copy = "variant" + std::to_string(i) + ".shapes";
      writeFile(dir + "/" + copy, readFile(space.variantShapes[i]));
      manifest += " " + copy;
    }
    manifest += "\n";
  }
  writeFile(dir + "/tune.manifest", manifest);
  std::printf("tile-tune: compiling %zu candidate configurations of %s for "
              "%s (tile-translate, in parallel threads)\n",
              all.size(), space.family.c_str(), chip.c_str());
  std::fflush(stdout);
  auto start = std::chrono::steady_clock::now();
  std::string log = dir + "/compile.log";
  std::vector<std::string> batch = translateCommand(
      translate, source, chip, dir + "/candidates.configs",
      dir + "/candidates", space.maxSpillBytes);
  int status = waitExit(startLogged(batch, log));
  if (status != 0) {
    // A candidate failed past what tile-translate can leave out: find
    // which, one compile each, and compile the others together again.
    std::printf("tile-tune: the batch failed; compiling each candidate "
                "alone to find those that fail\n");
    std::fflush(stdout);
    std::vector<rt::ParamValues> kept = compilingAlone(
        all, space.family, translate, source, chip, dir, space.maxSpillBytes);
    if (kept.empty()) {
      std::fprintf(stderr, "%s", readFile(log).c_str());
      std::fprintf(stderr, "tile-tune: no candidate compiles; the first "
                           "error is above and in %s\n", log.c_str());
      return 1;
    }
    writeConfigs(kept);
    status = waitExit(startLogged(batch, log));
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  std::string output = readFile(log);
  if (status != 0) {
    std::fprintf(stderr, "%s", output.c_str());
    std::fprintf(stderr, "tile-tune: %s failed (exit %d); its output is "
                 "above and in %s\n", translate.c_str(), status, log.c_str());
    return 1;
  }
  // The configurations tile-translate left out, one warning each.
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line))
    if (line.find("warning:") != std::string::npos) {
      std::printf("  dropped: %s\n",
                  line.substr(line.find("warning:") + 9).c_str());
    }
  std::vector<rt::KernelInfo> compiled =
      rt::loadKernelInfo(dir + "/candidates.kinfo");
  size_t kept = std::count_if(
      compiled.begin(), compiled.end(),
      [&](const rt::KernelInfo &k) { return k.family == space.family; });
  if (kept == all.size())
    std::printf("tile-tune: all %zu candidates compiled in %.1f s; "
                "%s/candidates.cubin\n",
                kept, seconds, dir.c_str());
  else
    std::printf("tile-tune: %zu of %zu candidates compiled in %.1f s (the "
                "others failed, need too much shared memory or spill); "
                "%s/candidates.cubin\n",
                kept, all.size(), seconds, dir.c_str());
  return kept ? 0 : 1;
}


} // namespace tile::tune
