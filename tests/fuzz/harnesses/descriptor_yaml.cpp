// Fuzz harness: a YAML descriptor → operators → registration, as --custom-op-config loads one.
#include "tests/fuzz/Descriptors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pyasc::fuzz::loadDescriptors("descriptor_yaml", ".yaml", data, size);
  return 0;
}
