// bench_cpu: Google Benchmark of models on the CPU backend: one benchmark per MODEL.om, its inputs
// read from MODEL.<input>.npy beside it, a script's np.random inputs drawn by the model
// (benchmarks/cpu/e2e_vs_numpy.py --gbench writes both and times NumPy in the same run);
// compilation is the first run, outside the timed loop.
//   bench_cpu [--benchmark_* flags] MODEL.om...
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "runtime/Model.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/support/Npy.h"

using namespace pyasc;

namespace {

struct Loaded {
  std::unique_ptr<Model> model;
  std::vector<NpyArray> inputs;  // kept alive: bound as views
};

void runModel(benchmark::State& state, Loaded* loaded) {
  RunOptions options;
  options.backend = Backend::Cpu;
  RunResult first = loaded->model->run(options);  // compiles the pipelines
  state.counters["compile_ms"] = first.stats.cpuCompileMillis;
  for (auto _ : state) {
    RunResult r = loaded->model->run(options);
    benchmark::DoNotOptimize(r.outputs.data());
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::vector<std::unique_ptr<Loaded>> models;
  for (int k = 1; k < argc; ++k) {
    const std::string path = argv[k];
    try {
      auto loaded = std::make_unique<Loaded>();
      loaded->model = std::make_unique<Model>(Model::load(path));
      const std::string stem = path.substr(0, path.size() - 2);  // "MODEL."
      loaded->inputs.reserve(loaded->model->inputs().size());  // the views point into it
      for (const model::Tensor* t : loaded->model->inputs()) {
        if (t->role == model::TensorRole::RandomInput) continue;  // a script's np.random arrays: the model draws them
        loaded->inputs.push_back(readNpy(stem + t->name + ".npy"));
        loaded->model->setInputView(t->name, NpyView::of(loaded->inputs.back()));
      }
      const std::string name = std::filesystem::path(path).stem().string();
      benchmark::RegisterBenchmark(name.c_str(), runModel, loaded.get())->Unit(benchmark::kMillisecond)->UseRealTime();
      models.push_back(std::move(loaded));
    } catch (const CompileError& e) {
      std::fprintf(stderr, "bench_cpu: %s\n", e.what());
      return 1;
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
