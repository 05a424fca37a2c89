// The CPU backend: runs a model's graph on the host, compiled by Halide over LLVM.
//
//   pyasc::cpu::GraphProgram program = pyasc::cpu::GraphProgram::fromText("m.om", model.graph);
//   auto outputs = program.run({{"a", readNpy("a.npy")}});
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sdk/support/Npy.h"

namespace pyasc::cpu {

constexpr int64_t kUnrolledTrips = 16;  // loops of at most this many trips are unrolled (cpu/UnrollLoops.h)

struct CpuRunStats {
  double compileMillis = 0;  // JIT compilation of the pipelines (once per program)
  double runMillis = 0;      // the last run, loops included
  int pipelines = 0;         // one per run of nodes between graph loops
  int cachedPipelines = 0;   // of which loaded from the on-disk cache instead of compiled
  int scans = 0;             // the frontend's chains of scan passes compiled as one sequential scan
  int identitiesForwarded = 0;  // identity Transposes and Reshapes read through (cpu/ForwardIdentities.h)
  int loopsUnrolled = 0;     // short graph loops run as straight-line nodes (cpu/UnrollLoops.h)
  int hostSorts = 0;         // the frontend's rank sorts run as one host sort per row (cpu/HostSort.h)
  int gathers = 0;           // the frontend's selections by integer arrays run as gathers (cpu/SelectionGather.h)
  int autoscheduleFallbacks = 0;  // pipelines the chosen autoscheduler could not schedule (the backend's schedules instead)
  int64_t inPlaceUpdates = 0;  // slice updates in loop bodies written into their array (the last run)
  int64_t arraysCopied = 0;    // carried arrays another value may hold, copied before their first update
  int64_t overwrites = 0;      // elementwise results in loop bodies computed into their operand's buffer
  int64_t outputsCopied = 0;   // returned arrays copied at the end (not computed where they are returned)
};

class GraphProgram {
 public:
  // Parses and verifies graph text (a model's graph section) against the built-in operators;
  // throws CompileError, located in `file`, on a damaged graph or an operator the backend does
  // not lower yet. Loops of at most `unrolledTrips` trips are unrolled (cpu/UnrollLoops.h; 0:
  // every loop runs on the host).
  // A graph with named (symbolic) dimensions, a dynamic model's, runs with each name bound to its
  // extent in `extents`; a name without one is a CompileError.
  static GraphProgram fromText(const std::string& file, const std::string& graphText, int64_t unrolledTrips = kUnrolledTrips,
                               const std::map<std::string, int64_t>& extents = {});
  GraphProgram(GraphProgram&&) noexcept;
  GraphProgram& operator=(GraphProgram&&) noexcept;
  ~GraphProgram();

  // The graph's inputs in order (a model lists its input tensors in the same order, under names
  // that may differ: a random input whose variable is also an output is renamed).
  std::vector<std::string> inputNames() const;

  // The graph's outputs in order, computed from `inputs` (by graph input name; each must match
  // the input's dtype and shape; read in place, not copied). Pipelines are compiled on the first
  // run; the outputs of the top level are computed into the arrays returned (no copy).
  std::vector<std::pair<std::string, NpyArray>> run(const std::map<std::string, NpyView>& inputs,
                                                    CpuRunStats* stats = nullptr);

 private:
  GraphProgram();
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pyasc::cpu
