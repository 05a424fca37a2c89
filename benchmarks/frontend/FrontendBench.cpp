// Frontend speed on a generated 2,000-line NumPy program: parse only, parse + analysis to a
// verified graph, and the graph text round trip. Run: build/bin/bench_frontend.
#include <benchmark/benchmark.h>

#include <string>

#include "frontend/Frontend.h"
#include "frontend/Parser.h"
#include "sdk/graph/Parser.h"
#include "sdk/graph/Printer.h"

namespace {

// Helpers with matmuls, reductions, slicing, a kept loop and compile-time shape arithmetic,
// each called from the script, until the program has `lines` lines.
std::string generateProgram(int lines) {
  std::string text =
      "# Generated benchmark program.\n"
      "import numpy as np\n"
      "from pyasc import nn\n"
      "N = 64\n"
      "K = 3\n"
      "np.random.seed(0)\n"
      "x0 = np.random.rand(N, N).astype(np.float32)\n"
      "w = np.random.rand(N, N).astype(np.float32)\n";
  int count = 8;
  for (int k = 1; count + 24 <= lines; ++k) {
    const std::string n = std::to_string(k);
    text += "\n"
            "def block" + n + "(a, b):\n"
            "    # pragma: auto_mixed_precision mode=O2\n"
            "    c = a @ b\n"
            "    d = np.maximum(c, 0) + a * 0.5\n"
            "    m = d.mean(axis=1, keepdims=True)\n"
            "    s = np.sqrt(((d - m) ** 2).mean(axis=1, keepdims=True) + 1e-5)\n"
            "    e = (d - m) / s\n"
            "    width = e.shape[1] - K + 1\n"
            "    acc = np.zeros((e.shape[0], width), dtype=np.float32)\n"
            "    for t in range(K):\n"
            "        acc += e[:, t:t + width] * 0.25\n"
            "    top = e[:N // 2, ::2]\n"
            "    bottom = e[N // 2:, 1::2]\n"
            "    mixed = np.concatenate([top, bottom], axis=0)\n"
            "    mask = (mixed > 0) & (mixed < 1)\n"
            "    picked = np.where(mask, mixed, -mixed)\n"
            "    out = np.zeros_like(e)\n"
            "    out[:, :width] = acc\n"
            "    out[:, width:] = picked[:, :K - 1]\n"
            "    return nn.relu(out + np.tanh(e))\n"
            "\n"
            "x" + n + " = block" + n + "(x" + std::to_string(k - 1) + ", w)\n"
            "y" + n + " = x" + n + ".sum(axis=0) + x" + n + ".max()\n";
    count += 23;
  }
  while (count++ < lines) text += "pass\n";
  return text;
}

const std::string& program() {
  static const std::string text = generateProgram(2000);
  return text;
}

void BM_ParseProgram(benchmark::State& state) {
  for (auto _ : state) {
    pyasc::DiagnosticEngine diags;
    auto module = pyasc::frontend::parseModule("bench.py", program(), diags);
    benchmark::DoNotOptimize(module.body.size());
  }
  state.counters["lines"] = 2000;
}
BENCHMARK(BM_ParseProgram)->Unit(benchmark::kMillisecond);

void BM_ParseAndAnalyzeProgram(benchmark::State& state) {
  size_t nodes = 0;
  for (auto _ : state) {
    pyasc::DiagnosticEngine diags;
    pyasc::graph::Graph graph =
        pyasc::frontend::compileToGraph("bench.py", program(), pyasc::frontend::FrontendOptions{}, diags);
    if (diags.hasErrors()) {
      state.SkipWithError(diags.renderAll().c_str());
      return;
    }
    nodes = graph.values.size();
  }
  state.counters["lines"] = 2000;
  state.counters["values"] = static_cast<double>(nodes);
}
BENCHMARK(BM_ParseAndAnalyzeProgram)->Unit(benchmark::kMillisecond);

void BM_GraphTextRoundTrip(benchmark::State& state) {
  pyasc::DiagnosticEngine diags;
  pyasc::graph::Graph graph =
      pyasc::frontend::compileToGraph("bench.py", program(), pyasc::frontend::FrontendOptions{}, diags);
  const std::string text = pyasc::graph::printGraph(graph);
  for (auto _ : state) {
    pyasc::graph::Graph parsed = pyasc::graph::parseGraph("bench.graph", text);
    benchmark::DoNotOptimize(pyasc::graph::printGraph(parsed).size());
  }
  state.counters["bytes"] = static_cast<double>(text.size());
}
BENCHMARK(BM_GraphTextRoundTrip)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
