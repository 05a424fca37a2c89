// Fuzz harness: .npy bytes → array (header, dtype, shape, size checks); an array read writes and
// reads back to the same bytes and array.
#include <cstring>

#include "sdk/support/Diagnostics.h"
#include "sdk/support/Npy.h"
#include "tests/fuzz/Harness.h"

using namespace pyasc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  NpyArray a;
  try {
    a = parseNpy(std::vector<uint8_t>(data, data + size), "fuzz.npy");
  } catch (const CompileError&) {
    return 0;
  }
  NpyArray back = parseNpy(serializeNpy(a), "fuzz.npy");  // escapes (a crash) when the round trip fails
  if (back.dtype != a.dtype || back.shape != a.shape || back.data != a.data) __builtin_trap();
  return 0;
}
