// select-templates: the in-order walk from graph to program. Fusion groups become elementwise
// kernels, other nodes go to the template that takes them, loops to plan loops, outputs to storages.
#include "codegen/graph/SelectTemplates.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <variant>

#include "codegen/lower/ScalarKernel.h"
#include "codegen/templates/ElementwiseTemplate.h"
#include "codegen/templates/ReduceTemplate.h"
#include "codegen/templates/Template.h"
#include "ops/Elementwise.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

namespace {

class Selector {
 public:
  Selector(const graph::Graph& g, const Target& t, const SelectOptions& o) : l_(g, t, o), g_(g) {}

  Program run() {
    l_.program.sourceFile = l_.options.sourceFile;
    for (const auto& sym : g_.symbols) l_.program.symbols.push_back(model::Symbol{sym.name, sym.min, sym.max});
    for (const auto& in : g_.inputs) {
      const graph::Value& v = g_.value(in.value);
      Storage s;
      s.name = v.name;
      s.dtype = v.type.dtype;
      s.shape = staticShape(v.type, v.loc);
      s.role = in.role == graph::InputRole::Random ? model::TensorRole::RandomInput : model::TensorRole::Input;
      s.loc = v.loc;
      s.random = in.random;
      s.declared = in.declared;
      s.dims = in.dims;
      l_.bind(in.value, l_.addStorage(s));
    }
    for (const auto& c : g_.constants) {
      if (l_.classes.of(c.value) == ValueClasses::Class::Scalar) continue;
      const graph::Value& v = g_.value(c.value);
      Storage s;
      s.name = v.name;
      s.dtype = v.type.dtype;
      s.shape = staticShape(v.type, v.loc);
      s.role = model::TensorRole::Constant;
      s.constant = c.bytes;
      l_.bind(c.value, l_.addStorage(s));
    }
    findPrologueGroups(g_.body);
    lowerNodes(g_.body.nodes, l_.program.steps);
    bindOutputs();
    return std::move(l_.program);
  }

 private:
  // Arrays without elements, or larger than any device, are refused before kernels are generated
  // for them (smaller ones that do not fit this target are the memory plan's to report).
  void checkSizes(const Node& n) const {
    for (ValueId v : n.inputs) checkSize(v, n.loc);
    for (ValueId v : n.outputs) checkSize(v, n.loc);
  }

  void checkSize(ValueId v, const SourceLocation& loc) const {
    const int64_t count = graph::elementCount(g_.type(v).shape);
    if (count == 0) {
      throw CompileError(loc, "'" + g_.value(v).name + "' has no elements (shape " + graph::shapeString(g_.type(v).shape) +
                                  "); zero-size arrays are not supported on the NPU");
    }
    double bytes = dtypeSize(g_.type(v).dtype);  // in floating point: the element count may overflow
    for (const auto& d : g_.type(v).shape) bytes *= static_cast<double>(std::max<int64_t>(d.extent, 0));
    if (bytes > static_cast<double>(kMaxGmBytes)) {
      throw CompileError(loc, "MemoryError: Device memory exceeded (requested " + humanBytes(bytes) + " for '" +
                                  g_.value(v).name + "', available " +
                                  humanBytes(static_cast<double>(l_.target.deviceMemory)) + ")");
    }
  }

  // The node's fusion group (fuse-elementwise's hint), if it has one.
  static std::optional<int> fusionHint(const Node& n) {
    for (const auto& h : n.hints)
      if (h.name == kFusionGroupHint && std::holds_alternative<int64_t>(h.value)) return static_cast<int>(std::get<int64_t>(h.value));
    return std::nullopt;
  }

  // The node's fusion group, or a new group of its own.
  int fusionGroupOf(const Node& n) {
    const std::optional<int> id = fusionHint(n);
    return id ? *id : --ungrouped_;
  }

  // The groups whose value a reduction computes in its own kernel (fuse-elementwise gave it their hint).
  void findPrologueGroups(const graph::Region& r) {
    for (const Node& n : r.nodes) {
      for (const auto& sub : n.regions) findPrologueGroups(sub);
      if (!ops::isElementwiseOp(n.op))
        if (const std::optional<int> id = fusionHint(n)) prologueGroups_.insert(*id);
    }
  }

  // Whether `n` is a reduction of the pending group's value that takes the group as its prologue.
  bool reducesGroup(const Node& n) const {
    const std::optional<int> id = fusionHint(n);
    return id && !group_.empty() && *id == group_.id() && !ops::isElementwiseOp(n.op) && n.inputs.size() == 1 &&
           group_.expr(n.inputs[0]);
  }

  void lowerNodes(const std::vector<Node>& nodes, std::vector<Step>& out) {
    for (const Node& n : nodes) {
      checkSizes(n);
      if (l_.classes.foldAffine(n)) {
        l_.classes.readsDone(n);
        continue;
      }
      if (widensToInt64(n)) {
        group_.flush(l_, out);
        locatedAt(n, [&] { lowerWidening(n, out); });
      } else if (onScalarUnit(n)) {
        group_.flush(l_, out);
        lowerOnScalarUnit(n, out);
        l_.classes.setArray(n.outputs[0]);
      } else if (ops::isElementwiseOp(n.op) && n.outputs.size() == 1) {
        const int id = fusionGroupOf(n);
        group_.add(n, id, l_, out, prologueGroups_.count(id) > 0);
        l_.classes.setArray(n.outputs[0]);
      } else if (reducesGroup(n)) {
        classifyNode(templateFor(n.op), n, l_.classes);
        locatedAt(n, [&] { lowerReduceOfGroup(n, group_, l_, out); });
      } else {
        group_.flush(l_, out);
        locatedAt(n, [&] { lowerNode(n, out); });
      }
      l_.classes.readsDone(n);
    }
    group_.flush(l_, out);
  }

  // A cast of int32 to int64 (narrow-integers' int64 outputs): the vector unit has no int64 lanes,
  // the copy kernel sign-extends.
  bool widensToInt64(const Node& n) const {
    return n.op == "Cast" && n.inputs.size() == 1 && g_.type(n.inputs[0]).dtype == DType::Int32 &&
           g_.type(n.outputs[0]).dtype == DType::Int64;
  }

  // An elementwise operator on integers the vector unit has no lanes for (int64 values narrow-integers
  // left int64, computed from values it cannot bound; int8, int16, uint8), or no instructions for
  // (bitwise operators, a power whose exponent is not a constant in 0..1024): the scalar unit
  // computes them in 64-bit registers.
  bool onScalarUnit(const Node& n) const {
    if (!ops::isElementwiseOp(n.op) || n.outputs.size() != 1) return false;
    const DType out = g_.type(n.outputs[0]).dtype;
    if (isInteger(out) && ops::isBitwise(n.op)) return true;
    if (isInteger(out) && n.op == "Pow" && n.inputs.size() == 2) {
      const ValueId k = n.inputs[1];
      if (l_.classes.of(k) != ValueClasses::Class::Scalar || !ops::isVectorIntegerExponent(l_.classes.scalar(k))) return true;
    }
    // (the types ops::elementwiseExpr refuses: no vector lanes, and not a bool)
    auto laneless = [](DType t) { return isInteger(t) && !ops::isVectorDType(t); };
    if (laneless(out)) return true;
    for (ValueId v : n.inputs) {
      const ValueClasses::Class c = l_.classes.of(v);
      if (laneless(g_.type(v).dtype) && c != ValueClasses::Class::Scalar && c != ValueClasses::Class::Counter) return true;
    }
    return false;
  }

  void lowerOnScalarUnit(const Node& n, std::vector<Step>& out) {
    std::vector<DType> inputs;
    for (ValueId v : n.inputs) inputs.push_back(g_.type(v).dtype);
    const DType outType = g_.type(n.outputs[0]).dtype;
    if (std::string why = scalarRefusal(n.op, inputs, outType); !why.empty()) {
      throw CompileError(n.loc, why + " (target '" + l_.target.name + "')");
    }
    const std::vector<int64_t> shape = staticShape(g_.type(n.outputs[0]), n.loc);
    ScalarCompute c;
    c.name = l_.kernelName("scalar");
    c.op = n.op;
    c.outType = outType;
    c.count = product(shape);
    c.sourceLine = n.loc.line;
    std::vector<int> storages;
    std::vector<model::AffineScalar> scalars;
    for (ValueId v : n.inputs) {
      ScalarOperand o;
      o.dtype = g_.type(v).dtype;
      if (l_.classes.of(v) == ValueClasses::Class::Scalar) {
        // a constant: an integer (beyond 2^53 as the graph's double keeps it), or a float cast
        // toward zero here as the kernel would (NaN 0, saturating)
        const double d = l_.classes.scalar(v);
        if (isFloat(o.dtype) && n.op != "Cast") throw CompileError(n.loc, scalarRefusal(n.op, {o.dtype}, outType));
        o.kind = ScalarOperand::Kind::Constant;
        o.dtype = DType::Int64;
        o.constant = std::isnan(d) ? 0 : d >= 0x1p63 ? INT64_MAX : d < -0x1p63 ? INT64_MIN : static_cast<int64_t>(std::trunc(d));
      } else if (l_.classes.of(v) == ValueClasses::Class::Counter) {
        o.kind = ScalarOperand::Kind::Argument;
        o.dtype = DType::Int32;
        scalars.push_back(l_.classes.affine(v));
      } else {
        l_.classes.readAsArray(v);
        int storage = l_.storageOf(v, n.loc);
        const std::vector<int64_t> from = staticShape(g_.type(v), n.loc);
        const int64_t elements = product(from);
        if (elements == 1 && c.count != 1) {
          o.kind = ScalarOperand::Kind::Element;
        } else if (elements != c.count) {
          storage = l_.broadcastStorage(storage, from, shape, g_.value(v).name + "_broadcast", n, out);
        }
        storages.push_back(storage);
      }
      c.operands.push_back(o);
    }
    storages.push_back(l_.newIntermediate(n.outputs[0]));
    locatedAt(n, [&] { l_.launch(out, lowerScalarElementwise(c, l_.cores(false)), storages, scalars); });
  }

  void lowerWidening(const Node& n, std::vector<Step>& out) {
    l_.classes.readAsArray(n.inputs[0]);
    int src = l_.storageOf(n.inputs[0], n.loc);
    l_.copyWhole(src, l_.newIntermediate(n.outputs[0]), n, out);
    l_.classes.setArray(n.outputs[0]);
  }

  void lowerNode(const Node& n, std::vector<Step>& out) {
    if (n.isLoop()) return lowerLoop(n, out);
    const Template* t = templateFor(n.op);
    if (!t) throw CompileError(n.loc, "operator '" + n.op + "' has no NPU lowering yet on target '" + l_.target.name + "'");
    if (t->refusal) {
      if (std::string why = t->refusal(n, g_, l_.target); !why.empty()) throw CompileError(n.loc, why);
    }
    classifyNode(t, n, l_.classes);
    t->lower(n, l_, out);
  }

  // A graph loop as a plan loop: carried values keep one storage for the whole loop. A while loop
  // tests its last carried value, the condition.
  void lowerLoop(const Node& n, std::vector<Step>& out) {
    const graph::Region& body = n.body();
    int64_t start = n.intAttr("start"), stop = n.intAttr("stop"), step = n.intAttr("step", 1);
    int64_t trips = step > 0 ? std::max<int64_t>(0, (stop - start + step - 1) / step)
                             : std::max<int64_t>(0, (start - stop - step - 1) / -step);
    Step loop;
    loop.isLoop = true;
    loop.tripCount = trips;
    loop.inductionVar = l_.classes.enterLoop(n);
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      ValueId init = n.inputs[k], arg = body.arguments[k + 1];
      int src = l_.dataStorageOf(init, n, out);  // (a counter value, j = i, gets an array of its own)
      int dst = src;
      if (!l_.takesOver(init, n)) {
        dst = l_.newIntermediate(arg);
        l_.copyWhole(src, dst, n, out);
      }
      l_.bind(arg, dst);
      loop.carried.push_back(dst);
    }
    lowerNodes(body.nodes, loop.body);
    l_.classes.leaveLoop(n);
    // The yields are parallel copies: one that reads another carried value's storage (a, b = b, a)
    // is saved before the copies overwrite it.
    std::vector<int> yielded;
    for (ValueId y : body.yields) yielded.push_back(l_.storageOf(y, n.loc));
    for (size_t k = 0; k < yielded.size(); ++k) {
      bool readsCarried = false;
      for (size_t j = 0; j < loop.carried.size(); ++j) readsCarried |= j != k && yielded[k] == loop.carried[j];
      if (!readsCarried) continue;
      Storage saved = l_.program.storages[static_cast<size_t>(yielded[k])];
      saved.role = model::TensorRole::Intermediate;
      const int copy = l_.addStorage(saved);
      l_.copyWhole(yielded[k], copy, n, loop.body);
      yielded[k] = copy;
    }
    for (size_t k = 0; k < yielded.size(); ++k) {
      if (yielded[k] != loop.carried[k]) l_.copyWhole(yielded[k], loop.carried[k], n, loop.body);
    }
    for (size_t k = 0; k < n.outputs.size(); ++k) l_.bind(n.outputs[k], loop.carried[k]);
    if (n.isWhileLoop()) {
      loop.condition = loop.carried.back();
      loop.sourceLine = n.loc.line;
    }
    out.push_back(std::move(loop));
  }

  void bindOutputs() {
    std::set<int> claimed;
    for (const auto& o : g_.outputs) {
      checkSize(o.value, g_.value(o.value).loc);  // an output no node computes (an input) too
      releaseName(o.name);
      l_.classes.readAsArray(o.value);
      int src = l_.storageOf(o.value, g_.value(o.value).loc);
      Storage& s = l_.program.storages[src];
      std::vector<int64_t> shape = staticShape(g_.type(o.value), g_.value(o.value).loc);
      if (s.role == model::TensorRole::Intermediate && !claimed.count(src)) {
        s.role = model::TensorRole::Output;
        s.name = o.name;
        s.shape = shape;
        claimed.insert(src);
        l_.program.outputs.emplace_back(o.name, src);
        continue;
      }
      // an input, constant or shared storage: the output gets its own copy
      Storage copy;
      copy.name = o.name;
      copy.dtype = g_.type(o.value).dtype;
      copy.shape = shape;
      copy.role = model::TensorRole::Output;
      int dst = l_.addStorage(copy);
      Node n;
      n.loc = g_.value(o.value).loc;
      l_.copyWhole(src, dst, n, l_.program.steps);
      claimed.insert(dst);
      l_.program.outputs.emplace_back(o.name, dst);
    }
  }

  // Outputs are named after the program's variables; a random input, constant or intermediate that
  // the compiler named the same ("rand", "cst", or the variable a random output was drawn into)
  // takes the next free name instead.
  void releaseName(const std::string& name) {
    for (auto& st : l_.program.storages) {
      if (st.name == name && st.role != model::TensorRole::Input && st.role != model::TensorRole::Output)
        st.name = uniqueName(name);
    }
  }

  // `base`, or base_2, base_3, ...: the first no storage has.
  std::string uniqueName(const std::string& base) const {
    auto taken = [&](const std::string& name) {
      for (const auto& st : l_.program.storages)
        if (st.name == name) return true;
      return false;
    };
    std::string name = base;
    for (int i = 2; taken(name); ++i) name = base + "_" + std::to_string(i);
    return name;
  }

  Lowering l_;
  const graph::Graph& g_;
  FusionGroup group_;
  std::set<int> prologueGroups_;
  int ungrouped_ = 0;  // ids of nodes without a fusion group: -1, -2, ...
};

}  // namespace

Program selectTemplates(const graph::Graph& graph, const Target& target, const SelectOptions& options) {
  return Selector(graph, target, options).run();
}

}  // namespace pyasc::codegen
