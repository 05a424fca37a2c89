// bench_roofline: generates the kernels of the acceptance workloads, runs them on the simulator and
// reports simulated cycles against the target's roofline: max(compute floor, data-movement floor).
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include "codegen/lower/ConvKernel.h"
#include "codegen/lower/ElementwiseKernel.h"
#include "codegen/lower/MatmulKernel.h"
#include "codegen/lower/ReduceKernel.h"
#include "codegen/lower/SoftmaxKernel.h"
#include "codegen/lower/WindowKernel.h"
#include "sim/Simulator.h"

using namespace pyasc;
using namespace pyasc::codegen;

namespace {

struct Workload {
  std::string name;
  std::function<double(const Target&)> computeFloor;     // cycles
  std::function<double(const Target&)> movementFloor;    // cycles
  std::function<KernelCode(const Target&)> kernel;
  std::vector<int64_t> argBytes;                          // GM bytes of each kernel argument
};

std::vector<Workload> workloads() {
  std::vector<Workload> w;
  {
    const int64_t n = 16 << 20;
    w.push_back({"add fp16 16M", [](const Target&) { return 0.0; },
                 [n](const Target& t) { return dataMovementFloor(t, 2 * n * 2, n * 2, t.vectorCores, DmaPath::GmToUb); },
                 [n](const Target& t) {
                   ElementwiseCompute c;
                   c.name = "add";
                   c.inputs = {{DType::Float16, false}, {DType::Float16, false}};
                   c.outputs = {te::binary(te::Prim::VAdd, te::placeholder(0, DType::Float16), te::placeholder(1, DType::Float16))};
                   c.count = n;
                   return lowerElementwise(c, scheduleElementwise(c, t, true, t.vectorCores), t);
                 },
                 {n * 2, n * 2, n * 2}});
  }
  {
    const int64_t m = 2048, k = 2048, n = 2048;
    w.push_back({"matmul fp16 2048^3",
                 [=](const Target& t) { return cubeFloor(t, static_cast<uint64_t>(m * n * k), DType::Float16, t.cubeCores); },
                 [=](const Target& t) { return dataMovementFloor(t, (m * k + k * n) * 2, m * n * 2, t.cubeCores, DmaPath::GmToL1); },
                 [=](const Target& t) {
                   MatmulCompute c;
                   c.name = "matmul";
                   c.m = m;
                   c.k = k;
                   c.n = n;
                   c.inType = DType::Float16;
                   c.outType = DType::Float16;
                   return lowerMatmul(c, scheduleMatmul(c, t, t.cubeCores), t);
                 },
                 {m * k * 2, k * n * 2, m * n * 2}});
  }
  {
    Conv2dCompute c;
    c.name = "conv2d";
    c.inType = DType::Float16;
    c.outType = DType::Float16;
    c.n = 8;
    c.h = c.w = 56;
    c.cin = c.cout = 64;
    c.kh = c.kw = 3;
    c.padTop = c.padBottom = c.padLeft = c.padRight = 1;
    const int64_t macs = c.outputElements() * c.kh * c.kw * c.cin;
    const int64_t in = c.inputElements() * 2, weights = c.weightElements() * 2, out = c.outputElements() * 2;
    w.push_back({"conv2d 3x3 N=8 56x56 64->64 fp16",
                 [=](const Target& t) { return cubeFloor(t, static_cast<uint64_t>(macs), DType::Float16, t.cubeCores); },
                 [=](const Target& t) { return dataMovementFloor(t, in + weights, out, t.cubeCores, DmaPath::GmToL1); },
                 [=](const Target& t) { return lowerConv2d(c, scheduleConv2d(c, t, t.cubeCores), t); },
                 {in, weights, out}});
  }
  {
    const int64_t rows = 4096, cols = 4096;
    w.push_back({"row sum fp32 4096x4096", [](const Target&) { return 0.0; },
                 [=](const Target& t) { return dataMovementFloor(t, rows * cols * 4, rows * 4, t.vectorCores, DmaPath::GmToUb); },
                 [=](const Target& t) {
                   ReduceCompute r;
                   r.name = "rowsum";
                   r.outer = rows;
                   r.reduce = cols;
                   return lowerReduce(r, scheduleReduce(r, t, t.vectorCores), t);
                 },
                 {rows * cols * 4, rows * 4}});
  }
  {
    const int64_t rows = 4096, cols = 4096;
    // compute floor per 64-lane repeat: running max and sum (two-operand), subtracting the row's
    // max and scaling by its reciprocal sum (vector-scalar), exp (transcendental), on every vector core
    w.push_back({"softmax fp32 4096x4096",
                 [=](const Target& t) {
                   double repeats = double(rows) * cols / 64.0;
                   const auto& perRepeat = t.vectorCyclesPerRepeat;
                   return repeats *
                          (2 * perRepeat[int(isa::VectorCost::Binary)] + 2 * perRepeat[int(isa::VectorCost::Unary)] +
                           perRepeat[int(isa::VectorCost::Transcendental)]) /
                          t.vectorCores;
                 },
                 [=](const Target& t) { return dataMovementFloor(t, rows * cols * 4, rows * cols * 4, t.vectorCores, DmaPath::GmToUb); },
                 [=](const Target& t) {
                   SoftmaxCompute c;
                   c.name = "softmax";
                   c.rows = rows;
                   c.cols = cols;
                   return lowerSoftmax(c, scheduleSoftmax(c, t, t.vectorCores), t);
                 },
                 {rows * cols * 4, rows * cols * 4}});
  }
  {
    WindowCompute c;
    c.name = "max_pool2d";
    c.reduce = WindowReduce::Max;
    c.n = 8;
    c.h = c.w = 56;
    c.c = 64;
    c.kh = c.kw = 3;
    c.strideH = c.strideW = 2;
    c.padTop = c.padBottom = c.padLeft = c.padRight = 1;
    const int64_t in = c.n * c.h * c.w * c.c * 2, out = c.n * c.outH() * c.outW() * c.c * 2;
    // compute floor: one vmax per tap and output element, 128 f16 lanes a repeat, every vector core
    w.push_back({"max_pool2d 3x3/2 N=8 56x56x64 fp16",
                 [=](const Target& t) {
                   return double(out / 2) * 9 / 128.0 * t.vectorCyclesPerRepeat[int(isa::VectorCost::Binary)] / t.vectorCores;
                 },
                 [=](const Target& t) { return dataMovementFloor(t, in, out, t.vectorCores, DmaPath::GmToUb); },
                 [=](const Target& t) { return lowerWindow(c, requireWindowSchedule(c, t, t.vectorCores), t); },
                 {in, out}});
  }
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Simulated cycles of the acceptance workloads against the roofline"};
  std::string targetName = "ascend910b", only;
  app.add_option("--target", targetName, "target")->capture_default_str();
  app.add_option("--workload", only, "run only workloads whose name contains this");
  CLI11_PARSE(app, argc, argv);
  Target target = loadTargetFile(std::string(PYASC_SOURCE_DIR) + "/targets/" + targetName + ".yaml");
  std::printf("%-26s %12s %12s %12s %10s\n", "workload", "cycles",
              "compute floor", "data floor", "roofline");
  for (const Workload& w : workloads()) {
    if (!only.empty() && w.name.find(only) == std::string::npos) continue;
    KernelCode code = w.kernel(target);
    uint64_t gm = 0;
    std::vector<uint64_t> args;
    for (int64_t b : w.argBytes) {
      args.push_back(gm);
      gm += (static_cast<uint64_t>(b) + 511) / 512 * 512;
    }
    sim::Device device(target, gm);
    std::mt19937 gen(7);
    for (uint64_t i = 0; i < gm; i += 2) device.gm()[i + 1] = static_cast<uint8_t>(0x30 + gen() % 8);  // fp16 in [0.125, 2)
    sim::LaunchOptions o;
    o.blockDim = code.blockDim;
    o.args = args;
    o.sanitize = false;
    sim::LaunchStats s = device.launch(sim::Kernel{code.name, code.program, code.sourceLines}, o);
    double floor = std::max(w.computeFloor(target), w.movementFloor(target));
    std::printf("%-26s %12llu %12.0f %12.0f %9.1f%%   block_dim=%d\n", w.name.c_str(),
                static_cast<unsigned long long>(s.cycles), w.computeFloor(target), w.movementFloor(target),
                100.0 * floor / static_cast<double>(s.cycles), code.blockDim);
  }
  return 0;
}
