//===- DiskCache.cpp - Compiled kernels on disk, shared by processes ------===//

#include "tile/Runtime/DiskCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace tile;

std::string tile::hashKey(const std::vector<std::string> &parts) {
  llvm::SHA256 sha;
  for (const std::string &p : parts) {
    std::string length = std::to_string(p.size()) + ":";
    sha.update(llvm::StringRef(length));
    sha.update(llvm::StringRef(p));
  }
  auto digest = sha.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(digest.data(), digest.size()),
                     /*LowerCase=*/true);
}

DiskCache::DiskCache(std::string directory) : directory(std::move(directory)) {}

std::string DiskCache::defaultDirectory() {
  if (const char *dir = std::getenv("TILE_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/tile";
  return "/tmp/tile-cache";
}

std::string DiskCache::path(const std::string &key,
                            const std::string &suffix) const {
  llvm::SmallString<256> p(directory);
  llvm::sys::path::append(p, key + "." + suffix);
  return std::string(p);
}

std::optional<std::string> DiskCache::get(const std::string &key,
                                          const std::string &suffix) const {
  auto buffer = llvm::MemoryBuffer::getFile(path(key, suffix),
                                            /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  return (*buffer)->getBuffer().str();
}

Status DiskCache::put(const std::string &key, const std::string &suffix,
                      const std::string &bytes) const {
  if (std::error_code ec = llvm::sys::fs::create_directories(directory))
    return Status::error("cannot create the cache directory '" + directory +
                         "': " + ec.message());
  // A unique temporary name in the same directory (so the rename stays on
  // one file system), then an atomic rename over the entry.
  llvm::SmallString<256> model(directory);
  llvm::sys::path::append(model, key + "." + suffix + ".tmp-%%%%%%%%");
  int fd;
  llvm::SmallString<256> temp;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(model, fd, temp))
    return Status::error("cannot write to the cache directory '" + directory +
                         "': " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
    os.flush();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return Status::error("cannot write the cache entry: " + message);
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path(key, suffix))) {
    llvm::sys::fs::remove(temp);
    return Status::error("cannot store the cache entry: " + ec.message());
  }
  return Status();
}
