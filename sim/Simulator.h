// Public API of the AI Core simulator: a device with GM, kernels, launches, stats, trace.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sdk/isa/ISA.h"
#include "sdk/target/Target.h"
#include "sim/HostBytes.h"

namespace pyasc::sim {

// A named GM range the kernel may touch; the sanitizer rejects accesses outside every region
// and writes to read-only ones. A device without regions treats all of GM as one writable region.
struct GmRegion {
  uint64_t addr = 0, size = 0;
  std::string name;
  bool writable = true;
};

struct Kernel {
  std::string name;
  std::vector<isa::Instruction> program;
  std::vector<int> sourceLines;  // optional, one per instruction
};

struct LaunchOptions {
  int blockDim = 1;
  std::vector<uint64_t> args;  // GM byte addresses, loaded into x1..xN
  bool sanitize = true;
  std::function<void(int coresDone)> coreDone = nullptr;  // optional: called after each core finishes (progress)
};

struct PipeStats {
  uint64_t busyCycles = 0, instructions = 0;
};

// Cycles are the launch overhead plus the slowest core's; busy cycles, instructions, bytes, energy
// and operation counts are summed over all cores of the launch.
struct LaunchStats {
  uint64_t cycles = 0;
  std::array<PipeStats, isa::kPipeCount> pipes{};
  std::array<uint64_t, kDmaPathCount> bytes{};
  uint64_t hbmBytes = 0;    // moved between the L2 and device memory (line fetches and write-backs)
  uint64_t l2HitBytes = 0;  // line bytes read from GM that the L2 already held
  uint64_t gmCycles = 0;    // GM transfers from issue to completion: occupancy plus round trip
  double energyPJ = 0;
  uint64_t vectorOps = 0, macs = 0;
};

// A fault of the simulated program: "core C, instruction I (text): what".
class SimError : public std::runtime_error {
 public:
  SimError(int core, int instruction, std::string text, std::string what);
  int core() const { return core_; }
  int instruction() const { return instruction_; }  // -1 when no instruction is to blame
  const std::string& text() const { return text_; }  // assembly text of the instruction
  const std::string& detail() const { return detail_; }  // the "what" part alone
  // The kernel's source line of the instruction (Kernel::sourceLines), or 0 when unknown.
  int sourceLine() const { return sourceLine_; }
  void setSourceLine(int line) { sourceLine_ = line; }

 private:
  int core_, instruction_;
  int sourceLine_ = 0;
  std::string text_, detail_;
};

class TraceRecorder;
class MemorySystem;
class LocalBuffers;

class Device {
 public:
  Device(const Target& target, uint64_t gmBytes);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  uint8_t* gm() { return gm_.data(); }
  uint64_t gmSize() const { return gm_.size(); }
  const Target& target() const { return target_; }

  void addRegion(GmRegion region);
  const std::vector<GmRegion>& regions() const { return regions_; }

  // Runs the kernel on blockDim cores together, stepping whichever core acts earliest, on the
  // shared GM and its memory system (docs/simulator.md); throws SimError.
  LaunchStats launch(const Kernel& kernel, const LaunchOptions& options);

  // Records every later launch; writeTrace emits Chrome trace JSON of all recorded launches.
  void enableTrace();
  void writeTrace(const std::string& path) const;
  std::string traceJson() const;

 private:
  Target target_;
  HostBytes gm_;
  std::unique_ptr<MemorySystem> memory_;
  std::vector<GmRegion> regions_;
  std::unique_ptr<TraceRecorder> trace_;
  std::vector<std::unique_ptr<LocalBuffers>> localBuffers_;  // each core's L1, UB and L0, reused launch after launch
};

}  // namespace pyasc::sim
