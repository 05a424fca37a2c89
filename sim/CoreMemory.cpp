// Local buffers sized from the target, GM bounds and regions, alignment, access logging.
#include "sim/CoreMemory.h"

#include <cstdio>
#include <cstring>

#include "sim/InstructionTable.h"
#include "sim/Violation.h"

namespace pyasc::sim {

std::string byteRange(uint64_t lo, uint64_t hi) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "[0x%llx..0x%llx)", static_cast<unsigned long long>(lo),
                static_cast<unsigned long long>(hi));
  return buf;
}

std::string hexText(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

LocalBuffers::LocalBuffers(const Target& target) {
  for (int s = 1; s < isa::kSpaceCount; ++s) bytes_[s].assign(static_cast<size_t>(target.buffers[s].size), 0);
}

void LocalBuffers::clearWritten() {
  for (int s = 1; s < isa::kSpaceCount; ++s) {
    Span& w = written_[s];
    if (w.lo < w.hi) std::memset(bytes_[s].data() + w.lo, 0, w.hi - w.lo);
    w = Span();
  }
}

CoreMemory::CoreMemory(const Target& target, uint8_t* gm, uint64_t gmSize, const std::vector<GmRegion>& regions,
                       bool sanitize, LocalBuffers& buffers)
    : target_(target), gm_(gm), gmSize_(gmSize), regions_(regions), sanitize_(sanitize), local_(buffers) {}

CoreMemory::CoreMemory(const Target& target, uint8_t* gm, uint64_t gmSize, const std::vector<GmRegion>& regions,
                       bool sanitize)
    : target_(target), gm_(gm), gmSize_(gmSize), regions_(regions), sanitize_(sanitize),
      ownBuffers_(std::make_unique<LocalBuffers>(target)), local_(*ownBuffers_) {}

CoreMemory::~CoreMemory() { local_.clearWritten(); }

void CoreMemory::requireAligned(isa::Space space, uint64_t addr) const {
  if (!sanitize_) return;
  int64_t align = target_.buffer(space).align;
  if (space == isa::Space::GM || align <= 1 || addr % static_cast<uint64_t>(align) == 0) return;
  throw Violation(std::string("misaligned ") + isa::spaceName(space) + " address " + hexText(addr) + " (" +
                  isa::spaceName(space) + " needs " + std::to_string(align) + "-byte alignment)");
}

uint8_t* CoreMemory::touch(isa::Space space, uint64_t addr, uint64_t bytes, AccessKind kind) {
  int s = static_cast<int>(space);
  uint64_t size = space == isa::Space::GM ? gmSize_ : local_.size(s);
  if (addr > size || bytes > size - addr) {
    throw Violation(std::string(isa::spaceName(space)) + " access " + byteRange(addr, addr + bytes) +
                    " out of range (" + isa::spaceName(space) + " is " + hexText(size) + " bytes)");
  }
  if (space == isa::Space::GM && sanitize_) checkGmRegion(addr, bytes, kind);
  traffic_[s] += bytes;
  if (sanitize_ && bytes > 0) log_.push_back({space, addr, addr + bytes, kind});
  if (space == isa::Space::GM) return gm_ + addr;
  if (kind == AccessKind::Write) local_.noteWritten(s, addr, addr + bytes);
  return local_.data(s) + addr;
}

void CoreMemory::checkGmRegion(uint64_t addr, uint64_t bytes, AccessKind kind) const {
  if (regions_.empty()) return;
  for (const GmRegion& r : regions_) {
    if (addr >= r.addr && addr + bytes <= r.addr + r.size) {
      if (kind == AccessKind::Write && !r.writable) {
        throw Violation("write to read-only gm region '" + r.name + "' at " + byteRange(addr, addr + bytes));
      }
      return;
    }
  }
  throw Violation(std::string(kind == AccessKind::Write ? "write to" : "read from") + " gm " +
                  byteRange(addr, addr + bytes) + " outside every registered region");
}

}  // namespace pyasc::sim
