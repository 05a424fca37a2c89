// The semantic checks every model passes before it is written and after it is read.
#pragma once

#include <string>

#include "sdk/model/Model.h"

namespace pyasc::model {

// Checks enum values, names, shapes, GM ranges against the memory plan, random streams, kernel
// argument counts, every tensor and kernel id in the plan, induction variables and constants.
// Throws CompileError at SourceLocation{fileName} with a one-line message naming the item.
void validateModel(const Model& model, const std::string& fileName);

// `text` with control characters escaped as \xNN, so that a message stays on one line.
std::string escapeForMessage(const std::string& text);

// A target name is 1..31 characters of [A-Za-z0-9_.-].
bool isValidTargetName(const std::string& name);

}  // namespace pyasc::model
