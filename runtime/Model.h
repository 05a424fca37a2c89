// The runtime API: load a .om model, bind inputs, run its execution plan, read outputs.
//
//   pyasc::Model net = pyasc::Model::load("output.om");
//   net.setInput("a", pyasc::readNpy("a.npy"));
//   pyasc::RunResult r = net.run();
//   for (auto& [name, array] : r.outputs) pyasc::writeNpy(name + ".npy", array);
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sdk/model/Model.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/support/Npy.h"
#include "sdk/target/Target.h"

namespace pyasc {

namespace cpu {
class GraphProgram;
}

// Simulator: the model's kernels on the simulated AI Core. Cpu: the model's graph compiled for the
// host by Halide (cpu/), compiled once per Model on its first run.
enum class Backend { Simulator, Cpu };
bool parseBackend(const std::string& name, Backend& out);  // "sim" or "cpu"

struct RunOptions {
  Backend backend = Backend::Simulator;
  bool sanitize = true;        // the simulator's sanitizer
  std::string tracePath;       // Chrome trace JSON of every launch, when not empty
  // A progress line on stderr (runtime/Progress.h) once the run has taken progressAfterSeconds;
  // progressTerminal rewrites it in place (stderr is a terminal), else one line per update.
  bool progress = false;
  bool progressTerminal = false;
  double progressAfterSeconds = 2.0;
};

// Per-kernel and whole-run measurements from the simulator.
struct KernelStats {
  std::string name;
  uint64_t launches = 0, cycles = 0;
};

struct RunStats {
  uint64_t cycles = 0;  // launches run one after another: the sum of their cycles
  std::array<uint64_t, isa::kPipeCount> busyCycles{};  // summed over cores
  std::array<uint64_t, kDmaPathCount> bytes{};
  double energyPJ = 0;
  uint64_t macs = 0;  // cube multiply-accumulates
  std::array<uint64_t, isa::kPipeCount> instructions{};  // issued, summed over cores
  uint64_t vectorLanes = 0;  // elements the vector instructions computed
  uint64_t gmCycles = 0;     // GM transfers from issue to completion, summed over cores
  uint64_t launches = 0;
  int maxBlockDim = 1;
  std::vector<KernelStats> kernels;
  // The CPU backend: compilation (first run only) and running, in milliseconds; its pipelines and
  // how many of them came from the on-disk cache.
  double cpuCompileMillis = 0, cpuRunMillis = 0;
  int cpuPipelines = 0, cpuCachedPipelines = 0;
};

struct RunResult {
  std::vector<std::pair<std::string, NpyArray>> outputs;  // in the model's output order
  RunStats stats;
};

class Model {
 public:
  // Reads and validates a model file and its target; throws CompileError with a one-line reason.
  static Model load(const std::string& path);
  static Model fromImage(model::Model image, const std::string& name);

  const model::Model& image() const { return image_; }
  const Target& target() const { return target_; }
  std::vector<const model::Tensor*> inputs() const;   // arrays the caller may bind
  std::vector<const model::Tensor*> outputs() const;

  // Binds an input; its dtype and shape must match the model (dynamic dims within their range). An
  // input the program declared float64 also takes float64 arrays, rounded to float32 here (a copy).
  void setInput(const std::string& name, NpyArray array);
  // The same for memory the caller keeps unchanged until run() returns: the simulator copies it
  // into device memory, the CPU backend reads it in place.
  void setInputView(const std::string& name, const NpyView& view);
  // Fixes the runtime extent of a dynamic input (the reference guide's set_input_shape): binds the
  // model's symbols its dimensions name (docs/dynamic-shapes.md). Binding an array does the same
  // with the array's shape; the latest binding of a symbol holds.
  void setInputShape(const std::string& name, const std::vector<int64_t>& shape);
  // The shape a tensor has at the current binding (its static shape in a static model); throws
  // CompileError naming an unbound symbol.
  std::vector<int64_t> boundShape(const model::Tensor& t) const;
  bool hasInput(const std::string& name) const { return views_.count(name) > 0; }
  // Unbinds the inputs bound with setInputView (those bound with setInput stay).
  void forgetInputViews();

  // Runs the plan. Unbound random inputs are generated as NumPy's legacy generator would;
  // any other unbound input is an error naming it.
  RunResult run(const RunOptions& options = {});
  // Whether this build has the CPU backend (cmake -DPYASC_WITH_CPU=ON, the default).
  static bool hasCpuBackend();

  // The arrays NumPy's legacy generator gives the random inputs (unseeded streams use
  // kUnseededSeed), in tensor order; used by run() for unbound random inputs.
  std::vector<std::pair<std::string, NpyArray>> randomInputs() const;
  static constexpr uint32_t kUnseededSeed = 0;

 private:
  model::Model image_;
  std::string name_;
  Target target_;
  std::map<std::string, NpyArray> bound_;      // inputs the model holds
  std::map<std::string, NpyArray> converted_;  // float32 copies of float64 views, forgotten with the views
  std::map<std::string, NpyView> views_;    // every bound input: into bound_ or the caller's memory
  std::shared_ptr<cpu::GraphProgram> cpuProgram_;
  std::vector<int64_t> cpuSymbols_;                // the binding cpuProgram_ was compiled for (dynamic models)
  std::vector<std::string> cpuInputNames_;         // the graph's input names, in the model's input order
  std::map<std::string, NpyView> cpuInputViews_;   // by graph name, reused from run to run (no allocation)
  std::vector<int64_t> symbols_;                   // the dynamic dimensions' values; 0 while unbound
  std::vector<std::string> symbolSources_;         // what bound each: "input 'x' dimension 0"

  // The input `name` after checking that an array of `dtype` and `shape` may be bound to it.
  const model::Tensor& checkInput(const std::string& name, DType dtype, const std::vector<int64_t>& shape) const;
  void bindRandomAndCheckBound();
  // Dynamic models: every input's bound array has the shape the symbols give it.
  void checkBoundShapes() const;
  RunResult runOnCpu();
};

}  // namespace pyasc
