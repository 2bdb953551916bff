//===- DiskCache.cpp - compiled artefacts kept between processes ----------===//
//
// An entry's file: "tile-cache 1\n", the key's length and the data's length
// and checksum on one line ("<key bytes> <data bytes> <fnv1a64 hex>\n"),
// the key, then the data. Written to a mkstemp file beside it, then
// renamed into place.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/DiskCache.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace tile::rt;

namespace {
constexpr char kMagic[] = "tile-cache 1\n";

std::string hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx",
                static_cast<unsigned long long>(value));
  return text;
}

/// mkdir -p, ignoring failures (the store that follows then fails).
void makeFolders(const std::string &path) {
  for (size_t slash = path.find('/', 1); ; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    if (!prefix.empty())
      ::mkdir(prefix.c_str(), 0755);
    if (slash == std::string::npos)
      break;
  }
}
} // namespace

uint64_t tile::rt::fnv1a64(const std::string &bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string DiskCache::defaultFolder() {
  if (const char *dir = std::getenv("TILE_CACHE_DIR"))
    return std::string(dir) == "off" ? "" : dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/tile";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/tile";
  return "";
}

std::string DiskCache::path(const std::string &kind,
                            const std::string &key) const {
  return folder + "/" + kind + "-" + hex(fnv1a64(key));
}

std::optional<std::string> DiskCache::load(const std::string &kind,
                                           const std::string &key) const {
  if (!enabled())
    return std::nullopt;
  // A cache problem is never an error: anything unexpected is a miss.
  try {
    std::ifstream in(path(kind, key), std::ios::binary | std::ios::ate);
    if (!in)
      return std::nullopt;
    std::streamoff fileBytes = in.tellg();
    in.seekg(0);
    std::string magic(sizeof(kMagic) - 1, '\0');
    if (!in.read(magic.data(), magic.size()) || magic != kMagic)
      return std::nullopt;
    std::string header;
    if (!std::getline(in, header))
      return std::nullopt;
    std::istringstream fields(header);
    unsigned long long keyBytes = 0, dataBytes = 0;
    std::string checksum;
    if (!(fields >> keyBytes >> dataBytes >> checksum) ||
        keyBytes != key.size())
      return std::nullopt;
    // The sizes must account for the file exactly before anything is
    // allocated: a damaged header cannot ask for gigabytes.
    std::streamoff at = in.tellg();
    if (at < 0 || fileBytes < at ||
        static_cast<unsigned long long>(fileBytes - at) !=
            keyBytes + dataBytes)
      return std::nullopt;
    std::string storedKey(keyBytes, '\0');
    if (!in.read(storedKey.data(), storedKey.size()) || storedKey != key)
      return std::nullopt;
    std::string data(dataBytes, '\0');
    if (!in.read(data.data(), data.size()) || hex(fnv1a64(data)) != checksum)
      return std::nullopt;
    return data;
  } catch (...) {
    return std::nullopt;
  }
}

bool DiskCache::store(const std::string &kind, const std::string &key,
                      const std::string &bytes) const {
  if (!enabled())
    return false;
  try {
    makeFolders(folder);
    std::string target = path(kind, key);
    // A name of its own for each writer (threads, processes sharing the
    // folder), renamed into place whole.
    std::string temporary = target + ".XXXXXX";
    int fd = ::mkstemp(temporary.data());
    if (fd < 0)
      return false;
    std::ostringstream header;
    header << kMagic << key.size() << " " << bytes.size() << " "
           << hex(fnv1a64(bytes)) << "\n";
    std::string head = header.str();
    bool written = true;
    for (const std::string *part :
         std::initializer_list<const std::string *>{&head, &key, &bytes}) {
      const char *data = part->data();
      size_t left = part->size();
      while (written && left > 0) {
        ssize_t n = ::write(fd, data, left);
        if (n < 0 && errno == EINTR)
          continue;
        written = n > 0;
        if (written)
          data += n, left -= size_t(n);
      }
    }
    written = ::close(fd) == 0 && written;
    if (!written || std::rename(temporary.c_str(), target.c_str()) != 0) {
      std::remove(temporary.c_str());
      return false;
    }
    return true;
  } catch (...) {
    return false;
  }
}
