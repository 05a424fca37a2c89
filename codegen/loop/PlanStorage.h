// Stage plan-storage: every local buffer gets its byte offset in its scope (every start aligned as
// the buffer and the scope ask); buffers used only in different phases of a core's statements (the
// pipes drain between them) may share space. A scope that cannot hold them is a located error
// listing the buffers and their sizes.
#pragma once

#include "sdk/loop/LoopNest.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

loop::Kernel planStorage(const loop::Kernel& k, const Target& target, const SourceLocation& where);

}  // namespace pyasc::codegen
