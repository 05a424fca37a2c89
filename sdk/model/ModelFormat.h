// The byte layout of a .om file shared by ModelWriter and ModelReader; docs/om-format.md explains it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pyasc::model::format {

constexpr char kMagic[8] = {'P', 'Y', 'A', 'S', 'C', 'O', 'M', '\0'};

// Header field offsets.
constexpr size_t kMagicOffset = 0;
constexpr size_t kMajorOffset = 8;
constexpr size_t kMinorOffset = 10;
constexpr size_t kHeaderCrcOffset = 12;
constexpr size_t kFileSizeOffset = 16;
constexpr size_t kFlagsOffset = 24;
constexpr size_t kSectionCountOffset = 28;
constexpr size_t kTargetOffset = 32;
constexpr size_t kTargetFieldSize = 32;  // NUL-padded; the name has at most 31 characters
constexpr size_t kHeaderSize = 64;

// Section table entry: u32 kind, u32 CRC-32 of the section, u64 offset, u64 size.
constexpr size_t kSectionEntrySize = 24;
constexpr uint32_t kMaxSections = 64;

enum class SectionKind : uint32_t {
  Tensors = 1, Kernels = 2, Plan = 3, Constants = 4, Memory = 5, Graph = 6, HostDTypes = 7, RandomTransforms = 8,
  DynamicShapes = 9
};
constexpr uint32_t kFirstSectionKind = 1;
constexpr uint32_t kLastRequiredSectionKind = 5;  // graph (1.1), host dtypes (1.2), random transforms (2.0) and
                                                  // dynamic shapes (3.0) are optional
constexpr uint32_t kLastSectionKind = 9;

inline const char* sectionName(SectionKind kind) {
  switch (kind) {
    case SectionKind::Tensors: return "tensors";
    case SectionKind::Kernels: return "kernels";
    case SectionKind::Plan: return "plan";
    case SectionKind::Constants: return "constants";
    case SectionKind::Memory: return "memory";
    case SectionKind::Graph: return "graph";
    case SectionKind::HostDTypes: return "host dtypes";
    case SectionKind::RandomTransforms: return "random transforms";
    case SectionKind::DynamicShapes: return "dynamic shapes";
  }
  return "?";
}

constexpr int kMaxRank = 32;
constexpr int kMaxPlanDepth = 16;  // nested plan loops
constexpr uint32_t kMaxBlockDim = 65535;
constexpr int kMaxShapeExprDepth = 64;  // nesting of a shape expression

}  // namespace pyasc::model::format
