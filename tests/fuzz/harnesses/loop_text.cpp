// Fuzz harness: loop-nest IR text → kernel → verifier; a verified kernel prints to text that parses
// back to the same print, then runs through the loop-nest stages and instruction emission as
// `asc-opt --pass=... x.loop` would.
#include "codegen/loop/EmitLoops.h"
#include "codegen/loop/LowerCompute.h"
#include "sdk/loop/LoopText.h"
#include "sdk/loop/LoopVerifier.h"
#include "tests/fuzz/Harness.h"

using namespace pyasc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Target target = loadTarget("ascend910b");
  fuzz::countStage("loop_text", "inputs");
  loop::Kernel k;
  try {
    k = loop::parseKernelFile("fuzz.loop", fuzz::text(data, size));
  } catch (const CompileError&) {
    return 0;
  }
  if (!loop::verifyKernel(k).empty()) return 0;
  fuzz::countStage("loop_text", "verified");
  const std::string printed = loop::printKernel(k);
  if (loop::printKernel(loop::parseKernel(printed)) != printed) __builtin_trap();
  const SourceLocation where{"fuzz.loop", 1, 1};
  try {
    const auto& stages = codegen::computeStageNames();  // schedule-to-loops, then the loop-nest stages
    for (size_t i = 1; i < stages.size(); ++i) k = codegen::runLoopStage(stages[i], k, target, where);
    codegen::emitLoops(k, 0, where);
    fuzz::countStage("loop_text", "emitted");
  } catch (const CompileError&) {
  }
  return 0;
}
