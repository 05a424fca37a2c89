// Places every GM tensor of a compiled program: first-fit by liveness when reuse is enabled,
// and the reference guide's MemoryError when the peak exceeds the target's device memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

struct GmBuffer {
  std::string name;
  int64_t bytes = 0;
  int firstUse = 0;  // plan step that writes it first (inputs and constants: 0)
  int lastUse = 0;   // last plan step that reads it (outputs: the end of the plan)
  bool reusable = false;  // intermediates only
  SourceLocation loc;     // where its value is defined, for the MemoryError
  int64_t offset = -1;    // result
};

struct MemoryPlanResult {
  int64_t peakBytes = 0;
};

constexpr int64_t kGmAlignment = 512;

// Assigns offsets; throws CompileError with the MemoryError message at the largest tensor's
// definition (or `loc`) and a note naming the largest tensors when the peak exceeds `deviceMemory`.
MemoryPlanResult planMemory(std::vector<GmBuffer>& buffers, bool reuse, int64_t deviceMemory, const SourceLocation& loc);

}  // namespace pyasc::codegen
