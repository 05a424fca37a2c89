// Byte-level helpers for damaging .om files in tests: field access, section lookup, checksum repair.
#pragma once

#include <cstdint>
#include <vector>

#include "sdk/model/Crc32.h"
#include "sdk/model/ModelFormat.h"

namespace pyasc::testing {

inline uint64_t loadLittle(const std::vector<uint8_t>& b, size_t at, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(b[at + i]) << (8 * i);
  return v;
}
inline uint32_t load32(const std::vector<uint8_t>& b, size_t at) { return static_cast<uint32_t>(loadLittle(b, at, 4)); }
inline uint64_t load64(const std::vector<uint8_t>& b, size_t at) { return loadLittle(b, at, 8); }
inline void store(std::vector<uint8_t>& b, size_t at, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

inline size_t sectionEntry(const std::vector<uint8_t>& b, model::format::SectionKind kind) {
  uint32_t count = load32(b, model::format::kSectionCountOffset);
  for (uint32_t i = 0; i < count; ++i) {
    size_t at = model::format::kHeaderSize + i * model::format::kSectionEntrySize;
    if (load32(b, at) == static_cast<uint32_t>(kind)) return at;
  }
  return 0;
}
inline size_t sectionOffset(const std::vector<uint8_t>& b, model::format::SectionKind kind) {
  return load64(b, sectionEntry(b, kind) + 8);
}
inline size_t sectionSize(const std::vector<uint8_t>& b, model::format::SectionKind kind) {
  return load64(b, sectionEntry(b, kind) + 16);
}

// Recomputes every section CRC and the header CRC, so that damage reaches the structural checks.
inline void fixChecksums(std::vector<uint8_t>& b) {
  using namespace model::format;
  uint32_t count = load32(b, kSectionCountOffset);
  for (uint32_t i = 0; i < count; ++i) {
    size_t at = kHeaderSize + i * kSectionEntrySize;
    uint64_t offset = load64(b, at + 8), size = load64(b, at + 16);
    if (offset <= b.size() && size <= b.size() - offset) store(b, at + 4, model::crc32(&b[offset], size), 4);
  }
  store(b, kHeaderCrcOffset, 0, 4);
  size_t tableEnd = kHeaderSize + count * kSectionEntrySize;
  store(b, kHeaderCrcOffset, model::crc32(b.data(), tableEnd), 4);
}

// Adds a section of `kind` at the end of the file (shifting the others); checksums need fixing after.
inline std::vector<uint8_t> appendSection(const std::vector<uint8_t>& b, uint32_t kind,
                                          const std::vector<uint8_t>& data) {
  using namespace model::format;
  uint32_t count = load32(b, kSectionCountOffset);
  size_t tableEnd = kHeaderSize + count * kSectionEntrySize;
  std::vector<uint8_t> out(b.begin(), b.begin() + tableEnd);
  out.resize(tableEnd + kSectionEntrySize);
  for (uint32_t i = 0; i < count; ++i) {
    size_t at = kHeaderSize + i * kSectionEntrySize;
    store(out, at + 8, load64(b, at + 8) + kSectionEntrySize, 8);
  }
  store(out, tableEnd, kind, 4);
  store(out, tableEnd + 8, b.size() + kSectionEntrySize, 8);
  store(out, tableEnd + 16, data.size(), 8);
  out.insert(out.end(), b.begin() + tableEnd, b.end());
  out.insert(out.end(), data.begin(), data.end());
  store(out, kSectionCountOffset, count + 1, 4);
  store(out, kFileSizeOffset, out.size(), 8);
  return out;
}

}  // namespace pyasc::testing
