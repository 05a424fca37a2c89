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
  if (segments_.empty() || segments_.rbegin()->second.hi <= lo) {  // past every segment: streaming
    segments_.emplace_hint(segments_.end(), lo, Segment{hi, touch});
    return;
  }
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

// The lowest overlap wins; at the same address the lower core, and within a core its write.
LaunchGmAccesses::Conflict LaunchGmAccesses::conflict(int core, uint64_t lo, uint64_t hi, bool isWrite) const {
  Conflict best;
  auto consider = [&](const GmRangeMap& map, bool write) {
    Conflict c;
    c.write = write;
    c.touch = map.firstOverlap(lo, hi, c.lo, c.hi);
    if (c.touch.core < 0) return;
    bool before = best.touch.core < 0 || c.lo < best.lo ||
                  (c.lo == best.lo && (c.touch.core < best.touch.core || (c.touch.core == best.touch.core && write)));
    if (before) best = c;
  };
  for (size_t other = 0; other < cores_.size(); ++other) {
    const CoreRanges& ranges = cores_[other];
    if (static_cast<int>(other) == core || ranges.hi <= lo || hi <= ranges.lo) continue;
    consider(ranges.writes, true);
    if (isWrite) consider(ranges.reads, false);
  }
  return best;
}

void LaunchGmAccesses::add(int core, uint64_t lo, uint64_t hi, bool isWrite, const GmRangeMap::Touch& touch) {
  if (cores_.size() <= static_cast<size_t>(core)) cores_.resize(static_cast<size_t>(core) + 1);
  CoreRanges& ranges = cores_[static_cast<size_t>(core)];
  (isWrite ? ranges.writes : ranges.reads).assign(lo, hi, touch);
  ranges.lo = std::min(ranges.lo, lo);
  ranges.hi = std::max(ranges.hi, hi);
}

RaceDetector::RaceDetector(const Target& target, int core, LaunchGmAccesses& launchGm)
    : target_(target), core_(core), launchGm_(launchGm) {}

template <typename Visit>
void RaceDetector::BlockShadow::forEach(uint64_t lo, uint64_t hi, Visit visit) const {
  static const BlockHistory kUntouched{};
  auto it = runs_.upper_bound(lo);
  if (it != runs_.begin() && std::prev(it)->second.hi > lo) --it;
  for (uint64_t at = lo; at < hi;) {
    if (it == runs_.end() || it->first >= hi) {
      visit(at, hi, kUntouched);
      return;
    }
    if (it->first > at) {
      if (!visit(at, it->first, kUntouched)) return;
      at = it->first;
    }
    uint64_t end = std::min(hi, it->second.hi);
    if (!visit(at, end, it->second.history)) return;
    at = end;
    ++it;
  }
}

std::map<uint64_t, RaceDetector::BlockShadow::Run>::iterator RaceDetector::BlockShadow::splitAt(uint64_t block) {
  auto it = runs_.lower_bound(block);
  if (it != runs_.end() && it->first == block) return it;
  if (it != runs_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.hi > block) {
      Run tail = prev->second;
      prev->second.hi = block;
      return runs_.emplace_hint(it, block, tail);
    }
  }
  return it;
}

void RaceDetector::BlockShadow::coalesce(uint64_t lo, uint64_t hi) {
  auto it = runs_.lower_bound(lo);
  if (it != runs_.begin()) --it;
  while (it != runs_.end() && it->first <= hi) {
    auto next = std::next(it);
    if (next != runs_.end() && next->first == it->second.hi && next->second.history == it->second.history) {
      it->second.hi = next->second.hi;
      runs_.erase(next);
    } else {
      it = next;
    }
  }
}

void RaceDetector::BlockShadow::write(uint64_t lo, uint64_t hi, const BlockHistory& h) {
  auto first = splitAt(lo);
  auto last = splitAt(hi);  // `first` stays valid: map insertions move no node
  runs_.erase(first, last);
  runs_.emplace_hint(last, lo, Run{hi, h});
  coalesce(lo, hi);
}

void RaceDetector::BlockShadow::read(uint64_t lo, uint64_t hi, int pipe, const Epoch& e) {
  auto it = splitAt(lo);
  auto end = splitAt(hi);
  for (uint64_t at = lo; at < hi;) {
    if (it == end || it->first > at) {  // blocks never touched: a run of their own
      uint64_t gapEnd = it == end ? hi : it->first;
      BlockHistory h;
      h.reads[pipe] = e;
      runs_.emplace_hint(it, at, Run{gapEnd, h});
      at = gapEnd;
      continue;
    }
    it->second.history.reads[pipe] = e;
    at = it->second.hi;
    ++it;
  }
  coalesce(lo, hi);
}

RaceDetector::Conflict RaceDetector::conflictOf(const BlockHistory& h, isa::Pipe pipe, const VectorClock& clock,
                                                bool isWrite) {
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
  if (accesses.empty()) return;
  std::vector<Access>& merged = sorted_;  // scratch kept between calls: no allocation per instruction
  merged.assign(accesses.begin(), accesses.end());
  std::sort(merged.begin(), merged.end(), [](const Access& a, const Access& b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.space != b.space) return a.space < b.space;
    return a.lo < b.lo;
  });
  std::vector<Access>& ranges = ranges_;
  ranges.clear();
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
    Conflict c;
    uint64_t runLo = 0, runHi = 0;  // blocks of the first conflict and the same one right after it
    shadow_[static_cast<int>(a.space)].forEach(a.lo / B, (a.hi + B - 1) / B,
                                               [&](uint64_t lo, uint64_t hi, const BlockHistory& h) {
      Conflict here = conflictOf(h, pipe, clock, isWrite);
      if (!c.found) {
        if (here.found) {
          c = here;
          runLo = lo;
          runHi = hi;
        }
        return true;
      }
      if (!(here == c)) return false;
      runHi = hi;
      return true;
    });
    if (!c.found) continue;
    uint64_t lo = std::max(a.lo, runLo * B), hi = std::min(a.hi, runHi * B);
    throw Violation(std::string("data race: ") + isa::pipeName(pipe) + (isWrite ? " writes " : " reads ") +
                    isa::spaceName(a.space) + byteRange(lo, hi) + (c.withWrite ? " written by " : " read by ") +
                    isa::pipeName(static_cast<isa::Pipe>(c.pipe)) + " at instruction " +
                    std::to_string(c.instruction) + " with no flag or barrier between them");
  }
  for (const Access& a : ranges) {
    if (a.space == isa::Space::GM) launchGm_.add(core_, a.lo, a.hi, a.kind == AccessKind::Write, {core_, p, instruction});
    BlockShadow& shadow = shadow_[static_cast<int>(a.space)];
    Epoch now{clock[p], instruction};
    if (a.kind == AccessKind::Read) {
      shadow.read(a.lo / B, (a.hi + B - 1) / B, p, now);
    } else {
      BlockHistory h;
      h.writer = static_cast<uint8_t>(p);
      h.write = now;
      shadow.write(a.lo / B, (a.hi + B - 1) / B, h);
    }
  }
}

}  // namespace pyasc::sim
