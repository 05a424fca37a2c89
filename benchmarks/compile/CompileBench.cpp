// bench_compile: compiles each example (frontend, every codegen stage, model serialisation) for
// ascend910b at O2; the budget is under 1 s for the largest example.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "codegen/Pipeline.h"
#include "frontend/Frontend.h"
#include "sdk/model/ModelWriter.h"

using namespace pyasc;

namespace {

// The example's text and the options of its "# e2e:" header.
struct Example {
  std::string path, text;
  frontend::FrontendOptions options;
};

Example load(const std::string& path) {
  Example e;
  e.path = path;
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  e.text = ss.str();
  e.options.target = "ascend910b";
  std::vector<std::string> inputs, consts;
  std::istringstream lines(e.text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# e2e:", 0) != 0) continue;
    std::istringstream words(line.substr(6));
    for (std::string w; words >> w;) {
      if (w.rfind("--entry=", 0) == 0) e.options.entry = w.substr(8);
      if (w.rfind("--input=", 0) == 0) inputs.push_back(w.substr(8));
      if (w.rfind("--const=", 0) == 0) consts.push_back(w.substr(8));
    }
  }
  frontend::parseSpecs(inputs, consts, e.options);
  return e;
}

void compileExample(benchmark::State& state, const std::string& path) {
  Example e = load(path);
  Target target = loadTarget("ascend910b");
  size_t bytes = 0;
  for (auto _ : state) {
    DiagnosticEngine diags;
    graph::Graph g = frontend::compileToGraph(e.path, e.text, e.options, diags);
    if (diags.hasErrors()) {
      state.SkipWithError(diags.renderAll().c_str());
      return;
    }
    codegen::CompileOptions options;
    options.sourceFile = e.path;
    codegen::CompileResult r = codegen::compileGraph(std::move(g), target, options);
    bytes = model::serialize(r.model).size();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["model_bytes"] = static_cast<double>(bytes);
}

int registerExamples() {
  for (const auto& entry : std::filesystem::directory_iterator(std::string(PYASC_SOURCE_DIR) + "/examples")) {
    if (entry.path().extension() != ".py") continue;
    std::string path = entry.path().string();
    benchmark::RegisterBenchmark(("compile/" + entry.path().stem().string()).c_str(),
                                 [path](benchmark::State& s) { compileExample(s, path); })
        ->Unit(benchmark::kMillisecond);
  }
  return 0;
}

const int registered = registerExamples();

}  // namespace

BENCHMARK_MAIN();
