// The memories one core sees: its local buffers and the shared GM, with bounds, region and
// alignment checks and a log of the byte ranges the running instruction touched.
#pragma once

#include <array>
#include <cstdint>
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

class CoreMemory {
 public:
  CoreMemory(const Target& target, uint8_t* gm, uint64_t gmSize, const std::vector<GmRegion>& regions,
             bool sanitize);

  uint8_t* read(isa::Space space, uint64_t addr, uint64_t bytes) { return touch(space, addr, bytes, AccessKind::Read); }
  uint8_t* write(isa::Space space, uint64_t addr, uint64_t bytes) { return touch(space, addr, bytes, AccessKind::Write); }
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
  std::array<std::vector<uint8_t>, isa::kSpaceCount> local_;
  std::array<uint64_t, isa::kSpaceCount> traffic_{};
  std::vector<Access> log_;
};

// "[0x40..0x80)"
std::string byteRange(uint64_t lo, uint64_t hi);
std::string hexText(uint64_t value);  // "0x40"

}  // namespace pyasc::sim
