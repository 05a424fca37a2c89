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

const std::vector<std::string>& computeStageNames() {
  static const std::vector<std::string> names = {"schedule-to-loops", "partition-loops", "stage-operands", "select-intrinsics", "double-buffer",
                                                 "plan-storage", "insert-sync"};
  return names;
}

KernelCode lowerCompute(const te::ComputeDef& def, const te::Schedule* schedule, const Target& target, int sourceLine,
                        const SourceLocation& where, const LoopNestObserver& observe) {
  te::Schedule chosen = schedule ? *schedule : defaultComputeSchedule(def, target);
  loop::Kernel k;
  auto stage = [&](const std::string& name, const std::function<loop::Kernel()>& run) {
    k = run();
    if (std::string error = loop::verifyKernel(k); !error.empty()) {
      throw std::logic_error("loop nest after " + name + " is malformed: " + error + "\n" + loop::printKernel(k));
    }
    if (observe) observe(name, loop::printKernel(k));
  };
  stage("schedule-to-loops", [&] { return scheduleToLoops(def, chosen, where); });
  stage("partition-loops", [&] { return partitionLoops(k); });
  stage("stage-operands", [&] { return stageOperands(k, where); });
  stage("select-intrinsics", [&] { return selectIntrinsics(k, where); });
  stage("double-buffer", [&] { return doubleBuffer(k, where); });
  stage("plan-storage", [&] { return planStorage(k, target, where); });
  stage("insert-sync", [&] { return insertSync(k); });
  KernelCode code = emitLoops(k, sourceLine, where);
  code.schedule = chosen.str();
  return code;
}

}  // namespace pyasc::codegen
