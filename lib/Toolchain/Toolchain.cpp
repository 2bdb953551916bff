//===- Toolchain.cpp - where tile finds CUDA's tools and libraries --------===//

#include "tile/Toolchain/Toolchain.h"
#include "FileSystem.h"

#include <algorithm>

using namespace tile::toolchain;

using namespace tile::toolchain::detail;

std::vector<std::string> tile::toolchain::cudaRoots(
    const std::string &explicitRoot) {
  if (!explicitRoot.empty())
    return {explicitRoot};
  std::vector<std::string> roots;
  auto add = [&](const std::string &root) {
    if (!root.empty() &&
        std::find(roots.begin(), roots.end(), root) == roots.end())
      roots.push_back(root);
  };
  add(getEnv("CUDA_HOME"));
  add(getEnv("CUDA_PATH"));
#ifdef TILE_CUDA_ROOT
  add(TILE_CUDA_ROOT);
#endif
  add("/usr/local/cuda");
  return roots;
}

std::string tile::toolchain::findPtxas(const std::string &explicitRoot) {
  for (const std::string &root : cudaRoots(explicitRoot))
    if (std::string path = root + "/bin/ptxas"; isExecutable(path))
      return path;
  if (!explicitRoot.empty())
    return "";
  std::string path = getEnv("PATH");
  for (size_t start = 0; start <= path.size();) {
    size_t end = std::min(path.find(':', start), path.size());
    std::string dir = path.substr(start, end - start);
    if (!dir.empty())
      if (std::string candidate = dir + "/ptxas"; isExecutable(candidate))
        return candidate;
    start = end + 1;
  }
  return "";
}

std::string tile::toolchain::findLibdevice(const std::string &explicitRoot) {
  for (const std::string &root : cudaRoots(explicitRoot))
    if (std::string path = root + "/nvvm/libdevice/libdevice.10.bc";
        isRegularFile(path))
      return path;
  return "";
}

#if defined(__x86_64__)
static constexpr char kTargetDir[] = "/targets/x86_64-linux/lib/";
#elif defined(__aarch64__)
static constexpr char kTargetDir[] = "/targets/sbsa-linux/lib/";
#else
static constexpr char kTargetDir[] = "";
#endif

std::vector<std::string> tile::toolchain::nvrtcCandidates(
    const std::string &pythonNvidiaDir) {
  std::vector<std::string> candidates;
  for (const std::string &root : cudaRoots())
    for (const char *lib : {"/lib64/", "/lib/", kTargetDir})
      if (*lib)
        for (const char *name : {"libnvrtc.so.13", "libnvrtc.so.12"})
          candidates.push_back(root + lib + name);
  if (!pythonNvidiaDir.empty())
    for (const char *sub : {"/cu13/lib/libnvrtc.so.13",
                            "/cuda_nvrtc/lib/libnvrtc.so.13",
                            "/cuda_nvrtc/lib/libnvrtc.so.12"})
      candidates.push_back(pythonNvidiaDir + sub);
  candidates.push_back("libnvrtc.so.13");
  candidates.push_back("libnvrtc.so.12");
  return candidates;
}

std::string tile::toolchain::describeCudaSearch(
    const std::string &explicitRoot) {
  if (!explicitRoot.empty())
    return explicitRoot + " (--cuda-root)";
  std::string text;
  for (const std::string &root : cudaRoots())
    text += (text.empty() ? "" : ", ") + root;
  return text + ", then the directories of $PATH";
}
