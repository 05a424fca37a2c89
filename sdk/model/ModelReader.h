// Loads a .om file, checking every offset, size, count, checksum, enum value and cross-reference.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sdk/model/Model.h"

namespace pyasc::model {

// Reads and validates a model file. Any damage throws CompileError at SourceLocation{path} with a
// one-line message ("truncated: ...", "section 'kernels' checksum mismatch (file damaged)", ...);
// no byte sequence makes it crash.
Model readModel(const std::string& path);
// The same for bytes in memory; `name` is the file name used in messages.
Model parseModel(const std::vector<uint8_t>& bytes, const std::string& name);

// Throws CompileError "NAME: built for target 'ascend310', not 'ascend910b'" when the model was
// compiled for another target than the one the runtime runs.
void checkTarget(const Model& model, const std::string& name, const std::string& runtimeTarget);

}  // namespace pyasc::model
