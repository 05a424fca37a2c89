// Fuzz harness: a .te file (te.compute line and schedule) → loop nest (schedule-to-loops) → the
// loop-nest stages → instructions, as `asc-opt --pass=schedule-to-loops,... x.te --emit=asm` runs it.
#include "codegen/loop/ComputeFile.h"
#include "codegen/loop/EmitLoops.h"
#include "codegen/loop/LowerCompute.h"
#include "tests/fuzz/Harness.h"

using namespace pyasc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Target target = loadTarget("ascend910b");
  fuzz::countStage("te_text", "inputs");
  const SourceLocation where{"fuzz.te", 1, 1};
  try {
    loop::Kernel k = codegen::readComputeFile("fuzz.te", fuzz::text(data, size), target);
    fuzz::countStage("te_text", "scheduled");
    const auto& stages = codegen::computeStageNames();  // schedule-to-loops, then the loop-nest stages
    for (size_t i = 1; i < stages.size(); ++i) k = codegen::runLoopStage(stages[i], k, target, where);
    codegen::emitLoops(k, 0, where);
    fuzz::countStage("te_text", "emitted");
  } catch (const CompileError&) {
  }
  return 0;
}
