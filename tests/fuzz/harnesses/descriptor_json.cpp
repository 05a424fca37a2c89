// Fuzz harness: a JSON descriptor → operators (every field and cross-check) → registration next to
// the built-in operators, as --custom-op-config loads one.
#include "tests/fuzz/Descriptors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pyasc::fuzz::loadDescriptors("descriptor_json", ".json", data, size);
  return 0;
}
