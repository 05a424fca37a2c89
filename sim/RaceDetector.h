// Sanitizer for data races: between the pipes of a core (vector clocks per pipe, and per 32-byte
// block of every buffer, GM included, the last writer and the last reader on each pipe), and
// between the cores of a launch on GM (cores cannot synchronise within a launch).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "sdk/isa/ISA.h"
#include "sdk/target/Target.h"
#include "sim/CoreMemory.h"

namespace pyasc::sim {

// Entry p counts the instructions pipe p has run; a pipe's clock holds what it has synchronised with.
using VectorClock = std::array<uint32_t, isa::kPipeCount>;
void joinClock(VectorClock& into, const VectorClock& other);

// Byte ranges of GM with who touched them last: disjoint segments, a later access overwriting the
// attribution of the bytes it covers.
class GmRangeMap {
 public:
  struct Touch {
    int core = -1, pipe = 0;
    int32_t instruction = -1;
  };
  void assign(uint64_t lo, uint64_t hi, const Touch& touch);
  // The lowest segment overlapping [lo, hi): found when the returned touch has core >= 0.
  Touch firstOverlap(uint64_t lo, uint64_t hi, uint64_t& overlapLo, uint64_t& overlapHi) const;

 private:
  struct Segment {
    uint64_t hi;
    Touch touch;
  };
  std::map<uint64_t, Segment> segments_;  // keyed by lo
};

// GM byte ranges accessed by the cores of one launch, byte-exact. Cores run together; a range a
// core touches is checked against those every other core has touched so far (a pair of accesses
// is found at whichever of the two comes later).
class LaunchGmAccesses {
 public:
  struct Conflict {
    GmRangeMap::Touch touch;  // touch.core < 0: none
    bool write = false;       // the earlier access was a write
    uint64_t lo = 0, hi = 0;  // the overlapping bytes
  };
  Conflict conflict(int core, uint64_t lo, uint64_t hi, bool isWrite) const;
  void add(int core, uint64_t lo, uint64_t hi, bool isWrite, const GmRangeMap::Touch& touch);

 private:
  struct CoreRanges {
    GmRangeMap reads, writes;
    uint64_t lo = ~0ull, hi = 0;  // the span of all of them: a range outside it is not looked up
  };
  std::vector<CoreRanges> cores_;  // by core index
};

class RaceDetector {
 public:
  RaceDetector(const Target& target, int core, LaunchGmAccesses& launchGm);

  // Checks the accesses of one instruction, run on `pipe` with `clock` (its own entry already
  // counting this instruction), against earlier accesses of other pipes that are not ordered
  // before it; throws Violation on a race, otherwise records them.
  void record(isa::Pipe pipe, const VectorClock& clock, int instruction, const std::vector<Access>& accesses);

 private:
  struct Epoch {
    uint32_t clock = 0;
    int32_t instruction = -1;  // -1: no access yet
  };
  struct BlockHistory {
    uint8_t writer = 0;
    Epoch write;
    std::array<Epoch, isa::kPipeCount> reads;
    bool operator==(const BlockHistory& o) const {
      if (writer != o.writer || write.clock != o.write.clock || write.instruction != o.write.instruction) return false;
      for (int q = 0; q < isa::kPipeCount; ++q) {
        if (reads[q].clock != o.reads[q].clock || reads[q].instruction != o.reads[q].instruction) return false;
      }
      return true;
    }
  };
  struct Conflict {
    bool found = false;
    int pipe = 0;
    int32_t instruction = -1;
    bool withWrite = false;  // the earlier access was a write
    bool operator==(const Conflict& o) const {
      return found == o.found && pipe == o.pipe && instruction == o.instruction && withWrite == o.withWrite;
    }
  };

  // The histories of one space's 32-byte blocks as runs of equal history: block-aligned segments,
  // so the state grows with the distinct ranges a core touches, not with the memory's size.
  class BlockShadow {
   public:
    // Calls visit(lo, hi, history) for the pieces of blocks [lo, hi) in order, with a default
    // history for blocks never touched; stops when visit returns false.
    template <typename Visit>
    void forEach(uint64_t lo, uint64_t hi, Visit visit) const;
    void write(uint64_t lo, uint64_t hi, const BlockHistory& h);  // blocks [lo, hi) get h
    void read(uint64_t lo, uint64_t hi, int pipe, const Epoch& e);  // their reads[pipe] = e

   private:
    struct Run {
      uint64_t hi;
      BlockHistory history;
    };
    std::map<uint64_t, Run>::iterator splitAt(uint64_t block);  // a run starts at `block` (if covered)
    void coalesce(uint64_t lo, uint64_t hi);  // merges equal neighbours from the run before lo to hi
    std::map<uint64_t, Run> runs_;  // keyed by first block
  };

  static Conflict conflictOf(const BlockHistory& h, isa::Pipe pipe, const VectorClock& clock, bool isWrite);

  const Target& target_;
  int core_;
  LaunchGmAccesses& launchGm_;
  std::array<BlockShadow, isa::kSpaceCount> shadow_;
  std::vector<Access> sorted_, ranges_;  // record()'s scratch
};

}  // namespace pyasc::sim
