// compile-bench: how long tile takes to compile gemm.mlir, stage by stage,
// against ptxas alone on the same PTX, all measured in the same run.
//
//   compile-bench [runs] [file.mlir] [chip] [values]
//
// `values` (tile-translate's --tile-values) picks one configuration of a
// kernel family: by default gemm.mlir's defaults (128 x 256 tiles), so
// that what is timed is specialising and compiling one kernel; "-" compiles
// every configuration of the file.
//
// Each run: `tile-translate --tile-to-cubin --tile-timing` (its stage times
// and the wall time of the whole command), then ptxas alone on the PTX that
// `tile-translate --tile-to-ptx` wrote, then `tile-translate --version` (the
// process start: loading libMLIR and libLLVM). Medians are printed. No GPU
// needed.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace {
// Runs argv with stdout and stderr sent to `log`; returns the wall time in
// ms, or exits with a message when the command fails.
double run(const std::vector<std::string> &argv, const std::string &log) {
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  auto start = std::chrono::steady_clock::now();
  pid_t pid;
  int status = 0;
  if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) !=
          0 ||
      waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "compile-bench: '%s' failed; its output is in %s\n",
                 argv[0].c_str(), log.c_str());
    std::exit(1);
  }
  auto end = std::chrono::steady_clock::now();
  posix_spawn_file_actions_destroy(&actions);
  return std::chrono::duration<double, std::milli>(end - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// "  <stage name>   12.34 ms" lines of --tile-timing.
std::map<std::string, double> stageTimes(const std::string &log) {
  std::map<std::string, double> stages;
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    size_t ms = line.rfind(" ms");
    if (line.rfind("  ", 0) != 0 || ms == std::string::npos ||
        ms + 3 != line.size())
      continue;
    size_t number = line.find_last_of(' ', ms - 1);
    std::string name = line.substr(2, number - 2);
    name.erase(name.find_last_not_of(' ') + 1);
    stages[name] = std::atof(line.substr(number + 1, ms - number - 1).c_str());
  }
  return stages;
}
} // namespace

int main(int argc, char **argv) {
  int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  std::string source = argc > 2 ? argv[2] : TILE_GEMM_MLIR;
  std::string chip = argc > 3 ? argv[3] : "sm_90a";
  std::string values = argc > 4 ? argv[4] : argc > 2 ? "-" : "TMASTORE=0";
  std::vector<std::string> specialize;
  if (values != "-")
    specialize.push_back("--tile-values=" + values);
  std::string translate = TILE_TRANSLATE_PATH, ptxas = TILE_PTXAS_PATH;
  char dir[] = "/tmp/tile-compile-bench-XXXXXX";
  if (!mkdtemp(dir)) {
    std::perror("compile-bench: mkdtemp");
    return 1;
  }
  std::string tmp = dir, log = tmp + "/log", ptx = tmp + "/kernel.ptx";
  std::vector<std::string> toPtx{translate, "--tile-to-ptx", "--chip=" + chip,
                                 source, "-o", ptx};
  toPtx.insert(toPtx.end(), specialize.begin(), specialize.end());
  run(toPtx, log);

  std::map<std::string, std::vector<double>> stages;
  std::vector<double> whole, alone, start;
  for (int i = 0; i < runs; ++i) {
    std::vector<std::string> toCubin{translate,       "--tile-to-cubin",
                                     "--chip=" + chip, "--tile-timing",
                                     source,          "-o",
                                     tmp + "/a.cubin"};
    toCubin.insert(toCubin.end(), specialize.begin(), specialize.end());
    whole.push_back(run(toCubin, log));
    for (auto &[name, ms] : stageTimes(log))
      stages[name].push_back(ms);
    alone.push_back(
        run({ptxas, "-arch=" + chip, "-O3", ptx, "-o", tmp + "/b.cubin"}, log));
    start.push_back(run({translate, "--version"}, log));
  }

  std::printf("compile-bench: %s for %s, median of %d runs\n", source.c_str(),
              chip.c_str(), runs);
  double tileStages = 0;
  for (const char *name :
       {"tile-to-nvvm pipeline", "LLVM IR + LLVM opt", "PTX (NVPTX backend)"}) {
    double ms = median(stages[name]);
    tileStages += ms;
    std::printf("  %-36s %8.1f ms\n", name, ms);
  }
  std::printf("  %-36s %8.1f ms   (target: under 50 ms)\n",
              "tile's stages, tile IR to PTX", tileStages);
  std::printf("  %-36s %8.1f ms\n", "cubin (ptxas, in the run)",
              median(stages["cubin (ptxas)"]));
  std::printf("  %-36s %8.1f ms\n", "process start (tile-translate)",
              median(start));
  std::printf("  %-36s %8.1f ms\n", "whole command, tile IR to cubin",
              median(whole));
  std::printf("  %-36s %8.1f ms\n", "ptxas alone on the same PTX",
              median(alone));
  double ratio = median(whole) / median(alone);
  std::printf("  %-36s %8.2f     (target: within 1.5)\n", "whole / ptxas alone",
              ratio);
  std::remove(log.c_str());
  std::remove(ptx.c_str());
  std::remove((tmp + "/a.cubin").c_str());
  std::remove((tmp + "/b.cubin").c_str());
  rmdir(dir);
  return 0;
}
