// The loop-nest IR: text round-trips, the verifier names broken invariants, parse errors are located.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sdk/loop/LoopText.h"
#include "sdk/loop/LoopVerifier.h"

using namespace pyasc;
using namespace pyasc::loop;

namespace {

const char* kKernel = R"(kernel window3 {
  input in0 : gm f32[4096]
  output out0 : gm f32[4096]
  local x0 : ub f32[256] align 32 at 0
  for c in #0:s32 extent #16:s32 cores {
    for t in #0:s32 extent #2:s32 pipelined 2 {
      set_flag MTE3 MTE2 #0:s32
      wait_flag MTE3 MTE2 #0:s32
      dma x0[#0:s32] <- in0[(mul:s32 (add:s32 (mul:s32 c #2:s32) t) #128:s32)] rows #1:s32 len #128:s32 strides #0:s32 #0:s32
      vector vmuls x0[#0:s32] <- x0[#0:s32] count #128:s32 scalar #0.5:f32
      vector vadd x0[#128:s32] <- x0[#0:s32], x0[#0:s32] count #128:s32
      barrier V
      if (lt:b8 t #1:s32) {
        for v in #0:s32 extent #128:s32 vectorized {
          out0[(add:s32 v #7:s32)] = (load:f32 x0 v)
        }
      } else {
        out0[#0:s32] = #1.0:f32
      }
    }
  }
}
)";

TEST(LoopNest, TextRoundTrips) {
  Kernel k = parseKernel(kKernel);
  EXPECT_EQ(verifyKernel(k), "");
  EXPECT_EQ(printKernel(k), kKernel);
  ASSERT_EQ(k.buffers.size(), 3u);
  EXPECT_EQ(k.buffers[2].offset, 0);
  EXPECT_EQ(k.vars, (std::vector<std::string>{"c", "t", "v"}));
}

TEST(LoopNest, ParseErrorsAreLocated) {
  try {
    parseKernel("kernel k {\n  input a : gm f32[4]\n  a[#0:s32] = (load:f32 b #0:s32)\n}\n");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "loop text, line 3, column 25: unknown tensor 'b'");
  }
  EXPECT_THROW(parseKernel("kernel k {\n  for i in #0:s32 extent #4:s32 sideways {\n  }\n}\n"), std::invalid_argument);
}

TEST(LoopNest, VerifierNamesBrokenInvariants) {
  auto verify = [](const char* text) { return verifyKernel(parseKernel(text)); };
  EXPECT_EQ(verify("kernel k {\n input a : gm f32[4]\n output b : gm f32[4]\n"
                   " for i in #0:s32 extent #4:s32 serial {\n }\n b[i] = (load:f32 a #0:s32)\n}\n"),
            "store: variable 'i' is used outside its loop");
  EXPECT_EQ(verify("kernel k {\n input a : gm f32[4]\n a[#0:s32] = #1.0:f32\n}\n"), "store: input 'a' is written");
  EXPECT_EQ(verify("kernel k {\n output b : gm f16[4]\n b[#0:s32] = #1.0:f32\n}\n"), "store: float32 value into b");
  EXPECT_EQ(verify("kernel k {\n output b : gm f32[4]\n for i in #0:s32 extent #4:s32 vectorized {\n"
                   "  for j in #0:s32 extent #4:s32 serial {\n  }\n }\n}\n"),
            "a vectorized loop may only hold stores");
  EXPECT_EQ(verify("kernel k {\n output b : gm f32[4]\n for i in #0:s32 extent #4:s32 cores {\n"
                   "  for j in #0:s32 extent #4:s32 cores {\n  }\n }\n}\n"),
            "a cores loop inside another");
  EXPECT_EQ(verify("kernel k {\n input a : gm f32[4]\n local u : ub f16[4] align 32\n"
                   " dma u[#0:s32] <- a[#0:s32] rows #1:s32 len #4:s32 strides #0:s32 #0:s32\n}\n"),
            "dma: u and a differ in dtype");
}

}  // namespace
