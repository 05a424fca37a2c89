// emit-model: packs a lowered program and its memory plan into the .om model structures.
#pragma once

#include "codegen/graph/Program.h"
#include "sdk/model/Model.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

struct EmitOptions {
  uint32_t flags = 0;  // model::ModelFlag bits
};

// Builds the model of a program whose memory is planned (plan-memory): tensors, kernels, plan,
// constants.
model::Model emitModel(const Program& program, const Target& target, const EmitOptions& options);

// The model's device-memory plan, one tensor per line ("gm[0x200..0x600) x f32[256] input") and the
// peak, for --dump-after=emit-model.
std::string printMemoryPlan(const model::Model& model);

}  // namespace pyasc::codegen
