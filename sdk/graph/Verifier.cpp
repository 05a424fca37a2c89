// Walks the graph once, tracking which values are visible in each region.
#include "sdk/graph/Verifier.h"

#include <vector>


namespace pyasc::graph {

namespace {

class GraphVerifier {
 public:
  GraphVerifier(const Graph& graph, DiagnosticEngine& diags, const NodeTypeChecker* checker)
      : graph_(graph), diags_(diags), checker_(checker), defined_(graph.values.size(), false),
        visible_(graph.values.size(), false) {}

  bool run() {
    const int before = diags_.errorCount();
    for (const auto& in : graph_.inputs) {
      if (!define(in.value, {})) continue;
      const Value& v = graph_.value(in.value);
      if (in.role == InputRole::Scalar && (v.type.rank() != 0 || !v.type.ranked)) {
        error(v.loc, "scalar input '%" + v.name + "' must have shape [], found " + v.type.str());
      }
      // the one conversion the runtime makes when binding: float64 arrays rounded to float32
      if (in.declared && (*in.declared != DType::Float64 || v.type.dtype != DType::Float32 || in.role == InputRole::Random)) {
        error(v.loc, "input '%" + v.name + "' of type " + v.type.str() + " cannot be bound from " + dtypeName(*in.declared) +
                         " (only a float32 array or scalar input from float64)");
      }
    }
    for (const auto& c : graph_.constants) {
      if (!define(c.value, {})) continue;
      const Value& v = graph_.value(c.value);
      const int64_t count = v.type.ranked ? elementCount(v.type.shape) : -1;
      if (count < 0 || static_cast<int64_t>(c.bytes.size()) != count * dtypeSize(v.type.dtype)) {
        error(v.loc, "constant '%" + v.name + "' of type " + v.type.str() + " holds " +
                         std::to_string(c.bytes.size()) + " bytes");
      }
    }
    verifyRegion(graph_.body);
    for (const auto& out : graph_.outputs) {
      if (!validId(out.value) || !visible_[out.value]) {
        error({}, "output '" + out.name + "' refers to a value that is not defined at the top level");
      }
    }
    return diags_.errorCount() == before;
  }

 private:
  void error(const SourceLocation& loc, const std::string& message) { diags_.error(SourceRange{loc, 1}, message); }

  bool validId(ValueId id) const { return id >= 0 && static_cast<size_t>(id) < graph_.values.size(); }

  bool define(ValueId id, const SourceLocation& loc) {
    if (!validId(id)) {
      error(loc, "definition of a value id outside the value table");
      return false;
    }
    if (defined_[id]) {
      error(loc, "value '%" + graph_.value(id).name + "' is defined more than once");
      return false;
    }
    defined_[id] = true;
    visible_[id] = true;
    const Value& v = graph_.value(id);
    if (v.type.ranked && elementCount(v.type.shape) > kMaxElements) {
      error(loc.file.empty() ? v.loc : loc, "'%" + v.name + "' of shape " + shapeString(v.type.shape) +
                                                " has more than 2^40 elements, more than any device holds");
    }
    return true;
  }

  void checkUse(ValueId id, const Node& node) {
    if (!validId(id)) {
      error(node.loc, node.op + " uses a value id outside the value table");
    } else if (!visible_[id]) {
      error(node.loc, node.op + " uses '%" + graph_.value(id).name + "' where its definition does not dominate");
    }
  }

  void verifyRegion(const Region& region) {
    std::vector<ValueId> scope;  // values defined here, hidden again when the region ends
    for (const Node& node : region.nodes) {
      for (ValueId in : node.inputs) checkUse(in, node);
      if (node.isLoop()) verifyLoop(node);
      for (ValueId out : node.outputs) {
        if (define(out, node.loc)) scope.push_back(out);
      }
      if (checker_ && !node.isLoop()) {
        std::string problem = checker_->check(graph_, node);
        if (!problem.empty()) error(node.loc, problem);
      }
    }
    for (ValueId y : region.yields) {
      if (!validId(y) || !visible_[y]) error({}, "yield of a value that is not visible in its region");
    }
    if (&region != &graph_.body) {
      for (ValueId id : scope) visible_[id] = false;
    }
  }

  void verifyLoop(const Node& loop) {
    for (const char* name : {"start", "stop", "step"}) {
      const Attribute* a = loop.attr(name);
      if (!a || attrKind(*a) != AttrKind::Int) error(loop.loc, std::string("Loop needs an int attribute '") + name + "'");
    }
    if (loop.intAttr("step") == 0) error(loop.loc, "Loop step must not be 0");
    if (loop.regions.size() != 1) {
      error(loop.loc, "Loop needs exactly one body region");
      return;
    }
    const Region& body = loop.body();
    if (body.arguments.size() != loop.inputs.size() + 1) {
      error(loop.loc, "Loop body needs the induction variable and one argument per carried value");
      return;
    }
    if (body.yields.size() != loop.inputs.size() || loop.outputs.size() != loop.inputs.size()) {
      error(loop.loc, "Loop must yield and return one value per carried input");
      return;
    }
    std::vector<ValueId> args;
    for (ValueId arg : body.arguments) {
      if (define(arg, loop.loc)) args.push_back(arg);
    }
    const TensorType& iv = graph_.type(body.arguments[0]);
    if (iv.rank() != 0 || !iv.ranked || !isInteger(iv.dtype)) error(loop.loc, "Loop induction variable must be an integer scalar");
    if (loop.isWhileLoop()) {
      const TensorType* condition = loop.inputs.empty() ? nullptr : &graph_.type(loop.inputs.back());
      if (!condition || condition->dtype != DType::Bool || condition->rank() != 0 || !condition->ranked) {
        error(loop.loc, "while Loop must carry its condition, a bool scalar, last");
      }
      if (loop.intAttr("start") != 0 || loop.intAttr("step") != 1) error(loop.loc, "while Loop counts trips from 0 by 1");
    }
    for (size_t i = 0; i < loop.inputs.size(); ++i) {
      const TensorType& carried = graph_.type(loop.inputs[i]);
      if (graph_.type(body.arguments[i + 1]) != carried || graph_.type(loop.outputs[i]) != carried ||
          graph_.type(body.yields[i]) != carried) {
        error(loop.loc, "Loop carried value " + std::to_string(i) + " changes type: " + carried.str() + " in, " +
                            graph_.type(body.yields[i]).str() + " yielded");
      }
    }
    verifyRegion(body);
    for (ValueId arg : args) visible_[arg] = false;
  }

  const Graph& graph_;
  DiagnosticEngine& diags_;
  const NodeTypeChecker* checker_;
  std::vector<bool> defined_;
  std::vector<bool> visible_;
};

}  // namespace

bool verifyGraph(const Graph& graph, DiagnosticEngine& diags, const NodeTypeChecker* checker) {
  return GraphVerifier(graph, diags, checker).run();
}

}  // namespace pyasc::graph
