// A te.compute definition to a kernel through the loop-nest stages, in order:
// schedule-to-loops, partition-loops, stage-operands, select-intrinsics, double-buffer, plan-storage,
// insert-sync, then emission.
// Each stage's output is verified (sdk/loop/LoopVerifier); its text can be kept for dumps.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/loop/LoopNest.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/target/Target.h"
#include "sdk/te/Compute.h"
#include "sdk/te/Schedule.h"

namespace pyasc::codegen {

const std::vector<std::string>& computeStageNames();

// One stage after schedule-to-loops on a loop nest (asc-opt runs them on .loop text), verified.
loop::Kernel runLoopStage(const std::string& stage, const loop::Kernel& k, const Target& target,
                          const SourceLocation& where);

// Called with each stage's name and the loop nest's text after it, as soon as the stage ends.
using LoopNestObserver = std::function<void(const std::string& stage, const std::string& text)>;

// `schedule` null: the default schedule (codegen/loop/DefaultSchedule), recorded in the kernel's
// schedule trace.
KernelCode lowerCompute(const te::ComputeDef& def, const te::Schedule* schedule, const Target& target, int sourceLine,
                        const SourceLocation& where, const LoopNestObserver& observe = {});

}  // namespace pyasc::codegen
