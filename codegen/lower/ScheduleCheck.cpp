// Schedule problems reported at their step or at the kernel's source line; the shared core-count check.
#include "codegen/lower/ScheduleCheck.h"

namespace pyasc::codegen {

void scheduleError(const std::string& kernel, int sourceLine, const SourceLocation& where, const std::string& message) {
  Diagnostic d;
  d.range.begin = where.valid() ? where : SourceLocation{"", sourceLine, 0};
  d.message = kernel + ": " + message;
  throw CompileError(d);
}

std::string coreCountProblem(int blockDim, int64_t tiles, int maxCores, const std::string& what) {
  if (blockDim >= 1 && blockDim <= maxCores && (tiles <= 0 || blockDim <= tiles)) return "";
  return std::to_string(blockDim) + " cores for " + std::to_string(tiles) + " " + what + " on " + std::to_string(maxCores) +
         " cores";
}

}  // namespace pyasc::codegen
