// The shared L2 and device-memory channels of a launch: line state, FIFO replacement, FCFS bandwidth.
#include "sim/MemorySystem.h"

#include <algorithm>

namespace pyasc::sim {

MemorySystem::MemorySystem(const Target& target, uint64_t gmBytes)
    : target_(target), capacity_(static_cast<uint64_t>(target.l2Size / target.l2Line)) {
  uint64_t lines = gmBytes / static_cast<uint64_t>(target.l2Line) + 1;
  present_.assign((lines + 63) / 64, 0);
  dirty_.assign((lines + 63) / 64, 0);
}

void MemorySystem::beginLaunch() {
  // clear only the bits of lines that were present (a launch touches a small part of a large GM)
  for (size_t i = residentHead_; i < resident_.size(); ++i) {
    uint64_t line = resident_[i];
    present_[line >> 6] = 0;
    dirty_[line >> 6] = 0;
  }
  resident_.clear();
  residentHead_ = 0;
  l2Free_ = hbmFree_ = 0;
}

void MemorySystem::set(std::vector<uint64_t>& bits, uint64_t line, bool on) {
  uint64_t bit = uint64_t{1} << (line & 63);
  bits[line >> 6] = on ? bits[line >> 6] | bit : bits[line >> 6] & ~bit;
}

void MemorySystem::insert(uint64_t line) {
  if (resident_.size() - residentHead_ >= capacity_) {
    uint64_t oldest = resident_[residentHead_++];
    set(present_, oldest, false);
    set(dirty_, oldest, false);  // its write-back was charged when it was first written
    if (residentHead_ > capacity_ && residentHead_ * 2 > resident_.size()) {
      resident_.erase(resident_.begin(), resident_.begin() + static_cast<std::ptrdiff_t>(residentHead_));
      residentHead_ = 0;
    }
  }
  set(present_, line, true);
  resident_.push_back(line);
}

MemorySystem::Transfer MemorySystem::transfer(uint64_t addr, uint64_t bursts, uint64_t burstBytes, uint64_t pitch,
                                              bool write, double start, double pathRate) {
  Transfer t;
  const uint64_t lineSize = static_cast<uint64_t>(target_.l2Line);
  for (uint64_t b = 0; b < bursts && burstBytes > 0; ++b) {
    uint64_t lo = addr + b * pitch, hi = lo + burstBytes;
    for (uint64_t line = lo / lineSize; line * lineSize < hi; ++line) {
      t.lineBytes += lineSize;
      bool present = test(present_, line);
      if (!present) insert(line);
      if (write) {
        if (!test(dirty_, line)) {
          set(dirty_, line, true);
          t.hbmBytes += lineSize;
        }
      } else if (present) {
        t.hitBytes += lineSize;
      } else {
        t.hbmBytes += lineSize;
      }
    }
  }
  double first = start + target_.dmaOverhead;
  double l2Start = std::max(first, l2Free_);
  l2Free_ = l2Start + static_cast<double>(t.lineBytes) / target_.l2Bandwidth;
  t.end = std::max(first + static_cast<double>(t.lineBytes) / pathRate, l2Free_);
  if (t.hbmBytes > 0) {
    double hbmStart = std::max(first, hbmFree_);
    hbmFree_ = hbmStart + static_cast<double>(t.hbmBytes) / target_.hbmBandwidth;
    t.end = std::max(t.end, hbmFree_);
  }
  return t;
}

}  // namespace pyasc::sim
