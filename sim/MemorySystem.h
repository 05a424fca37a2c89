// The memory system behind GM that all cores of a launch share: an L2 of lines and the bandwidth
// of the L2 and of the device memory (HBM/DDR), each served first come, first served.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "sdk/target/Target.h"

namespace pyasc::sim {

// The L2 is cold when a launch starts. A read of a line that is not present fetches it from
// device memory; a write allocates the line without fetching it, and the first write to a line
// in its stay costs its write-back to device memory then (so every dirty line is back in device
// memory before the launch ends). Lines leave in the order they came (FIFO) when the L2 is full.
// Every GM transfer moves whole lines between the L2 and the core: a burst of b bytes moves the
// lines it touches, so bursts smaller than a line pay for the whole line.
class MemorySystem {
 public:
  MemorySystem(const Target& target, uint64_t gmBytes);

  void beginLaunch();  // cold L2, idle channels

  struct Transfer {
    uint64_t lineBytes = 0;  // bytes of the lines moved between the L2 and the core
    uint64_t hbmBytes = 0;   // bytes moved between the L2 and device memory (fetches and write-backs)
    uint64_t hitBytes = 0;   // line bytes read that were present
    double end = 0;          // cycle the last line has moved
  };
  // A core's transfer of `bursts` bursts of `burstBytes` each, `pitch` bytes apart from `addr`,
  // reading or writing GM, with its first line requested at `start` over a path of `pathRate`
  // bytes per cycle.
  Transfer transfer(uint64_t addr, uint64_t bursts, uint64_t burstBytes, uint64_t pitch, bool write, double start,
                    double pathRate);

 private:
  struct Run {
    uint64_t first, count;  // lines [first, first + count)
  };
  // Brings the lines [first, first + count) of one burst through the L2, counting into `t`.
  void touchLines(uint64_t first, uint64_t count, bool write, Transfer& t);
  void makeRoom(uint64_t lines);  // evicts the oldest lines until `lines` more fit
  void clearBits(uint64_t first, uint64_t count);  // of present_ and dirty_

  const Target& target_;
  uint64_t capacity_;                      // lines the L2 holds
  std::vector<uint64_t> present_, dirty_;  // one bit per GM line
  std::deque<Run> resident_;               // present lines in arrival order, as runs
  uint64_t residentLines_ = 0;
  double l2Free_ = 0, hbmFree_ = 0;        // when each channel has served every earlier request
};

}  // namespace pyasc::sim
