// One AI Core running a kernel: the scalar unit fetching and issuing, per-pipe in-order queues,
// flags and barriers, driven by events in cycle order.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sdk/target/Target.h"
#include "sim/CoreMemory.h"
#include "sim/IssuedInstruction.h"
#include "sim/MemorySystem.h"
#include "sim/PipeQueue.h"
#include "sim/RaceDetector.h"
#include "sim/ScalarUnit.h"
#include "sim/Simulator.h"
#include "sim/Trace.h"

namespace pyasc::sim {

class AiCore {
 public:
  static constexpr size_t kQueueDepth = 32;
  static constexpr uint64_t kMaxScalarSteps = 1ull << 27;

  // `races` and `trace` may be null (sanitizer off, no trace). `gm` is the memory system the
  // cores of the launch share. The block starts at cycle `start` of the launch.
  AiCore(const Target& target, const Kernel& kernel, const LaunchOptions& options, int blockIdx, CoreMemory& memory,
         MemorySystem& gm, RaceDetector* races, TraceRecorder* trace, uint64_t start = 0);

  // The cycle of the core's next action; a core is stepped while it has one. Throws SimError on a
  // deadlock.
  bool finished() const { return who_ < 0; }
  uint64_t nextTime() const { return next_; }
  // Whether the next action moves data through the memory system the cores share (a GM
  // transfer): those must run in cycle order across cores; every other action is the core's own.
  bool nextIsShared() const { return nextShared_; }
  void step();                 // runs the next action; throws SimError
  LaunchStats stats() const;   // once finished: the cycle it ended at and its stats

 private:
  struct Queued {
    IssuedInstruction issued;
    uint64_t ready = 0;        // cycle the instruction reaches its queue
    VectorClock issuerClock{};  // what the scalar unit had synchronised with at issue
  };
  // What a set flag carries for the race detector and diagnostics; whether it is set, and when the
  // waiter sees it, is in flagVisible_ (checked at every step, so kept dense).
  struct FlagSync {
    VectorClock clock{};
    int setter = -1;
  };

  static constexpr uint64_t kNever = ~0ull;

  void plan();  // finds the next action: next_, who_
  uint64_t scalarStart() const;
  uint64_t pipeStart(int pipe) const;
  void stepScalar(uint64_t now);
  void stepPipe(int pipe, uint64_t now);
  void execute(int pipe, const Queued& q, uint64_t now);
  void setFlag(isa::Pipe src, isa::Pipe dst, int event, uint64_t now, int instruction);
  static int flagIndex(isa::Pipe src, isa::Pipe dst, int event);
  void checkRaces(isa::Pipe pipe, int instruction);
  [[noreturn]] void reportDeadlock() const;
  [[noreturn]] void fail(int instruction, const std::string& what) const;
  std::string text(int instruction) const;
  // `inst` with the fields pending set_field instructions supply (then none are pending); throws a
  // Violation for a field its format lacks or a value outside the field's range.
  const isa::Instruction& withFields(const isa::Instruction& inst);

  const Target& target_;
  const Kernel& kernel_;
  const LaunchOptions& options_;
  int core_;
  CoreMemory& mem_;
  MemorySystem& gm_;
  RaceDetector* races_;
  TraceRecorder* trace_;

  ScalarState scalar_;
  bool ended_ = false;
  uint64_t next_ = 0;
  bool nextShared_ = false;
  int who_ = 0;  // the scalar unit (0) or the pipe that acts at next_; -1 when finished
  uint64_t scalarTime_ = 0, scalarSteps_ = 0;
  std::array<PipeQueue<Queued, kQueueDepth>, isa::kPipeCount> queues_;
  std::array<uint64_t, isa::kPipeCount> pipeFree_{};  // when a pipe can start its next instruction
  std::array<uint64_t, isa::kPipeCount> pipeDone_{};  // when its started work has all finished (DMA latency)
  std::array<VectorClock, isa::kPipeCount> clocks_{};
  std::vector<uint64_t> flagVisible_;  // per flag: the cycle its waiter can see it; kNever while not set
  std::vector<FlagSync> flagSync_;
  LaunchStats stats_;
  // Instructions whose fields set_field supplied, in rotation: never more are queued at once.
  std::vector<isa::Instruction> patched_;
  size_t nextPatched_ = 0;
};

}  // namespace pyasc::sim
