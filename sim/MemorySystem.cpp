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

namespace {

// Bits [lo, hi) of a 64-bit word, 0 <= lo < hi <= 64.
uint64_t bitRange(uint64_t lo, uint64_t hi) {
  uint64_t upTo = hi == 64 ? ~uint64_t{0} : (uint64_t{1} << hi) - 1;
  return upTo & ~((uint64_t{1} << lo) - 1);
}

uint64_t popcount(uint64_t bits) { return static_cast<uint64_t>(__builtin_popcountll(bits)); }

}  // namespace

void MemorySystem::clearBits(uint64_t first, uint64_t count) {
  for (uint64_t line = first, end = first + count; line < end;) {
    uint64_t word = line >> 6, lo = line & 63, hi = std::min<uint64_t>(64, lo + (end - line));
    uint64_t keep = ~bitRange(lo, hi);
    present_[word] &= keep;
    dirty_[word] &= keep;  // a dirty line's write-back was charged when it was first written
    line += hi - lo;
  }
}

void MemorySystem::beginLaunch() {
  for (const Run& r : resident_) clearBits(r.first, r.count);
  resident_.clear();
  residentLines_ = 0;
  l2Free_ = hbmFree_ = 0;
}

void MemorySystem::makeRoom(uint64_t lines) {
  while (residentLines_ + lines > capacity_ && !resident_.empty()) {
    Run& oldest = resident_.front();
    uint64_t n = std::min(oldest.count, residentLines_ + lines - capacity_);
    clearBits(oldest.first, n);
    oldest.first += n;
    oldest.count -= n;
    residentLines_ -= n;
    if (oldest.count == 0) resident_.pop_front();
  }
}

void MemorySystem::touchLines(uint64_t first, uint64_t count, bool write, Transfer& t) {
  const uint64_t lineSize = static_cast<uint64_t>(target_.l2Line);
  t.lineBytes += count * lineSize;
  for (uint64_t line = first, end = first + count; line < end;) {
    // a word's lines at a time, and never more than the L2 holds (so that they can all be present)
    uint64_t word = line >> 6, lo = line & 63, hi = std::min<uint64_t>({64, lo + (end - line), lo + capacity_});
    uint64_t mask = bitRange(lo, hi);
    uint64_t absent = mask & ~present_[word];
    if (absent) {
      makeRoom(popcount(absent));
      absent = mask & ~present_[word];  // making room may have evicted lines of this word
      present_[word] |= absent;
      residentLines_ += popcount(absent);
      // the absent lines join the L2 in address order, as runs
      for (uint64_t bits = absent; bits;) {
        uint64_t start = static_cast<uint64_t>(__builtin_ctzll(bits));
        uint64_t ones = ~(bits >> start);  // its lowest set bit ends the run of set bits at `start`
        uint64_t len = ones == 0 ? 64 : static_cast<uint64_t>(__builtin_ctzll(ones));
        uint64_t runFirst = (word << 6) + start;
        if (!resident_.empty() && resident_.back().first + resident_.back().count == runFirst) {
          resident_.back().count += len;
        } else {
          resident_.push_back({runFirst, len});
        }
        bits &= ~bitRange(start, start + len);
      }
    }
    if (write) {
      uint64_t fresh = mask & ~dirty_[word];
      dirty_[word] |= mask;
      t.hbmBytes += popcount(fresh) * lineSize;
    } else {
      t.hitBytes += popcount(mask & ~absent) * lineSize;
      t.hbmBytes += popcount(absent) * lineSize;
    }
    line += hi - lo;
  }
}

MemorySystem::Transfer MemorySystem::transfer(uint64_t addr, uint64_t bursts, uint64_t burstBytes, uint64_t pitch,
                                              bool write, double start, double pathRate) {
  Transfer t;
  const uint64_t lineSize = static_cast<uint64_t>(target_.l2Line);
  for (uint64_t b = 0; b < bursts && burstBytes > 0; ++b) {
    uint64_t lo = addr + b * pitch, hi = lo + burstBytes;
    touchLines(lo / lineSize, (hi - 1) / lineSize - lo / lineSize + 1, write, t);
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
