// pyasc check INPUT.py: the program under CPython + NumPy against the compiled model on the
// simulator (or the CPU backend), with the error of every output.
#include <cmath>
#include <algorithm>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <unistd.h>

#include "runtime/Model.h"
#include "runtime/Progress.h"
#include "sdk/support/ArrayCompare.h"
#include "sdk/support/Random.h"
#include "tools/pyasc/Command.h"
#include "tools/pyasc/CompileFlags.h"

namespace pyasc::tool {

namespace {

struct CheckOptions {
  CompileFlags flags;
  uint32_t seed = 1234;
  bool keep = false;
  bool noSanitize = false;
  bool progress = false;
  std::string backend = "sim";
  double rtol = 0;  // 0: each float dtype's default
  std::vector<std::string> inputShapes;  // NAME=D0,D1,...: the k-th of each input forms run k
};

// The input shapes of each run of a model compiled with dynamic dimensions: from --input-shape
// (the k-th shape given for each input belongs to run k), else the smallest and the largest.
std::vector<std::map<std::string, std::vector<int64_t>>> shapeRuns(const pyasc::Model& net,
                                                                   const std::vector<std::string>& specs) {
  std::vector<std::map<std::string, std::vector<int64_t>>> runs;
  if (specs.empty()) {
    for (bool largest : {false, true}) {
      std::map<std::string, std::vector<int64_t>> run;
      for (const auto* t : net.inputs()) {
        std::vector<int64_t> shape;
        for (const auto& d : t->shape) shape.push_back(largest ? d.max : d.min);
        run[t->name] = shape;
      }
      runs.push_back(run);
    }
    return runs;
  }
  std::map<std::string, size_t> seen;
  for (const auto& spec : specs) {
    std::string name;
    std::vector<int64_t> shape;
    std::string error = parseShapeSpec(spec, name, shape);
    if (!error.empty()) throw CompileError(SourceLocation{}, error);
    const auto ins = net.inputs();
    if (std::none_of(ins.begin(), ins.end(), [&](const model::Tensor* t) { return t->name == name; })) {
      std::string names;
      for (const auto* t : ins) names += (names.empty() ? "" : ", ") + t->name;
      throw CompileError(SourceLocation{}, "--input-shape '" + spec + "': the model has no input '" + name + "' (inputs: " + names + ")");
    }
    const size_t k = seen[name]++;
    if (runs.size() <= k) runs.resize(k + 1);
    runs[k][name] = shape;
  }
  return runs;
}

// The largest ‖out − ref‖ / ‖ref‖ an output may have: `rtol` for floats when given, else 2e-3
// (float16) or 1e-5 (float32), or 1e-2 for any float of a model automatic mixed precision
// rewrote (float16 operands); integers and booleans must be equal.
double tolerance(DType t, double rtol, bool mixedPrecision) {
  if (!isFloat(t)) return 0;
  if (rtol > 0) return rtol;
  if (mixedPrecision) return 1e-2;
  return t == DType::Float16 ? 2e-3 : 1e-5;
}

}  // namespace

std::function<int()> setupCheck(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  addCompileFlags(app, o->flags);
  app.add_option("--seed", o->seed, "seed of the generated function inputs")->capture_default_str();
  app.add_flag("--keep", o->keep,
               "keep the folder with the inputs (inputs/), NumPy's outputs (numpy/) and the model's (npu/) (of the last run, for "
               "several --input-shape runs)");
  app.add_option("--output", o->flags.outputs,
                 "also compare this top-level array of a script (its final value), even when later lines read it; repeatable")
      ->allow_extra_args(false);
  app.add_option("--rtol", o->rtol,
                 "relative tolerance of float outputs (default 1e-5 float32, 2e-3 float16, 1e-2 under automatic mixed "
                 "precision), for programs whose float32 result is ill-conditioned")
      ->check(CLI::PositiveNumber);
  app.add_option("--input-shape", o->inputShapes,
                 "NAME=D0,D1,...: run a model compiled with --dynamic-dims with this input shape; repeatable (the k-th shape "
                 "of each input belongs to run k; default: the smallest and the largest shapes)")
      ->allow_extra_args(false);
  app.add_flag("--no-sanitize", o->noSanitize, "run the model without the simulator's sanitizer");
  app.add_flag("--progress", o->progress, "show the progress line of runs over 2 s even when stderr is not a terminal");
  addBackendOption(app, o->backend);
  return [o]() -> int {
    codegen::CompileResult compiled;
    std::string emitted;
    std::vector<CustomOpSource> customOps;
    if (!compileProgram(o->flags, compiled, emitted, &customOps)) return 1;
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("pyasc-check-" + std::to_string(::getpid()));
    try {
      pyasc::Model net = pyasc::Model::fromImage(compiled.model, o->flags.input);
      const bool mixedPrecision = (compiled.model.flags & model::kFlagMixedPrecision) != 0;
      bool ok = true;
      const bool dynamic = compiled.model.isDynamic();
      const auto runs = dynamic ? shapeRuns(net, o->inputShapes) : std::vector<std::map<std::string, std::vector<int64_t>>>(1);
      if (!dynamic && !o->inputShapes.empty()) return reportError("--input-shape: the model has no dynamic dimensions (compile with --dynamic-dims)");
      for (const auto& run : runs) {
        // each run from the largest shapes, then its own: an input it leaves out takes the shape its
        // dimensions have in this run
        for (const auto* t : net.inputs()) {
          if (t->dims.empty()) continue;
          std::vector<int64_t> largest;
          for (const auto& d : t->shape) largest.push_back(d.max);
          net.setInputShape(t->name, largest);
        }
        for (const auto& [name, shape] : run) net.setInputShape(name, shape);
        std::map<std::string, std::vector<int64_t>> used;  // each input's shape in this run
        fs::create_directories(dir / "inputs");
        LegacyRandom gen(o->seed);
        std::string params;
        for (const auto* t : net.inputs()) {
          if (t->role == model::TensorRole::RandomInput) continue;
          std::vector<int64_t> shape;
          for (const auto& d : t->shape) shape.push_back(d.max);
          if (run.count(t->name)) {
            shape = run.at(t->name);
          } else if (dynamic && !t->dims.empty()) {  // the shape the other inputs' dimensions give it, if they do
            try {
              shape = net.boundShape(*t);
            } catch (const CompileError&) {
            }
          }
          // the dtype the program declared: float64 inputs reach both NumPy and the model as float64
          used[t->name] = shape;
          NpyArray a = uniformArray(t->declared.value_or(t->dtype), shape, gen);
          writeNpy((dir / "inputs" / (t->name + ".npy")).string(), a);
          net.setInput(t->name, a);
          params += (params.empty() ? "" : ",") + t->name;
        }
        std::string outputs;
        for (const auto* t : net.outputs()) outputs += (outputs.empty() ? "" : ",") + t->name;
        std::string command = std::string(PYASC_PYTHON) + " " + PYASC_SOURCE_DIR + "/tools/pyasc/reference_runner.py" +
                              " --program '" + o->flags.input + "' --outputs '" + outputs + "' --out '" +
                              (dir / "numpy").string() + "' --python-path '" + PYASC_SOURCE_DIR + "/python' --float64" +
                              " --unseeded-seed " + std::to_string(pyasc::Model::kUnseededSeed);
        for (const auto& c : o->flags.consts) command += " --const '" + c + "'";
        for (const auto& op : customOps) command += " --custom-op '" + op.pythonName + "=" + op.implPath + "'";
        if (!o->flags.entry.empty()) {
          command += " --entry '" + o->flags.entry + "' --inputs '" + (dir / "inputs").string() + "' --params '" + params + "'";
        }
        if (std::system(command.c_str()) != 0) {  // (NumPy at this run's shapes)
          if (!o->keep) fs::remove_all(dir);
          return reportError("the program failed under " + std::string(PYASC_PYTHON) + " + NumPy");
        }
        RunOptions options;
        parseBackend(o->backend, options.backend);
        options.sanitize = !o->noSanitize;
        setProgressOptions(options, o->progress);
        RunResult r = net.run(options);
        if (o->keep) {  // what the model read and wrote beside NumPy's: np.random inputs as NumPy draws them
          for (const auto& [name, array] : net.randomInputs()) writeNpy((dir / "inputs" / (name + ".npy")).string(), array);
          fs::create_directories(dir / "npu");
          for (const auto& [name, array] : r.outputs) writeNpy((dir / "npu" / (name + ".npy")).string(), array);
        }
        if (dynamic) {
          std::string at;
          for (const auto* t : net.inputs()) {
            if (t->isStatic()) continue;
            std::string shape;
            for (int64_t d : used[t->name]) shape += (shape.empty() ? "" : ",") + std::to_string(d);
            at += (at.empty() ? "" : ", ") + t->name + "[" + shape + "]";
          }
          std::printf("at %s:\n", at.c_str());
        }
        std::printf("%-14s %-9s %-16s %12s %12s %9s\n", "output", "dtype", "shape", "max abs err", "rel err", "tolerance");
        for (const auto& [name, array] : r.outputs) {
          NpyArray ref = readNpy((dir / "numpy" / (name + ".npy")).string());
          ArrayError err = compareArrays(array, ref);
          if (err.sizesDiffer) {
            std::printf("%-14s NumPy gives %lld elements, the model %lld\n", name.c_str(),
                        static_cast<long long>(ref.elementCount()), static_cast<long long>(array.elementCount()));
            ok = false;
            continue;
          }
          double maxAbs = err.maxAbs, rel = err.relative;
          double tol = tolerance(array.dtype, o->rtol, mixedPrecision);
          bool pass = rel <= tol || (tol == 0 && maxAbs == 0);
          ok = ok && pass;
          std::string shape = "[";
          for (size_t i = 0; i < array.shape.size(); ++i) shape += (i ? "," : "") + std::to_string(array.shape[i]);
          shape += "]";
          std::printf("%-14s %-9s %-16s %12.3e %12.3e %9.0e  %s\n", name.c_str(), dtypeName(array.dtype), shape.c_str(),
                      maxAbs, rel, tol, pass ? "ok" : "MISMATCH");
        }
        if (options.backend == Backend::Cpu) {
          std::printf("cpu: ran in %.3f ms (compilation %.1f ms, %d of %d pipelines from the cache)\n", r.stats.cpuRunMillis,
                      r.stats.cpuCompileMillis, r.stats.cpuCachedPipelines, r.stats.cpuPipelines);
        } else {
          std::printf("cycles: %llu on %s\n", static_cast<unsigned long long>(r.stats.cycles), net.target().name.c_str());
          if (mixedPrecision) {  // the same program without automatic mixed precision, on the same inputs
            CompileFlags float32 = o->flags;
            float32.autoMixedPrecision = "off";
            codegen::CompileResult reference;
            std::string unused;
            if (!compileProgram(float32, reference, unused)) return 1;
            pyasc::Model plain = pyasc::Model::fromImage(reference.model, o->flags.input);
            for (const auto* t : net.inputs()) {
              if (t->role != model::TensorRole::RandomInput) plain.setInput(t->name, readNpy((dir / "inputs" / (t->name + ".npy")).string()));
            }
            const RunResult f = plain.run(options);
            std::printf("auto mixed precision: %llu cycles, %llu in float32: %.2fx\n", static_cast<unsigned long long>(r.stats.cycles),
                        static_cast<unsigned long long>(f.stats.cycles),
                        r.stats.cycles ? static_cast<double>(f.stats.cycles) / static_cast<double>(r.stats.cycles) : 0.0);
          }
        }
      }
      if (o->keep) {
        std::printf("kept: %s\n", dir.string().c_str());
      } else {
        fs::remove_all(dir);
      }
      return ok ? 0 : 1;
      return ok ? 0 : 1;
    } catch (const CompileError& e) {
      if (!o->keep) fs::remove_all(dir);
      return reportError(e);
    } catch (const std::exception& e) {
      if (!o->keep) fs::remove_all(dir);
      return reportError(e.what());
    }
  };
}

}  // namespace pyasc::tool
