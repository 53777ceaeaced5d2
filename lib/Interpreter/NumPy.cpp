//===- NumPy.cpp - Reading and writing .npy files -------------------------===//

#include "tile/Interpreter/NumPy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;

std::string tilec::npyDescr(llvm::StringRef dtype) {
  return llvm::StringSwitch<std::string>(dtype)
      .Case("fp16", "<f2")
      .Case("bf16", "<u2")
      .Cases({"fp8e4nv", "fp8e5"}, "|u1") // the bits, as bf16's
      .Case("fp32", "<f4")
      .Case("fp64", "<f8")
      .Case("i8", "<i1")
      .Case("i16", "<i2")
      .Case("i32", "<i4")
      .Case("i64", "<i8")
      .Case("u8", "|u1")
      .Case("u16", "<u2")
      .Case("u32", "<u4")
      .Case("u64", "<u8")
      .Case("i1", "|b1")
      .Default("");
}

bool tilec::npyDescrMatches(llvm::StringRef descr, llvm::StringRef expected) {
  if (descr == expected)
    return true;
  // One-byte types have no byte order: '<', '|' and '=' are all fine.
  auto body = [](llvm::StringRef d) { return d.drop_front(); };
  return descr.size() == 3 && expected.size() == 3 &&
         body(descr) == body(expected) && body(descr).ends_with("1");
}

static std::optional<std::string> field(llvm::StringRef header,
                                        llvm::StringRef key) {
  size_t pos = header.find(("'" + key + "'").str());
  if (pos == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = header.drop_front(pos + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  return rest.ltrim().str();
}

llvm::Expected<NpyArray> tilec::readNpy(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return llvm::createStringError("cannot read '" + path.str() +
                                   "': " + buffer.getError().message());
  llvm::StringRef bytes = (*buffer)->getBuffer();
  auto bad = [&](const llvm::Twine &why) {
    return llvm::createStringError("'" + path.str() +
                                   "' is not a valid .npy file: " + why.str());
  };
  if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10)
    return bad("missing the \\x93NUMPY magic");
  unsigned major = static_cast<uint8_t>(bytes[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = static_cast<uint8_t>(bytes[8]) |
                (static_cast<uint8_t>(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return bad("truncated header");
    headerLen = 0;
    for (int i = 0; i < 4; ++i)
      headerLen |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i]))
                   << (8 * i);
    headerStart = 12;
  } else {
    return bad("unsupported format version " + llvm::Twine(major));
  }
  if (headerStart + headerLen > bytes.size())
    return bad("truncated header");
  llvm::StringRef header = bytes.substr(headerStart, headerLen);
  NpyArray array;
  auto descr = field(header, "descr");
  auto order = field(header, "fortran_order");
  auto shape = field(header, "shape");
  if (!descr || !order || !shape)
    return bad("the header lacks descr, fortran_order or shape");
  llvm::StringRef d = *descr;
  if (!d.consume_front("'") || d.find('\'') == llvm::StringRef::npos)
    return bad("cannot read descr");
  array.descr = d.take_until([](char c) { return c == '\''; }).str();
  if (llvm::StringRef(*order).starts_with("True"))
    return llvm::createStringError("'" + path.str() +
                                   "' is Fortran-ordered; save it in C order");
  llvm::StringRef s = *shape;
  if (!s.consume_front("("))
    return bad("cannot read shape");
  s = s.take_until([](char c) { return c == ')'; });
  llvm::SmallVector<llvm::StringRef> dims;
  s.split(dims, ',', -1, false);
  int64_t count = 1;
  for (llvm::StringRef dim : dims) {
    dim = dim.trim();
    if (dim.empty())
      continue;
    int64_t n;
    if (dim.getAsInteger(10, n) || n < 0)
      return bad("bad dimension '" + dim + "'");
    array.shape.push_back(n);
    count *= n;
  }
  unsigned elemBytes = 0;
  if (array.descr.size() >= 3)
    llvm::StringRef(array.descr).drop_front(2).getAsInteger(10, elemBytes);
  if (elemBytes == 0 || array.descr[0] == '>')
    return bad("unsupported dtype '" + array.descr + "'");
  size_t dataStart = headerStart + headerLen;
  if (bytes.size() - dataStart < static_cast<size_t>(count) * elemBytes)
    return bad("the data is shorter than the shape says");
  array.data.assign(bytes.begin() + dataStart,
                    bytes.begin() + dataStart + count * elemBytes);
  return array;
}

llvm::Error tilec::writeNpy(llvm::StringRef path, llvm::StringRef descr,
                            llvm::ArrayRef<int64_t> shape,
                            llvm::ArrayRef<uint8_t> data) {
  std::string header = "{'descr': '" + descr.str() +
                       "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i)
    header += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1)
    header += ",";
  header += "), }";
  // Pad with spaces so that the data starts at a multiple of 64 bytes.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += "\n";
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError("cannot write '" + path.str() +
                                   "': " + ec.message());
  os << "\x93NUMPY" << '\x01' << '\x00';
  uint16_t len = static_cast<uint16_t>(header.size());
  os << static_cast<char>(len & 0xFF) << static_cast<char>(len >> 8);
  os << header;
  os.write(reinterpret_cast<const char *>(data.data()), data.size());
  return llvm::Error::success();
}
