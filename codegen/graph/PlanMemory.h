// plan-memory: places every GM storage of a program. Each storage is live from the first to the
// last launch that names it (a loop's storages through the whole loop, inputs, constants and
// outputs throughout); storages are placed first-fit, sharing bytes by liveness when reuse is on,
// and the reference guide's MemoryError reports a peak beyond the target's device memory.
#pragma once

#include <cstdint>
#include <string>

#include "codegen/graph/Program.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

constexpr int64_t kGmAlignment = 512;

// Sets every storage's live range and GM offset and the program's peak; throws CompileError with
// the MemoryError message at the largest tensor's definition (or the program) and a note naming
// the largest tensors when the peak exceeds the target's device memory.
void planMemory(Program& program, const Target& target, bool reuse);

// "gm[0x200..0x600)": bytes [offset, offset + bytes) of device memory.
std::string gmRangeText(int64_t offset, int64_t bytes);
// The plan, one storage per line with its GM range, live range and role, and the peak, for
// --dump-after=plan-memory.
std::string printMemoryPlan(const Program& program);

}  // namespace pyasc::codegen
