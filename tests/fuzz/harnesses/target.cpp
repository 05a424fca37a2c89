// Fuzz harness: target YAML → target (every key, range and cross-check of a target file).
#include "sdk/support/Diagnostics.h"
#include "sdk/target/Target.h"
#include "tests/fuzz/Harness.h"

using namespace pyasc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    parseTargetText("fuzz.yaml", fuzz::text(data, size));
  } catch (const CompileError&) {
  }
  return 0;
}
