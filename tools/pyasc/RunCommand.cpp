// pyasc run MODEL.om: bind .npy inputs, run on the simulator (or the CPU backend), write <output>.npy,
// print a summary.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include "runtime/Model.h"
#include "runtime/Progress.h"
#include "tools/pyasc/Command.h"

namespace pyasc::tool {

namespace {

struct RunCommandOptions {
  std::string model;
  std::vector<std::string> inputs;
  std::vector<std::string> inputShapes;
  std::string outputDir = ".";
  std::string profile;
  bool stats = false;
  bool noSanitize = false;
  bool progress = false;
  std::string backend = "sim";
};

std::string typeText(const NpyArray& a) {
  std::string s = std::string(dtypeName(a.dtype)) + "[";
  for (size_t i = 0; i < a.shape.size(); ++i) s += (i ? "," : "") + std::to_string(a.shape[i]);
  return s + "]";
}

void printSummary(const pyasc::Model& net, const RunResult& r, bool stats) {
  const Target& t = net.target();
  const RunStats& s = r.stats;
  std::printf("cycles: %llu (%.3f us at %.0f MHz), %llu launch%s on up to %d core%s\n",
              static_cast<unsigned long long>(s.cycles), s.cycles / t.clockMhz, t.clockMhz,
              static_cast<unsigned long long>(s.launches), s.launches == 1 ? "" : "es", s.maxBlockDim,
              s.maxBlockDim == 1 ? "" : "s");
  std::printf("pipe utilisation:");
  for (int p = 1; p < isa::kPipeCount; ++p) {
    double denom = static_cast<double>(s.cycles) * s.maxBlockDim;
    std::printf(" %s %.1f%%", isa::pipeName(static_cast<isa::Pipe>(p)), denom > 0 ? 100.0 * s.busyCycles[p] / denom : 0.0);
  }
  std::printf("\n");
  if (!stats) return;
  std::printf("kernels:\n");
  for (const auto& k : s.kernels) {
    std::printf("  %-24s %6llu launch%s %12llu cycles\n", k.name.c_str(), static_cast<unsigned long long>(k.launches),
                k.launches == 1 ? "  " : "es", static_cast<unsigned long long>(k.cycles));
  }
  std::printf("bytes moved:\n");
  for (int p = 0; p < kDmaPathCount; ++p) {
    if (s.bytes[p] == 0) continue;
    std::printf("  %-10s %14llu\n", dmaPathName(static_cast<DmaPath>(p)), static_cast<unsigned long long>(s.bytes[p]));
  }
  std::printf("energy: %.3f uJ (model estimate)\n", s.energyPJ * 1e-6);
  // the reference guide's three measures, as docs/cli.md defines them from the simulator
  auto count = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  uint64_t vector = s.instructions[static_cast<int>(isa::Pipe::V)], cube = s.instructions[static_cast<int>(isa::Pipe::M)];
  uint64_t gmBytes = 0;
  for (DmaPath p : {DmaPath::GmToUb, DmaPath::GmToL1, DmaPath::UbToGm, DmaPath::L0CToGm}) gmBytes += s.bytes[static_cast<int>(p)];
  std::printf("compute instructions: %llu (vector %llu over %llu lanes, cube %llu over %llu 16x16x16 blocks)\n",
              count(vector + cube), count(vector), count(s.vectorLanes), count(cube), count(s.macs / 4096));
  std::printf("memory access latency: %llu cycles of GM transfers (%llu bytes)\n", count(s.gmCycles), count(gmBytes));
}

}  // namespace

std::function<int()> setupRun(CLI::App& app) {
  auto o = std::make_shared<RunCommandOptions>();
  app.add_option("model", o->model, "model file (.om)")->required();
  app.add_option("--input", o->inputs, "NAME=FILE.npy for an input; repeatable")->allow_extra_args(false);
  app.add_option("--input-shape", o->inputShapes,
                 "NAME=D0,D1,...: the shape of an input with dynamic dimensions (an array bound with --input gives its own; "
                 "this checks it); repeatable")
      ->allow_extra_args(false);
  app.add_option("--output-dir", o->outputDir, "folder for <output name>.npy")->capture_default_str();
  app.add_option("--profile", o->profile, "write a Chrome trace (Perfetto) of every pipe to this file");
  app.add_flag("--stats", o->stats, "print per-kernel cycles, bytes per path and energy");
  app.add_flag("--no-sanitize", o->noSanitize, "run without the simulator's sanitizer");
  app.add_flag("--progress", o->progress, "show the progress line of runs over 2 s even when stderr is not a terminal");
  addBackendOption(app, o->backend);
  return [o]() -> int {
    try {
      pyasc::Model net = pyasc::Model::load(o->model);
      for (const auto& spec : o->inputs) {
        size_t eq = spec.find('=');
        if (eq == std::string::npos || eq == 0) return reportError("--input '" + spec + "': expected NAME=FILE.npy");
        net.setInput(spec.substr(0, eq), readNpy(spec.substr(eq + 1)));
      }
      for (const auto& spec : o->inputShapes) {
        std::string name;
        std::vector<int64_t> shape;
        const std::string error = parseShapeSpec(spec, name, shape);
        if (!error.empty()) return reportError(error);
        net.setInputShape(name, shape);
      }
      RunOptions options;
      parseBackend(o->backend, options.backend);
      options.sanitize = !o->noSanitize;
      options.tracePath = o->profile;
      setProgressOptions(options, o->progress);
      RunResult r = net.run(options);
      std::filesystem::create_directories(o->outputDir);
      for (const auto& [name, array] : r.outputs) {
        std::string path = (std::filesystem::path(o->outputDir) / (name + ".npy")).string();
        writeNpy(path, array);
        std::printf("output %-12s %-20s -> %s\n", name.c_str(), typeText(array).c_str(), path.c_str());
      }
      if (options.backend == Backend::Cpu) {
        std::printf("cpu: ran in %.3f ms (compilation %.1f ms, %d of %d pipelines from the cache)\n", r.stats.cpuRunMillis,
                    r.stats.cpuCompileMillis, r.stats.cpuCachedPipelines, r.stats.cpuPipelines);
      } else {
        printSummary(net, r, o->stats);
      }
      if (!o->profile.empty()) std::printf("trace: %s\n", o->profile.c_str());
    } catch (const CompileError& e) {
      return reportError(e);
    } catch (const std::exception& e) {
      return reportError(e.what());
    }
    return 0;
  };
}

}  // namespace pyasc::tool
