// bench_sim: host time of simulating the kernels the compiler emits on the bundled ascend910b
// (multi-core, double-buffered GM→UB→vector→GM elementwise kernels and a tiled cube matmul), with
// the sanitizer off and on; counters are simulated lane-ops or MACs per host second (one core).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "codegen/lower/ElementwiseKernel.h"
#include "codegen/lower/MatmulKernel.h"
#include "sim/Simulator.h"

using namespace pyasc;
using namespace pyasc::codegen;

namespace {

const Target& bundled910b() {
  static const Target t = loadTargetFile(std::string(PYASC_SOURCE_DIR) + "/targets/ascend910b.yaml");
  return t;
}

// A device holding the kernel's GM arguments, each a named region (inputs read-only, the last one
// the writable output), filled with float16 values in [0.125, 2).
struct Workload {
  KernelCode code;
  sim::Device device;
  std::vector<uint64_t> args;

  Workload(KernelCode kernel, const std::vector<uint64_t>& argBytes)
      : code(std::move(kernel)), device(bundled910b(), totalBytes(argBytes)) {
    uint64_t at = 0;
    for (size_t i = 0; i < argBytes.size(); ++i) {
      args.push_back(at);
      bool output = i + 1 == argBytes.size();
      device.addRegion({at, argBytes[i], "arg" + std::to_string(i), output});
      at += padded(argBytes[i]);
    }
    uint32_t state = 7;  // xorshift32: cheap, deterministic
    for (uint64_t i = 0; i < device.gmSize(); i += 2) {
      state ^= state << 13;
      state ^= state >> 17;
      state ^= state << 5;
      device.gm()[i] = static_cast<uint8_t>(state);
      device.gm()[i + 1] = static_cast<uint8_t>(0x30 + (state >> 8) % 8);
    }
  }

  sim::LaunchStats run(bool sanitize) {
    sim::LaunchOptions o;
    o.blockDim = code.blockDim;
    o.args = args;
    o.sanitize = sanitize;
    return device.launch(sim::Kernel{code.name, code.program, code.sourceLines}, o);
  }

  static uint64_t padded(uint64_t bytes) { return (bytes + 511) / 512 * 512; }
  static uint64_t totalBytes(const std::vector<uint64_t>& argBytes) {
    uint64_t sum = 0;
    for (uint64_t b : argBytes) sum += padded(b);
    return sum;
  }
};

uint64_t instructionCount(const sim::LaunchStats& stats) {
  uint64_t n = 0;
  for (const sim::PipeStats& p : stats.pipes) n += p.instructions;
  return n;
}

constexpr int64_t kElements = 16 << 20;
constexpr int64_t kMatmulSize = 2048;

// The compiler's kernel for `prim` over kElements float16 values: with its own schedule when
// `tile` is 0, otherwise hand-scheduled to tiles of `tile` elements in two buffer sets.
KernelCode binaryKernel(te::Prim prim, const char* name, int64_t tile) {
  const Target& t = bundled910b();
  ElementwiseCompute c;
  c.name = name;
  c.inputs = {{DType::Float16, false}, {DType::Float16, false}};
  c.outputs = {te::binary(prim, te::placeholder(0, DType::Float16), te::placeholder(1, DType::Float16))};
  c.count = kElements;
  ElementwiseSchedule s = tile == 0 ? scheduleElementwise(c, t, true, t.vectorCores)
                                    : elementwiseSchedule(c, t, tile, 2, t.vectorCores, t.vectorCores, SourceLocation{});
  return lowerElementwise(c, s, t);
}

KernelCode matmulKernel() {
  const Target& t = bundled910b();
  MatmulCompute c;
  c.name = "matmul";
  c.m = c.k = c.n = kMatmulSize;
  c.inType = DType::Float16;
  c.outType = DType::Float16;
  return lowerMatmul(c, scheduleMatmul(c, t, t.cubeCores), t);
}

// Runs `w` per iteration with the sanitizer as range(0) says, reporting `rateName` per second of
// the count `work` takes from a launch's stats, and the launch's cycles, cores and instructions.
void measure(benchmark::State& state, Workload& w, const char* rateName, uint64_t (*work)(const sim::LaunchStats&)) {
  bool sanitize = state.range(0) != 0;
  sim::LaunchStats stats;
  for (auto _ : state) stats = w.run(sanitize);
  state.counters[rateName] =
      benchmark::Counter(static_cast<double>(work(stats)) * state.iterations(), benchmark::Counter::kIsRate);
  state.counters["cycles"] = static_cast<double>(stats.cycles);
  state.counters["block_dim"] = w.code.blockDim;
  state.counters["instructions"] = static_cast<double>(instructionCount(stats));
}

void runElementwise(benchmark::State& state, te::Prim prim, const char* name) {
  const uint64_t bytes = kElements * 2;
  Workload w(binaryKernel(prim, name, state.range(1)), {bytes, bytes, bytes});
  measure(state, w, "lane_ops_per_s", [](const sim::LaunchStats& s) { return s.vectorOps; });
}

void BM_Vadd(benchmark::State& state) { runElementwise(state, te::Prim::VAdd, "vadd"); }
void BM_Vmul(benchmark::State& state) { runElementwise(state, te::Prim::VMul, "vmul"); }
void BM_Vmax(benchmark::State& state) { runElementwise(state, te::Prim::VMax, "vmax"); }

void BM_Matmul(benchmark::State& state) {
  const uint64_t bytes = kMatmulSize * kMatmulSize * 2;
  Workload w(matmulKernel(), {bytes, bytes, bytes});
  measure(state, w, "macs_per_s", [](const sim::LaunchStats& s) { return s.macs; });
}

// range(0): 0 sanitizer off, 1 on; range(1) of the vector kernels: 0 the compiler's tiles, else
// tiles of that many elements (8192: 16 KB copies, the size the vendor names for best bandwidth).
// Host time is wall time of the launch (single-threaded).
BENCHMARK(BM_Vadd)->ArgNames({"sanitize", "tile"})->ArgsProduct({{0, 1}, {0, 8192}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Vmul)->ArgNames({"sanitize", "tile"})->ArgsProduct({{0, 1}, {0, 8192}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Vmax)->ArgNames({"sanitize", "tile"})->ArgsProduct({{0, 1}, {0, 8192}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Matmul)->ArgName("sanitize")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
