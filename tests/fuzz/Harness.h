// What every fuzz harness shares: the libFuzzer entry points, the one accepted way to reject an
// input (a CompileError, the located one-line error every tool prints), and run statistics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
// libFuzzer's own mutator; absent (null) in the standalone replay driver.
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t maxSize) __attribute__((weak));

namespace pyasc::fuzz {

inline std::string text(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

// The folder of the source tree (for the targets and the operators the harnesses load).
std::string sourceDir();

// Counts inputs by how far they got; printed at exit as "<harness>: N inputs: a stage1, b stage2, ...".
// An input that throws anything but CompileError is a crash: the exception escapes the harness.
void countStage(const char* harness, const char* stage);

}  // namespace pyasc::fuzz
