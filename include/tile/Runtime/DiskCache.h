//===- DiskCache.h - compiled artefacts kept between processes --*- C++ -*-===//
//
// A folder of entries, each the bytes a compilation produced, filed under
// the full text of what determined them (the key). The runtime keeps
// NVSHMEM's device functions there (compiled by NVRTC, seconds per
// process otherwise). An entry is written whole or not at all (a temporary
// file renamed into place, so that processes starting together never read
// half an entry), and checked when read: an entry whose magic, key, size or
// checksum does not match reads as absent and is compiled and written
// again. A folder that cannot be created or written only costs the
// compilation.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_DISKCACHE_H
#define TILE_RUNTIME_DISKCACHE_H

#include <cstdint>
#include <optional>
#include <string>

namespace tile::rt {

class DiskCache {
public:
  /// The default folder: $TILE_CACHE_DIR when set ("off" or "" turns the
  /// cache off), else $XDG_CACHE_HOME/tile, else $HOME/.cache/tile; "" when
  /// none of them is set (no cache).
  static std::string defaultFolder();

  /// A cache in `folder` ("" for none: every load misses, stores do
  /// nothing).
  explicit DiskCache(std::string folder) : folder(std::move(folder)) {}

  bool enabled() const { return !folder.empty(); }
  /// The entry's file: <folder>/<kind>-<16 hex digits of the key's hash>.
  std::string path(const std::string &kind, const std::string &key) const;
  /// The bytes stored under `key`, if the entry is there and intact.
  std::optional<std::string> load(const std::string &kind,
                                  const std::string &key) const;
  /// Stores `bytes` under `key` (creating the folder); false if it could
  /// not be written, which is not an error.
  bool store(const std::string &kind, const std::string &key,
             const std::string &bytes) const;

private:
  std::string folder;
};

/// 64-bit FNV-1a of `bytes`: the entries' file names and checksums.
uint64_t fnv1a64(const std::string &bytes);

} // namespace tile::rt

#endif // TILE_RUNTIME_DISKCACHE_H
