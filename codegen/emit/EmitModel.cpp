// emit-model: the tensor table (with plan-memory's GM placement), kernels with source lines, plan steps.
#include "codegen/emit/EmitModel.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>

#include "codegen/graph/PlanMemory.h"

namespace pyasc::codegen {

namespace {

// `tensorOf[storage]` is the storage's index in the tensor table.
model::PlanStep toPlanStep(const Step& s, const std::vector<uint32_t>& tensorOf) {
  if (s.isLoop) {
    std::vector<model::PlanStep> body;
    for (const auto& b : s.body) body.push_back(toPlanStep(b, tensorOf));
    if (s.condition >= 0) {
      return model::PlanStep::whileLoop(s.tripCount, s.inductionVar, tensorOf[static_cast<size_t>(s.condition)],
                                        static_cast<uint32_t>(s.sourceLine), std::move(body));
    }
    return model::PlanStep::loop(s.tripCount, s.inductionVar, std::move(body));
  }
  std::vector<uint32_t> tensors;
  for (int storage : s.launch.storages) tensors.push_back(tensorOf[static_cast<size_t>(storage)]);
  return model::PlanStep::launch(static_cast<uint32_t>(s.launch.kernel), std::move(tensors), s.launch.scalars);
}

model::RandomSource randomSource(const graph::RandomSpec& r) {
  model::RandomSource s;
  s.distribution = r.distribution == graph::RandomDistribution::Normal ? model::RandomDistribution::Normal
                                                                         : model::RandomDistribution::Uniform;
  s.seeded = r.seeded;
  s.seed = r.seed;
  s.stream = static_cast<uint32_t>(r.stream);
  s.offset = r.offset;
  s.scale = r.scale;
  s.shift = r.shift;
  return s;
}

}  // namespace

model::Model emitModel(const Program& program, const Target& target, const EmitOptions& options) {
  model::Model m;
  m.target = target.name;
  m.flags = options.flags;
  m.memory.gmPeakBytes = program.gmPeakBytes;
  m.symbols = program.symbols;
  // tensor names are unique in a model: inputs and outputs keep theirs, others get a suffix
  std::set<std::string> taken;
  for (const auto& s : program.storages)
    if (s.role != model::TensorRole::Intermediate && s.role != model::TensorRole::Constant) taken.insert(s.name);
  auto uniqueName = [&](const Storage& s) {
    if (s.role != model::TensorRole::Intermediate && s.role != model::TensorRole::Constant) return s.name;
    std::string name = s.name;
    for (int k = 1; taken.count(name); ++k) name = s.name + "_" + std::to_string(k);
    taken.insert(name);
    return name;
  };
  // the tensor table keeps the storages' order, but its outputs come in the program's order (a
  // function's return order), each taking the place of one
  std::vector<size_t> order(program.storages.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<size_t> outputPlaces;
  for (size_t i = 0; i < program.storages.size(); ++i)
    if (program.storages[i].role == model::TensorRole::Output) outputPlaces.push_back(i);
  if (outputPlaces.size() == program.outputs.size()) {
    for (size_t k = 0; k < outputPlaces.size(); ++k) order[outputPlaces[k]] = static_cast<size_t>(program.outputs[k].second);
  }
  std::vector<uint32_t> tensorOf(program.storages.size());
  for (size_t place = 0; place < order.size(); ++place) tensorOf[order[place]] = static_cast<uint32_t>(place);
  for (size_t place = 0; place < order.size(); ++place) {
    const size_t i = order[place];
    const Storage& s = program.storages[i];
    model::Tensor t;
    t.name = uniqueName(s);
    t.dtype = s.dtype;
    for (int64_t d : s.shape) t.shape.push_back(model::Dim::fixed(d));
    if (!s.dims.empty()) {
      std::vector<int64_t> lo, hi;
      for (const auto& sym : program.symbols) {
        lo.push_back(sym.min);
        hi.push_back(sym.max);
      }
      for (size_t d = 0; d < s.dims.size(); ++d)
        t.shape[d] = model::Dim{shape::lowest(s.dims[d], lo, hi), shape::highest(s.dims[d], lo, hi)};
      t.dims = s.dims;
    }
    t.role = s.role;
    t.gmOffset = s.gmOffset;
    t.gmSize = std::max<int64_t>(s.bytes(), 1);
    if (s.role == model::TensorRole::RandomInput) t.random = randomSource(s.random);
    t.declared = s.declared;
    m.tensors.push_back(t);
    if (s.role == model::TensorRole::Constant) m.constants.push_back(model::Constant{static_cast<uint32_t>(place), s.constant});
  }
  for (const auto& k : program.kernels) {
    model::KernelImage img;
    img.name = k.name;
    img.blockDim = static_cast<uint32_t>(k.blockDim);
    img.instructions = k.program;
    img.sourceLines.assign(k.sourceLines.begin(), k.sourceLines.end());
    img.sourceFile = program.sourceFile;
    auto used = [&](isa::Space s) { return k.bufferBytes[static_cast<int>(s)]; };
    img.buffers = model::BufferUsage{used(isa::Space::UB), used(isa::Space::L1), used(isa::Space::L0A),
                                     used(isa::Space::L0B), used(isa::Space::L0C)};
    m.kernels.push_back(std::move(img));
  }
  // tensor and scalar argument counts come from the launches
  for (const auto& step : program.steps) m.plan.push_back(toPlanStep(step, tensorOf));
  std::function<void(const std::vector<Step>&)> counts = [&](const std::vector<Step>& steps) {
    for (const auto& s : steps) {
      if (s.isLoop) {
        counts(s.body);
        continue;
      }
      auto& k = m.kernels[static_cast<size_t>(s.launch.kernel)];
      k.tensorArgCount = static_cast<uint32_t>(s.launch.storages.size());
      k.scalarArgCount = static_cast<uint32_t>(s.launch.scalars.size());
    }
  };
  counts(program.steps);
  return m;
}

std::string printMemoryPlan(const model::Model& m) {
  std::string out = "memory plan: " + std::to_string(m.memory.gmPeakBytes) + " bytes of device memory at the peak\n";
  for (const auto& t : m.tensors) {
    std::string shape;
    for (const auto& d : t.shape) {
      shape += (shape.empty() ? "" : ",") + std::to_string(d.min) + (d.isStatic() ? "" : ".." + std::to_string(d.max));
    }
    out += "  " + gmRangeText(static_cast<int64_t>(t.gmOffset), static_cast<int64_t>(t.gmSize)) + " " + t.name + " " +
           dtypeShortName(t.dtype) + "[" + shape + "] " + model::tensorRoleName(t.role) + "\n";
  }
  return out;
}

}  // namespace pyasc::codegen
