// Runtime: validates bindings, lays tensors out in simulated GM and walks the execution plan.
#include "runtime/Model.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <memory>

#include "runtime/Progress.h"
#include "sdk/graph/Graph.h"
#include "sdk/model/ModelReader.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/support/Float16.h"
#include "sdk/support/Random.h"
#include "sim/Simulator.h"
#ifdef PYASC_HAVE_CPU_BACKEND
#include "cpu/CpuBackend.h"
#endif

namespace pyasc {

namespace {

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string shapeText(const std::vector<model::Dim>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    s += i ? "," : "";
    s += shape[i].isStatic() ? std::to_string(shape[i].min)
                             : std::to_string(shape[i].min) + "-" + std::to_string(shape[i].max);
  }
  return s + "]";
}

// A float64 or float32 array rounded to `to` (float32 or float16; to nearest, as NumPy's astype):
// the conversion a model makes for an input the program declared float64, or one automatic mixed
// precision takes in float16 (model::Tensor::declared).
NpyArray roundedTo(DType to, const NpyView& v) {
  NpyArray a;
  a.dtype = to;
  a.shape = v.shape;
  int64_t n = 1;
  for (int64_t d : v.shape) n *= d;
  a.data.resize(static_cast<size_t>(n * dtypeSize(to)));
  for (int64_t i = 0; i < n; ++i) {
    double x;
    if (v.dtype == DType::Float64) {
      std::memcpy(&x, v.data + i * sizeof(double), sizeof x);
    } else {
      float f;
      std::memcpy(&f, v.data + i * sizeof(float), sizeof f);
      x = f;
    }
    if (to == DType::Float16) {
      // through float32 first when the program's values are float64, as its astype chain would be
      const uint16_t h = doubleToHalf(v.dtype == DType::Float64 ? static_cast<double>(static_cast<float>(x)) : x);
      std::memcpy(a.data.data() + i * 2, &h, 2);
    } else {
      const float f = static_cast<float>(x);
      std::memcpy(a.data.data() + i * sizeof(float), &f, sizeof f);
    }
  }
  return a;
}

[[noreturn]] void fail(const std::string& where, const std::string& message) {
  throw CompileError(SourceLocation{where, 0, 0}, message);
}

// A while loop about to start a trip beyond its limit (the limit bounds the values it counts).
[[noreturn]] void whileTripLimit(const model::Model& image, const model::PlanStep& step) {
  const std::string file = image.kernels.empty() ? std::string() : image.kernels[0].sourceFile;
  throw CompileError(SourceLocation{file, static_cast<int>(step.sourceLine), 0}, graph::whileTripLimitMessage(step.tripCount));
}

}  // namespace

Model Model::load(const std::string& path) {
  model::Model image = model::readModel(path);
  return fromImage(std::move(image), path);
}

Model Model::fromImage(model::Model image, const std::string& name) {
  Model m;
  m.target_ = loadTarget(image.target);
  m.image_ = std::move(image);
  m.name_ = name;
  if (m.image_.memory.gmPeakBytes > m.target_.deviceMemory) {
    fail(name, "model needs " + humanBytes(static_cast<double>(m.image_.memory.gmPeakBytes)) +
                   " of device memory, target '" + m.target_.name + "' has " +
                   humanBytes(static_cast<double>(m.target_.deviceMemory)));
  }
  return m;
}

std::vector<const model::Tensor*> Model::inputs() const {
  std::vector<const model::Tensor*> r;
  for (const auto& t : image_.tensors)
    if (t.role == model::TensorRole::Input || t.role == model::TensorRole::RandomInput) r.push_back(&t);
  return r;
}

std::vector<const model::Tensor*> Model::outputs() const {
  std::vector<const model::Tensor*> r;
  for (const auto& t : image_.tensors)
    if (t.role == model::TensorRole::Output) r.push_back(&t);
  return r;
}

void Model::setInput(const std::string& name, NpyArray array) {
  const model::Tensor& t = checkInput(name, array.dtype, array.shape);
  if (!t.dims.empty()) setInputShape(name, array.shape);
  if (array.dtype != t.dtype) array = roundedTo(t.dtype, NpyView::of(array));
  converted_.erase(name);
  NpyArray& held = bound_[name] = std::move(array);
  views_[name] = NpyView::of(held);
}

void Model::setInputView(const std::string& name, const NpyView& view) {
  const model::Tensor& t = checkInput(name, view.dtype, view.shape);
  if (!t.dims.empty()) setInputShape(name, view.shape);
  bound_.erase(name);
  converted_.erase(name);
  if (view.dtype != t.dtype) {
    NpyArray& copy = converted_[name] = roundedTo(t.dtype, view);
    views_[name] = NpyView::of(copy);
    return;
  }
  views_[name] = view;
}

void Model::forgetInputViews() {
  for (auto it = views_.begin(); it != views_.end();) it = bound_.count(it->first) ? std::next(it) : views_.erase(it);
  converted_.clear();
}

const model::Tensor& Model::checkInput(const std::string& name, DType dtype, const std::vector<int64_t>& shape) const {
  const model::Tensor* t = nullptr;
  for (const auto& in : image_.tensors)
    if ((in.role == model::TensorRole::Input || in.role == model::TensorRole::RandomInput) && in.name == name) t = &in;
  if (!t) {
    std::string names;
    for (const auto* in : inputs()) names += (names.empty() ? "" : ", ") + in->name;
    fail(name_, "model has no input '" + name + "' (inputs: " + (names.empty() ? "none" : names) + ")");
  }
  if (dtype != t->dtype && dtype != t->declared) {
    const std::string declared = t->declared ? std::string(" (or ") + dtypeName(*t->declared) + ", which it rounds)" : "";
    fail(name_, "input '" + name + "' must be " + dtypeName(t->dtype) + declared + ", got " + dtypeName(dtype));
  }
  bool ok = shape.size() == t->shape.size();
  for (size_t i = 0; ok && i < shape.size(); ++i) ok = shape[i] >= t->shape[i].min && shape[i] <= t->shape[i].max;
  if (!ok && !t->dims.empty()) {
    fail(name_, "input '" + name + "' takes shapes " + shapeText(t->shape) + " (the ranges it was compiled for), not " +
                    shapeText(shape));
  }
  if (!ok) fail(name_, "input '" + name + "' must have shape " + shapeText(t->shape) + ", got " + shapeText(shape));
  return *t;
}

void Model::setInputShape(const std::string& name, const std::vector<int64_t>& shape) {
  const model::Tensor* t = nullptr;
  for (const auto* in : inputs())
    if (in->name == name) t = in;
  if (!t) fail(name_, "model has no input '" + name + "'");
  if (t->isStatic()) {
    if (shapeText(shape) != shapeText(t->shape))
      fail(name_, "input '" + name + "' has the static shape " + shapeText(t->shape) + ", not " + shapeText(shape));
    return;
  }
  if (t->dims.empty()) {
    fail(name_, "input '" + name + "' has dynamic dimensions " + shapeText(t->shape) +
                    " but the model names no symbols for them (it was not compiled with --dynamic-dims)");
  }
  bool ok = shape.size() == t->shape.size();
  for (size_t i = 0; ok && i < shape.size(); ++i) ok = shape[i] >= t->shape[i].min && shape[i] <= t->shape[i].max;
  if (!ok) {
    fail(name_, "input '" + name + "' takes shapes " + shapeText(t->shape) + " (the ranges it was compiled for), not " +
                    shapeText(shape));
  }
  if (symbols_.empty()) {
    symbols_.assign(image_.symbols.size(), 0);
    symbolSources_.assign(image_.symbols.size(), "");
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    const ShapeExpr& e = t->dims[d];
    if (e->op != ShapeOp::Symbol) continue;
    symbols_[static_cast<size_t>(e->value)] = shape[d];
    symbolSources_[static_cast<size_t>(e->value)] = "input '" + name + "' dimension " + std::to_string(d);
  }
}

std::vector<int64_t> Model::boundShape(const model::Tensor& t) const {
  std::vector<int64_t> shape;
  if (t.dims.empty()) {
    for (const auto& d : t.shape) shape.push_back(d.max);
    return shape;
  }
  for (size_t i = 0; i < image_.symbols.size(); ++i) {
    const bool read = std::any_of(t.dims.begin(), t.dims.end(), [&](const ShapeExpr& d) { return shape::reads(d, static_cast<int>(i)); });
    if (read && (symbols_.empty() || symbols_[i] == 0)) {
      std::string inputs;
      for (const auto* in : this->inputs())
        for (const auto& d : in->dims)
          if (shape::reads(d, static_cast<int>(i)) && inputs.find("'" + in->name + "'") == std::string::npos)
            inputs += std::string(inputs.empty() ? "" : " or ") + "'" + in->name + "'";
      fail(name_, "dynamic dimension " + image_.symbols[i].name + " has no value: bind input " + inputs +
                      " or set its shape");
    }
  }
  // a validated model keeps extents in their ranges; a damaged one is refused before it runs
  int64_t bytes = dtypeSize(t.dtype);
  for (size_t d = 0; d < t.dims.size(); ++d) {
    int64_t v = -1;
    try {
      v = shape::evaluate(t.dims[d], symbols_.empty() ? std::vector<int64_t>(image_.symbols.size(), 0) : symbols_);
    } catch (const std::domain_error&) {
    }
    if (v < t.shape[d].min || v > t.shape[d].max || v > t.gmSize / bytes) {
      fail(name_, "the model is damaged: tensor '" + t.name + "' dimension " + std::to_string(d) +
                      " leaves its range at this binding");
    }
    bytes *= std::max<int64_t>(v, 1);
    shape.push_back(v);
  }
  if (bytes > t.gmSize) fail(name_, "the model is damaged: tensor '" + t.name + "' outgrows its " + std::to_string(t.gmSize) + " GM bytes");
  return shape;
}

void Model::checkBoundShapes() const {
  if (!image_.isDynamic()) return;
  for (const auto* t : inputs()) {
    const std::vector<int64_t> expected = boundShape(*t);
    const std::vector<int64_t>& got = views_.at(t->name).shape;
    if (got == expected) continue;
    std::string why;
    for (size_t d = 0; d < t->dims.size() && d < got.size(); ++d) {
      const ShapeExpr& e = t->dims[d];
      if (e->op == ShapeOp::Symbol && got[d] != expected[d]) {
        why = ": dimension " + std::to_string(d) + " is " + image_.symbols[static_cast<size_t>(e->value)].name + ", which " +
              symbolSources_[static_cast<size_t>(e->value)] + " set to " + std::to_string(expected[d]);
        break;
      }
    }
    fail(name_, "input '" + t->name + "' is bound to an array of shape " + shapeText(got) + ", not " +
                    shapeText(expected) + why);
  }
}

std::vector<std::pair<std::string, NpyArray>> Model::randomInputs() const {
  // every stream replays its random inputs in draw order from one generator
  std::map<uint32_t, std::vector<const model::Tensor*>> streams;
  for (const auto& t : image_.tensors)
    if (t.role == model::TensorRole::RandomInput) streams[t.random.stream].push_back(&t);
  std::map<std::string, NpyArray> byName;
  for (auto& [stream, tensors] : streams) {
    std::stable_sort(tensors.begin(), tensors.end(),
                     [](const model::Tensor* a, const model::Tensor* b) { return a->random.offset < b->random.offset; });
    LegacyRandom gen(tensors.front()->random.seeded ? tensors.front()->random.seed : kUnseededSeed);
    int64_t drawn = 0;
    for (const auto* t : tensors) {
      for (; drawn < t->random.offset; ++drawn) gen.randomSample();  // draws nothing kept
      NpyArray a;
      a.dtype = t->dtype;
      for (const auto& d : t->shape) a.shape.push_back(d.max);
      int64_t n = a.elementCount();
      a.data.resize(static_cast<size_t>(n * dtypeSize(t->dtype)));
      for (int64_t i = 0; i < n; ++i) {
        double v = t->random.distribution == model::RandomDistribution::Normal ? gen.standardNormal() : gen.randomSample();
        uint8_t* p = a.data.data() + i * dtypeSize(t->dtype);
        if (t->dtype == DType::Float64) {
          std::memcpy(p, &v, 8);
        } else {  // float32, or float16 through float32 as the program's astype chain
          float f = static_cast<float>(v);
          if (t->random.scale != 1.0) f = f * static_cast<float>(t->random.scale);
          if (t->random.shift != 0.0) f = f + static_cast<float>(t->random.shift);
          if (t->dtype == DType::Float16) {
            uint16_t h = doubleToHalf(f);
            std::memcpy(p, &h, 2);
          } else {
            std::memcpy(p, &f, 4);
          }
        }
      }
      drawn += n;
      byName[t->name] = std::move(a);
    }
  }
  std::vector<std::pair<std::string, NpyArray>> result;
  for (const auto& t : image_.tensors)
    if (t.role == model::TensorRole::RandomInput) result.emplace_back(t.name, byName.at(t.name));
  return result;
}

namespace {

// Runs plan steps on the device, evaluating affine scalar arguments against loop counters.
struct PlanRunner {
  const model::Model& image;
  const std::vector<int64_t>& symbols;  // the bound dynamic dimensions (empty in a static model)
  sim::Device& device;
  const RunOptions& options;
  RunStats& stats;
  std::vector<sim::Kernel> kernels;
  std::map<uint32_t, int64_t> inductionValues;
  ProgressLine* progress = nullptr;

  void run(const std::vector<model::PlanStep>& steps) {
    for (const auto& step : steps) {
      if (step.kind == model::StepKind::Loop) {
        for (int64_t i = 0; i < step.tripCount; ++i) {
          inductionValues[step.inductionVar] = i;
          run(step.body);
        }
        inductionValues.erase(step.inductionVar);
        continue;
      }
      if (step.kind == model::StepKind::While) {
        const int64_t condition = image.tensors.at(step.condition).gmOffset;
        for (int64_t i = 0; device.gm()[condition] != 0; ++i) {
          if (i == step.tripCount) whileTripLimit(image, step);
          inductionValues[step.inductionVar] = i;
          run(step.body);
        }
        inductionValues.erase(step.inductionVar);
        continue;
      }
      const model::KernelImage& k = image.kernels.at(step.kernel);
      sim::LaunchOptions launch;
      launch.blockDim = static_cast<int>(k.blockDim);
      launch.sanitize = options.sanitize;
      for (uint32_t t : step.tensorArgs) launch.args.push_back(static_cast<uint64_t>(image.tensors.at(t).gmOffset));
      for (const auto& s : step.scalarArgs) {
        int64_t v = s.base;
        for (const auto& term : s.terms) v += term.coeff * inductionValues.at(term.inductionVar);
        if (s.shape) v += shape::evaluate(s.shape, symbols);  // validated: no overflow over the ranges
        launch.args.push_back(static_cast<uint64_t>(v));
      }
      if (progress) {
        uint64_t number = stats.launches + 1;
        launch.coreDone = [this, &k, number, cores = launch.blockDim](int done) {
          progress->update(k.name, number, done, cores);
        };
        progress->update(k.name, number, 0, launch.blockDim);
      }
      sim::LaunchStats ls = device.launch(kernels.at(step.kernel), launch);
      stats.cycles += ls.cycles;
      for (int p = 0; p < isa::kPipeCount; ++p) {
        stats.busyCycles[p] += ls.pipes[p].busyCycles;
        stats.instructions[p] += ls.pipes[p].instructions;
      }
      stats.vectorLanes += ls.vectorOps;
      stats.gmCycles += ls.gmCycles;
      for (int p = 0; p < kDmaPathCount; ++p) stats.bytes[p] += ls.bytes[p];
      stats.energyPJ += ls.energyPJ;
      stats.macs += ls.macs;
      stats.launches += 1;
      stats.maxBlockDim = std::max(stats.maxBlockDim, launch.blockDim);
      stats.kernels.at(step.kernel).launches += 1;
      stats.kernels.at(step.kernel).cycles += ls.cycles;
    }
  }
};

// Launches a plan makes: kernel steps, loop bodies times their trip counts; 0 (unknown) when it
// has a while loop.
uint64_t launchCount(const std::vector<model::PlanStep>& steps) {
  uint64_t n = 0;
  for (const auto& step : steps) {
    if (step.kind == model::StepKind::While) return 0;
    if (step.kind == model::StepKind::Launch) {
      ++n;
      continue;
    }
    const uint64_t body = launchCount(step.body);
    if (body == 0 && !step.body.empty()) return 0;
    n += static_cast<uint64_t>(std::max<int64_t>(step.tripCount, 0)) * body;
  }
  return n;
}

}  // namespace

bool parseBackend(const std::string& name, Backend& out) {
  if (name == "sim") out = Backend::Simulator;
  else if (name == "cpu") out = Backend::Cpu;
  else return false;
  return true;
}

bool Model::hasCpuBackend() {
#ifdef PYASC_HAVE_CPU_BACKEND
  return true;
#else
  return false;
#endif
}

void Model::bindRandomAndCheckBound() {
  const std::vector<const model::Tensor*> ins = inputs();
  bool randomUnbound = false;
  for (const auto* t : ins) randomUnbound = randomUnbound || (t->role == model::TensorRole::RandomInput && !views_.count(t->name));
  if (randomUnbound) {
    for (auto& [name, array] : randomInputs()) {
      if (views_.count(name)) continue;
      NpyArray& held = bound_[name] = std::move(array);
      views_[name] = NpyView::of(held);
    }
  }
  if (std::all_of(ins.begin(), ins.end(), [&](const model::Tensor* t) { return views_.count(t->name) > 0; })) return;
  std::vector<const model::Tensor*> unbound;  // every one named at once
  for (const auto* t : ins) {
    if (!views_.count(t->name)) unbound.push_back(t);
  }
  std::string names, binds;
  for (const auto* t : unbound) {
    names += std::string(names.empty() ? "" : ", ") + "'" + t->name + "' (" + dtypeName(t->dtype) + shapeText(t->shape) + ")";
    binds += " --input " + t->name + "=FILE.npy";
  }
  fail(name_, unbound.size() == 1 ? "input " + names + " has no value; bind it with" + binds
                                  : "inputs " + names + " have no value; bind them with" + binds);
}

RunResult Model::runOnCpu() {
#ifdef PYASC_HAVE_CPU_BACKEND
  bindRandomAndCheckBound();
  checkBoundShapes();
  // a dynamic model's graph names its dynamic dimensions: compiled for the current binding, kept
  // while it holds
  std::map<std::string, int64_t> extents;
  for (size_t i = 0; i < image_.symbols.size(); ++i) extents[image_.symbols[i].name] = symbols_.at(i);
  if (!cpuProgram_ || (image_.isDynamic() && cpuSymbols_ != symbols_)) {
    cpuProgram_ = std::make_shared<cpu::GraphProgram>(cpu::GraphProgram::fromText(name_, image_.graph, cpu::kUnrolledTrips, extents));
    cpuInputNames_ = cpuProgram_->inputNames();
    cpuSymbols_ = symbols_;
  }
  // the model's input tensors are the graph's inputs in the same order
  const std::vector<const model::Tensor*> tensors = inputs();
  if (cpuInputNames_.size() != tensors.size()) {
    fail(name_, "the model's graph has " + std::to_string(cpuInputNames_.size()) + " inputs, its tensor table " +
                    std::to_string(tensors.size()));
  }
  for (size_t k = 0; k < tensors.size(); ++k) cpuInputViews_[cpuInputNames_[k]] = views_.at(tensors[k]->name);
  cpu::CpuRunStats stats;
  RunResult result;
  std::vector<std::pair<std::string, NpyArray>> outputs = cpuProgram_->run(cpuInputViews_, &stats);
  for (const auto* t : this->outputs()) {  // in the model's output order
    auto found = std::find_if(outputs.begin(), outputs.end(), [&](const auto& o) { return o.first == t->name; });
    if (found == outputs.end()) fail(name_, "the model's graph has no output '" + t->name + "' (the model is damaged)");
    result.outputs.emplace_back(t->name, std::move(found->second));
  }
  result.stats.cpuCompileMillis = stats.compileMillis;
  result.stats.cpuRunMillis = stats.runMillis;
  result.stats.cpuPipelines = stats.pipelines;
  result.stats.cpuCachedPipelines = stats.cachedPipelines;
  return result;
#else
  fail(name_, "this pyasc was built without the CPU backend (cmake -DPYASC_WITH_CPU=ON); use the simulator");
#endif
}

RunResult Model::run(const RunOptions& options) {
  if (options.backend == Backend::Cpu) return runOnCpu();
  uint64_t gmBytes = static_cast<uint64_t>(std::max<int64_t>(image_.memory.gmPeakBytes, 32));
  sim::Device device(target_, gmBytes);
  if (!options.tracePath.empty()) device.enableTrace();
  for (const auto& t : image_.tensors) {
    bool writable = t.role == model::TensorRole::Output || t.role == model::TensorRole::Intermediate;
    device.addRegion(sim::GmRegion{static_cast<uint64_t>(t.gmOffset), static_cast<uint64_t>(t.gmSize), t.name, writable});
  }
  for (const auto& c : image_.constants) {
    const model::Tensor& t = image_.tensors.at(c.tensor);
    std::memcpy(device.gm() + t.gmOffset, c.bytes.data(), c.bytes.size());
  }
  bindRandomAndCheckBound();
  checkBoundShapes();
  for (const auto* t : inputs()) {
    const NpyView& value = views_.at(t->name);
    int64_t elements = 1;
    for (int64_t d : value.shape) elements *= d;
    std::memcpy(device.gm() + t->gmOffset, value.data, static_cast<size_t>(elements * dtypeSize(value.dtype)));
  }
  RunResult result;
  PlanRunner runner{image_, symbols_, device, options, result.stats, {}, {}};
  for (const auto& k : image_.kernels) {
    runner.kernels.push_back(sim::Kernel{k.name, k.instructions, std::vector<int>(k.sourceLines.begin(), k.sourceLines.end())});
    result.stats.kernels.push_back(KernelStats{k.name, 0, 0});
  }
  std::unique_ptr<ProgressLine> progress;
  if (options.progress) {
    progress = std::make_unique<ProgressLine>(stderr, options.progressTerminal, options.progressAfterSeconds,
                                              launchCount(image_.plan));
    runner.progress = progress.get();
  }
  runner.run(image_.plan);
  progress.reset();
  if (!options.tracePath.empty()) device.writeTrace(options.tracePath);
  for (const auto* t : outputs()) {
    NpyArray a;
    a.dtype = t->dtype;
    a.shape = boundShape(*t);
    const int64_t bytes = a.elementCount() * dtypeSize(t->dtype);
    a.data.assign(device.gm() + t->gmOffset, device.gm() + t->gmOffset + bytes);
    result.outputs.emplace_back(t->name, std::move(a));
  }
  return result;
}

}  // namespace pyasc
