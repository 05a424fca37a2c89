// The checks every template's schedule shares: where a schedule problem is reported, and the core count.
#pragma once

#include <cstdint>
#include <string>

#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

// A CompileError "<kernel>: <message>" at `where` (a schedule step), else at the kernel's source line.
[[noreturn]] void scheduleError(const std::string& kernel, int sourceLine, const SourceLocation& where,
                                const std::string& message);

// Why `blockDim` cores do not fit: outside 1..maxCores, or more cores than `tiles` (when there are
// any; `what` names them, "full tiles"); "" when they fit.
std::string coreCountProblem(int blockDim, int64_t tiles, int maxCores, const std::string& what);

}  // namespace pyasc::codegen
