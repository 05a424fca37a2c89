// A .te file, as asc-opt reads it: a te.compute definition's compute line, then its schedule
// (one primitive per line, or `default`), // comments and blank lines aside.
#pragma once

#include <string>

#include "sdk/loop/LoopNest.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

// The loop nest of the file's compute under its schedule (schedule-to-loops); throws CompileError
// located in `path` at the compute line or at the offending primitive.
loop::Kernel readComputeFile(const std::string& path, const std::string& text, const Target& target);

}  // namespace pyasc::codegen
