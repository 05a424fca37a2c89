// The loop-nest stages of a te.compute kernel, one after the other, each verified.
#include "codegen/loop/LowerCompute.h"

#include <stdexcept>

#include "codegen/loop/DefaultSchedule.h"
#include "codegen/loop/DoubleBuffer.h"
#include "codegen/loop/EmitLoops.h"
#include "codegen/loop/InsertSync.h"
#include "codegen/loop/PartitionLoops.h"
#include "codegen/loop/PlanStorage.h"
#include "codegen/loop/ScheduleToLoops.h"
#include "codegen/loop/SelectIntrinsics.h"
#include "codegen/loop/StageOperands.h"
#include "sdk/loop/LoopText.h"
#include "sdk/loop/LoopVerifier.h"

namespace pyasc::codegen {

namespace {

// The stages after schedule-to-loops, in order: each takes and returns a loop nest.
struct LoopStage {
  const char* name;
  loop::Kernel (*run)(const loop::Kernel& k, const Target& target, const SourceLocation& where);
};
const LoopStage kLoopStages[] = {
    {"partition-loops", [](const loop::Kernel& k, const Target&, const SourceLocation&) { return partitionLoops(k); }},
    {"stage-operands", [](const loop::Kernel& k, const Target&, const SourceLocation& w) { return stageOperands(k, w); }},
    {"select-intrinsics", [](const loop::Kernel& k, const Target&, const SourceLocation& w) { return selectIntrinsics(k, w); }},
    {"double-buffer", [](const loop::Kernel& k, const Target&, const SourceLocation&) { return doubleBuffer(k); }},
    {"plan-storage", [](const loop::Kernel& k, const Target& t, const SourceLocation& w) { return planStorage(k, t, w); }},
    {"insert-sync", [](const loop::Kernel& k, const Target&, const SourceLocation&) { return insertSync(k); }},
};

void verified(const loop::Kernel& k, const std::string& stage) {
  if (std::string error = loop::verifyKernel(k); !error.empty()) {
    throw std::logic_error("loop nest after " + stage + " is malformed: " + error + "\n" + loop::printKernel(k));
  }
}

}  // namespace

const std::vector<std::string>& computeStageNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = {"schedule-to-loops"};
    for (const auto& s : kLoopStages) n.push_back(s.name);
    return n;
  }();
  return names;
}

loop::Kernel runLoopStage(const std::string& stage, const loop::Kernel& k, const Target& target,
                          const SourceLocation& where) {
  for (const auto& s : kLoopStages) {
    if (stage != s.name) continue;
    loop::Kernel out = s.run(k, target, where);
    verified(out, stage);
    return out;
  }
  throw std::invalid_argument("'" + stage + "' is not a stage that takes a loop nest");
}

KernelCode lowerCompute(const te::ComputeDef& def, const te::Schedule* schedule, const Target& target, int sourceLine,
                        const SourceLocation& where, const LoopNestObserver& observe) {
  te::Schedule chosen = schedule ? *schedule : defaultComputeSchedule(def, target);
  loop::Kernel k = scheduleToLoops(def, chosen, target, where);
  verified(k, "schedule-to-loops");
  if (observe) observe("schedule-to-loops", loop::printKernel(k));
  for (const auto& s : kLoopStages) {
    k = runLoopStage(s.name, k, target, where);
    if (observe) observe(s.name, loop::printKernel(k));
  }
  KernelCode code = emitLoops(k, sourceLine, where);
  code.schedule = chosen.str();
  return code;
}

}  // namespace pyasc::codegen
