// pyasc check INPUT.py: the program under CPython + NumPy against the compiled model on the
// simulator, with the error of every output.
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <unistd.h>

#include "runtime/Model.h"
#include "sdk/support/Float16.h"
#include "sdk/support/Random.h"
#include "tools/pyasc/Command.h"
#include "tools/pyasc/CompileFlags.h"

namespace pyasc::tool {

namespace {

struct CheckOptions {
  CompileFlags flags;
  uint32_t seed = 1234;
  bool keep = false;
};

std::vector<double> asDoubles(const NpyArray& a) {
  std::vector<double> v(static_cast<size_t>(a.elementCount()));
  const uint8_t* p = a.data.data();
  for (size_t i = 0; i < v.size(); ++i) {
    switch (a.dtype) {
      case DType::Float16: { uint16_t h; std::memcpy(&h, p + 2 * i, 2); v[i] = halfToFloat(h); break; }
      case DType::Float32: { float f; std::memcpy(&f, p + 4 * i, 4); v[i] = f; break; }
      case DType::Float64: { double d; std::memcpy(&d, p + 8 * i, 8); v[i] = d; break; }
      case DType::Int32: { int32_t x; std::memcpy(&x, p + 4 * i, 4); v[i] = x; break; }
      case DType::Int64: { int64_t x; std::memcpy(&x, p + 8 * i, 8); v[i] = static_cast<double>(x); break; }
      case DType::Int16: { int16_t x; std::memcpy(&x, p + 2 * i, 2); v[i] = x; break; }
      case DType::Int8: v[i] = static_cast<int8_t>(p[i]); break;
      default: v[i] = p[i]; break;
    }
  }
  return v;
}

double tolerance(DType t) {
  if (t == DType::Float16) return 2e-3;
  if (t == DType::Float32) return 1e-5;
  return 0;
}

// Uniform [0, 1) values of NumPy's legacy generator, in the tensor's dtype.
NpyArray generatedInput(const model::Tensor& t, LegacyRandom& gen) {
  NpyArray a;
  a.dtype = t.dtype;
  for (const auto& d : t.shape) a.shape.push_back(d.max);
  int64_t n = a.elementCount();
  a.data.resize(static_cast<size_t>(n * dtypeSize(t.dtype)));
  for (int64_t i = 0; i < n; ++i) {
    double v = gen.randomSample();
    uint8_t* p = a.data.data() + i * dtypeSize(t.dtype);
    switch (t.dtype) {
      case DType::Float16: { uint16_t h = doubleToHalf(v); std::memcpy(p, &h, 2); break; }
      case DType::Float32: { float f = static_cast<float>(v); std::memcpy(p, &f, 4); break; }
      case DType::Int32: { int32_t x = static_cast<int32_t>(v * 100); std::memcpy(p, &x, 4); break; }
      case DType::Bool: p[0] = v < 0.5; break;
      default: { int64_t x = static_cast<int64_t>(v * 100); std::memcpy(p, &x, static_cast<size_t>(dtypeSize(t.dtype))); break; }
    }
  }
  return a;
}

}  // namespace

std::function<int()> setupCheck(CLI::App& app) {
  auto o = std::make_shared<CheckOptions>();
  addCompileFlags(app, o->flags);
  app.add_option("--seed", o->seed, "seed of the generated function inputs")->capture_default_str();
  app.add_flag("--keep", o->keep, "keep the folder with the inputs and both outputs");
  return [o]() -> int {
    codegen::CompileResult compiled;
    std::string emitted;
    std::vector<CustomOpSource> customOps;
    if (!compileProgram(o->flags, compiled, emitted, &customOps)) return 1;
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("pyasc-check-" + std::to_string(::getpid()));
    try {
      pyasc::Model net = pyasc::Model::fromImage(compiled.model, o->flags.input);
      fs::create_directories(dir / "inputs");
      LegacyRandom gen(o->seed);
      std::string params;
      for (const auto* t : net.inputs()) {
        if (t->role == model::TensorRole::RandomInput) continue;
        NpyArray a = generatedInput(*t, gen);
        writeNpy((dir / "inputs" / (t->name + ".npy")).string(), a);
        net.setInput(t->name, a);
        params += (params.empty() ? "" : ",") + t->name;
      }
      std::string outputs;
      for (const auto* t : net.outputs()) outputs += (outputs.empty() ? "" : ",") + t->name;
      std::string command = std::string(PYASC_PYTHON) + " " + PYASC_SOURCE_DIR + "/tools/pyasc/reference_runner.py" +
                            " --program '" + o->flags.input + "' --outputs '" + outputs + "' --out '" +
                            (dir / "numpy").string() + "' --python-path '" + PYASC_SOURCE_DIR + "/python'" +
                            " --unseeded-seed " + std::to_string(pyasc::Model::kUnseededSeed);
      for (const auto& c : o->flags.consts) command += " --const '" + c + "'";
      for (const auto& op : customOps) command += " --custom-op '" + op.pythonName + "=" + op.implPath + "'";
      if (!o->flags.entry.empty()) {
        command += " --entry '" + o->flags.entry + "' --inputs '" + (dir / "inputs").string() + "' --params '" + params + "'";
      }
      if (std::system(command.c_str()) != 0) {
        if (!o->keep) fs::remove_all(dir);
        return reportError("the program failed under " + std::string(PYASC_PYTHON) + " + NumPy");
      }
      RunResult r = net.run();
      bool ok = true;
      std::printf("%-14s %-9s %-16s %12s %12s %9s\n", "output", "dtype", "shape", "max abs err", "rel err", "tolerance");
      for (const auto& [name, array] : r.outputs) {
        NpyArray ref = readNpy((dir / "numpy" / (name + ".npy")).string());
        std::vector<double> got = asDoubles(array), want = asDoubles(ref);
        if (got.size() != want.size()) {
          std::printf("%-14s NumPy gives %zu elements, the model %zu\n", name.c_str(), want.size(), got.size());
          ok = false;
          continue;
        }
        double maxAbs = 0, num = 0, den = 0;
        for (size_t i = 0; i < got.size(); ++i) {
          double d = got[i] - want[i];
          if (std::isnan(got[i]) != std::isnan(want[i])) d = INFINITY;
          if (std::isnan(got[i]) && std::isnan(want[i])) d = 0;
          maxAbs = std::max(maxAbs, std::fabs(d));
          num += d * d;
          den += want[i] * want[i];
        }
        double rel = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
        double tol = tolerance(array.dtype);
        bool pass = rel <= tol || (tol == 0 && maxAbs == 0);
        ok = ok && pass;
        std::string shape = "[";
        for (size_t i = 0; i < array.shape.size(); ++i) shape += (i ? "," : "") + std::to_string(array.shape[i]);
        shape += "]";
        std::printf("%-14s %-9s %-16s %12.3e %12.3e %9.0e  %s\n", name.c_str(), dtypeName(array.dtype), shape.c_str(),
                    maxAbs, rel, tol, pass ? "ok" : "MISMATCH");
      }
      std::printf("cycles: %llu on %s\n", static_cast<unsigned long long>(r.stats.cycles), net.target().name.c_str());
      if (o->keep) {
        std::printf("kept: %s\n", dir.string().c_str());
      } else {
        fs::remove_all(dir);
      }
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
