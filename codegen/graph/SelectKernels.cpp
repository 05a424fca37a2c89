// Kernel selection: walks the graph in order, keeps elementwise chains in one fusion group,
// and emits one launch per group, reduction, matmul or data movement; loops become plan loops.
#include "codegen/graph/SelectKernels.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "codegen/lower/ArgReduceKernel.h"
#include "codegen/lower/ConvKernel.h"
#include "codegen/lower/CopyKernel.h"
#include "codegen/lower/ElementwiseKernel.h"
#include "codegen/lower/MatmulKernel.h"
#include "codegen/lower/ReduceKernel.h"
#include "codegen/lower/SoftmaxKernel.h"
#include "codegen/lower/WindowKernel.h"
#include "codegen/loop/LowerCompute.h"
#include "codegen/schedule/PatternSchedules.h"
#include "ops/Elementwise.h"
#include "ops/Matmul.h"
#include "registry/PoolWindow.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

int64_t Storage::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

namespace {

// What a graph value is during selection.
struct ValueInfo {
  enum Kind { Unset, InStorage, ConstScalar, Induction } kind = Unset;
  int storage = -1;
  double scalar = 0;
  model::AffineScalar affine;  // Induction: the value, affine in plan loop counters
};

std::vector<int64_t> staticShape(const graph::TensorType& t, const SourceLocation& loc) {
  std::vector<int64_t> s;
  for (const auto& d : t.shape) {
    if (!d.isKnown()) {
      throw CompileError(loc, "dimension '" + d.str() + "' of " + t.str() +
                                  " is not known at compile time; dynamic shapes are not supported yet");
    }
    s.push_back(d.extent);
  }
  return s;
}

// Product of v[from..to), `to` clamped to the size.
int64_t product(const std::vector<int64_t>& v, size_t from = 0, size_t to = SIZE_MAX) {
  auto last = v.begin() + static_cast<std::ptrdiff_t>(std::min(to, v.size()));
  auto first = v.begin() + static_cast<std::ptrdiff_t>(std::min(from, v.size()));
  return std::accumulate(first, last, int64_t{1}, std::multiplies<int64_t>());
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
  return s;
}

class Selector {
 public:
  Selector(const graph::Graph& g, const Target& t, const SelectOptions& o) : g_(g), target_(t), options_(o) {
    info_.resize(g.values.size());
    countUses(g.body);
    for (const auto& out : g.outputs) ++uses_[out.value];
  }

  Program run() {
    program_.sourceFile = options_.sourceFile;
    for (const auto& in : g_.inputs) {
      const graph::Value& v = g_.value(in.value);
      Storage s;
      s.name = v.name;
      s.dtype = v.type.dtype;
      s.shape = staticShape(v.type, v.loc);
      s.role = in.role == graph::InputRole::Random ? model::TensorRole::RandomInput : model::TensorRole::Input;
      s.loc = v.loc;
      s.random = in.random;
      bind(in.value, addStorage(s));
    }
    for (const auto& c : g_.constants) {
      const graph::Value& v = g_.value(c.value);
      if (v.type.rank() == 0 || graph::elementCount(v.type.shape) == 1) {
        ValueInfo& i = info_[c.value];
        i.kind = ValueInfo::ConstScalar;
        i.scalar = graph::decodeConstant(v.type.dtype, c.bytes).at(0);
        continue;
      }
      Storage s;
      s.name = v.name;
      s.dtype = v.type.dtype;
      s.shape = staticShape(v.type, v.loc);
      s.role = model::TensorRole::Constant;
      s.constant = c.bytes;
      bind(c.value, addStorage(s));
    }
    lowerNodes(g_.body.nodes, program_.steps);
    bindOutputs();
    return std::move(program_);
  }

 private:
  // ---- bookkeeping ----
  void countUses(const graph::Region& r) {
    for (const Node& n : r.nodes) {
      for (ValueId v : n.inputs) ++uses_[v];
      for (const auto& sub : n.regions) countUses(sub);
    }
    for (ValueId v : r.yields) ++uses_[v];
  }

  int addStorage(Storage s) {
    program_.storages.push_back(std::move(s));
    return static_cast<int>(program_.storages.size()) - 1;
  }

  void bind(ValueId v, int storage) {
    info_[v].kind = ValueInfo::InStorage;
    info_[v].storage = storage;
  }

  int newIntermediate(ValueId v) {
    const graph::Value& val = g_.value(v);
    Storage s;
    s.name = val.name;
    s.dtype = val.type.dtype;
    s.shape = staticShape(val.type, val.loc);
    s.loc = val.loc;
    int id = addStorage(s);
    bind(v, id);
    return id;
  }

  int storageOf(ValueId v, const SourceLocation& loc) {
    const ValueInfo& i = info_[v];
    if (i.kind == ValueInfo::InStorage) return i.storage;
    if (i.kind == ValueInfo::ConstScalar) {
      // a scalar constant used where a tensor is needed: give it GM bytes
      const graph::Value& val = g_.value(v);
      int id = constantStorage(val.name, val.type.dtype, staticShape(val.type, val.loc), i.scalar);
      bind(v, id);
      return id;
    }
    throw CompileError(loc, "value '%" + g_.value(v).name + "' (a loop counter) cannot be used as an array here yet");
  }

  // A constant tensor of `shape` (at least one element) filled with `value`.
  int constantStorage(const std::string& name, DType dtype, const std::vector<int64_t>& shape, double value) {
    Storage s;
    s.name = name;
    s.dtype = dtype;
    s.shape = shape;
    s.role = model::TensorRole::Constant;
    s.constant = graph::encodeConstant(dtype, std::vector<double>(static_cast<size_t>(std::max<int64_t>(1, s.elements())), value));
    return addStorage(s);
  }

  void touch(int storage) {
    Storage& s = program_.storages[storage];
    if (s.firstUse < 0) s.firstUse = position_;
    s.lastUse = std::max(s.lastUse, position_);
    for (auto& loop : loopTouched_) loop.insert(storage);
  }

  void launch(std::vector<Step>& out, KernelCode code, std::vector<int> storages, std::vector<model::AffineScalar> scalars = {}) {
    ++position_;
    for (int s : storages) touch(s);
    program_.kernels.push_back(std::move(code));
    Step step;
    step.launch = Launch{static_cast<int>(program_.kernels.size()) - 1, std::move(storages), std::move(scalars)};
    out.push_back(std::move(step));
  }

  int cores(bool cube) const { return std::max(1, cube ? target_.cubeCores : target_.vectorCores); }

  // ---- node dispatch ----
  // Integer arithmetic on loop counters and constants stays affine and needs no kernel:
  // slice offsets such as 32 * i.
  bool foldAffine(const Node& n) {
    if (n.outputs.size() != 1 || countOf(n.outputs[0]) != 1 || !isInteger(g_.type(n.outputs[0]).dtype)) return false;
    std::vector<model::AffineScalar> args;
    bool anyInduction = false;
    for (ValueId v : n.inputs) {
      const ValueInfo& i = info_[v];
      if (i.kind == ValueInfo::Induction) {
        args.push_back(i.affine);
        anyInduction = true;
      } else if (i.kind == ValueInfo::ConstScalar) {
        args.push_back(model::AffineScalar{static_cast<int64_t>(i.scalar), {}});
      } else {
        return false;
      }
    }
    if (!anyInduction) return false;
    auto scaled = [](model::AffineScalar a, int64_t k) {
      a.base *= k;
      for (auto& t : a.terms) t.coeff *= k;
      return a;
    };
    auto sum = [](model::AffineScalar a, const model::AffineScalar& b) {
      a.base += b.base;
      a.terms.insert(a.terms.end(), b.terms.begin(), b.terms.end());
      return a;
    };
    model::AffineScalar r;
    if (n.op == "Add" && args.size() == 2) {
      r = sum(args[0], args[1]);
    } else if (n.op == "Sub" && args.size() == 2) {
      r = sum(args[0], scaled(args[1], -1));
    } else if (n.op == "Neg" && args.size() == 1) {
      r = scaled(args[0], -1);
    } else if (n.op == "Mul" && args.size() == 2 && (args[0].terms.empty() || args[1].terms.empty())) {
      r = args[0].terms.empty() ? scaled(args[1], args[0].base) : scaled(args[0], args[1].base);
    } else if ((n.op == "Cast" || n.op == "Identity") && args.size() == 1) {
      r = args[0];
    } else {
      return false;
    }
    ValueInfo& out = info_[n.outputs[0]];
    out.kind = ValueInfo::Induction;
    out.affine = r;
    return true;
  }

  void lowerNodes(const std::vector<Node>& nodes, std::vector<Step>& out) {
    for (const Node& n : nodes) {
      std::vector<ValueId> values = n.inputs;
      values.insert(values.end(), n.outputs.begin(), n.outputs.end());
      for (ValueId v : values) {
        const int64_t count = graph::elementCount(g_.type(v).shape);
        if (count == 0) {
          throw CompileError(n.loc, "'" + g_.value(v).name + "' has no elements (shape " + graph::shapeString(g_.type(v).shape) +
                                        "); zero-size arrays are not supported on the NPU");
        }
        // an array larger than any device is refused before kernels are generated for it (smaller
        // ones that do not fit this target are the memory plan's to report, with the largest tensors)
        double bytes = dtypeSize(g_.type(v).dtype);  // in floating point: the element count may overflow
        for (const auto& d : g_.type(v).shape) bytes *= static_cast<double>(std::max<int64_t>(d.extent, 0));
        if (bytes > static_cast<double>(kMaxGmBytes)) {
          throw CompileError(n.loc, "MemoryError: Device memory exceeded (requested " + humanBytes(bytes) + " for '" +
                                        g_.value(v).name + "', available " +
                                        humanBytes(static_cast<double>(target_.deviceMemory)) + ")");
        }
      }
      if (foldAffine(n)) {
        for (ValueId v : n.inputs) --uses_[v];
        continue;
      }
      if (ops::isElementwiseOp(n.op) && n.outputs.size() == 1) {
        addToGroup(n, out);
      } else {
        flushGroup(out);
        lowerNodeAt(n, out);
      }
      for (ValueId v : n.inputs) --uses_[v];
    }
    flushGroup(out);
  }

  // Kernel lowerings know only the source line: their errors are reported at the node.
  template <typename Lowering>
  static void locatedAt(const Node& n, Lowering lowering) {
    try {
      lowering();
    } catch (const CompileError& e) {
      if (!e.diagnostic().range.begin.file.empty() || !n.loc.valid()) throw;
      Diagnostic located = e.diagnostic();
      located.range.begin = n.loc;
      throw CompileError(located);
    }
  }
  void lowerNodeAt(const Node& n, std::vector<Step>& out) {
    locatedAt(n, [&] { lowerNode(n, out); });
  }

  void lowerNode(const Node& n, std::vector<Step>& out) {
    const std::string& op = n.op;
    if (op == graph::kLoopOp) return lowerLoop(n, out);
    if (op == "Reshape" || op == "ExpandDims" || op == "Squeeze") return lowerView(n);
    if (op == "ReduceSum" || op == "ReduceMean" || op == "ReduceMax" || op == "ReduceMin" || op == "ReduceProd") {
      return lowerReduce(n, out);
    }
    if (op == "MatMul") return lowerMatmul(n, out);
    if (op == "Softmax" || op == "LogSoftmax" || op == "LayerNorm") return lowerSoftmax(n, out);
    if (op == "ArgMax" || op == "ArgMin") return lowerArgReduce(n, out);
    if (op == "Conv2D") return lowerConv2d(n, out);
    if (op == "Einsum") return lowerEinsum(n, out);
    if (op == "TensorDot") return lowerTensorDot(n, out);
    if (op == "Transpose") return lowerTranspose(n, out);
    if (op == "Slice") return lowerSlice(n, out);
    if (op == "SliceUpdate") return lowerSliceUpdate(n, out);
    if (op == "Concat" || op == "Stack") return lowerConcat(n, out);
    if (op == "BroadcastTo") return lowerBroadcast(n, out);
    if (op == "Pad") return lowerPad(n, out);
    if (op == "Gather") return lowerGather(n, out);
    if (op == "MaxPool2D" || op == "AvgPool2D") return lowerPool2d(n, out);
    if (op == "Fill" || op == "Range") return lowerCreation(n);
    if (op == "Compute") return lowerComputeNode(n, out);
    throw CompileError(n.loc, "operator '" + op + "' has no NPU lowering yet on target '" + target_.name + "'");
  }

  // A te.compute definition through the loop-nest stages (codegen/loop), with the definition's
  // explicit schedule or the default one.
  void lowerComputeNode(const Node& n, std::vector<Step>& out) {
    te::ComputeDef def = te::parseComputeDef(n.stringAttr("compute"));
    def.name += "_" + std::to_string(program_.kernels.size());
    std::vector<int> args;
    for (ValueId v : n.inputs) args.push_back(storageOf(v, n.loc));
    args.push_back(newIntermediate(n.outputs[0]));
    launch(out, lowerCompute(def, explicitScheduleOf(n), target_, n.loc.line, n.loc, options_.observeLoopNest), std::move(args));
  }

  // ---- elementwise fusion ----
  struct Group {
    std::vector<const Node*> nodes;
    int64_t count = -1;
    std::map<ValueId, te::ExprPtr> exprs;  // values computed in the group
    std::vector<ValueId> inputs;           // external values, by placeholder index
    int line = 0;
  };
  Group group_;

  // Graph values, and the broadcast copies selection adds after them.
  const graph::TensorType& typeOf(ValueId v) const {
    auto it = broadcastTypes_.find(v);
    return it != broadcastTypes_.end() ? it->second : g_.type(v);
  }
  int64_t countOf(ValueId v) const { return graph::elementCount(typeOf(v).shape); }

  te::ExprPtr operandExpr(ValueId v, const Node& user, std::vector<Step>& out) {
    auto it = group_.exprs.find(v);
    if (it != group_.exprs.end()) return it->second;
    const ValueInfo& i = info_[v];
    DType t = g_.type(v).dtype;
    if (i.kind == ValueInfo::ConstScalar) return te::constant(i.scalar, t == DType::Bool ? DType::Float16 : t);
    if (i.kind == ValueInfo::Induction) {
      // a loop counter reaches the kernel by value, as a scalar argument
      auto pos = std::find(group_.inputs.begin(), group_.inputs.end(), v);
      int index = static_cast<int>(pos - group_.inputs.begin());
      if (pos == group_.inputs.end()) group_.inputs.push_back(v);
      return te::placeholder(index, DType::Int32);
    }
    int64_t n = countOf(v);
    if (n != 1 && n != group_.count && !isRepeatedRow(v) && !columnStretch(v)) {
      // a broadcast operand: materialise it at the group's shape first
      v = broadcastValue(v, user, out);
    }
    auto pos = std::find(group_.inputs.begin(), group_.inputs.end(), v);
    int index = static_cast<int>(pos - group_.inputs.begin());
    if (pos == group_.inputs.end()) group_.inputs.push_back(v);
    DType gmType = t == DType::Bool ? DType::UInt8 : t;
    te::ExprPtr p = te::placeholder(index, gmType);
    return t == DType::Bool ? ops::castTo(ops::castTo(p, DType::Float16), DType::Bool) : p;
  }

  // The schedule a custom operator's definition gave for the kernel computing `n` (its "schedule"
  // hint, parsed once), or null.
  const Schedule* explicitScheduleOf(const Node& n) {
    if (!options_.definitionSchedules) return nullptr;
    for (const auto& h : n.hints) {
      if (h.name != graph::kScheduleHint || !std::holds_alternative<std::string>(h.value)) continue;
      const std::string& text = std::get<std::string>(h.value);
      auto it = explicitSchedules_.find(text);
      if (it == explicitSchedules_.end()) it = explicitSchedules_.emplace(text, te::parseSchedule(text, n.loc.file)).first;
      return &it->second;
    }
    return nullptr;
  }
  std::map<std::string, Schedule> explicitSchedules_;

  // Whether the group with `n` added still fits a kernel's arguments: its inputs, and at most every
  // group value still read later (an output) plus n's result.
  bool argumentsFit(const Node& n) const {
    size_t args = group_.inputs.size() + 1;
    for (ValueId v : n.inputs) {
      bool external = !group_.exprs.count(v) && info_[v].kind != ValueInfo::ConstScalar;
      if (external && std::find(group_.inputs.begin(), group_.inputs.end(), v) == group_.inputs.end()) ++args;
    }
    for (const auto& [v, e] : group_.exprs) {
      auto it = uses_.find(v);
      if (it != uses_.end() && it->second > 0) ++args;
    }
    return args <= static_cast<size_t>(KernelBuilder::kMaxArgs);
  }

  void addToGroup(const Node& n, std::vector<Step>& out) {
    ValueId result = n.outputs[0];
    std::vector<int64_t> shape = staticShape(g_.type(result), n.loc);
    int64_t count = product(shape);
    bool internalBroadcast = false;
    for (ValueId v : n.inputs) {
      if (group_.exprs.count(v) && countOf(v) != count) internalBroadcast = true;
    }
    if (!group_.nodes.empty() &&
        (count != group_.count || internalBroadcast || !options_.fuseElementwise || !argumentsFit(n))) {
      flushGroup(out);
    }
    if (group_.nodes.empty()) {
      group_.count = count;
      groupShape_ = shape;
      group_.line = n.loc.line;
    }
    std::vector<te::ExprPtr> args;
    for (ValueId v : n.inputs) args.push_back(operandExpr(v, n, out));
    std::string error;
    te::ExprPtr e = ops::elementwiseExpr(n, args, g_.type(result).dtype, error);
    if (!e) throw CompileError(n.loc, error + " (target '" + target_.name + "')");
    group_.exprs[result] = e;
    group_.nodes.push_back(&n);
  }

  std::vector<int64_t> groupShape_;

  void flushGroup(std::vector<Step>& out) {
    if (group_.nodes.empty()) return;
    Group g = std::move(group_);
    group_ = Group{};
    // a value leaves the group when something after the group still reads it
    std::vector<ValueId> results;
    for (const Node* n : g.nodes)
      if (uses_[n->outputs[0]] > 0) results.push_back(n->outputs[0]);
    if (results.empty()) return;
    ElementwiseCompute c;
    c.name = "elementwise_" + std::to_string(program_.kernels.size());
    c.count = g.count;
    c.sourceLine = g.line;
    std::vector<int> args;
    std::vector<model::AffineScalar> scalars;
    for (ValueId v : g.inputs) {
      if (info_[v].kind == ValueInfo::Induction) {
        c.inputs.push_back(ElementwiseInput{DType::Int32, true, true});
        scalars.push_back(info_[v].affine);
        continue;
      }
      DType t = typeOf(v).dtype;
      int64_t n = countOf(v);
      const bool broadcast = n != 1 && n != g.count;
      const int64_t stretch = broadcast ? columnStretch(v) : 0;
      c.inputs.push_back(ElementwiseInput{t == DType::Bool ? DType::UInt8 : t, n == 1 && g.count != 1, false,
                                          broadcast && !stretch ? n : 0, stretch});
      args.push_back(storageOf(v, g.nodes.front()->loc));
    }
    for (ValueId v : results) {
      te::ExprPtr e = g.exprs.at(v);
      DType t = g_.type(v).dtype;
      if (t == DType::Bool) e = ops::castTo(ops::castTo(e, DType::Float16), DType::UInt8);
      c.outputs.push_back(e);
      args.push_back(newIntermediate(v));
    }
    locatedAt(*g.nodes.front(), [&] {
      ElementwiseSchedule s = scheduleElementwise(c, target_, options_.doubleBuffer, cores(false));
      for (const Node* n : g.nodes)
        if (const Schedule* explicitSchedule = explicitScheduleOf(*n)) s = replayElementwise(*explicitSchedule, c, s, target_, cores(false));
      KernelCode code = lowerElementwise(c, s, target_);
      code.schedule = elementwiseTrace(c, s).str();
      launch(out, std::move(code), args, scalars);
    });
  }

  // Whether `v` broadcasts to the group's shape as whole trailing rows (its shape, leading 1s aside,
  // is the group's last dimensions), so the kernel repeats it in UB instead of a copy kernel
  // materialising it.
  bool isRepeatedRow(ValueId v) const {
    std::vector<int64_t> from;
    for (const auto& d : typeOf(v).shape) from.push_back(d.extent);
    while (!from.empty() && from.front() == 1) from.erase(from.begin());
    const std::vector<int64_t>& to = groupShape_;
    if (from.empty() || from.size() > to.size() || !std::equal(from.begin(), from.end(), to.end() - static_cast<long>(from.size()))) {
      return false;
    }
    DType t = typeOf(v).dtype;
    return t != DType::Bool && rowBroadcastFits(countOf(v), t);
  }

  // How many times each element of `v` repeats when it broadcasts to the group's shape as a column
  // (its shape is the group's leading dimensions followed by 1s), if the kernel can stretch it in UB;
  // else 0.
  int64_t columnStretch(ValueId v) const {
    std::vector<int64_t> from;
    for (const auto& d : typeOf(v).shape) from.push_back(d.extent);
    const std::vector<int64_t>& to = groupShape_;
    if (from.size() > to.size()) return 0;
    from.insert(from.begin(), to.size() - from.size(), 1);
    size_t kept = 0;
    while (kept < to.size() && from[kept] == to[kept]) ++kept;
    if (kept == to.size()) return 0;
    for (size_t i = kept; i < to.size(); ++i)
      if (from[i] != 1) return 0;
    int64_t stretch = product(to, kept);
    DType t = typeOf(v).dtype;
    return t != DType::Bool && columnBroadcastFits(stretch, t) ? stretch : 0;
  }

  // Copies `v` broadcast to the current group's shape into a new storage; returns the new value.
  ValueId broadcastValue(ValueId v, const Node& user, std::vector<Step>& out) {
    const std::vector<int64_t>& to = groupShape_;
    int dst = broadcastStorage(storageOf(v, user.loc), staticShape(g_.type(v), user.loc), to,
                               g_.value(v).name + "_broadcast", user, out);
    ValueId id = static_cast<ValueId>(info_.size());
    info_.push_back(ValueInfo{ValueInfo::InStorage, dst, 0, {}});
    broadcastTypes_[id] = graph::TensorType{program_.storages[dst].dtype, graph::knownShape(to), graph::Layout::ND};
    return id;
  }

  // A new storage `name` holding `src` (of shape `from`) broadcast to `to` by NumPy's rules.
  int broadcastStorage(int src, const std::vector<int64_t>& from, const std::vector<int64_t>& to, const std::string& name,
                       const Node& user, std::vector<Step>& out) {
    CopyCompute c;
    c.name = "broadcast_" + std::to_string(program_.kernels.size());
    c.dtype = program_.storages[src].dtype;
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
    launch(out, lowerCopy(c, target_, cores(false)), {src, dst});
    return dst;
  }
  std::map<ValueId, graph::TensorType> broadcastTypes_;

  // ---- other patterns ----
  void lowerView(const Node& n) {
    ValueId in = n.inputs[0], res = n.outputs[0];
    if (info_[in].kind == ValueInfo::ConstScalar) {
      info_[res] = info_[in];
      return;
    }
    bind(res, storageOf(in, n.loc));
  }

  void lowerCreation(const Node& n) {
    ValueId res = n.outputs[0];
    const graph::TensorType& t = g_.type(res);
    std::vector<int64_t> shape = staticShape(t, n.loc);
    std::vector<double> values(static_cast<size_t>(product(shape)));
    if (n.op == "Fill") {
      std::fill(values.begin(), values.end(), n.floatAttr("value"));
    } else {
      double start = n.floatAttr("start"), step = n.floatAttr("step");
      for (size_t i = 0; i < values.size(); ++i) values[i] = start + step * static_cast<double>(i);
    }
    if (values.size() == 1) {
      info_[res].kind = ValueInfo::ConstScalar;
      info_[res].scalar = values[0];
      return;
    }
    Storage s;
    s.name = g_.value(res).name;
    s.dtype = t.dtype;
    s.shape = shape;
    s.role = model::TensorRole::Constant;
    s.constant = graph::encodeConstant(t.dtype, values);
    bind(res, addStorage(s));
  }

  std::vector<int64_t> normalizedAxes(const Node& n, size_t rank) {
    std::vector<int64_t> axes;
    if (n.hasAttr("axes")) {
      for (int64_t a : n.intListAttr("axes")) axes.push_back(a < 0 ? a + static_cast<int64_t>(rank) : a);
    } else {
      axes.resize(rank);
      std::iota(axes.begin(), axes.end(), 0);
    }
    std::sort(axes.begin(), axes.end());
    return axes;
  }

  void lowerReduce(const Node& n, std::vector<Step>& out) {
    ValueId in = n.inputs[0], res = n.outputs[0];
    // the kernel's type: the input's; an int32 sum accumulates in int32 (exact while the partial
    // sums fit) and widens to NumPy's int64 at the end
    DType t = g_.type(in).dtype, resType = g_.type(res).dtype;
    bool floats = (t == DType::Float16 || t == DType::Float32) && resType == t;
    bool ints = t == DType::Int32 && ((n.op == "ReduceSum" && resType == DType::Int64) ||
                                      ((n.op == "ReduceMax" || n.op == "ReduceMin") && resType == t));
    if (!floats && !ints) {
      throw CompileError(n.loc, std::string("reduction '") + n.op + "' from " + dtypeName(t) + " to " + dtypeName(resType) +
                                    " is not supported on the NPU yet (float16 and float32 are; int32 sums, maxima and "
                                    "minima)");
    }
    std::vector<int64_t> shape = staticShape(g_.type(in), n.loc);
    std::vector<int64_t> axes = normalizedAxes(n, shape.size());
    int src = storageOf(in, n.loc);
    if (shape.empty()) shape = {1};
    if (axes.empty()) axes = {0};
    bool contiguous = axes.back() - axes.front() + 1 == static_cast<int64_t>(axes.size());
    if (!contiguous) {
      // move the reduced axes to the end with a transpose, then reduce the trailing block
      std::vector<int64_t> perm;
      for (size_t i = 0; i < shape.size(); ++i)
        if (!std::binary_search(axes.begin(), axes.end(), static_cast<int64_t>(i))) perm.push_back(static_cast<int64_t>(i));
      for (int64_t a : axes) perm.push_back(a);
      src = transposeInto(src, t, shape, perm, n, out);
      std::vector<int64_t> permuted;
      for (int64_t p : perm) permuted.push_back(shape[p]);
      shape = permuted;
      int64_t first = static_cast<int64_t>(shape.size() - axes.size());
      for (size_t i = 0; i < axes.size(); ++i) axes[i] = first + static_cast<int64_t>(i);
    }
    ReduceCompute r;
    r.name = "reduce_" + std::to_string(program_.kernels.size());
    r.kind = n.op == "ReduceSum" ? ReduceKind::Sum : n.op == "ReduceMean" ? ReduceKind::Mean
             : n.op == "ReduceMax" ? ReduceKind::Max : n.op == "ReduceProd" ? ReduceKind::Prod : ReduceKind::Min;
    r.dtype = t;
    r.outer = product(shape, 0, static_cast<size_t>(axes.front()));
    r.reduce = product(shape, static_cast<size_t>(axes.front()), static_cast<size_t>(axes.back() + 1));
    r.inner = product(shape, static_cast<size_t>(axes.back() + 1));
    r.sourceLine = n.loc.line;
    std::vector<int64_t> stages = planReduceStages(r, target_, cores(false));
    for (size_t i = 0; i + 1 < stages.size(); ++i) {
      // [outer, m·k, inner] → [outer·k, inner]: partial results in a scratch tensor
      ReduceCompute stage = r;
      stage.name = "reduce_" + std::to_string(program_.kernels.size());
      stage.reduce = stages[i];
      stage.outer = r.outer * (r.reduce / stages[i]);
      Storage partial;
      partial.name = program_.storages[src].name + "_partial";
      partial.dtype = t;
      partial.shape = {stage.outer, r.inner};
      int dst = addStorage(partial);
      ReduceSchedule stageSchedule = scheduleReduce(stage, target_, cores(false));
      KernelCode code = codegen::lowerReduce(stage, stageSchedule, target_);
      code.schedule = reduceTrace(stage, stageSchedule).str();
      launch(out, std::move(code), {src, dst});
      src = dst;
      r.reduce /= stages[i];
      r.name = "reduce_" + std::to_string(program_.kernels.size());
    }
    ReduceSchedule s = scheduleReduce(r, target_, cores(false));
    if (const Schedule* explicitSchedule = explicitScheduleOf(n)) s = replayReduce(*explicitSchedule, r, s, target_, cores(false));
    int dst = newIntermediate(res);
    KernelCode code = codegen::lowerReduce(r, s, target_);
    code.schedule = reduceTrace(r, s).str();
    if (resType == t) {
      launch(out, std::move(code), {src, dst});
      return;
    }
    Storage narrow;
    narrow.name = g_.value(res).name + "_" + dtypeName(t);
    narrow.dtype = t;
    narrow.shape = {r.outer * r.inner};
    int sums = addStorage(narrow);
    launch(out, std::move(code), {src, sums});
    CopyCompute widen;
    widen.name = "widen_" + std::to_string(program_.kernels.size());
    widen.dtype = t;
    widen.toType = resType;
    widen.shape = narrow.shape;
    widen.srcStrides = widen.dstStrides = {1};
    widen.sourceLine = n.loc.line;
    launch(out, lowerCopy(widen, target_, cores(false)), {sums, dst});
  }

  void lowerConv2d(const Node& n, std::vector<Step>& out) {
    ValueId x = n.inputs[0], w = n.inputs[1], res = n.outputs[0];
    std::vector<int64_t> sx = staticShape(g_.type(x), n.loc), sw = staticShape(g_.type(w), n.loc);
    DType in = g_.type(x).dtype;
    if (g_.type(w).dtype != in || !(in == DType::Float16 || in == DType::Float32)) {
      throw CompileError(n.loc, std::string("conv2d of ") + dtypeName(in) + " and " + dtypeName(g_.type(w).dtype) +
                                    " is not supported by the cube unit yet (float16 or float32 on both sides)");
    }
    Conv2dCompute c;
    c.name = "conv2d_" + std::to_string(program_.kernels.size());
    c.inType = in;
    c.outType = g_.type(res).dtype;
    c.nchw = n.stringAttr("layout", "NHWC") == "NCHW";
    c.n = sx[0];
    c.h = sx[c.nchw ? 2 : 1];
    c.w = sx[c.nchw ? 3 : 2];
    c.cin = sx[c.nchw ? 1 : 3];
    c.kh = sw[c.nchw ? 2 : 0];
    c.kw = sw[c.nchw ? 3 : 1];
    c.cout = sw[c.nchw ? 0 : 3];
    std::vector<int64_t> strides = n.intListAttr("strides"), pads = n.intListAttr("pads"), dil = n.intListAttr("dilations");
    c.strideH = strides[0];
    c.strideW = strides[1];
    c.padTop = pads[0];
    c.padBottom = pads[1];
    c.padLeft = pads[2];
    c.padRight = pads[3];
    c.dilationH = dil[0];
    c.dilationW = dil[1];
    c.groups = n.intAttr("groups", 1);
    c.sourceLine = n.loc.line;
    Conv2dSchedule schedule = scheduleConv2d(c, target_, cores(true));
    Conv2dLaunches plan = lowerConv2dLaunches(c, schedule, target_);
    for (auto& l : plan.launches)
      if (l.code.name == c.name) l.code.schedule = conv2dTrace(c, schedule).str();
    std::map<Conv2dTensor, int> tensors = {
        {Conv2dTensor::Input, storageOf(x, n.loc)}, {Conv2dTensor::Weights, storageOf(w, n.loc)},
        {Conv2dTensor::Output, newIntermediate(res)}};
    for (const auto& scratch : plan.scratch) {
      Storage s;
      s.name = g_.value(res).name + "_nhwc";
      s.dtype = scratch.tensor == Conv2dTensor::OutputNhwc ? c.outType : c.inType;
      s.shape = {scratch.bytes / dtypeSize(s.dtype)};
      s.loc = n.loc;
      tensors[scratch.tensor] = addStorage(s);
    }
    for (auto& l : plan.launches) {
      std::vector<int> args;
      for (Conv2dTensor t : l.args) args.push_back(tensors.at(t));
      launch(out, std::move(l.code), args);
    }
  }

  void lowerArgReduce(const Node& n, std::vector<Step>& out) {
    ValueId in = n.inputs[0], res = n.outputs[0];
    DType t = g_.type(in).dtype;
    if (!(t == DType::Float16 || t == DType::Float32 || t == DType::Int32) || g_.type(res).dtype != DType::Int64) {
      throw CompileError(n.loc, std::string(n.op == "ArgMax" ? "argmax" : "argmin") + " of " + dtypeName(t) +
                                    " is not supported on the NPU yet (float16, float32 and int32 are)");
    }
    std::vector<int64_t> shape = staticShape(g_.type(in), n.loc);
    ArgReduceCompute c;
    c.name = (n.op == "ArgMax" ? "argmax_" : "argmin_") + std::to_string(program_.kernels.size());
    c.argmin = n.op == "ArgMin";
    c.dtype = t;
    if (n.hasAttr("axis")) {
      int64_t axis = n.intAttr("axis");
      if (axis < 0) axis += static_cast<int64_t>(shape.size());
      c.outer = product(shape, 0, static_cast<size_t>(axis));
      c.reduce = shape[static_cast<size_t>(axis)];
      c.inner = product(shape, static_cast<size_t>(axis) + 1);
    } else {
      c.reduce = product(shape);
    }
    c.sourceLine = n.loc.line;
    int src = storageOf(in, n.loc);
    int dst = newIntermediate(res);
    launch(out, codegen::lowerArgReduce(c, target_, cores(false)), {src, dst});
  }

  int transposeInto(int src, DType t, const std::vector<int64_t>& shape, const std::vector<int64_t>& perm, const Node& n,
                    std::vector<Step>& out) {
    CopyCompute c;
    c.name = "transpose_" + std::to_string(program_.kernels.size());
    c.dtype = t;
    std::vector<int64_t> strides = rowMajorStrides(shape);
    for (int64_t p : perm) {
      c.shape.push_back(shape[p]);
      c.srcStrides.push_back(strides[p]);
    }
    c.dstStrides = rowMajorStrides(c.shape);
    c.sourceLine = n.loc.line;
    Storage s;
    s.name = program_.storages[src].name + "_t";
    s.dtype = t;
    s.shape = c.shape;
    int dst = addStorage(s);
    launch(out, lowerCopy(c, target_, cores(false)), {src, dst});
    return dst;
  }

  void lowerTranspose(const Node& n, std::vector<Step>& out) {
    ValueId in = n.inputs[0], res = n.outputs[0];
    std::vector<int64_t> shape = staticShape(g_.type(in), n.loc);
    std::vector<int64_t> perm = n.intListAttr("perm");
    if (!n.hasAttr("perm")) {
      perm.resize(shape.size());
      std::iota(perm.rbegin(), perm.rend(), 0);
    }
    for (auto& p : perm) p = p < 0 ? p + static_cast<int64_t>(shape.size()) : p;
    int dst = transposeInto(storageOf(in, n.loc), g_.type(in).dtype, shape, perm, n, out);
    program_.storages[dst].name = g_.value(res).name;
    bind(res, dst);
  }

  void lowerSoftmax(const Node& n, std::vector<Step>& out) {
    ValueId in = n.inputs[0], res = n.outputs[0];
    std::vector<int64_t> shape = staticShape(g_.type(in), n.loc);
    SoftmaxCompute c;
    c.kind = n.op == "Softmax" ? RowNorm::Softmax : n.op == "LogSoftmax" ? RowNorm::LogSoftmax : RowNorm::LayerNorm;
    c.name = (n.op == "Softmax" ? "softmax_" : n.op == "LogSoftmax" ? "log_softmax_" : "layer_norm_") +
             std::to_string(program_.kernels.size());
    c.epsilon = n.floatAttr("epsilon", 1e-5);
    c.dtype = g_.type(res).dtype;
    c.cols = shape.empty() ? 1 : shape.back();
    c.rows = product(shape) / std::max<int64_t>(1, c.cols);
    c.sourceLine = n.loc.line;
    SoftmaxSchedule s = scheduleSoftmax(c, target_, cores(false));
    if (s.rowsPerTile == 0) {
      throw CompileError(n.loc, std::string(c.kind == RowNorm::LayerNorm ? "layer norm" : "softmax") + " rows of " +
                                    std::to_string(c.cols) + " " + dtypeName(c.dtype) +
                                    " elements need " + std::to_string(3 * c.cols * dtypeSize(c.dtype)) +
                                    " bytes of UB, but UB holds " + std::to_string(target_.buffer(isa::Space::UB).size));
    }
    if (const Schedule* explicitSchedule = explicitScheduleOf(n)) s = replaySoftmax(*explicitSchedule, c, s, target_, cores(false));
    std::vector<int> args = {storageOf(in, n.loc)};
    if (c.kind == RowNorm::LayerNorm) args.insert(args.end(), {storageOf(n.inputs[1], n.loc), storageOf(n.inputs[2], n.loc)});
    args.push_back(newIntermediate(res));
    if (c.rows * c.cols > 0) {
      KernelCode code = codegen::lowerSoftmax(c, s, target_);
      code.schedule = softmaxTrace(c, s).str();
      launch(out, std::move(code), args);
    }
  }

  void checkCubeTypes(const Node& n, DType a, DType b) {
    if (a != b || !(a == DType::Float16 || a == DType::Float32)) {
      throw CompileError(n.loc, std::string("matmul of ") + dtypeName(a) + " and " + dtypeName(b) +
                                    " is not supported by the cube unit yet (float16 or float32 on both sides)");
    }
  }

  // One cube launch: dst[batch][m×n] = a[batch][m×k] · b[batch or shared][k×n].
  void emitMatmul(const Node& n, int a, int b, int dst, int64_t batch, bool batchB, int64_t m, int64_t k, int64_t nn,
                  DType in, DType outType, std::vector<Step>& out) {
    MatmulCompute mm;
    mm.name = "matmul_" + std::to_string(program_.kernels.size());
    mm.inType = in;
    mm.outType = outType;
    mm.batch = batch;
    mm.batchB = batchB;
    mm.m = m;
    mm.k = k;
    mm.n = nn;
    mm.sourceLine = n.loc.line;
    MatmulSchedule s = scheduleMatmul(mm, target_, cores(true));
    if (const Schedule* explicitSchedule = explicitScheduleOf(n)) s = replayMatmul(*explicitSchedule, mm, s, target_, cores(true));
    KernelCode code = codegen::lowerMatmul(mm, s, target_);
    code.schedule = matmulTrace(mm, s).str();
    launch(out, std::move(code), {a, b, dst});
  }

  // NumPy's matmul: 1-D operands become one row or column; a B whose batch dimensions are all 1 is
  // shared and every batch of A stacks into M; otherwise an operand whose batch dimensions differ
  // from the broadcast batch shape is first copied out to it.
  void lowerMatmul(const Node& n, std::vector<Step>& out) {
    ValueId a = n.inputs[0], b = n.inputs[1], res = n.outputs[0];
    std::vector<int64_t> sa = staticShape(g_.type(a), n.loc), sb = staticShape(g_.type(b), n.loc);
    checkCubeTypes(n, g_.type(a).dtype, g_.type(b).dtype);
    if (sa.size() == 1) sa.insert(sa.begin(), 1);
    if (sb.size() == 1) sb.push_back(1);
    const int64_t k = sa.back(), nn = sb.back(), m = sa[sa.size() - 2];
    const size_t rank = std::max(sa.size(), sb.size());
    sa.insert(sa.begin(), rank - sa.size(), 1);
    sb.insert(sb.begin(), rank - sb.size(), 1);
    std::vector<int64_t> batch(rank - 2);
    for (size_t d = 0; d + 2 < rank; ++d) batch[d] = std::max(sa[d], sb[d]);
    int ta = storageOf(a, n.loc), tb = storageOf(b, n.loc);
    int dst = newIntermediate(res);
    if (product(sb, 0, rank - 2) == 1) {
      // a 2-d B is shared: every batch of A then stacks into the M dimension
      emitMatmul(n, ta, tb, dst, 1, true, product(sa, 0, rank - 2) * m, k, nn, g_.type(a).dtype, g_.type(res).dtype, out);
      return;
    }
    auto full = [&](int storage, const std::vector<int64_t>& shape, const char* suffix) {
      std::vector<int64_t> to = batch;
      to.insert(to.end(), shape.end() - 2, shape.end());
      return to == shape ? storage : broadcastStorage(storage, shape, to, g_.value(res).name + suffix, n, out);
    };
    ta = full(ta, sa, "_a");
    tb = full(tb, sb, "_b");
    emitMatmul(n, ta, tb, dst, product(batch), true, m, k, nn, g_.type(a).dtype, g_.type(res).dtype, out);
  }

  // Two-operand contractions (einsum, tensordot) as transposes around one batched matmul:
  // A → [batch, free_a, contracted], B → [batch, contracted, free_b], then the output order.
  void lowerContraction(const Node& n, const std::string& la, const std::string& lb, const std::string& lo,
                        std::vector<Step>& out) {
    ValueId a = n.inputs[0], b = n.inputs[1], res = n.outputs[0];
    checkCubeTypes(n, g_.type(a).dtype, g_.type(b).dtype);
    std::vector<int64_t> sa = staticShape(g_.type(a), n.loc), sb = staticShape(g_.type(b), n.loc);
    std::string batch, freeA, freeB, contracted;
    for (char c : la) {
      bool inB = lb.find(c) != std::string::npos, inOut = lo.find(c) != std::string::npos;
      if (std::count(la.begin(), la.end(), c) > 1 || (!inB && !inOut)) {
        throw CompileError(n.loc, std::string("einsum index '") + c + "' (repeated, or summed within one operand) "
                                  "is not supported on the NPU yet");
      }
      (inB ? (inOut ? batch : contracted) : freeA) += c;
    }
    for (char c : lb) {
      if (la.find(c) != std::string::npos) continue;
      if (std::count(lb.begin(), lb.end(), c) > 1 || lo.find(c) == std::string::npos) {
        throw CompileError(n.loc, std::string("einsum index '") + c + "' (repeated, or summed within one operand) "
                                  "is not supported on the NPU yet");
      }
      freeB += c;
    }
    auto extent = [&](char c) {
      size_t i = la.find(c);
      return i != std::string::npos ? sa[i] : sb[lb.find(c)];
    };
    auto permuted = [&](int storage, const std::string& labels, const std::vector<int64_t>& shape, const std::string& order) {
      std::vector<int64_t> perm;
      for (char c : order) perm.push_back(static_cast<int64_t>(labels.find(c)));
      bool identity = true;
      for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == static_cast<int64_t>(i);
      return identity ? storage : transposeInto(storage, program_.storages[storage].dtype, shape, perm, n, out);
    };
    int ta = permuted(storageOf(a, n.loc), la, sa, batch + freeA + contracted);
    int tb = permuted(storageOf(b, n.loc), lb, sb, batch + contracted + freeB);
    auto size = [&](const std::string& labels) {
      int64_t p = 1;
      for (char c : labels) p *= extent(c);
      return p;
    };
    std::string natural = batch + freeA + freeB;
    std::vector<int64_t> naturalShape;
    for (char c : natural) naturalShape.push_back(extent(c));
    int product_ = natural == lo ? newIntermediate(res) : -1;
    if (product_ < 0) {
      Storage s;
      s.name = g_.value(res).name + "_mm";
      s.dtype = g_.type(res).dtype;
      s.shape = naturalShape;
      product_ = addStorage(s);
    }
    emitMatmul(n, ta, tb, product_, size(batch), true, size(freeA), size(contracted), size(freeB), g_.type(a).dtype,
               g_.type(res).dtype, out);
    if (natural != lo) {
      int dst = permuted(product_, natural, naturalShape, lo);
      program_.storages[dst].name = g_.value(res).name;
      bind(res, dst);
    }
  }

  void lowerEinsum(const Node& n, std::vector<Step>& out) {
    std::string eq = ops::explicitEinsum(n.stringAttr("equation"));
    size_t comma = eq.find(','), arrow = eq.find("->");
    if (n.inputs.size() != 2 || comma == std::string::npos || eq.find("...") != std::string::npos) {
      throw CompileError(n.loc, "einsum '" + n.stringAttr("equation") + "' is not supported on the NPU yet (two operands)");
    }
    lowerContraction(n, eq.substr(0, comma), eq.substr(comma + 1, arrow - comma - 1), eq.substr(arrow + 2), out);
  }

  void lowerTensorDot(const Node& n, std::vector<Step>& out) {
    ops::ContractionLabels l = ops::tensordotLabels(g_.type(n.inputs[0]).rank(), g_.type(n.inputs[1]).rank(),
                                                    n.intListAttr("axes_a"), n.intListAttr("axes_b"));
    lowerContraction(n, l.a, l.b, l.out, out);
  }

  // Affine element offsets of a slice's dynamic axes: Σ offset_value · stride.
  model::AffineScalar dynamicOffset(const Node& n, size_t firstOffsetInput, const std::vector<int64_t>& strides, int es) {
    model::AffineScalar total;
    std::vector<int64_t> dyn = n.intListAttr("dynamic_axes");
    for (size_t i = 0; i < dyn.size(); ++i) {
      ValueId v = n.inputs[firstOffsetInput + i];
      const ValueInfo& info = info_[v];
      int64_t scale = strides[static_cast<size_t>(dyn[i])] * es;
      if (info.kind == ValueInfo::ConstScalar) {
        total.base += static_cast<int64_t>(info.scalar) * scale;
      } else if (info.kind == ValueInfo::Induction) {
        total.base += info.affine.base * scale;
        for (auto term : info.affine.terms) {
          term.coeff *= scale;
          total.terms.push_back(term);
        }
      } else {
        throw CompileError(n.loc, "slice offsets must be loop counters or constants on the NPU");
      }
    }
    return total;
  }

  // The copy selecting a slice of `base` (shape, strides) described by the node's attributes.
  CopyCompute sliceCopy(const Node& n, const std::vector<int64_t>& baseShape, DType t, std::vector<int64_t>& region) {
    CopyCompute c;
    c.dtype = t;
    std::vector<int64_t> strides = rowMajorStrides(baseShape);
    region = baseShape;
    c.srcStrides = strides;
    std::vector<int64_t> axes = n.intListAttr("axes"), begin = n.intListAttr("begin"), end = n.intListAttr("end"),
                         step = n.intListAttr("step");
    for (size_t i = 0; i < axes.size(); ++i) {
      size_t ax = static_cast<size_t>(axes[i]);
      int64_t len = step[i] > 0 ? std::max<int64_t>(0, (end[i] - begin[i] + step[i] - 1) / step[i])
                                : std::max<int64_t>(0, (begin[i] - end[i] + (-step[i]) - 1) / (-step[i]));
      region[ax] = len;
      c.srcOffset += begin[i] * strides[ax];
      c.srcStrides[ax] = strides[ax] * step[i];
    }
    c.shape = region;
    c.dstStrides = rowMajorStrides(region);
    c.sourceLine = n.loc.line;
    return c;
  }

  void lowerSlice(const Node& n, std::vector<Step>& out) {
    ValueId in = n.inputs[0], res = n.outputs[0];
    std::vector<int64_t> shape = staticShape(g_.type(in), n.loc), region;
    DType t = g_.type(in).dtype;
    CopyCompute c = sliceCopy(n, shape, t, region);
    c.name = "slice_" + std::to_string(program_.kernels.size());
    std::vector<model::AffineScalar> scalars;
    if (n.inputs.size() > 1) {
      c.srcOffsetArg = true;
      scalars.push_back(dynamicOffset(n, 1, rowMajorStrides(shape), dtypeSize(t)));
    }
    int src = storageOf(in, n.loc);
    int dst = newIntermediate(res);
    if (product(region) > 0) launch(out, lowerCopy(c, target_, cores(false)), {src, dst}, scalars);
  }

  // The storage a write into `base` may update in place, copying `base` first when it is still needed.
  int writableCopyOf(ValueId base, ValueId result, const Node& n, std::vector<Step>& out) {
    int src = storageOf(base, n.loc);
    const Storage& s = program_.storages[src];
    int sharers = 0;
    for (size_t v = 0; v < info_.size(); ++v)
      sharers += info_[v].kind == ValueInfo::InStorage && info_[v].storage == src && uses_.count(static_cast<ValueId>(v)) &&
                 uses_.at(static_cast<ValueId>(v)) > 0;
    bool inPlace = s.role == model::TensorRole::Intermediate && uses_[base] == 1 && sharers <= 1;
    if (inPlace) {
      bind(result, src);
      return src;
    }
    int dst = newIntermediate(result);
    copyWhole(src, dst, n, out);
    return dst;
  }

  void copyWhole(int src, int dst, const Node& n, std::vector<Step>& out) {
    CopyCompute c;
    c.name = "copy_" + std::to_string(program_.kernels.size());
    c.dtype = program_.storages[dst].dtype;
    c.shape = {program_.storages[dst].elements()};
    c.srcStrides = c.dstStrides = {1};
    c.sourceLine = n.loc.line;
    launch(out, lowerCopy(c, target_, cores(false)), {src, dst});
  }

  void lowerSliceUpdate(const Node& n, std::vector<Step>& out) {
    ValueId base = n.inputs[0], update = n.inputs[1], res = n.outputs[0];
    std::vector<int64_t> shape = staticShape(g_.type(base), n.loc), region;
    DType t = g_.type(base).dtype;
    int dst = writableCopyOf(base, res, n, out);
    CopyCompute sel = sliceCopy(n, shape, t, region);
    // write the update (row-major, region-shaped) through the slice's strides
    CopyCompute c;
    c.name = "slice_update_" + std::to_string(program_.kernels.size());
    c.dtype = t;
    c.shape = region;
    c.srcStrides = rowMajorStrides(region);
    c.dstStrides = sel.srcStrides;
    c.dstOffset = sel.srcOffset;
    c.sourceLine = n.loc.line;
    std::vector<model::AffineScalar> scalars;
    if (n.inputs.size() > 2) {
      c.dstOffsetArg = true;
      scalars.push_back(dynamicOffset(n, 2, rowMajorStrides(shape), dtypeSize(t)));
    }
    int src = storageOf(update, n.loc);
    if (product(region) > 0) launch(out, lowerCopy(c, target_, cores(false)), {src, dst}, scalars);
  }

  void lowerConcat(const Node& n, std::vector<Step>& out) {
    ValueId res = n.outputs[0];
    std::vector<int64_t> outShape = staticShape(g_.type(res), n.loc);
    int64_t axis = n.intAttr("axis", 0);
    if (axis < 0) axis += static_cast<int64_t>(outShape.size());
    int dst = newIntermediate(res);
    std::vector<int64_t> outStrides = rowMajorStrides(outShape);
    int64_t at = 0;
    for (ValueId in : n.inputs) {
      std::vector<int64_t> shape = staticShape(g_.type(in), n.loc);
      if (n.op == "Stack") shape.insert(shape.begin() + axis, 1);
      CopyCompute c;
      c.name = "concat_" + std::to_string(program_.kernels.size());
      c.dtype = g_.type(res).dtype;
      c.shape = shape;
      c.srcStrides = rowMajorStrides(shape);
      c.dstStrides = outStrides;
      c.dstOffset = at * outStrides[static_cast<size_t>(axis)];
      c.sourceLine = n.loc.line;
      at += shape[static_cast<size_t>(axis)];
      if (product(shape) > 0) launch(out, lowerCopy(c, target_, cores(false)), {storageOf(in, n.loc), dst});
    }
  }

  // The input copied into the interior of the result, and the border cut into one block per
  // (axis d, side): every position of the axes before d, the pad of axis d, the interior of the
  // axes after d. Mode 'constant' fills all blocks in one kernel (vdup of a one-element constant);
  // mode 'edge' fills the blocks of each axis in turn from the result's first or last interior
  // plane along that axis (a broadcast), once the axes before it are complete.
  void lowerPad(const Node& n, std::vector<Step>& out) {
    ValueId in = n.inputs[0], res = n.outputs[0];
    std::vector<int64_t> shape = staticShape(g_.type(in), n.loc), outShape = staticShape(g_.type(res), n.loc);
    const std::vector<int64_t> pads = n.intListAttr("pads");
    const DType t = g_.type(res).dtype;
    const bool edge = n.stringAttr("mode", "constant") == "edge";
    const std::vector<int64_t> outStrides = rowMajorStrides(outShape);
    const size_t rank = shape.size();
    int dst = newIntermediate(res);
    if (product(outShape) == 0) return;
    // element offset in the result of the interior along the axes from `axis` on
    auto interiorOffset = [&](size_t axis) {
      int64_t offset = 0;
      for (size_t d = axis; d < rank; ++d) offset += pads[2 * d] * outStrides[d];
      return offset;
    };
    auto border = [&](size_t d, int side) {
      CopyCompute c;
      c.dtype = t;
      c.shape = outShape;
      for (size_t k = d + 1; k < rank; ++k) c.shape[k] = shape[k];
      c.shape[d] = pads[2 * d + static_cast<size_t>(side)];
      c.dstStrides = outStrides;
      c.dstOffset = interiorOffset(d + 1) + (side == 0 ? 0 : pads[2 * d] + shape[d]) * outStrides[d];
      c.srcStrides.assign(rank, 0);
      c.sourceLine = n.loc.line;
      return c;
    };
    CopyCompute interior;
    interior.name = "pad_" + std::to_string(program_.kernels.size());
    interior.dtype = t;
    interior.shape = shape;
    interior.srcStrides = rowMajorStrides(shape);
    interior.dstStrides = outStrides;
    interior.dstOffset = interiorOffset(0);
    interior.sourceLine = n.loc.line;
    if (product(shape) > 0) launch(out, lowerCopy(interior, target_, cores(false)), {storageOf(in, n.loc), dst});
    std::vector<CopyCompute> fills;
    for (size_t d = 0; d < rank; ++d) {
      std::vector<CopyCompute> planes;
      for (int side = 0; side < 2; ++side) {
        CopyCompute c = border(d, side);
        if (product(c.shape) == 0) continue;
        if (edge) {
          // the interior plane next to the border, re-read along axis d
          c.srcStrides = outStrides;
          c.srcStrides[d] = 0;
          c.srcOffset = interiorOffset(d + 1) + (side == 0 ? pads[2 * d] : pads[2 * d] + shape[d] - 1) * outStrides[d];
        }
        (edge ? planes : fills).push_back(c);
      }
      if (!planes.empty()) launch(out, lowerCopies("pad_edge_" + std::to_string(program_.kernels.size()), planes, target_, cores(false)), {dst, dst});
    }
    if (!fills.empty()) {
      int value = constantStorage(g_.value(res).name + "_pad_value", t, {1}, n.floatAttr("value"));
      launch(out, lowerCopies("pad_fill_" + std::to_string(program_.kernels.size()), fills, target_, cores(false)), {value, dst});
    }
  }

  // One kernel of copies, one per run of consecutive indices: [outer, run, inner] blocks that
  // become single bursts when the run spans whole rows.
  void lowerGather(const Node& n, std::vector<Step>& out) {
    ValueId in = n.inputs[0], res = n.outputs[0];
    std::vector<int64_t> shape = staticShape(g_.type(in), n.loc);
    const std::vector<int64_t> indices = n.intListAttr("indices");
    const size_t axis = static_cast<size_t>(n.intAttr("axis"));
    const int64_t outer = product(shape, 0, axis), extent = shape[axis], inner = product(shape, axis + 1);
    const int64_t taken = static_cast<int64_t>(indices.size());
    int dst = newIntermediate(res);
    if (outer * taken * inner == 0) return;
    std::vector<CopyCompute> runs;
    for (int64_t first = 0; first < taken;) {
      int64_t length = 1;
      while (first + length < taken && indices[first + length] == indices[first] + length) ++length;
      CopyCompute c;
      c.dtype = g_.type(in).dtype;
      c.shape = {outer, length, inner};
      c.srcStrides = {extent * inner, inner, 1};
      c.dstStrides = {taken * inner, inner, 1};
      c.srcOffset = indices[first] * inner;
      c.dstOffset = first * inner;
      c.sourceLine = n.loc.line;
      runs.push_back(c);
      first += length;
    }
    std::string name = "gather_" + std::to_string(program_.kernels.size());
    launch(out, lowerCopies(name, runs, target_, cores(false)), {storageOf(in, n.loc), dst});
  }

  // Max and average pooling as a window kernel over NHWC; NCHW is the same kernel over N·C
  // images of one channel each (one lane per pixel).
  void lowerPool2d(const Node& n, std::vector<Step>& out) {
    ValueId in = n.inputs[0], res = n.outputs[0];
    std::vector<int64_t> shape = staticShape(g_.type(in), n.loc);
    registry::PoolWindow win;
    std::string error;
    if (!registry::poolWindow(n, win, error)) throw CompileError(n.loc, error);
    WindowCompute c;
    c.op = registry::poolFunctionName(n.op);
    c.name = c.op + "_" + std::to_string(program_.kernels.size());
    c.reduce = n.op == "MaxPool2D" ? WindowReduce::Max : WindowReduce::Average;
    c.inType = g_.type(in).dtype;
    c.outType = g_.type(res).dtype;
    c.n = win.nchw ? shape[0] * shape[1] : shape[0];
    c.h = shape[win.nchw ? 2 : 1];
    c.w = shape[win.nchw ? 3 : 2];
    c.c = win.nchw ? 1 : shape[3];
    c.kh = win.kh;
    c.kw = win.kw;
    c.strideH = win.strideH;
    c.strideW = win.strideW;
    c.padTop = win.padTop;
    c.padBottom = win.padBottom;
    c.padLeft = win.padLeft;
    c.padRight = win.padRight;
    c.sourceLine = n.loc.line;
    int src = storageOf(in, n.loc);
    int dst = newIntermediate(res);
    if (product(shape) == 0) return;
    WindowSchedule s = requireWindowSchedule(c, target_, cores(false));
    launch(out, lowerWindow(c, s, target_), {src, dst});
  }

  void lowerBroadcast(const Node& n, std::vector<Step>& out) {
    groupShape_ = staticShape(g_.type(n.outputs[0]), n.loc);
    ValueId copy = broadcastValue(n.inputs[0], n, out);
    bind(n.outputs[0], info_[copy].storage);
    program_.storages[info_[copy].storage].name = g_.value(n.outputs[0]).name;
  }

  // ---- loops ----
  void lowerLoop(const Node& n, std::vector<Step>& out) {
    const graph::Region& body = n.body();
    int64_t start = n.intAttr("start"), stop = n.intAttr("stop"), step = n.intAttr("step", 1);
    int64_t trips = step > 0 ? std::max<int64_t>(0, (stop - start + step - 1) / step)
                             : std::max<int64_t>(0, (start - stop - step - 1) / -step);
    // carried values live in one storage each for the whole loop
    std::vector<int> carried;
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      ValueId init = n.inputs[k], arg = body.arguments[k + 1];
      int src = storageOf(init, n.loc);
      const Storage& s = program_.storages[src];
      int dst = src;
      if (s.role != model::TensorRole::Intermediate || uses_[init] > 1) {
        dst = newIntermediate(arg);
        copyWhole(src, dst, n, out);
      }
      bind(arg, dst);
      carried.push_back(dst);
    }
    uint32_t iv = nextInductionVar_++;
    ValueInfo& counter = info_[body.arguments[0]];
    counter.kind = ValueInfo::Induction;
    counter.affine.base = start;
    counter.affine.terms = {model::AffineTerm{iv, step}};
    Step loop;
    loop.isLoop = true;
    loop.tripCount = trips;
    loop.inductionVar = iv;
    int loopStart = position_ + 1;
    loopTouched_.emplace_back();
    for (int c : carried) touch(c);
    lowerNodes(body.nodes, loop.body);
    for (size_t k = 0; k < body.yields.size(); ++k) {
      int y = storageOf(body.yields[k], n.loc);
      if (y != carried[k]) copyWhole(y, carried[k], n, loop.body);
      --uses_[body.yields[k]];
    }
    std::set<int> touched = std::move(loopTouched_.back());
    loopTouched_.pop_back();
    for (int s : touched) {
      Storage& st = program_.storages[s];
      st.firstUse = std::min(st.firstUse < 0 ? loopStart : st.firstUse, loopStart);
      st.lastUse = std::max(st.lastUse, position_);
      for (auto& outer : loopTouched_) outer.insert(s);
    }
    out.push_back(std::move(loop));
    for (size_t k = 0; k < n.outputs.size(); ++k) bind(n.outputs[k], carried[k]);
  }

  // ---- outputs ----
  void bindOutputs() {
    std::set<int> claimed;
    for (const auto& o : g_.outputs) {
      const ValueInfo& i = info_[o.value];
      int src = storageOf(o.value, g_.value(o.value).loc);
      Storage& s = program_.storages[src];
      std::vector<int64_t> shape = staticShape(g_.type(o.value), g_.value(o.value).loc);
      if (i.kind == ValueInfo::InStorage && s.role == model::TensorRole::Intermediate && !claimed.count(src)) {
        s.role = model::TensorRole::Output;
        s.name = o.name;
        s.shape = shape;
        s.lastUse = position_ + 1;
        claimed.insert(src);
        program_.outputs.emplace_back(o.name, src);
        continue;
      }
      // an input, constant or shared storage: the output gets its own copy
      Storage copy;
      copy.name = o.name;
      copy.dtype = g_.type(o.value).dtype;
      copy.shape = shape;
      copy.role = model::TensorRole::Output;
      int dst = addStorage(copy);
      Node n;
      n.loc = g_.value(o.value).loc;
      copyWhole(src, dst, n, program_.steps);
      program_.storages[dst].lastUse = position_ + 1;
      claimed.insert(dst);
      program_.outputs.emplace_back(o.name, dst);
    }
  }

  const graph::Graph& g_;
  const Target& target_;
  SelectOptions options_;
  Program program_;
  std::vector<ValueInfo> info_;
  std::map<ValueId, int> uses_;
  int position_ = 0;
  uint32_t nextInductionVar_ = 0;
  std::vector<std::set<int>> loopTouched_;
};

}  // namespace

Program selectKernels(const graph::Graph& graph, const Target& target, const SelectOptions& options) {
  return Selector(graph, target, options).run();
}

}  // namespace pyasc::codegen
