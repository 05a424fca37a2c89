// Sanitizer for cross-pipe data races: vector clocks per pipe, and per 32-byte block of every
// buffer (GM included) the last writer and the last reader on each pipe.
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

class RaceDetector {
 public:
  explicit RaceDetector(const Target& target);

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
  };

  BlockHistory& history(isa::Space space, uint64_t block);
  Conflict conflictAt(const BlockHistory& h, isa::Pipe pipe, const VectorClock& clock, bool isWrite) const;

  const Target& target_;
  std::array<std::vector<BlockHistory>, isa::kSpaceCount> local_;
  std::unordered_map<uint64_t, BlockHistory> gm_;
};

}  // namespace pyasc::sim
