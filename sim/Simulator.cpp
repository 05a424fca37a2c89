// Device: GM, regions, launches over block_dim cores (one after another, deterministic) and the trace.
#include "sim/Simulator.h"

#include <algorithm>
#include <fstream>

#include "sim/AiCore.h"
#include "sim/CoreMemory.h"
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

Device::Device(const Target& target, uint64_t gmBytes) : target_(target), gm_(gmBytes, 0) {}

Device::~Device() = default;

void Device::addRegion(GmRegion region) { regions_.push_back(std::move(region)); }

LaunchStats Device::launch(const Kernel& kernel, const LaunchOptions& options) {
  if (options.blockDim < 1) throw SimError(0, -1, "", "block_dim must be at least 1");
  if (options.args.size() >= isa::kScalarRegisters) {
    throw SimError(0, -1, "", std::to_string(options.args.size()) + " kernel arguments, but only x1..x" +
                                  std::to_string(isa::kScalarRegisters - 1) + " can hold them");
  }
  if (trace_) trace_->beginLaunch(kernel.name);
  LaunchStats total;
  LaunchGmAccesses launchGm;
  if (!localBuffers_) localBuffers_ = std::make_unique<LocalBuffers>(target_);
  for (int core = 0; core < options.blockDim; ++core) {
    CoreMemory memory(target_, gm_.data(), gm_.size(), regions_, options.sanitize, *localBuffers_);
    std::unique_ptr<RaceDetector> races;
    if (options.sanitize) races = std::make_unique<RaceDetector>(target_, core, launchGm);
    AiCore aiCore(target_, kernel, options, core, memory, races.get(), trace_.get());
    LaunchStats run = aiCore.run();
    launchGm.finishCore();
    total.cycles = std::max(total.cycles, run.cycles);
    for (int p = 0; p < isa::kPipeCount; ++p) {
      total.pipes[p].busyCycles += run.pipes[p].busyCycles;
      total.pipes[p].instructions += run.pipes[p].instructions;
    }
    for (int d = 0; d < kDmaPathCount; ++d) total.bytes[d] += run.bytes[d];
    total.energyPJ += run.energyPJ;
    total.vectorOps += run.vectorOps;
    total.macs += run.macs;
    if (options.coreDone) options.coreDone(core + 1);
  }
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
