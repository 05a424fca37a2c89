// Sanitizer for data races: between the pipes of a core (vector clocks per pipe, and per 32-byte
// block of every buffer, GM included, the last writer and the last reader on each pipe), and
// between the cores of a launch on GM (cores cannot synchronise within a launch).
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sdk/isa/ISA.h"
#include "sdk/target/Target.h"
#include "sim/CoreMemory.h"

namespace pyasc::sim {

// Entry p counts the instructions pipe p has run; a pipe's clock holds what it has synchronised with.
using VectorClock = std::array<uint32_t, isa::kPipeCount>;
void joinClock(VectorClock& into, const VectorClock& other);

// GM byte ranges accessed by the cores of one launch, byte-exact. Cores run one after another; a
// range the running core touches is checked against those of the cores that ran before it.
class LaunchGmAccesses {
 public:
  struct Interval {
    uint64_t lo = 0, hi = 0;
    int core = -1, pipe = 0;
    int32_t instruction = -1;
    bool write = false;
  };
  // The earlier core's access that conflicts with [lo, hi) (found: core >= 0), lowest address first.
  Interval conflict(uint64_t lo, uint64_t hi, bool isWrite) const;
  void add(const Interval& access) { current_.push_back(access); }
  void finishCore();  // the running core's accesses join the earlier ones

 private:
  std::vector<Interval> earlier_;     // sorted by lo
  std::vector<uint64_t> prefixMaxHi_;  // max hi of earlier_[0..i]
  std::vector<Interval> current_;
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

  BlockHistory& history(isa::Space space, uint64_t block);
  Conflict conflictAt(isa::Space space, uint64_t block, isa::Pipe pipe, const VectorClock& clock, bool isWrite);

  const Target& target_;
  int core_;
  LaunchGmAccesses& launchGm_;
  std::array<std::vector<BlockHistory>, isa::kSpaceCount> local_;
  std::unordered_map<uint64_t, BlockHistory> gm_;
};

}  // namespace pyasc::sim
