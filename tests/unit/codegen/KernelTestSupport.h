// Runs a generated kernel on the simulator over random tensors; shared by the kernel tests.
#pragma once

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/support/Float16.h"
#include "sdk/target/Target.h"
#include "sim/Simulator.h"

namespace pyasc::testing {

// Host copy of one kernel argument, stored as doubles, converted on the way in and out.
struct HostTensor {
  DType dtype;
  std::vector<double> values;
};

inline HostTensor randomTensor(DType t, int64_t n, uint32_t seed, double lo = -2.0, double hi = 2.0) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  HostTensor h{t, std::vector<double>(static_cast<size_t>(n))};
  for (auto& v : h.values) {
    v = dist(gen);
    if (t == DType::Float16) v = halfToFloat(doubleToHalf(v));
    if (t == DType::Float32) v = static_cast<float>(v);
    if (t == DType::Int32) v = std::round(v * 1000);
    if (t == DType::UInt8) v = std::round((v - lo) / (hi - lo) * 255);
  }
  return h;
}

inline void store(uint8_t* p, DType t, double v) {
  switch (t) {
    case DType::Float16: { uint16_t h = doubleToHalf(v); std::memcpy(p, &h, 2); break; }
    case DType::Float32: { float f = static_cast<float>(v); std::memcpy(p, &f, 4); break; }
    case DType::Int32: { int32_t i = static_cast<int32_t>(v); std::memcpy(p, &i, 4); break; }
    case DType::Int64: { int64_t i = static_cast<int64_t>(v); std::memcpy(p, &i, 8); break; }
    default: { uint8_t b = static_cast<uint8_t>(v); *p = b; break; }
  }
}

inline double load(const uint8_t* p, DType t) {
  switch (t) {
    case DType::Float16: { uint16_t h; std::memcpy(&h, p, 2); return halfToFloat(h); }
    case DType::Float32: { float f; std::memcpy(&f, p, 4); return f; }
    case DType::Int32: { int32_t i; std::memcpy(&i, p, 4); return i; }
    case DType::Int64: { int64_t i; std::memcpy(&i, p, 8); return static_cast<double>(i); }
    default: return *p;
  }
}

struct KernelRun {
  std::vector<HostTensor> results;
  sim::LaunchStats stats;
};

// Lays out `args` in GM (512-byte aligned), runs the kernel, reads every argument back.
inline KernelRun runKernel(const Target& target, const codegen::KernelCode& code, const std::vector<HostTensor>& args) {
  std::vector<uint64_t> offsets;
  uint64_t gm = 0;
  for (const auto& a : args) {
    offsets.push_back(gm);
    gm += (a.values.size() * dtypeSize(a.dtype) + 511) / 512 * 512 + 512;
  }
  sim::Device device(target, gm);
  for (size_t i = 0; i < args.size(); ++i) {
    for (size_t e = 0; e < args[i].values.size(); ++e)
      store(device.gm() + offsets[i] + e * dtypeSize(args[i].dtype), args[i].dtype, args[i].values[e]);
    device.addRegion(sim::GmRegion{offsets[i], args[i].values.size() * dtypeSize(args[i].dtype), "arg" + std::to_string(i), true});
  }
  sim::LaunchOptions options;
  options.blockDim = code.blockDim;
  options.args = offsets;
  KernelRun run;
  run.stats = device.launch(sim::Kernel{code.name, code.program, code.sourceLines}, options);
  for (size_t i = 0; i < args.size(); ++i) {
    HostTensor h{args[i].dtype, std::vector<double>(args[i].values.size())};
    for (size_t e = 0; e < h.values.size(); ++e) h.values[e] = load(device.gm() + offsets[i] + e * dtypeSize(h.dtype), h.dtype);
    run.results.push_back(std::move(h));
  }
  return run;
}

// ‖out − ref‖ / ‖ref‖
inline double relativeError(const std::vector<double>& out, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    num += (out[i] - ref[i]) * (out[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  return den == 0 ? std::sqrt(num) : std::sqrt(num / den);
}

inline Target testTarget(const char* name) {
  return loadTargetFile(std::string(PYASC_SOURCE_DIR) + "/targets/" + name + ".yaml");
}

}  // namespace pyasc::testing
