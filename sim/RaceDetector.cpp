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

void GmRangeMap::assign(uint64_t lo, uint64_t hi, const Touch& touch) {
  if (lo >= hi) return;
  auto it = segments_.upper_bound(lo);
  if (it != segments_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.hi > lo) {  // split the segment that contains lo
      Segment whole = prev->second;
      prev->second.hi = lo;
      if (whole.hi > hi) segments_[hi] = whole;
    }
  }
  for (it = segments_.lower_bound(lo); it != segments_.end() && it->first < hi;) {
    if (it->second.hi > hi) segments_[hi] = it->second;
    it = segments_.erase(it);
  }
  segments_[lo] = {hi, touch};
}

GmRangeMap::Touch GmRangeMap::firstOverlap(uint64_t lo, uint64_t hi, uint64_t& overlapLo, uint64_t& overlapHi) const {
  auto it = segments_.upper_bound(lo);
  if (it != segments_.begin() && std::prev(it)->second.hi > lo) --it;
  if (it == segments_.end() || it->first >= hi) return {};
  overlapLo = std::max(lo, it->first);
  overlapHi = std::min(hi, it->second.hi);
  return it->second.touch;
}

LaunchGmAccesses::Conflict LaunchGmAccesses::conflict(int core, uint64_t lo, uint64_t hi, bool isWrite) const {
  Conflict best;
  auto consider = [&](const GmRangeMap& map, bool write) {
    Conflict c;
    c.write = write;
    c.touch = map.firstOverlap(lo, hi, c.lo, c.hi);
    if (c.touch.core >= 0 && (best.touch.core < 0 || c.lo < best.lo)) best = c;
  };
  for (size_t other = 0; other < cores_.size(); ++other) {
    if (static_cast<int>(other) == core) continue;
    consider(cores_[other].writes, true);
    if (isWrite) consider(cores_[other].reads, false);
  }
  return best;
}

void LaunchGmAccesses::add(int core, uint64_t lo, uint64_t hi, bool isWrite, const GmRangeMap::Touch& touch) {
  if (cores_.size() <= static_cast<size_t>(core)) cores_.resize(static_cast<size_t>(core) + 1);
  CoreRanges& ranges = cores_[static_cast<size_t>(core)];
  (isWrite ? ranges.writes : ranges.reads).assign(lo, hi, touch);
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
    LaunchGmAccesses::Conflict e = launchGm_.conflict(core_, a.lo, a.hi, isWrite);
    if (e.touch.core < 0) continue;
    throw Violation(std::string("data race: ") + isa::pipeName(pipe) + (isWrite ? " writes " : " reads ") + "gm" +
                    byteRange(e.lo, e.hi) + (e.write ? " written by " : " read by ") +
                    isa::pipeName(static_cast<isa::Pipe>(e.touch.pipe)) + " of core " + std::to_string(e.touch.core) +
                    " at instruction " + std::to_string(e.touch.instruction) +
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
    if (a.space == isa::Space::GM) launchGm_.add(core_, a.lo, a.hi, a.kind == AccessKind::Write, {core_, p, instruction});
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
