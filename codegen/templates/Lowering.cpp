// The program under construction: storages bound to graph values, launches, shared data movements.
#include "codegen/templates/Lowering.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <stdexcept>

#include "codegen/lower/CopyKernel.h"
#include "codegen/lower/ElementwiseKernel.h"
#include "ops/Elementwise.h"

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

std::vector<int64_t> staticShape(const graph::TensorType& t, const SourceLocation& loc) {
  if (!t.ranked) {
    throw CompileError(loc, t.str() + " has no known rank at compile time; declare its shape (--input=NAME:DTYPE[D0,...] "
                                      "or an annotation Tensor[DTYPE, D0, ...])");
  }
  std::vector<int64_t> s;
  for (const auto& d : t.shape) {
    if (!d.isKnown()) {
      throw CompileError(loc, "dimension '" + d.str() + "' of " + t.str() +
                                  " is not known at compile time; give its range with --dynamic-dims (docs/dynamic-shapes.md) or a fixed extent");
    }
    s.push_back(d.extent);
  }
  return s;
}

int64_t product(const std::vector<int64_t>& v, size_t from, size_t to) {
  auto last = v.begin() + static_cast<std::ptrdiff_t>(std::min(to, v.size()));
  auto first = v.begin() + static_cast<std::ptrdiff_t>(std::min(from, v.size()));
  return std::accumulate(first, last, int64_t{1}, std::multiplies<int64_t>());
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
  return s;
}

Lowering::Lowering(const graph::Graph& g, const Target& t, const SelectOptions& o)
    : graph(g), target(t), options(o), classes(g), shapes(g), storage_(g.values.size(), -1) {}

int Lowering::addStorage(Storage s) {
  program.storages.push_back(std::move(s));
  return static_cast<int>(program.storages.size()) - 1;
}

void Lowering::bind(ValueId v, int storage) {
  storage_[static_cast<size_t>(v)] = storage;
  boundTo_[storage].push_back(v);
}

int Lowering::newIntermediate(ValueId v) {
  const graph::Value& val = graph.value(v);
  Storage s;
  s.name = val.name;
  s.dtype = val.type.dtype;
  s.shape = staticShape(val.type, val.loc);
  s.loc = val.loc;
  if (const auto* dims = shapes.dims(v)) s.dims = *dims;
  int id = addStorage(s);
  bind(v, id);
  return id;
}

int Lowering::storageOf(ValueId v, const SourceLocation& loc) {
  if (boundStorage(v) >= 0) return boundStorage(v);
  if (classes.of(v) == ValueClasses::Class::Scalar) {
    // templates declare the inputs they read as arrays (Template::classify), so that fuse-elementwise
    // knows which scalars stay scalars
    throw std::logic_error("'%" + graph.value(v).name + "' is read as an array by a template that did not declare it");
  }
  if (classes.of(v) == ValueClasses::Class::Array && classes.wasScalar(v)) {
    // a scalar constant used where a tensor is needed: give it GM bytes
    const graph::Value& val = graph.value(v);
    const double value = classes.scalar(v);
    int id = constantStorage(val.name, val.type.dtype, staticShape(val.type, val.loc), [value](int64_t) { return value; },
                             loc);
    bind(v, id);
    return id;
  }
  throw CompileError(loc, "a value computed from loop indices alone is array data here, which this operation does not "
                         "take yet; give it an array operand, as in s[i, j] = k + 0 * s[i, j]");
}

int Lowering::dataStorageOf(ValueId v, const graph::Node& n, std::vector<Step>& out) {
  if (boundStorage(v) >= 0 || classes.of(v) != ValueClasses::Class::Counter) return storageOf(v, n.loc);
  ElementwiseCompute c;
  c.name = kernelName("counter");
  c.inputs.push_back(ElementwiseInput{DType::Int32, true, true});
  c.outputs.push_back(ops::castTo(te::placeholder(0, DType::Int32), graph.type(v).dtype));
  c.count = 1;
  c.sourceLine = n.loc.line;
  const int dst = newIntermediate(v);
  locatedAt(n, [&] {
    launch(out, lowerElementwise(c, scheduleElementwise(c, target, false, 1), target), {dst}, {classes.affine(v)});
  });
  return dst;
}

int Lowering::constantStorage(const std::string& name, DType dtype, const std::vector<int64_t>& shape,
                              const std::function<double(int64_t)>& element, const SourceLocation& loc) {
  Storage s;
  s.name = name;
  s.dtype = dtype;
  s.shape = shape;
  s.role = model::TensorRole::Constant;
  const int64_t count = std::max<int64_t>(1, s.elements());
  if (count > graph::kMaxConstantBytes / dtypeSize(dtype)) {
    throw CompileError(loc, "'%" + name + "' would be a constant of " + humanBytes(double(count) * dtypeSize(dtype)) +
                                " in the model; constants hold at most " + humanBytes(double(graph::kMaxConstantBytes)));
  }
  s.constant.reserve(static_cast<size_t>(count * dtypeSize(dtype)));
  std::vector<double> chunk;  // encoded a chunk at a time: doubles of every element would be 8x the bytes
  for (int64_t first = 0; first < count; first += 65536) {
    chunk.clear();
    for (int64_t i = first; i < std::min(count, first + 65536); ++i) chunk.push_back(element(i));
    std::vector<uint8_t> bytes = graph::encodeConstant(dtype, chunk);
    s.constant.insert(s.constant.end(), bytes.begin(), bytes.end());
  }
  return addStorage(s);
}

std::string Lowering::kernelName(const std::string& prefix) const {
  return prefix + "_" + std::to_string(program.kernels.size());
}

void Lowering::launch(std::vector<Step>& out, KernelCode code, std::vector<int> storages,
                      std::vector<model::AffineScalar> scalars) {
  const bool takesExtents = std::any_of(scalars.begin(), scalars.end(), [](const auto& s) { return s.shape != nullptr; });
  for (int st : storages) {
    const Storage& s = program.storages[static_cast<size_t>(st)];
    if (!s.dims.empty() && !takesExtents) {
      throw CompileError(s.loc, "kernel '" + code.name + "' would move '" + s.name + "' at its largest shape, but it has dynamic "
                                "dimensions (" + shapes.text(s.dims) + "); compile one model per shape");
    }
  }
  program.kernels.push_back(std::move(code));
  Step step;
  step.launch = Launch{static_cast<int>(program.kernels.size()) - 1, std::move(storages), std::move(scalars)};
  out.push_back(std::move(step));
}

const te::Schedule* Lowering::explicitScheduleOf(const Node& n) {
  if (!options.definitionSchedules) return nullptr;
  for (const auto& h : n.hints) {
    if (h.name != graph::kScheduleHint || !std::holds_alternative<std::string>(h.value)) continue;
    const std::string& text = std::get<std::string>(h.value);
    auto it = explicitSchedules_.find(text);
    if (it == explicitSchedules_.end()) it = explicitSchedules_.emplace(text, te::parseSchedule(text, n.loc.file)).first;
    return &it->second;
  }
  return nullptr;
}

int Lowering::transposeInto(int src, DType t, const std::vector<int64_t>& shape, const std::vector<int64_t>& perm,
                            const Node& n, std::vector<Step>& out) {
  CopyCompute c;
  c.name = kernelName("transpose");
  c.dtype = t;
  std::vector<int64_t> strides = rowMajorStrides(shape);
  for (int64_t p : perm) {
    c.shape.push_back(shape[p]);
    c.srcStrides.push_back(strides[p]);
  }
  c.dstStrides = rowMajorStrides(c.shape);
  c.sourceLine = n.loc.line;
  Storage s;
  s.name = program.storages[src].name + "_t";
  s.dtype = t;
  s.shape = c.shape;
  int dst = addStorage(s);
  launch(out, lowerCopy(c, target, cores(false)), {src, dst});
  return dst;
}

int Lowering::broadcastStorage(int src, std::vector<int64_t> from, const std::vector<int64_t>& to,
                               const std::string& name, const Node& user, std::vector<Step>& out) {
  // leading 1s beyond `to`'s rank read the same elements
  while (from.size() > to.size() && from.front() == 1) from.erase(from.begin());
  if (from.size() > to.size()) throw CompileError(user.loc, "internal error: a broadcast to a shape of lower rank");
  CopyCompute c;
  c.name = kernelName("broadcast");
  c.dtype = program.storages[src].dtype;
  c.shape = to;
  c.dstStrides = rowMajorStrides(to);
  std::vector<int64_t> fromStrides = rowMajorStrides(from);
  c.srcStrides.assign(to.size(), 0);
  for (size_t i = 0; i < from.size(); ++i) {
    size_t j = to.size() - from.size() + i;
    c.srcStrides[j] = from[i] == 1 ? 0 : fromStrides[i];
  }
  c.sourceLine = user.loc.line;
  Storage s;
  s.name = name;
  s.dtype = c.dtype;
  s.shape = to;
  int dst = addStorage(s);
  launch(out, lowerCopy(c, target, cores(false)), {src, dst});
  return dst;
}

void Lowering::copyWhole(int src, int dst, const Node& n, std::vector<Step>& out) {
  CopyCompute c;
  const bool widens = program.storages[src].dtype == DType::Int32 && program.storages[dst].dtype == DType::Int64;
  c.name = kernelName(widens ? "widen" : "copy");
  c.dtype = program.storages[dst].dtype;
  if (widens) {  // sign-extends
    c.dtype = DType::Int32;
    c.toType = DType::Int64;
  }
  c.shape = {program.storages[dst].elements()};
  c.srcStrides = c.dstStrides = {1};
  c.sourceLine = n.loc.line;
  launch(out, lowerCopy(c, target, cores(false)), {src, dst});
}

bool Lowering::takesOver(ValueId v, const Node& n) {
  const int src = storageOf(v, n.loc);
  if (program.storages[src].role != model::TensorRole::Intermediate || classes.readsAhead(v) > 1) return false;
  for (ValueId w : boundTo_[src]) {  // a value since rebound elsewhere no longer shares it
    if (w != v && storage_[static_cast<size_t>(w)] == src && classes.readsAhead(w) > 0) return false;
  }
  return true;
}

int Lowering::writableCopyOf(ValueId base, ValueId result, const Node& n, std::vector<Step>& out) {
  const int src = storageOf(base, n.loc);
  if (classes.readsAhead(base) == 1 && takesOver(base, n)) {
    bind(result, src);
    return src;
  }
  int dst = newIntermediate(result);
  copyWhole(src, dst, n, out);
  return dst;
}

}  // namespace pyasc::codegen
