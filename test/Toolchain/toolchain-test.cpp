//===- toolchain-test.cpp - tile's one search order for CUDA's pieces -----===//
//
// Fake toolkits in a scratch folder: the search order (explicit root alone;
// $CUDA_HOME, $CUDA_PATH, the build's toolkit, /usr/local/cuda; then
// $PATH for ptxas), duplicates dropped, and a missing piece reported as
// "" rather than taken from another toolkit when the root was explicit.
//
//===----------------------------------------------------------------------===//

#include "tile/Toolchain/Toolchain.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

using namespace tile::toolchain;

static int failures = 0;
static void expect(bool ok, const std::string &what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what.c_str());
    ++failures;
  }
}

static void makeFile(const std::string &path, bool executable) {
  std::string dir = path.substr(0, path.rfind('/'));
  std::string command = "mkdir -p '" + dir + "'";
  if (std::system(command.c_str()) != 0)
    std::abort();
  std::ofstream(path) << "#!/bin/sh\n";
  chmod(path.c_str(), executable ? 0755 : 0644);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::printf("usage: tile-toolchain-test <scratch folder>\n");
    return 2;
  }
  std::string scratch = argv[1];
  std::string cleanup = "rm -rf '" + scratch + "'";
  if (std::system(cleanup.c_str()) != 0)
    return 2;
  std::string home = scratch + "/home", path = scratch + "/path",
              bin = scratch + "/bin";
  makeFile(home + "/bin/ptxas", true);
  makeFile(home + "/nvvm/libdevice/libdevice.10.bc", false);
  makeFile(bin + "/ptxas", true);

  setenv("CUDA_HOME", home.c_str(), 1);
  setenv("CUDA_PATH", path.c_str(), 1);
  std::vector<std::string> roots = cudaRoots();
  expect(roots.size() >= 3 && roots[0] == home && roots[1] == path &&
             roots.back() == "/usr/local/cuda",
         "CUDA_HOME, CUDA_PATH, ..., /usr/local/cuda in that order");
  expect(std::count(roots.begin(), roots.end(), "/usr/local/cuda") == 1,
         "no root twice");
  expect(cudaRoots("/explicit") == std::vector<std::string>{"/explicit"},
         "an explicit root alone");
  expect(findPtxas() == home + "/bin/ptxas", "ptxas from CUDA_HOME first");
  expect(findLibdevice() == home + "/nvvm/libdevice/libdevice.10.bc",
         "libdevice from CUDA_HOME");
  expect(findPtxas(path).empty(),
         "an explicit root without ptxas: none, not another toolkit's");
  expect(findLibdevice(path).empty(), "an explicit root without libdevice");

  // Nothing in the toolkits: $PATH.
  setenv("CUDA_HOME", path.c_str(), 1);
  unsetenv("CUDA_PATH");
  std::string oldPath = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", (bin + ":" + oldPath).c_str(), 1);
  std::string ptxas = findPtxas();
  expect(ptxas == bin + "/ptxas" || ptxas.rfind("/bin/ptxas") != std::string::npos,
         "ptxas from a toolkit, else $PATH: got '" + ptxas + "'");
  setenv("PATH", oldPath.c_str(), 1);

  std::vector<std::string> nvrtc = nvrtcCandidates("/py/nvidia");
  expect(!nvrtc.empty() && nvrtc.front().rfind(path, 0) == 0,
         "NVRTC looked for in the first toolkit first");
  expect(std::find(nvrtc.begin(), nvrtc.end(),
                   "/py/nvidia/cu13/lib/libnvrtc.so.13") != nvrtc.end(),
         "then in NVIDIA's Python packages");
  expect(nvrtc.back() == "libnvrtc.so.12", "last, by name for the loader");
  expect(describeCudaSearch("/x") == "/x (--cuda-root)",
         "an explicit root described as such");

  if (std::system(cleanup.c_str()) != 0)
    return 2;
  if (failures) {
    std::printf("%d failure(s)\n", failures);
    return 1;
  }
  std::printf("toolchain search order: ok\n");
  return 0;
}
