//===- DiskCache.h - Compiled kernels on disk, shared by processes -*- C++ -*-===//
//
// Entries are files named by a hash of everything that decides the output
// (source, kernel, specialization, options, target, compiler version).
// Writes go to a unique temporary file in the same directory that is then
// renamed over the entry, so concurrent processes only ever see complete
// entries (POSIX rename is atomic); two writers of one key write the same
// bytes, and the last rename wins.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_DISKCACHE_H
#define TILE_RUNTIME_DISKCACHE_H

#include "tile/Runtime/JIT.h"

#include <optional>
#include <string>
#include <vector>

namespace tile {

/// A stable hex digest (SHA-256) of the parts, each length-prefixed so that
/// ("ab", "c") and ("a", "bc") differ.
std::string hashKey(const std::vector<std::string> &parts);

class DiskCache {
public:
  explicit DiskCache(std::string directory);

  /// $TILE_CACHE_DIR, else $HOME/.cache/tile (or /tmp/tile-cache).
  static std::string defaultDirectory();

  /// The entry's bytes, if present.
  std::optional<std::string> get(const std::string &key,
                                 const std::string &suffix) const;
  /// Store an entry atomically (creating the directory as needed).
  Status put(const std::string &key, const std::string &suffix,
             const std::string &bytes) const;

  const std::string &getDirectory() const { return directory; }

private:
  std::string path(const std::string &key, const std::string &suffix) const;
  std::string directory;
};

} // namespace tile

#endif // TILE_RUNTIME_DISKCACHE_H
