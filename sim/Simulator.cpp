// Device: GM, regions, launches over block_dim cores stepped together in cycle order (deterministic), the trace.
#include "sim/Simulator.h"

#include <algorithm>
#include <fstream>
#include <queue>

#include "sim/AiCore.h"
#include "sim/CoreMemory.h"
#include "sim/MemorySystem.h"
#include "sim/Mte.h"
#include "sim/RaceDetector.h"
#include "sim/Trace.h"

namespace pyasc::sim {

namespace {
std::string errorMessage(int core, int instruction, const std::string& text, const std::string& what) {
  std::string where = "core " + std::to_string(core);
  if (instruction >= 0) where += ", instruction " + std::to_string(instruction) + " (" + text + ")";
  return where + ": " + what;
}
}  // namespace

SimError::SimError(int core, int instruction, std::string text, std::string what)
    : std::runtime_error(errorMessage(core, instruction, text, what)), core_(core), instruction_(instruction),
      text_(std::move(text)), detail_(std::move(what)) {}

Device::Device(const Target& target, uint64_t gmBytes)
    : target_(target), gm_(gmBytes, 0), memory_(std::make_unique<MemorySystem>(target_, gmBytes)) {}

Device::~Device() = default;

void Device::addRegion(GmRegion region) { regions_.push_back(std::move(region)); }

LaunchStats Device::launch(const Kernel& kernel, const LaunchOptions& options) {
  if (options.blockDim < 1) throw SimError(0, -1, "", "block_dim must be at least 1");
  if (options.args.size() >= isa::kScalarRegisters) {
    throw SimError(0, -1, "", std::to_string(options.args.size()) + " kernel arguments, but only x1..x" +
                                  std::to_string(isa::kScalarRegisters - 1) + " can hold them");
  }
  if (trace_) trace_->beginLaunch(kernel.name);
  struct StoresDrained {  // however the launch ends, GM is whole for other threads
    ~StoresDrained() { drainStreamedStores(); }
  } drained;
  memory_->beginLaunch();
  LaunchGmAccesses launchGm;
  // Blocks run on the chip's cores: block b on core slot b % slots, once the block before it there
  // has finished (more blocks than cores run in waves).
  const int n = options.blockDim;
  const int slots = std::min(n, std::max(target_.cubeCores, target_.vectorCores));
  while (static_cast<int>(localBuffers_.size()) < slots) localBuffers_.push_back(std::make_unique<LocalBuffers>(target_));
  std::vector<std::unique_ptr<CoreMemory>> memories(slots);
  std::vector<std::unique_ptr<RaceDetector>> races(slots);
  std::vector<std::unique_ptr<AiCore>> cores(slots);
  // slots waiting to act, earliest first (ties: the lower slot)
  using Next = std::pair<uint64_t, int>;
  std::priority_queue<Next, std::vector<Next>, std::greater<Next>> ready;
  LaunchStats total;
  int nextBlock = 0, finished = 0;
  auto account = [&](const LaunchStats& run) {
    total.cycles = std::max(total.cycles, run.cycles);
    for (int p = 0; p < isa::kPipeCount; ++p) {
      total.pipes[p].busyCycles += run.pipes[p].busyCycles;
      total.pipes[p].instructions += run.pipes[p].instructions;
    }
    for (int d = 0; d < kDmaPathCount; ++d) total.bytes[d] += run.bytes[d];
    total.hbmBytes += run.hbmBytes;
    total.l2HitBytes += run.l2HitBytes;
    total.gmCycles += run.gmCycles;
    total.energyPJ += run.energyPJ;
    total.vectorOps += run.vectorOps;
    total.macs += run.macs;
    if (options.coreDone) options.coreDone(++finished);
  };
  // starts the next block on `slot` at cycle `at` (and the ones after it, while they end at once)
  auto begin = [&](int slot, uint64_t at) {
    while (nextBlock < n) {
      int block = nextBlock++;
      cores[slot].reset();  // before the memory it refers to
      memories[slot] = std::make_unique<CoreMemory>(target_, gm_.data(), gm_.size(), regions_, options.sanitize,
                                                    *localBuffers_[slot]);
      if (options.sanitize) races[slot] = std::make_unique<RaceDetector>(target_, block, launchGm);
      cores[slot] = std::make_unique<AiCore>(target_, kernel, options, block, *memories[slot], *memory_,
                                             races[slot].get(), trace_.get(), at);
      if (!cores[slot]->finished()) {
        ready.push({cores[slot]->nextTime(), slot});
        return;
      }
      LaunchStats run = cores[slot]->stats();
      account(run);
      at = run.cycles;
    }
  };
  for (int slot = 0; slot < slots; ++slot) begin(slot, 0);
  while (!ready.empty()) {
    int slot = ready.top().second;
    ready.pop();
    AiCore& core = *cores[slot];
    // The core goes on through its own actions; a GM transfer waits until the core is the earliest
    // of all, so the shared memory system serves transfers in cycle order (every other core's
    // next action, and so its next transfer, is no earlier than the top of `ready`).
    do {
      core.step();
    } while (!core.finished() && (!core.nextIsShared() || ready.empty() || Next{core.nextTime(), slot} < ready.top()));
    if (!core.finished()) {
      ready.push({core.nextTime(), slot});
      continue;
    }
    LaunchStats run = core.stats();
    account(run);
    begin(slot, run.cycles);
  }
  total.cycles += static_cast<uint64_t>(target_.launchOverhead);
  if (trace_) trace_->endLaunch(total.cycles);
  return total;
}

void Device::enableTrace() {
  if (!trace_) trace_ = std::make_unique<TraceRecorder>();
}

std::string Device::traceJson() const { return trace_ ? trace_->json() : TraceRecorder().json(); }

void Device::writeTrace(const std::string& path) const {
  std::ofstream out(path, std::ios::binary);
  out << traceJson();
  if (!out) throw std::runtime_error("cannot write trace file '" + path + "'");
}

}  // namespace pyasc::sim
