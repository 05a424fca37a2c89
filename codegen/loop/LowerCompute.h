// A te.compute definition to a kernel through the loop-nest stages, in order:
// schedule-to-loops, stage-operands, select-intrinsics, plan-storage, insert-sync, then emission.
// Each stage's output is verified (sdk/loop/LoopVerifier); its text can be kept for dumps.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/target/Target.h"
#include "sdk/te/Compute.h"
#include "sdk/te/Schedule.h"

namespace pyasc::codegen {

const std::vector<std::string>& computeStageNames();

struct ComputeLowering {
  KernelCode code;
  std::vector<std::pair<std::string, std::string>> stages;  // stage name, loop nest text after it
};

// `schedule` null: the default schedule (codegen/loop/DefaultSchedule), recorded in code.schedule.
ComputeLowering lowerCompute(const te::ComputeDef& def, const te::Schedule* schedule, const Target& target,
                             int sourceLine, const SourceLocation& where);

}  // namespace pyasc::codegen
