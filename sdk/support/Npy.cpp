// .npy reading (versions 1.0–3.0, byte swapping, Fortran-to-C reordering) and np.save-identical writing.
#include "sdk/support/Npy.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

#include "sdk/support/AtomicFile.h"
#include "sdk/support/Diagnostics.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "NpyArray data is little-endian native");

namespace pyasc {

namespace {

constexpr size_t kHugePage = size_t{1} << 21;
constexpr size_t kHugeStorage = size_t{1} << 22;  // and more: on huge pages
constexpr size_t kLargeStorage = size_t{1} << 18;  // and more: kept for reuse when released
constexpr size_t kKeptBytes = size_t{1} << 29;     // released large blocks kept for reuse, at most

// Large blocks: those in use by their size, and released ones kept for the next request of the
// same size, so that a model called again and again writes memory already mapped (a fresh block
// costs a page fault and the kernel's zeroing per page, more than an elementwise pass over it;
// glibc maps blocks this large afresh, or returns them when its heap shrinks).
struct LargeBlocks {
  std::mutex mutex;
  std::unordered_map<void*, size_t> inUse;
  std::multimap<size_t, void*> kept;
  size_t keptBytes = 0;
};

LargeBlocks& largeBlocks() {
  static LargeBlocks* blocks = new LargeBlocks;  // never destroyed: arrays may outlive static destructors
  return *blocks;
}

}  // namespace

void* allocateArrayStorage(size_t bytes) {
  if (bytes < kLargeStorage) {
    void* p = std::aligned_alloc(64, (std::max<size_t>(bytes, 1) + 63) / 64 * 64);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  // the rounded size alone decides the alignment, so that a kept block suits every request of its size
  auto roundUp = [bytes](size_t unit) { return (bytes + unit - 1) / unit * unit; };
  const size_t alignment = roundUp(kLargeStorage / 4) >= kHugeStorage ? kHugePage : kLargeStorage / 4;  // 2 MiB, or 64 KiB
  const size_t rounded = roundUp(alignment);
  LargeBlocks& blocks = largeBlocks();
  {
    std::lock_guard<std::mutex> lock(blocks.mutex);
    if (auto [begin, end] = blocks.kept.equal_range(rounded); begin != end) {  // the last released: warm in the caches
      const auto it = std::prev(end);
      void* p = it->second;
      blocks.kept.erase(it);
      blocks.keptBytes -= rounded;
      blocks.inUse.emplace(p, rounded);
      return p;
    }
  }
  void* p = std::aligned_alloc(alignment, rounded);
  if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (alignment == kHugePage) madvise(p, rounded, MADV_HUGEPAGE);  // advice only: the block works without
#endif
  try {
    std::lock_guard<std::mutex> lock(blocks.mutex);
    blocks.inUse.emplace(p, rounded);
  } catch (...) {
    std::free(p);
    throw std::bad_alloc();
  }
  return p;
}

void releaseArrayStorage(void* p) noexcept {
  if (p == nullptr) return;
  LargeBlocks& blocks = largeBlocks();
  {
    std::lock_guard<std::mutex> lock(blocks.mutex);
    if (auto it = blocks.inUse.find(p); it != blocks.inUse.end()) {
      const size_t size = it->second;
      blocks.inUse.erase(it);
      // full: blocks kept for other sizes make room (sizes no longer asked for would stay forever)
      while (blocks.keptBytes + size > kKeptBytes && !blocks.kept.empty()) {
        blocks.keptBytes -= blocks.kept.begin()->first;
        std::free(blocks.kept.begin()->second);
        blocks.kept.erase(blocks.kept.begin());
      }
      if (size <= kKeptBytes) {
        try {
          blocks.kept.emplace(size, p);
          blocks.keptBytes += size;
          return;
        } catch (...) {  // no memory to note it: release it instead
        }
      }
    }
  }
  std::free(p);
}

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
constexpr size_t kMinPreamble = 10;          // magic, version, 2-byte header length (version 1.0)
constexpr size_t kArrayAlign = 64;           // numpy.lib.format.ARRAY_ALIGN
constexpr size_t kGrowthAxisMaxDigits = 21;  // numpy.lib.format.GROWTH_AXIS_MAX_DIGITS
constexpr int kMaxRank = 64;
constexpr int kMaxNesting = 16;

[[noreturn]] void fail(const std::string& name, const std::string& message) {
  throw CompileError(SourceLocation{name}, message);
}

// A Python literal as it may appear in a .npy header.
struct HeaderValue {
  enum class Kind { String, Int, Bool, None, Tuple, List, Dict } kind = Kind::None;
  std::string text;
  int64_t integer = 0;
  bool boolean = false;
  std::vector<std::string> keys;   // Dict
  std::vector<HeaderValue> items;  // Tuple, List, Dict values
};

// Parses the header dictionary, a Python literal; errors name the byte offset in the file.
class HeaderParser {
 public:
  HeaderParser(const std::string& text, size_t fileOffset, const std::string& name)
      : text_(text), fileOffset_(fileOffset), name_(name) {}

  HeaderValue parseDictionary() {
    skipSpace();
    if (peek() != '{') failHere();
    HeaderValue dict = parseValue(0);
    skipSpace();
    if (pos_ != text_.size()) failHere();
    return dict;
  }

 private:
  [[noreturn]] void failHere() {
    fail(name_, "header is not a valid dictionary at byte " + std::to_string(fileOffset_ + pos_));
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool consumeWord(const char* word) {
    size_t n = std::strlen(word);
    if (text_.compare(pos_, n, word) != 0) return false;
    pos_ += n;
    return true;
  }

  HeaderValue parseValue(int depth) {
    if (depth > kMaxNesting) failHere();
    skipSpace();
    HeaderValue v;
    char c = peek();
    if (c == '\'' || c == '"') {
      v.kind = HeaderValue::Kind::String;
      v.text = parseString();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = HeaderValue::Kind::Int;
      v.integer = parseInteger();
    } else if (consumeWord("True")) {
      v.kind = HeaderValue::Kind::Bool;
      v.boolean = true;
    } else if (consumeWord("False")) {
      v.kind = HeaderValue::Kind::Bool;
    } else if (consumeWord("None")) {
      v.kind = HeaderValue::Kind::None;
    } else if (c == '(' || c == '[') {
      v.kind = c == '(' ? HeaderValue::Kind::Tuple : HeaderValue::Kind::List;
      parseSequence(v, c == '(' ? ')' : ']', depth);
    } else if (c == '{') {
      v.kind = HeaderValue::Kind::Dict;
      parseDict(v, depth);
    } else {
      failHere();
    }
    return v;
  }

  std::string parseString() {
    char quote = text_[pos_++];
    std::string s;
    for (;;) {
      if (pos_ >= text_.size() || text_[pos_] == '\n') failHere();
      char c = text_[pos_++];
      if (c == quote) return s;
      if (c == '\\') {
        if (pos_ >= text_.size()) failHere();
        c = text_[pos_++];
      }
      s += c;
    }
  }

  int64_t parseInteger() {
    bool negative = false;
    if (peek() == '-') {
      negative = true;
      ++pos_;
    }
    if (!(peek() >= '0' && peek() <= '9')) failHere();
    uint64_t value = 0;
    while (peek() >= '0' && peek() <= '9') {
      uint64_t digit = static_cast<uint64_t>(text_[pos_] - '0');
      if (value > (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) - digit) / 10) failHere();
      value = value * 10 + digit;
      ++pos_;
    }
    if (peek() == 'L') ++pos_;  // Python 2 long suffix, written by old NumPy versions
    return negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
  }

  void parseSequence(HeaderValue& v, char close, int depth) {
    ++pos_;
    skipSpace();
    bool sawComma = false;
    while (peek() != close) {
      v.items.push_back(parseValue(depth + 1));
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        sawComma = true;
        skipSpace();
      } else if (peek() != close) {
        failHere();
      }
    }
    // "(3)" is an int in Python, not a tuple.
    if (close == ')' && v.items.size() == 1 && !sawComma) failHere();
    ++pos_;
  }

  void parseDict(HeaderValue& v, int depth) {
    ++pos_;
    skipSpace();
    while (peek() != '}') {
      if (peek() != '\'' && peek() != '"') failHere();
      v.keys.push_back(parseString());
      skipSpace();
      if (peek() != ':') failHere();
      ++pos_;
      v.items.push_back(parseValue(depth + 1));
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        skipSpace();
      } else if (peek() != '}') {
        failHere();
      }
    }
    ++pos_;
  }

  const std::string& text_;
  size_t fileOffset_;
  const std::string& name_;
  size_t pos_ = 0;
};

// Maps a descr such as "<f4" or ">i8" to a DType; sets bigEndian for multi-byte big-endian data.
bool parseDescr(const std::string& descr, DType& dtype, bool& bigEndian) {
  if (descr.size() < 3) return false;
  char order = descr[0];
  if (order != '<' && order != '>' && order != '|' && order != '=') return false;
  static const std::pair<const char*, DType> kTypes[] = {
      {"f2", DType::Float16}, {"f4", DType::Float32}, {"f8", DType::Float64}, {"i1", DType::Int8}, {"u1", DType::UInt8},
      {"i2", DType::Int16},   {"i4", DType::Int32},   {"i8", DType::Int64},   {"b1", DType::Bool},
  };
  std::string rest = descr.substr(1);
  for (const auto& t : kTypes) {
    if (rest == t.first) {
      dtype = t.second;
      bigEndian = order == '>' && dtypeSize(dtype) > 1;
      return true;
    }
  }
  return false;
}

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

const HeaderValue* lookup(const HeaderValue& dict, const std::string& key) {
  for (size_t i = 0; i < dict.keys.size(); ++i)
    if (dict.keys[i] == key) return &dict.items[i];
  return nullptr;
}

void checkKeys(const HeaderValue& dict, const std::string& name) {
  static const char* kKeys[] = {"descr", "fortran_order", "shape"};
  for (size_t i = 0; i < dict.keys.size(); ++i) {
    const std::string& key = dict.keys[i];
    if (std::find(dict.keys.begin(), dict.keys.begin() + i, key) != dict.keys.begin() + i)
      fail(name, "header repeats the key '" + key + "'");
    if (std::none_of(std::begin(kKeys), std::end(kKeys), [&](const char* k) { return key == k; }))
      fail(name, "header has an unexpected key '" + key + "'");
  }
  for (const char* key : kKeys)
    if (!lookup(dict, key)) fail(name, std::string("header has no '") + key + "' key");
}

// Reorders column-major element data into row-major order.
ArrayBytes fortranToC(const ArrayBytes& data, const std::vector<int64_t>& shape, size_t itemSize) {
  if (data.empty()) return data;  // an empty array's other extents may multiply past int64
  size_t rank = shape.size();
  std::vector<int64_t> fortranStride(rank);
  int64_t stride = 1;
  for (size_t i = 0; i < rank; ++i) {
    fortranStride[i] = stride;
    stride *= shape[i];
  }
  ArrayBytes out(data.size());
  std::vector<int64_t> index(rank, 0);
  int64_t source = 0;
  size_t count = itemSize == 0 ? 0 : data.size() / itemSize;
  for (size_t element = 0; element < count; ++element) {
    std::memcpy(&out[element * itemSize], &data[static_cast<size_t>(source) * itemSize], itemSize);
    for (size_t axis = rank; axis-- > 0;) {
      source += fortranStride[axis];
      if (++index[axis] < shape[axis]) break;
      source -= fortranStride[axis] * shape[axis];
      index[axis] = 0;
    }
  }
  return out;
}

}  // namespace

int64_t NpyArray::elementCount() const {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;  // other extents may be huge
  int64_t count = 1;
  for (int64_t d : shape) {
    if (__builtin_mul_overflow(count, d, &count)) return INT64_MAX;  // only an array that was never read
  }
  return count;
}

NpyArray parseNpy(const std::vector<uint8_t>& bytes, const std::string& name) {
  size_t size = bytes.size();
  if (size > 0 && std::memcmp(bytes.data(), kMagic, std::min(size, kMagicSize)) != 0)
    fail(name, "not a .npy file (bad magic)");
  if (size < kMinPreamble)
    fail(name, "truncated: file has " + std::to_string(size) + " bytes, a .npy preamble needs at least " +
                   std::to_string(kMinPreamble));
  int major = bytes[6], minor = bytes[7];
  if (major < 1 || major > 3 || minor != 0)
    fail(name, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                   " (reads 1.0, 2.0 and 3.0)");
  size_t preamble = major == 1 ? 10 : 12;
  if (size < preamble)
    fail(name, "truncated: file has " + std::to_string(size) + " bytes, a version " + std::to_string(major) +
                   ".0 preamble needs " + std::to_string(preamble));
  size_t headerSize = bytes[8] | (static_cast<size_t>(bytes[9]) << 8);
  if (major > 1) headerSize |= (static_cast<size_t>(bytes[10]) << 16) | (static_cast<size_t>(bytes[11]) << 24);
  if (size - preamble < headerSize)
    fail(name, "truncated: header says " + std::to_string(headerSize) + " header bytes, file has " +
                   std::to_string(size - preamble));
  std::string header(bytes.begin() + preamble, bytes.begin() + preamble + headerSize);
  HeaderValue dict = HeaderParser(header, preamble, name).parseDictionary();
  checkKeys(dict, name);

  const HeaderValue& descr = *lookup(dict, "descr");
  NpyArray array;
  bool bigEndian = false;
  if (descr.kind != HeaderValue::Kind::String) fail(name, "unsupported dtype: structured arrays are not supported");
  if (!parseDescr(descr.text, array.dtype, bigEndian)) fail(name, "unsupported dtype '" + descr.text + "'");
  const HeaderValue& fortran = *lookup(dict, "fortran_order");
  if (fortran.kind != HeaderValue::Kind::Bool) fail(name, "header's 'fortran_order' is not True or False");
  const HeaderValue& shape = *lookup(dict, "shape");
  if (shape.kind != HeaderValue::Kind::Tuple) fail(name, "header's 'shape' is not a tuple");
  if (shape.items.size() > static_cast<size_t>(kMaxRank))
    fail(name, "shape has " + std::to_string(shape.items.size()) + " dimensions, at most " + std::to_string(kMaxRank) +
                   " are supported");
  for (const HeaderValue& d : shape.items) {
    if (d.kind != HeaderValue::Kind::Int || d.integer < 0)
      fail(name, "header's 'shape' is not a tuple of non-negative integers");
    array.shape.push_back(d.integer);
  }

  size_t itemSize = static_cast<size_t>(dtypeSize(array.dtype));
  uint64_t elements = 1;
  bool empty = std::find(array.shape.begin(), array.shape.end(), 0) != array.shape.end();
  for (int64_t d : array.shape) {
    if (empty) break;
    if (elements > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / itemSize / static_cast<uint64_t>(d))
      fail(name, "shape " + shapeText(array.shape) + " is too large");
    elements *= static_cast<uint64_t>(d);
  }
  if (empty) elements = 0;
  uint64_t dataBytes = elements * itemSize;
  size_t dataOffset = preamble + headerSize;
  uint64_t available = size - dataOffset;
  if (available < dataBytes)
    fail(name,
         "truncated: header says " + std::to_string(dataBytes) + " data bytes, file has " + std::to_string(available));
  if (available > dataBytes)
    fail(name, "unexpected " + std::to_string(available - dataBytes) + " bytes after the data (header says " +
                   std::to_string(dataBytes) + " data bytes)");

  array.data.assign(bytes.begin() + dataOffset, bytes.end());
  if (bigEndian)
    for (size_t i = 0; i < array.data.size(); i += itemSize) std::reverse(&array.data[i], &array.data[i] + itemSize);
  if (array.dtype == DType::Bool)
    for (uint8_t& b : array.data) b = b != 0;
  if (fortran.boolean && array.shape.size() > 1) array.data = fortranToC(array.data, array.shape, itemSize);
  return array;
}

NpyArray readNpy(const std::string& path) { return parseNpy(readFileBytes(path), path); }

std::vector<uint8_t> serializeNpy(const NpyArray& array) {
  uint64_t expected = 1;
  for (int64_t d : array.shape) {
    if (d < 0) throw std::invalid_argument("serializeNpy: negative dimension in shape " + shapeText(array.shape));
    expected *= static_cast<uint64_t>(d);
  }
  expected *= static_cast<uint64_t>(dtypeSize(array.dtype));
  if (expected != array.data.size())
    throw std::invalid_argument("serializeNpy: shape " + shapeText(array.shape) + " needs " + std::to_string(expected) +
                                " bytes, data has " + std::to_string(array.data.size()));
  std::string header = "{'descr': '" + dtypeNpyDescr(array.dtype) +
                       "', 'fortran_order': False, 'shape': " + shapeText(array.shape) + ", }";
  if (!array.shape.empty()) header += std::string(kGrowthAxisMaxDigits - std::to_string(array.shape[0]).size(), ' ');
  size_t lengthBytes = 2;
  size_t total = kMagicSize + 2 + lengthBytes + header.size() + 1;
  size_t padding = kArrayAlign - total % kArrayAlign;
  if (header.size() + 1 + padding > 0xffff) {
    lengthBytes = 4;
    total = kMagicSize + 2 + lengthBytes + header.size() + 1;
    padding = kArrayAlign - total % kArrayAlign;
  }
  size_t headerSize = header.size() + padding + 1;
  std::vector<uint8_t> out(kMagic, kMagic + kMagicSize);
  out.push_back(lengthBytes == 2 ? 1 : 2);
  out.push_back(0);
  for (size_t i = 0; i < lengthBytes; ++i) out.push_back(static_cast<uint8_t>(headerSize >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), padding, ' ');
  out.push_back('\n');
  out.insert(out.end(), array.data.begin(), array.data.end());
  return out;
}

void writeNpy(const std::string& path, const NpyArray& array) { writeFileAtomically(path, serializeNpy(array)); }

}  // namespace pyasc
