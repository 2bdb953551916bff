//===- FileSystem.h - the toolchain library's file and environment tests --===//
//
// What Toolchain.cpp and Nvshmem.cpp ask of the file system and the
// environment, in one place (POSIX; no process started).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_TOOLCHAIN_FILESYSTEM_H
#define TILE_LIB_TOOLCHAIN_FILESYSTEM_H

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace tile::toolchain::detail {

/// The variable's value, or "" when it is not set.
inline std::string getEnv(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

inline bool isRegularFile(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

inline bool isDirectory(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

inline bool isExecutable(const std::string &path) {
  return isRegularFile(path) && access(path.c_str(), X_OK) == 0;
}

} // namespace tile::toolchain::detail

#endif // TILE_LIB_TOOLCHAIN_FILESYSTEM_H
