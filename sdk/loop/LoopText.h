// The loop-nest IR as text: printKernel writes what parseKernel reads back.
//
//   kernel window3 {
//     input in0 : gm f32[4096]
//     output out0 : gm f32[4096]
//     local x0 : ub f32[256] align 32 at 0
//     for i in #0:s32 extent #4096:s32 serial {        (also unrolled, vectorized, cores, pipelined N)
//       out0[i] = (load:f32 in0 i)
//       dma x0[#0:s32] <- in0[i] rows #1:s32 len #256:s32 strides #0:s32 #0:s32
//       vector vadd x0[#0:s32] <- x0[#0:s32], x0[#0:s32] count #256:s32
//       vector vmuls x0[#0:s32] <- x0[#0:s32] count #256:s32 scalar #0.5:f32
//       if (lt:b8 i #10:s32) { ... } else { ... }
//       set_flag MTE2 V #0:s32
//       wait_flag MTE2 V #0:s32
//       barrier V
//     }
//   }
#pragma once

#include <string>

#include "sdk/loop/LoopNest.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::loop {

std::string printKernel(const Kernel& k);
// Throws te::TextError "loop text, line L, column C: ..." on malformed text.
Kernel parseKernel(const std::string& text);
// The same for the file `path`: malformed text is a CompileError at path:line:column.
Kernel parseKernelFile(const std::string& path, const std::string& text);

}  // namespace pyasc::loop
