// Packs a lowered program and its memory plan into the .om model structures.
#pragma once

#include "codegen/graph/Program.h"
#include "sdk/model/Model.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

struct EmitOptions {
  bool memoryReuse = false;  // intermediates share GM by liveness
  uint32_t flags = 0;        // model::ModelFlag bits
};

// Places every storage in GM (throws the MemoryError CompileError beyond the device memory) and
// builds the model: tensors, kernels, plan, constants.
model::Model emitModel(const Program& program, const Target& target, const EmitOptions& options);

}  // namespace pyasc::codegen
