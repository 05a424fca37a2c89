// Happens-before race detection: an earlier access by pipe q at clock e is ordered before the
// current one on pipe p when p == q or p's clock has seen q reach e (through flags, barriers, or
// the scalar unit's issue order).
#include "sim/RaceDetector.h"

#include <algorithm>

#include "sim/InstructionTable.h"
#include "sim/Violation.h"

namespace pyasc::sim {

void joinClock(VectorClock& into, const VectorClock& other) {
  for (int i = 0; i < isa::kPipeCount; ++i) into[i] = std::max(into[i], other[i]);
}

RaceDetector::RaceDetector(const Target& target) : target_(target) {}

RaceDetector::BlockHistory& RaceDetector::history(isa::Space space, uint64_t block) {
  if (space == isa::Space::GM) return gm_[block];
  auto& blocks = local_[static_cast<int>(space)];
  if (blocks.empty()) blocks.resize(static_cast<size_t>(target_.buffer(space).size + isa::kBlockBytes - 1) / isa::kBlockBytes);
  return blocks[block];
}

RaceDetector::Conflict RaceDetector::conflictAt(const BlockHistory& h, isa::Pipe pipe, const VectorClock& clock,
                                                bool isWrite) const {
  int p = static_cast<int>(pipe);
  Conflict c;
  if (h.write.instruction >= 0 && h.writer != p && clock[h.writer] < h.write.clock) {
    return {true, h.writer, h.write.instruction, true};
  }
  if (!isWrite) return c;
  for (int q = 0; q < isa::kPipeCount; ++q) {
    const Epoch& r = h.reads[q];
    if (q != p && r.instruction >= 0 && clock[q] < r.clock) return {true, q, r.instruction, false};
  }
  return c;
}

void RaceDetector::record(isa::Pipe pipe, const VectorClock& clock, int instruction, const std::vector<Access>& accesses) {
  // Merge the instruction's accesses into maximal ranges per (kind, space), reads first.
  std::vector<Access> merged(accesses);
  std::sort(merged.begin(), merged.end(), [](const Access& a, const Access& b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.space != b.space) return a.space < b.space;
    return a.lo < b.lo;
  });
  std::vector<Access> ranges;
  for (const Access& a : merged) {
    if (!ranges.empty() && ranges.back().kind == a.kind && ranges.back().space == a.space && a.lo <= ranges.back().hi) {
      ranges.back().hi = std::max(ranges.back().hi, a.hi);
    } else {
      ranges.push_back(a);
    }
  }
  constexpr uint64_t B = isa::kBlockBytes;
  for (const Access& a : ranges) {
    bool isWrite = a.kind == AccessKind::Write;
    for (uint64_t blk = a.lo / B; blk * B < a.hi; ++blk) {
      Conflict c = conflictAt(history(a.space, blk), pipe, clock, isWrite);
      if (!c.found) continue;
      uint64_t last = blk;
      while ((last + 1) * B < a.hi) {
        Conflict n = conflictAt(history(a.space, last + 1), pipe, clock, isWrite);
        if (!n.found || n.pipe != c.pipe || n.instruction != c.instruction || n.withWrite != c.withWrite) break;
        ++last;
      }
      uint64_t lo = std::max(a.lo, blk * B), hi = std::min(a.hi, (last + 1) * B);
      throw Violation(std::string("data race: ") + isa::pipeName(pipe) + (isWrite ? " writes " : " reads ") +
                      isa::spaceName(a.space) + byteRange(lo, hi) + (c.withWrite ? " written by " : " read by ") +
                      isa::pipeName(static_cast<isa::Pipe>(c.pipe)) + " at instruction " + std::to_string(c.instruction) +
                      " with no flag or barrier between them");
    }
  }
  int p = static_cast<int>(pipe);
  for (const Access& a : ranges) {
    for (uint64_t blk = a.lo / B; blk * B < a.hi; ++blk) {
      BlockHistory& h = history(a.space, blk);
      if (a.kind == AccessKind::Read) {
        h.reads[p] = {clock[p], instruction};
      } else {
        h.writer = static_cast<uint8_t>(p);
        h.write = {clock[p], instruction};
        h.reads = {};
      }
    }
  }
}

}  // namespace pyasc::sim
