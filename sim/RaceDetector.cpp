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

LaunchGmAccesses::Interval LaunchGmAccesses::conflict(uint64_t lo, uint64_t hi, bool isWrite) const {
  Interval best;
  // Intervals that start below hi, walked back while some interval so far may still reach lo.
  size_t end = static_cast<size_t>(
      std::lower_bound(earlier_.begin(), earlier_.end(), hi, [](const Interval& i, uint64_t v) { return i.lo < v; }) -
      earlier_.begin());
  for (size_t i = end; i-- > 0 && prefixMaxHi_[i] > lo;) {
    const Interval& e = earlier_[i];
    if (e.hi <= lo || !(isWrite || e.write)) continue;
    uint64_t start = std::max(lo, e.lo);
    if (best.core < 0 || start < std::max(lo, best.lo) ||
        (start == std::max(lo, best.lo) && (e.core < best.core || (e.core == best.core && e.instruction < best.instruction)))) {
      best = e;
    }
  }
  return best;
}

void LaunchGmAccesses::finishCore() {
  earlier_.insert(earlier_.end(), current_.begin(), current_.end());
  current_.clear();
  std::sort(earlier_.begin(), earlier_.end(), [](const Interval& a, const Interval& b) {
    if (a.lo != b.lo) return a.lo < b.lo;
    if (a.core != b.core) return a.core < b.core;
    return a.instruction < b.instruction;
  });
  prefixMaxHi_.resize(earlier_.size());
  uint64_t m = 0;
  for (size_t i = 0; i < earlier_.size(); ++i) prefixMaxHi_[i] = m = std::max(m, earlier_[i].hi);
}

RaceDetector::RaceDetector(const Target& target, int core, LaunchGmAccesses& launchGm)
    : target_(target), core_(core), launchGm_(launchGm) {}

RaceDetector::BlockHistory& RaceDetector::history(isa::Space space, uint64_t block) {
  if (space == isa::Space::GM) return gm_[block];
  auto& blocks = local_[static_cast<int>(space)];
  if (blocks.empty()) blocks.resize(static_cast<size_t>(target_.buffer(space).size + isa::kBlockBytes - 1) / isa::kBlockBytes);
  return blocks[block];
}

RaceDetector::Conflict RaceDetector::conflictAt(isa::Space space, uint64_t block, isa::Pipe pipe,
                                                const VectorClock& clock, bool isWrite) {
  const BlockHistory& h = history(space, block);
  int p = static_cast<int>(pipe);
  if (h.write.instruction >= 0 && h.writer != p && clock[h.writer] < h.write.clock) {
    return {true, h.writer, h.write.instruction, true};
  }
  if (!isWrite) return {};
  for (int q = 0; q < isa::kPipeCount; ++q) {
    const Epoch& r = h.reads[q];
    if (q != p && r.instruction >= 0 && clock[q] < r.clock) return {true, q, r.instruction, false};
  }
  return {};
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
  int p = static_cast<int>(pipe);
  for (const Access& a : ranges) {
    if (a.space != isa::Space::GM) continue;
    bool isWrite = a.kind == AccessKind::Write;
    LaunchGmAccesses::Interval e = launchGm_.conflict(a.lo, a.hi, isWrite);
    if (e.core < 0) continue;
    throw Violation(std::string("data race: ") + isa::pipeName(pipe) + (isWrite ? " writes " : " reads ") + "gm" +
                    byteRange(std::max(a.lo, e.lo), std::min(a.hi, e.hi)) + (e.write ? " written by " : " read by ") +
                    isa::pipeName(static_cast<isa::Pipe>(e.pipe)) + " of core " + std::to_string(e.core) +
                    " at instruction " + std::to_string(e.instruction) +
                    " in the same launch (cores do not synchronise within a launch)");
  }
  constexpr uint64_t B = isa::kBlockBytes;
  for (const Access& a : ranges) {
    bool isWrite = a.kind == AccessKind::Write;
    for (uint64_t blk = a.lo / B; blk * B < a.hi; ++blk) {
      Conflict c = conflictAt(a.space, blk, pipe, clock, isWrite);
      if (!c.found) continue;
      uint64_t last = blk;
      while ((last + 1) * B < a.hi && conflictAt(a.space, last + 1, pipe, clock, isWrite) == c) ++last;
      uint64_t lo = std::max(a.lo, blk * B), hi = std::min(a.hi, (last + 1) * B);
      throw Violation(std::string("data race: ") + isa::pipeName(pipe) + (isWrite ? " writes " : " reads ") +
                      isa::spaceName(a.space) + byteRange(lo, hi) + (c.withWrite ? " written by " : " read by ") +
                      isa::pipeName(static_cast<isa::Pipe>(c.pipe)) + " at instruction " +
                      std::to_string(c.instruction) + " with no flag or barrier between them");
    }
  }
  for (const Access& a : ranges) {
    if (a.space == isa::Space::GM) launchGm_.add({a.lo, a.hi, core_, p, instruction, a.kind == AccessKind::Write});
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
