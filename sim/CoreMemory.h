// The memories one core sees: its local buffers and the shared GM, with bounds, region and
// alignment checks and a log of the byte ranges the running instruction touched.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sdk/isa/ISA.h"
#include "sdk/target/Target.h"
#include "sim/Simulator.h"

namespace pyasc::sim {

enum class AccessKind : uint8_t { Read, Write };

struct Access {
  isa::Space space;
  uint64_t lo, hi;  // byte range [lo, hi)
  AccessKind kind;
};

// The local buffers of a core, sized from the target. A device keeps one set per core index for all
// its launches: each core starts on zeroed buffers, and only the bytes it wrote in the previous
// launch are cleared again (not the whole megabyte of L1, UB and L0 per core).
class LocalBuffers {
 public:
  explicit LocalBuffers(const Target& target);
  uint8_t* data(int space) { return bytes_[space].data(); }
  uint64_t size(int space) const { return bytes_[space].size(); }
  void noteWritten(int space, uint64_t lo, uint64_t hi) {
    if (lo < written_[space].lo) written_[space].lo = lo;
    if (hi > written_[space].hi) written_[space].hi = hi;
  }
  void clearWritten();  // zeroes the span written since the last call

 private:
  struct Span {
    uint64_t lo = ~0ull, hi = 0;
  };
  std::array<HostBytes, isa::kSpaceCount> bytes_;
  std::array<Span, isa::kSpaceCount> written_{};
};

class CoreMemory {
 public:
  // `buffers` must start zeroed; the memory clears what it wrote when destroyed.
  CoreMemory(const Target& target, uint8_t* gm, uint64_t gmSize, const std::vector<GmRegion>& regions, bool sanitize,
             LocalBuffers& buffers);
  // With buffers of its own.
  CoreMemory(const Target& target, uint8_t* gm, uint64_t gmSize, const std::vector<GmRegion>& regions,
             bool sanitize);
  ~CoreMemory();
  CoreMemory(const CoreMemory&) = delete;
  CoreMemory& operator=(const CoreMemory&) = delete;

  uint8_t* read(isa::Space space, uint64_t addr, uint64_t bytes) { return touch(space, addr, bytes, AccessKind::Read); }
  uint8_t* write(isa::Space space, uint64_t addr, uint64_t bytes) { return touch(space, addr, bytes, AccessKind::Write); }
  // Whether [addr, addr + bytes) lies inside the space.
  bool inRange(isa::Space space, uint64_t addr, uint64_t bytes) const {
    uint64_t size = space == isa::Space::GM ? gmSize_ : local_.size(static_cast<int>(space));
    return addr <= size && bytes <= size - addr;
  }
  // Sanitizer: the operand address must meet the buffer's alignment from the target.
  void requireAligned(isa::Space space, uint64_t addr) const;

  bool sanitizing() const { return sanitize_; }
  const std::vector<Access>& accesses() const { return log_; }
  void clearAccesses() { log_.clear(); }
  // Bytes read or written per space since construction (for the energy model).
  const std::array<uint64_t, isa::kSpaceCount>& trafficBytes() const { return traffic_; }

 private:
  uint8_t* touch(isa::Space space, uint64_t addr, uint64_t bytes, AccessKind kind);
  void checkGmRegion(uint64_t addr, uint64_t bytes, AccessKind kind) const;

  const Target& target_;
  uint8_t* gm_;
  uint64_t gmSize_;
  const std::vector<GmRegion>& regions_;
  bool sanitize_;
  std::unique_ptr<LocalBuffers> ownBuffers_;
  LocalBuffers& local_;
  std::array<uint64_t, isa::kSpaceCount> traffic_{};
  std::vector<Access> log_;
};

// "[0x40..0x80)"
std::string byteRange(uint64_t lo, uint64_t hi);
std::string hexText(uint64_t value);  // "0x40"

}  // namespace pyasc::sim
