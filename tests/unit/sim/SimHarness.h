// Shared helpers for the simulator tests: the ascend910b targets, assembling and running kernels,
// and a UB sandbox that copies bytes in from GM, runs a body and copies bytes back.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "sdk/isa/Assembler.h"
#include "sdk/support/Float16.h"
#include "sdk/target/Target.h"
#include "sim/Simulator.h"

namespace pyasc::sim::test {

// The ascend910b numbers the timing expectations were written against (a frozen copy).
inline const Target& target910b() {
  static const Target t = loadTargetFile(std::string(PYASC_SOURCE_DIR) + "/tests/unit/sim/Inputs/timing-910b.yaml");
  return t;
}

// The bundled targets/ascend910b.yaml, whatever its current numbers.
inline const Target& bundled910b() {
  static const Target t = loadTargetFile(std::string(PYASC_SOURCE_DIR) + "/targets/ascend910b.yaml");
  return t;
}

inline Kernel kernelFromAsm(const std::string& text, const std::string& name = "test") {
  return Kernel{name, isa::assemble(text, name + ".s"), {}};
}

template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <typename T>
std::vector<T> valuesOf(const std::vector<uint8_t>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

inline std::vector<uint16_t> halves(const std::vector<float>& v) {
  std::vector<uint16_t> h;
  for (float f : v) h.push_back(floatToHalf(f));
  return h;
}

// Copies `ub` (a multiple of 32 bytes) to ub[0], runs `body`, returns ub[0 .. outBytes).
// The vector mask and mode are whatever `body` sets (all lanes, normal mode by default).
inline std::vector<uint8_t> runOnUb(const std::string& body, const std::vector<uint8_t>& ub, size_t outBytes,
                                    LaunchStats* stats = nullptr) {
  Device dev(target910b(), 1 << 20);
  std::memcpy(dev.gm(), ub.data(), ub.size());
  std::string text = "copy_gm_ub ub[0x0], gm[x1+0], nburst=1, len=" + std::to_string(ub.size() / 32) +
                     "\nset_flag MTE2, V, 0\nwait_flag MTE2, V, 0\n" + body +
                     "\nset_flag V, MTE3, 0\nwait_flag V, MTE3, 0\ncopy_ub_gm gm[x2+0], ub[0x0], nburst=1, len=" +
                     std::to_string((outBytes + 31) / 32) + "\nend\n";
  LaunchStats s = dev.launch(kernelFromAsm(text), LaunchOptions{1, {0, 1 << 19}, true});
  if (stats) *stats = s;
  return std::vector<uint8_t>(dev.gm() + (1 << 19), dev.gm() + (1 << 19) + outBytes);
}

// Runs a kernel and returns the SimError message, or "" when it succeeds.
inline std::string errorOf(Device& dev, const Kernel& k, const LaunchOptions& o) {
  try {
    dev.launch(k, o);
  } catch (const SimError& e) {
    return e.what();
  }
  return "";
}

}  // namespace pyasc::sim::test
