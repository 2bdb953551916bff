//===- Nvshmem.cpp - where NVSHMEM is installed ---------------------------===//
//
// NVSHMEM's installations, looked for on disk without loading them (the
// runtime loads the one found, Nvshmem.h). No process is started: a Python
// package outside the usual site-packages is named with NVSHMEM_HOME.
//
//===----------------------------------------------------------------------===//

#include "tile/Toolchain/Toolchain.h"
#include "FileSystem.h"

#include <dirent.h>
#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <exception>

using namespace tile::toolchain;
using namespace tile::toolchain::detail;

namespace {

constexpr const char *kHostLibrary = kNvshmemHostLibrary;
constexpr const char *kDeviceLibrary = kNvshmemDeviceLibrary;
constexpr char kPipPackage[] = "nvidia-nvshmem-cu13";
constexpr const char *kHowToInstall = kNvshmemHowToInstall;


/// Entries of `dir` whose names start with `prefix`, sorted with the
/// highest (newest Python) first.
std::vector<std::string> listPrefixed(const std::string &dir,
                                      const std::string &prefix) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *entry = readdir(d))
      if (std::strncmp(entry->d_name, prefix.c_str(), prefix.size()) == 0)
        names.push_back(entry->d_name);
    closedir(d);
  }
  std::sort(names.rbegin(), names.rend());
  return names;
}

/// What the search saw, for the reason given when it finds nothing.
struct SearchLog {
  /// Folders that hold the host library but not the device library.
  std::vector<std::string> incomplete;
  unsigned pythonFolders = 0;
};

/// The headers of the installation at `dir`: beside lib/ (NVSHMEM's own
/// layout and the Python package) or, for Debian's packages of
/// /usr/lib/<arch>/nvshmem/<cuda major>, in /usr/include/nvshmem_<major>.
std::string findIncludeDir(const std::string &dir, const std::string &libDir) {
  std::vector<std::string> candidates = {dir + "/include",
                                         libDir + "/../include"};
  size_t slash = dir.rfind('/');
  if (slash != std::string::npos)
    candidates.push_back("/usr/include/nvshmem_" + dir.substr(slash + 1));
  candidates.push_back("/usr/include/nvshmem");
  for (const std::string &candidate : candidates)
    if (isRegularFile(candidate + "/nvshmem.h"))
      return candidate;
  return "";
}

/// An installation whose libraries lie in `dir`, in `dir`/lib or
/// `dir`/lib64.
bool probe(const std::string &where, const std::string &origin,
           NvshmemInstall &install, SearchLog &log) {
  // Paths in messages without ".." (a python3 found on PATH gives
  // <venv>/bin/../lib/...).
  char resolved[PATH_MAX];
  std::string dir = realpath(where.c_str(), resolved) ? resolved : where;
  for (const char *sub : {"/lib", "/lib64", ""}) {
    std::string libDir = dir + sub;
    std::string host = libDir + "/" + kHostLibrary;
    if (!isRegularFile(host))
      continue;
    std::string device = libDir + "/" + kDeviceLibrary;
    if (!isRegularFile(device)) {
      log.incomplete.push_back(libDir);
      continue;
    }
    install.origin = origin;
    install.libraryDir = libDir;
    install.hostLibrary = host;
    install.deviceLibrary = device;
    install.includeDir = findIncludeDir(dir, libDir);
    return true;
  }
  return false;
}

#if defined(__x86_64__)
constexpr char kMultiarch[] = "x86_64-linux-gnu";
#elif defined(__aarch64__)
constexpr char kMultiarch[] = "aarch64-linux-gnu";
#else
constexpr char kMultiarch[] = "";
#endif

/// The usual install prefixes, NVIDIA's packages for Debian/Ubuntu (one
/// folder per CUDA major version) included.
bool searchPrefixes(NvshmemInstall &install, int cudaMajor, SearchLog &log) {
  for (const char *prefix : {"/usr/local/nvshmem", "/opt/nvidia/nvshmem"})
    if (probe(prefix, prefix, install, log))
      return true;
  if (!*kMultiarch)
    return false;
  std::string debian = std::string("/usr/lib/") + kMultiarch + "/nvshmem";
  std::vector<std::string> dirs = {
      debian + "/" + std::to_string(cudaMajor), debian};
  for (const std::string &name : listPrefixed(debian, ""))
    if (name != "." && name != "..")
      dirs.push_back(debian + "/" + name);
  for (const std::string &dir : dirs)
    if (probe(dir, dir, install, log))
      return true;
  return false;
}

/// The host library where the dynamic loader finds it (LD_LIBRARY_PATH,
/// ldconfig's cache), or already loaded by the process.
bool searchLoaderPath(NvshmemInstall &install, SearchLog &log) {
  // RTLD_LAZY | RTLD_LOCAL: nothing runs beyond the library's constructors
  // and nothing leaks into the global scope; the runtime opens it properly
  // by its full path afterwards.
  void *handle = dlopen(kHostLibrary, RTLD_LAZY | RTLD_LOCAL);
  if (!handle)
    return false;
  link_map *map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name)
    return false;
  std::string path = map->l_name;
  std::string dir = path.substr(0, path.rfind('/'));
  return probe(dir, "the dynamic loader's path", install, log);
}

/// site-packages and dist-packages folders of the Pythons one would use.
std::vector<std::string> pythonSiteFolders() {
  std::vector<std::string> roots;
  if (std::string venv = getEnv("VIRTUAL_ENV"); !venv.empty())
    roots.push_back(venv);
  // A python3 on PATH that is not a system one (a virtual environment,
  // /opt/...): its prefix is the folder above its bin/.
  std::string path = getEnv("PATH");
  for (size_t start = 0; start <= path.size();) {
    size_t end = path.find(':', start);
    if (end == std::string::npos)
      end = path.size();
    std::string dir = path.substr(start, end - start);
    if (!dir.empty() && access((dir + "/python3").c_str(), X_OK) == 0)
      roots.push_back(dir + "/..");
    start = end + 1;
  }
  if (std::string home = getEnv("HOME"); !home.empty())
    roots.push_back(home + "/.local");
  roots.push_back("/usr/local");
  roots.push_back("/usr");

  std::vector<std::string> folders;
  for (const std::string &root : roots)
    for (const std::string &python : listPrefixed(root + "/lib", "python3"))
      for (const char *kind : {"/site-packages", "/dist-packages"})
        folders.push_back(root + "/lib/" + python + kind);
  // Debian's own Python packages.
  folders.push_back("/usr/lib/python3/dist-packages");
  return folders;
}

bool searchPython(NvshmemInstall &install, SearchLog &log) {
  std::string origin = std::string("the Python package ") + kPipPackage;
  for (const std::string &folder : pythonSiteFolders()) {
    if (!isDirectory(folder))
      continue;
    ++log.pythonFolders;
    if (probe(folder + "/nvidia/nvshmem", origin, install, log))
      return true;
  }
  // No Python is run: a package elsewhere (pyenv, conda, a PYTHONPATH) is
  // found through NVSHMEM_HOME.
  return false;
}

std::string missingReason(const SearchLog &log) {
  std::string why = std::string("needs NVSHMEM (") + kHostLibrary + " and " +
                    kDeviceLibrary +
                    "); none found in NVSHMEM_HOME (not set), "
                    "/usr/local/nvshmem, /opt/nvidia/nvshmem, ";
  if (*kMultiarch)
    why += std::string("/usr/lib/") + kMultiarch + "/nvshmem, ";
  why += "the dynamic loader's path, or the Python package ";
  why += kPipPackage;
  why += " (" + std::to_string(log.pythonFolders) +
         " site-packages folders looked in)";
  for (const std::string &dir : log.incomplete)
    why += "; " + dir + " has " + kHostLibrary + " but no " + kDeviceLibrary;
  return why + ": " + kHowToInstall;
}

} // namespace

bool tile::toolchain::findNvshmem(NvshmemInstall &install, int cudaMajor,
                                   std::string *why) {
  try {
    SearchLog log;
    std::string home = getEnv("NVSHMEM_HOME");
    if (!home.empty()) {
      // Set by the user: the only place to look.
      if (probe(home, "NVSHMEM_HOME", install, log))
        return true;
      if (why)
        *why = "needs NVSHMEM: NVSHMEM_HOME is set to '" + home +
               "' but neither it nor its lib/ holds both " + kHostLibrary +
               " and " + kDeviceLibrary + ": " + kHowToInstall +
               " to the folder holding lib/";
      return false;
    }
    if (searchPrefixes(install, cudaMajor, log) || searchLoaderPath(install, log) ||
        searchPython(install, log))
      return true;
    if (why)
      *why = missingReason(log);
    return false;
  } catch (const std::exception &e) {
    if (why)
      *why = std::string("needs NVSHMEM; looking for it failed: ") + e.what();
    return false;
  }
}
