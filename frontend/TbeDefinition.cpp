// Evaluates a TBE-style definition's body symbolically: te.lang.cce calls become nodes of built-in
// operators typed by the registry; Python numbers, strings, None and tuples stay compile-time values.
#include "frontend/TbeDefinition.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "frontend/ComputeTyping.h"
#include "frontend/Parser.h"
#include "registry/OpRegistry.h"
#include "sdk/te/Compute.h"
#include "sdk/te/Schedule.h"

namespace pyasc::frontend {

namespace {

using graph::TensorType;
using graph::ValueId;
using graph::isStaticShape;

// A value of the definition. Tensors are graph values; while a definition is only being checked
// (no operand types yet) they carry no value.
struct TbeValue {
  // Element: an expression inside a te.compute element function; ReduceAxis: te.reduce_axis's
  // result (`axis` indexes the definition's reduce axes).
  enum Kind { Tensor, Number, String, None, Sequence, ScheduleRef, Axis, Element, ReduceAxis } kind = None;
  ValueId id = graph::kNoValue;
  double number = 0;
  bool integral = false;  // a Number written as an int
  std::string text;
  std::vector<TbeValue> items;
  te::ComputeExpr expr;
  int axis = -1;
  bool anyLength = false;  // a Sequence of ints of unknown length (a tensor's shape while only checking)
};

TbeValue valueOf(TbeValue::Kind kind) {
  TbeValue v;
  v.kind = kind;
  return v;
}
TbeValue tensorValue(ValueId id) {
  TbeValue v = valueOf(TbeValue::Tensor);
  v.id = id;
  return v;
}
TbeValue numberValue(double number, bool integral = false) {
  TbeValue v = valueOf(TbeValue::Number);
  v.number = number;
  v.integral = integral;
  return v;
}
TbeValue elementValue(te::ComputeExpr e) {
  TbeValue v = valueOf(TbeValue::Element);
  v.expr = std::move(e);
  return v;
}
TbeValue stringValue(const std::string& text) {
  TbeValue v = valueOf(TbeValue::String);
  v.text = text;
  return v;
}

std::string dottedName(const Expr& e) {
  if (e.kind == ExprKind::Name) return e.text;
  if (e.kind == ExprKind::Attribute && !e.children.empty()) return dottedName(*e.children[0]) + "." + e.text;
  return "";
}

// `v` as an int64 when it is a whole number of magnitude at most 2^53 (exact in a double): what
// counts, indices, extents and tile sizes accept.
bool wholeNumber(const TbeValue& v, int64_t& out) {
  if (v.kind != TbeValue::Number || !(std::fabs(v.number) <= 9007199254740992.0) || v.number != std::floor(v.number))
    return false;
  out = static_cast<int64_t>(v.number);
  return true;
}

const Stmt* findDefinition(const Module& m, const registry::OpDescriptor& d) {
  const Stmt* byName = nullptr;
  for (const auto& s : m.body) {
    if (s->kind != StmtKind::FunctionDef) continue;
    for (const auto& dec : s->decorators) {
      if (dec->kind == ExprKind::Call && dottedName(*dec->children[0]) == "te_op.register") return s.get();
    }
    if (s->text == d.pythonName) byName = s.get();
  }
  return byName;
}

// The modules a definition's names come from; CPython, which runs the definition for `pyasc check`
// and `ascop test`, needs each imported.
const std::vector<std::string>& definitionModules() {
  static const std::vector<std::string> modules = {"te", "te_op"};
  return modules;
}

// The first use, in `e`, of a definition module that `imported` lacks.
const Expr* unimportedUse(const Expr& e, const std::set<std::string>& imported) {
  if (e.kind == ExprKind::Name && !imported.count(e.text) &&
      std::find(definitionModules().begin(), definitionModules().end(), e.text) != definitionModules().end())
    return &e;
  for (const auto& c : e.children)
    if (const Expr* u = c ? unimportedUse(*c, imported) : nullptr) return u;
  for (const auto& k : e.keywords)
    if (const Expr* u = k.value ? unimportedUse(*k.value, imported) : nullptr) return u;
  return nullptr;
}

const Expr* unimportedUse(const Stmt& s, const std::set<std::string>& imported) {
  for (const auto& d : s.decorators)
    if (const Expr* u = unimportedUse(*d, imported)) return u;
  for (const auto& t : s.targets)
    if (const Expr* u = t ? unimportedUse(*t, imported) : nullptr) return u;
  if (const Expr* u = s.value ? unimportedUse(*s.value, imported) : nullptr) return u;
  for (const auto* block : {&s.body, &s.orelse})
    for (const auto& b : *block)
      if (const Expr* u = unimportedUse(*b, imported)) return u;
  return nullptr;
}

// The names the module binds where a definition may see them: imports anywhere (`import te` binds
// te, `import te.lang.cce` te, `from x import y as z` z), assignments to a name, and parameters.
void boundNames(const std::vector<StmtPtr>& body, std::set<std::string>& names) {
  for (const auto& s : body) {
    if (s->kind == StmtKind::Import || s->kind == StmtKind::ImportFrom) {
      for (const auto& n : s->names) {
        if (!n.alias.empty()) names.insert(n.alias);
        else names.insert(s->kind == StmtKind::Import ? n.name.substr(0, n.name.find('.')) : n.name);
      }
    }
    for (const auto& t : s->targets)
      if (t && t->kind == ExprKind::Name) names.insert(t->text);
    for (const auto& p : s->params) names.insert(p.name);
    boundNames(s->body, names);
    boundNames(s->orelse, names);
  }
}

// The te.lang.cce functions pyasc compiles, with their parameters in TBE's order
// (python/te/lang/cce.py) and how many of them are required.
struct CceSignature {
  std::vector<std::string> params;
  size_t required;
};

const std::map<std::string, CceSignature>& cceFunctions() {
  static const CceSignature binary{{"lhs", "rhs"}, 2}, withScalar{{"raw_tensor", "scalar"}, 2},
      unary{{"raw_tensor"}, 1}, reduce{{"raw_tensor", "axis", "keepdims"}, 2}, ternary{{"x", "y", "z"}, 3};
  static const std::map<std::string, CceSignature> table = {
      {"vadd", binary}, {"vsub", binary}, {"vmul", binary}, {"vdiv", binary}, {"vmax", binary}, {"vmin", binary},
      {"vadds", withScalar}, {"vmuls", withScalar}, {"vmaxs", withScalar}, {"vmins", withScalar},
      {"vexp", unary}, {"vlog", unary}, {"vabs", unary}, {"vrec", unary}, {"vsqrt", unary}, {"vrsqrt", unary},
      {"vrelu", unary}, {"vlrelu", {{"raw_tensor", "alpha"}, 1}}, {"vaxpy", {{"lhs", "rhs", "scalar"}, 3}},
      {"vmla", ternary}, {"vmadd", ternary}, {"clip", {{"data", "max_value", "min_value"}, 3}},
      {"vcmp", {{"lhs", "rhs", "operation", "mode"}, 2}}, {"vsel", {{"condition", "lhs", "rhs"}, 3}},
      {"cast_to", {{"data", "dtype", "f1628IntegerFlag"}, 2}}, {"sum", reduce}, {"reduce_max", reduce},
      {"reduce_min", reduce}, {"reduce_prod", reduce}, {"broadcast", {{"var", "shape", "output_dtype"}, 2}},
      {"matmul",
       {{"tensor_a", "tensor_b", "trans_a", "trans_b", "format_a", "format_b", "alpha_num", "beta_num", "dst_dtype",
         "tensor_bias"},
        2}},
      {"concat", {{"raw_tensors", "axis"}, 2}},
  };
  return table;
}

std::string cceFunctionList() {
  std::string s;
  for (const auto& [name, sig] : cceFunctions()) s += (s.empty() ? "" : " ") + name;
  return s;
}

// Appends the built-in nodes of one expansion, each typed by registry inference.
class NodeSink {
 public:
  NodeSink(graph::Graph& g, const registry::OpRegistry& r, const graph::Node& custom, std::vector<graph::Node>& out)
      : g_(g), registry_(r), custom_(custom), out_(out) {}

  const TensorType& type(ValueId v) const { return g_.type(v); }

  ValueId add(const std::string& op, std::vector<ValueId> inputs, std::vector<graph::NamedAttr> attrs,
              const SourceLocation& loc) {
    graph::Node n;
    n.op = op;
    n.inputs = std::move(inputs);
    n.attrs = std::move(attrs);
    n.hints = custom_.hints;
    n.loc = loc;
    std::string error = registry_.completeAttrs(n);
    std::vector<TensorType> types, outputs;
    for (ValueId v : n.inputs) types.push_back(g_.type(v));
    if (error.empty()) registry_.infer(n, types, outputs, error);
    if (!error.empty()) throw CompileError(loc, error);
    ValueId result = g_.addValue(g_.value(custom_.outputs[0]).name + "_" + lowerName(op), outputs[0], loc);
    n.outputs = {result};
    out_.push_back(std::move(n));
    return result;
  }

  ValueId scalar(double v, DType t, const SourceLocation& loc) {
    ValueId id = g_.addValue(g_.value(custom_.outputs[0]).name + "_c", TensorType{t, {}, graph::Layout::ND}, loc);
    g_.constants.push_back(graph::GraphConstant{id, graph::encodeConstant(t, {v})});
    return id;
  }

  // Gives the node computing `v` the definition's explicit schedule; false when no node of the
  // expansion computes it (an input).
  bool attachSchedule(ValueId v, const std::string& text) {
    for (auto& n : out_) {
      if (n.outputs[0] != v) continue;
      n.hints.push_back(graph::NamedAttr{graph::kScheduleHint, text});
      return true;
    }
    return false;
  }

  // compute_inline: every te.compute of the expansion that reads `v` (itself a te.compute) computes
  // v's elements where it reads them; "" or why it cannot. A reduction is inlined only where it is
  // read once, by a te.compute without a reduction of its own: its reduce axes join the consumer's.
  std::string inlineCompute(ValueId v) {
    const graph::Node* producer = nullptr;
    for (const auto& n : out_) {
      if (n.outputs[0] == v) producer = &n;
    }
    if (!producer || producer->op != "Compute") return "only a tensor the definition computes with te.compute can be inlined";
    te::ComputeDef inner = te::parseComputeDef(producer->stringAttr("compute"));
    if (!inner.attached.empty()) return "it has attached computes (compute_at)";
    std::vector<ValueId> innerInputs = producer->inputs;
    for (auto& n : out_) {
      if (n.op != "Compute" || std::find(n.inputs.begin(), n.inputs.end(), v) == n.inputs.end()) continue;
      te::ComputeDef outer = te::parseComputeDef(n.stringAttr("compute"));
      std::vector<int> remap;  // the producer's inputs join the consumer's (where absent)
      for (size_t i = 0; i < innerInputs.size(); ++i) remap.push_back(joinInput(n, outer, innerInputs[i], inner.inputs[i]));
      int from = static_cast<int>(std::find(n.inputs.begin(), n.inputs.end(), v) - n.inputs.begin());
      if (std::string why = te::inlineInto(outer, from, inner, remap); !why.empty()) return why;
      dropInput(n, outer, from);  // v is read no more
      if (std::string error = te::verifyComputeDef(outer); !error.empty()) return error;
      for (auto& a : n.attrs) {
        if (a.name == "compute") a.value = outer.str();
      }
    }
    return "";
  }


  // compute_at: the te.compute `consumer` computes `producer` (a te.compute only it reads) inside its
  // own loops, where its schedule's compute_at step says; "" or why it cannot. `attachedName` is
  // the producer's te.compute name, by which the step names it from then on.
  std::string attachCompute(ValueId producer, ValueId consumer, std::string& attachedName) {
    auto p = std::find_if(out_.begin(), out_.end(), [&](const graph::Node& n) { return n.outputs[0] == producer; });
    auto c = std::find_if(out_.begin(), out_.end(), [&](const graph::Node& n) { return n.outputs[0] == consumer; });
    if (p == out_.end() || p->op != "Compute") return "only a tensor the definition computes with te.compute can be attached";
    if (c == out_.end() || c->op != "Compute") return "the scheduled tensor must be a te.compute";
    if (producer == consumer) return "a tensor cannot be computed inside its own loops";
    for (const auto& n : out_) {
      bool reads = std::find(n.inputs.begin(), n.inputs.end(), producer) != n.inputs.end();
      if (reads && n.outputs[0] != consumer) {
        std::string other = n.op == "Compute" ? te::parseComputeDef(n.stringAttr("compute")).name : n.op;
        return "'" + other + "' reads it too; it can be computed at one consumer only";
      }
    }
    if (std::find(c->inputs.begin(), c->inputs.end(), producer) == c->inputs.end()) return "the scheduled tensor does not read it";
    te::ComputeDef inner = te::parseComputeDef(p->stringAttr("compute"));
    te::ComputeDef outer = te::parseComputeDef(c->stringAttr("compute"));
    if (!inner.attached.empty()) return "it has attached computes of its own";
    attachedName = inner.name;
    std::vector<ValueId> innerInputs = p->inputs;
    std::vector<int> remap;
    for (size_t i = 0; i < innerInputs.size(); ++i) remap.push_back(joinInput(*c, outer, innerInputs[i], inner.inputs[i]));
    int from = static_cast<int>(std::find(c->inputs.begin(), c->inputs.end(), producer) - c->inputs.begin());
    // the producer reads the consumer's inputs; its result becomes the consumer's next attached tensor
    inner.inputs = outer.inputs;
    inner.body = mapTensors(inner.body, [&](int t) { return remap[static_cast<size_t>(t)]; });
    const int attachedAt = static_cast<int>(outer.inputs.size() + outer.attached.size());
    outer.body = mapTensors(outer.body, [&](int t) { return t == from ? attachedAt : t; });
    outer.attached.push_back(inner);
    dropInput(*c, outer, from);
    if (std::string error = te::verifyComputeDef(outer); !error.empty()) return error;
    for (auto& a : c->attrs) {
      if (a.name == "compute") a.value = outer.str();
    }
    out_.erase(p);
    return "";
  }

  // `e` with the tensors its loads read renamed.
  static te::ComputeExpr mapTensors(const te::ComputeExpr& e, const std::function<int(int)>& to) {
    te::ComputeNode copy = *e;
    if (copy.op == te::Op::Load) copy.tensor = to(copy.tensor);
    for (auto& a : copy.args) a = mapTensors(a, to);
    return std::make_shared<const te::ComputeNode>(std::move(copy));
  }

  // The place of `v` among the inputs of te.compute node `n` (of definition `def`), appended when
  // absent: the attached tensors after the inputs move up one, and every attached compute reads it too.
  static int joinInput(graph::Node& n, te::ComputeDef& def, ValueId v, const te::ComputeInput& type) {
    auto at = std::find(n.inputs.begin(), n.inputs.end(), v);
    if (at != n.inputs.end()) return static_cast<int>(at - n.inputs.begin());
    const int count = static_cast<int>(def.inputs.size());
    def.body = mapTensors(def.body, [&](int t) { return t >= count ? t + 1 : t; });
    def.inputs.push_back(type);
    for (auto& a : def.attached) a.inputs.push_back(type);
    n.inputs.push_back(v);
    return count;
  }

  // Input `from` of te.compute node `n` removed (no load reads it any more).
  static void dropInput(graph::Node& n, te::ComputeDef& def, int from) {
    auto shift = [&](int t) { return t > from ? t - 1 : t; };
    def.body = mapTensors(def.body, shift);
    def.inputs.erase(def.inputs.begin() + from);
    for (auto& a : def.attached) {
      a.body = mapTensors(a.body, shift);
      a.inputs.erase(a.inputs.begin() + from);
    }
    n.inputs.erase(n.inputs.begin() + from);
  }

  // Makes `v` the custom node's result: the last node defines it, or an Identity copies it.
  void finish(ValueId v, const SourceLocation& loc) {
    ValueId result = custom_.outputs[0];
    const TensorType& want = g_.type(result);
    if (g_.type(v).shape != want.shape) {
      throw CompileError(loc, "the definition returns " + g_.type(v).str() + " but the descriptor's shape_rule gives " +
                                  want.str());
    }
    if (g_.type(v).dtype != want.dtype) v = add("Cast", {v}, {{"dtype", std::string(dtypeName(want.dtype))}}, loc);
    if (!out_.empty() && out_.back().outputs[0] == v) {
      out_.back().outputs[0] = result;
    } else {
      graph::Node copy;
      copy.op = "Identity";
      copy.inputs = {v};
      copy.outputs = {result};
      copy.loc = loc;
      out_.push_back(std::move(copy));
    }
  }

 private:
  static std::string lowerName(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  graph::Graph& g_;
  const registry::OpRegistry& registry_;
  const graph::Node& custom_;
  std::vector<graph::Node>& out_;
};

class Evaluator {
 public:
  // `sink` null: only check the definition (names, calls, arguments), building nothing.
  explicit Evaluator(NodeSink* sink) : sink_(sink) {}

  std::map<std::string, TbeValue> env;

  TbeValue run(const Stmt& fn, SourceLocation& returnLoc) {
    for (const auto& s : fn.body) {
      switch (s->kind) {
        case StmtKind::Assign:
          assign(*s);
          break;
        case StmtKind::Return: {
          if (!s->value) fail(s->range, "an operator definition must return its result");
          TbeValue v = eval(*s->value);
          if (v.kind != TbeValue::Tensor) fail(s->value->range, "an operator definition must return a tensor");
          returnLoc = loc(s->value->range);
          if (hasSchedule_ && sink_) applyInlining();
          // a schedule of inlining alone leaves the kernels to the compiler's own schedules
          if (hasSchedule_ && sink_ && !schedule_.steps.empty() && !sink_->attachSchedule(scheduled_, schedule_.str())) {
            fail(scheduleRange_, "te.create_schedule: the scheduled tensor must be one the definition computes");
          }
          return v;
        }
        case StmtKind::Expr:  // a docstring, or a schedule primitive
          if (s->value && s->value->kind == ExprKind::Call) eval(*s->value);
          break;
        case StmtKind::Pass:
          break;
        default:
          fail(s->range, "only assignments and a return are supported in an operator definition");
      }
    }
    fail(fn.range, "operator definition '" + fn.text + "' has no return");
  }

  // `name = value`, or `a, b = value` for a sequence of as many values (split's axes)
  void assign(const Stmt& s) {
    const Expr& target = *s.targets[0];
    if (s.targets.size() == 1 && target.kind == ExprKind::Name) {
      env[target.text] = eval(*s.value);
      return;
    }
    bool names = s.targets.size() == 1 && (target.kind == ExprKind::Tuple || target.kind == ExprKind::List);
    for (size_t i = 0; names && i < target.children.size(); ++i) names = target.children[i]->kind == ExprKind::Name;
    if (!names) fail(s.range, "only assignments to one name, or to a tuple of names, are supported in an operator definition");
    TbeValue v = eval(*s.value);
    if (v.kind == TbeValue::Sequence && v.anyLength) v.items.assign(target.children.size(), numberValue(1, true));
    if (v.kind != TbeValue::Sequence || v.items.size() != target.children.size()) {
      fail(s.range, "cannot unpack " + std::string(v.kind == TbeValue::Sequence ? std::to_string(v.items.size()) : "one") +
                        " value(s) into " + std::to_string(target.children.size()) + " names");
    }
    for (size_t i = 0; i < target.children.size(); ++i) env[target.children[i]->text] = v.items[i];
  }

  TbeValue eval(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Name: {
        auto it = env.find(e.text);
        if (it == env.end()) fail(e.range, "name '" + e.text + "' is not defined in the operator definition");
        if (it->second.kind == TbeValue::ReduceAxis && compute_) return elementValue(te::var(reduceVar(it->second.axis)));
        return it->second;
      }
      case ExprKind::Int:
      case ExprKind::Bool: return numberValue(static_cast<double>(e.intValue), true);
      case ExprKind::Float: return numberValue(e.floatValue);
      case ExprKind::String: return stringValue(e.text);
      case ExprKind::None: return TbeValue{};
      case ExprKind::Tuple:
      case ExprKind::List: {
        TbeValue seq = valueOf(TbeValue::Sequence);
        for (const auto& c : e.children) seq.items.push_back(eval(*c));
        return seq;
      }
      case ExprKind::UnaryOp: {
        TbeValue v = eval(*e.children[0]);
        if (v.kind == TbeValue::Element || (compute_ && e.text == "~")) return elementUnary(e.text, v, e.range);
        if (e.text == "+") return v;
        if (e.text != "-") fail(e.range, "operator '" + e.text + "' is not supported in an operator definition");
        if (v.kind == TbeValue::Number) return numberValue(-v.number);
        return numpyBinary("Mul", v, numberValue(-1), e.range);
      }
      case ExprKind::BinOp: return binary(e.text, eval(*e.children[0]), eval(*e.children[1]), e.range);
      case ExprKind::Compare: return compare(e);
      case ExprKind::Subscript: return subscript(e);
      case ExprKind::Attribute: return attribute(e);
      case ExprKind::Call: return call(e);
      case ExprKind::Lambda: fail(e.range, "a lambda is only supported as te.compute's element function");
      default: fail(e.range, "this expression is not supported in an operator definition; use te.lang.cce calls");
    }
  }

 private:
  [[noreturn]] void fail(const SourceRange& range, const std::string& message) const {
    Diagnostic d;
    d.range = range;
    d.message = message;
    throw CompileError(d);
  }

  static SourceLocation loc(const SourceRange& r) { return r.begin; }

  // Python's + - * / between tensors and numbers: NumPy's broadcasting and promotion, as CPython runs it.
  TbeValue binary(const std::string& op, const TbeValue& a, const TbeValue& b, const SourceRange& range) {
    if (a.kind == TbeValue::Element || b.kind == TbeValue::Element) return elementBinary(op, a, b, range);
    if (a.kind == TbeValue::Number && b.kind == TbeValue::Number && (op == "//" || op == "%")) {
      if (b.number == 0) fail(range, "integer division by zero");
      double q = std::floor(a.number / b.number);
      return numberValue(op == "//" ? q : a.number - q * b.number, a.integral && b.integral);
    }
    static const std::map<std::string, std::string> ops = {{"+", "Add"}, {"-", "Sub"}, {"*", "Mul"}, {"/", "Div"}};
    auto it = ops.find(op);
    if (it == ops.end()) fail(range, "operator '" + op + "' is not supported in an operator definition");
    if (a.kind == TbeValue::Number && b.kind == TbeValue::Number) {
      bool integral = a.integral && b.integral;
      if (op == "+") return numberValue(a.number + b.number, integral);
      if (op == "-") return numberValue(a.number - b.number, integral);
      if (op == "*") return numberValue(a.number * b.number, integral);
      return numberValue(a.number / b.number);
    }
    return numpyBinary(it->second, a, b, range);
  }

  TbeValue numpyBinary(const std::string& op, const TbeValue& a, const TbeValue& b, const SourceRange& range) {
    DType t = a.kind == TbeValue::Tensor ? dtypeOf(a) : dtypeOf(b);
    return node(op, {operand(a, t, range), operand(b, t, range)}, {}, range);
  }

  DType dtypeOf(const TbeValue& v) const { return sink_ && v.id != graph::kNoValue ? sink_->type(v.id).dtype : DType::Float32; }

  // A node of the expansion, or a placeholder tensor while checking.
  TbeValue node(const std::string& op, std::vector<ValueId> inputs, std::vector<graph::NamedAttr> attrs,
                const SourceRange& range) {
    if (!sink_) return tensorValue(graph::kNoValue);
    return tensorValue(sink_->add(op, std::move(inputs), std::move(attrs), loc(range)));
  }

  // A tensor operand: a tensor as it is, a number as a scalar constant of dtype `t`.
  ValueId operand(const TbeValue& v, DType t, const SourceRange& range) {
    if (v.kind == TbeValue::Number) return sink_ ? sink_->scalar(v.number, t, loc(range)) : graph::kNoValue;
    if (v.kind != TbeValue::Tensor) fail(range, "expected a tensor or a number here");
    return v.id;
  }

  // `v` converted to dtype `t` (TBE keeps the first operand's dtype).
  ValueId castTo(ValueId v, DType t, const SourceRange& range) {
    if (!sink_ || sink_->type(v).dtype == t) return v;
    return sink_->add("Cast", {v}, {{"dtype", std::string(dtypeName(t))}}, loc(range));
  }

  struct Args {
    std::string fn;
    std::vector<std::optional<TbeValue>> values;
    std::vector<SourceRange> ranges;
    SourceRange call;
    bool has(size_t i) const { return values[i] && values[i]->kind != TbeValue::None; }
  };

  const TbeValue& tensorArg(const Args& a, size_t i) {
    if (a.values[i]->kind != TbeValue::Tensor) {
      fail(a.ranges[i], "te.lang.cce." + a.fn + ": '" + cceFunctions().at(a.fn).params[i] + "' must be a tensor");
    }
    return *a.values[i];
  }
  double numberArg(const Args& a, size_t i, double fallback) {
    if (!a.has(i)) return fallback;
    if (a.values[i]->kind != TbeValue::Number) {
      fail(a.ranges[i], "te.lang.cce." + a.fn + ": '" + cceFunctions().at(a.fn).params[i] + "' must be a number");
    }
    return a.values[i]->number;
  }
  std::string stringArg(const Args& a, size_t i, const std::string& fallback) {
    if (!a.has(i)) return fallback;
    if (a.values[i]->kind != TbeValue::String) {
      fail(a.ranges[i], "te.lang.cce." + a.fn + ": '" + cceFunctions().at(a.fn).params[i] + "' must be a string");
    }
    return a.values[i]->text;
  }
  std::vector<int64_t> intsArg(const Args& a, size_t i) {
    const TbeValue& v = *a.values[i];
    std::vector<int64_t> out;
    auto add = [&](const TbeValue& item) {
      int64_t n = 0;
      if (!wholeNumber(item, n)) {
        fail(a.ranges[i], "te.lang.cce." + a.fn + ": '" + cceFunctions().at(a.fn).params[i] +
                              "' must be an int or a tuple of ints");
      }
      out.push_back(n);
    };
    if (v.kind == TbeValue::Sequence) {
      for (const auto& item : v.items) add(item);
    } else {
      add(v);
    }
    return out;
  }
  DType dtypeArg(const Args& a, size_t i, const std::string& fallback) {
    std::string name = stringArg(a, i, fallback);
    DType t;
    if (!parseDType(name, t)) fail(a.ranges[i], "te.lang.cce." + a.fn + ": unknown dtype '" + name + "'");
    return t;
  }

  // Python's argument binding against the function's TBE signature.
  Args bind(const Expr& e, const std::string& fn, const std::string& name) {
    const CceSignature& sig = cceFunctions().at(fn);
    Args a{fn, std::vector<std::optional<TbeValue>>(sig.params.size()), std::vector<SourceRange>(sig.params.size(), e.range),
           e.range};
    if (e.children.size() - 1 > sig.params.size()) {
      fail(e.range, name + " takes " + std::to_string(sig.params.size()) + " argument(s), got " +
                        std::to_string(e.children.size() - 1));
    }
    for (size_t i = 1; i < e.children.size(); ++i) {
      a.values[i - 1] = eval(*e.children[i]);
      a.ranges[i - 1] = e.children[i]->range;
    }
    for (const auto& k : e.keywords) {
      auto pos = std::find(sig.params.begin(), sig.params.end(), k.name);
      if (pos == sig.params.end()) fail(k.range, name + " has no parameter '" + k.name + "'");
      size_t i = static_cast<size_t>(pos - sig.params.begin());
      if (a.values[i]) fail(k.range, name + " got two values for '" + k.name + "'");
      a.values[i] = eval(*k.value);
      a.ranges[i] = k.value->range;
    }
    for (size_t i = 0; i < sig.required; ++i) {
      if (!a.values[i]) {
        fail(e.range, name + " takes " + std::to_string(sig.required) + " argument(s), got " +
                          std::to_string(e.children.size() - 1 + e.keywords.size()));
      }
    }
    return a;
  }

  // lhs ⊕ rhs the TBE way: equal shapes, the result in lhs's dtype.
  TbeValue elementwise(const std::string& op, const Args& a) {
    const TbeValue& lhs = tensorArg(a, 0);
    DType t = dtypeOf(lhs);
    const TbeValue& rhs = *a.values[1];
    if (rhs.kind == TbeValue::Tensor && sink_ && sink_->type(lhs.id).shape != sink_->type(rhs.id).shape) {
      fail(a.call, "te.lang.cce." + a.fn + ": operand shapes " + sink_->type(lhs.id).str() + " and " +
                       sink_->type(rhs.id).str() + " differ; use te.lang.cce.broadcast first");
    }
    ValueId r = rhs.kind == TbeValue::Tensor ? castTo(rhs.id, t, a.ranges[1]) : operand(rhs, t, a.ranges[1]);
    return node(op, {lhs.id, r}, {}, a.call);
  }

  TbeValue call(const Expr& e) {
    std::string name = dottedName(*e.children[0]);
    const Expr& callee = *e.children[0];
    if (callee.kind == ExprKind::Attribute && callee.children[0]->kind == ExprKind::Name) {
      auto it = env.find(callee.children[0]->text);
      if (it != env.end() && it->second.kind == TbeValue::ScheduleRef) return scheduleCall(callee.text, e);
    }
    if (name == "te.create_schedule") return createSchedule(e);
    if (name == "te.compute") return teCompute(e);
    if (name == "te.reduce_axis") return teReduceAxis(e);
    if (name.rfind("te.", 0) == 0 && isElementFunction(name.substr(3))) return teElementCall(e, name.substr(3));
    if (callee.kind == ExprKind::Attribute && callee.text == "astype") return astype(e, eval(*callee.children[0]));
    if ((name == "min" || name == "max") && compute_) {
      fail(e.range, "Python's " + name + " cannot compare index expressions; use te." + name + "(a, b)");
    }
    if (name == "min" || name == "max") {  // of compile-time numbers (shapes, tile sizes)
      if (e.children.size() < 3 || !e.keywords.empty()) fail(e.range, name + " takes two or more numbers");
      double best = 0;
      for (size_t i = 1; i < e.children.size(); ++i) {
        TbeValue v = eval(*e.children[i]);
        if (v.kind != TbeValue::Number) fail(e.children[i]->range, name + " compares compile-time numbers (shapes, sizes)");
        best = i == 1 ? v.number : name == "min" ? std::min(best, v.number) : std::max(best, v.number);
      }
      TbeValue out = valueOf(TbeValue::Number);
      out.number = best;
      return out;
    }
    const std::string prefix = "te.lang.cce.";
    if (name.rfind(prefix, 0) != 0) {
      fail(e.range, "'" + (name.empty() ? std::string("this call") : name) +
                        "' is not supported in an operator definition; use te.lang.cce functions");
    }
    std::string fn = name.substr(prefix.size());
    if (!cceFunctions().count(fn)) {
      if (fn == "ceil" || fn == "floor" || fn == "round" || fn == "trunc") {
        fail(e.range, name + " (rounding to int32) is not supported by the compiler yet; use cast_to");
      }
      fail(e.range, name + " is not a te.lang.cce function pyasc compiles (supported: " + cceFunctionList() + ")");
    }
    Args a = bind(e, fn, name);
    static const std::map<std::string, std::string> binaryOps = {{"vadd", "Add"},     {"vsub", "Sub"},
                                                                 {"vmul", "Mul"},     {"vdiv", "Div"},
                                                                 {"vmax", "Maximum"}, {"vmin", "Minimum"},
                                                                 {"vadds", "Add"},    {"vmuls", "Mul"},
                                                                 {"vmaxs", "Maximum"}, {"vmins", "Minimum"}};
    static const std::map<std::string, std::string> unaryOps = {{"vexp", "Exp"},        {"vlog", "Log"},
                                                                {"vabs", "Abs"},        {"vrec", "Reciprocal"},
                                                                {"vsqrt", "Sqrt"},      {"vrelu", "Relu"}};
    static const std::map<std::string, std::string> reduceOps = {
        {"sum", "ReduceSum"}, {"reduce_max", "ReduceMax"}, {"reduce_min", "ReduceMin"}, {"reduce_prod", "ReduceProd"}};
    static const std::map<std::string, std::string> compareOps = {{"eq", "Equal"}, {"ne", "NotEqual"},
                                                                  {"lt", "Less"},  {"le", "LessEqual"},
                                                                  {"gt", "Greater"}, {"ge", "GreaterEqual"}};
    if (auto it = binaryOps.find(fn); it != binaryOps.end()) {
      if (fn.back() == 's' && a.values[1]->kind != TbeValue::Number) fail(a.ranges[1], name + " takes a tensor and a number");
      return elementwise(it->second, a);
    }
    if (auto it = unaryOps.find(fn); it != unaryOps.end()) return node(it->second, {tensorArg(a, 0).id}, {}, e.range);
    if (fn == "vrsqrt") {
      TbeValue root = node("Sqrt", {tensorArg(a, 0).id}, {}, e.range);
      return node("Reciprocal", {root.id}, {}, e.range);
    }
    if (fn == "vlrelu") return node("LeakyRelu", {tensorArg(a, 0).id}, {{"alpha", numberArg(a, 1, 0.0)}}, e.range);
    if (fn == "vaxpy" || fn == "vmla" || fn == "vmadd") {
      // vaxpy: lhs * scalar + rhs; vmla: x * y + z; vmadd: x * z + y
      const TbeValue& x = tensorArg(a, 0);
      DType t = dtypeOf(x);
      size_t factor = fn == "vmla" ? 1 : 2, addend = fn == "vmla" ? 2 : 1;
      ValueId f = fn == "vaxpy" ? operand(*a.values[factor], t, a.ranges[factor])
                                : castTo(tensorArg(a, factor).id, t, a.ranges[factor]);
      TbeValue product = node("Mul", {x.id, f}, {}, e.range);
      return node("Add", {product.id, castTo(tensorArg(a, addend).id, t, a.ranges[addend])}, {}, e.range);
    }
    if (fn == "clip") {
      const TbeValue& x = tensorArg(a, 0);
      DType t = dtypeOf(x);
      ValueId hi = operand(numberValue(numberArg(a, 1, 0)), t, a.ranges[1]);
      ValueId lo = operand(numberValue(numberArg(a, 2, 0)), t, a.ranges[2]);
      return node("Clip", {x.id, lo, hi}, {}, e.range);
    }
    if (fn == "vcmp") {
      std::string mode = stringArg(a, 3, "bool"), operation = stringArg(a, 2, "lt");
      if (mode != "bool") fail(a.ranges[3], name + ": mode '" + mode + "' is not supported by the compiler; use 'bool'");
      auto it = compareOps.find(operation);
      if (it == compareOps.end()) fail(a.ranges[2], name + ": operation must be one of eq, ne, lt, le, gt, ge");
      const TbeValue& lhs = tensorArg(a, 0);
      return node(it->second, {lhs.id, operand(*a.values[1], dtypeOf(lhs), a.ranges[1])}, {}, e.range);
    }
    if (fn == "vsel") {
      const TbeValue& cond = tensorArg(a, 0);
      const TbeValue& lhs = *a.values[1];
      const TbeValue& rhs = *a.values[2];
      if (lhs.kind != TbeValue::Tensor && rhs.kind != TbeValue::Tensor) fail(e.range, name + ": lhs or rhs must be a tensor");
      DType t = lhs.kind == TbeValue::Tensor ? dtypeOf(lhs) : dtypeOf(rhs);
      return node("Where", {cond.id, operand(lhs, t, a.ranges[1]), operand(rhs, t, a.ranges[2])}, {}, e.range);
    }
    if (fn == "cast_to") {
      DType t = dtypeArg(a, 1, "float16");
      return node("Cast", {tensorArg(a, 0).id}, {{"dtype", std::string(dtypeName(t))}}, e.range);
    }
    if (auto it = reduceOps.find(fn); it != reduceOps.end()) {
      return node(it->second, {tensorArg(a, 0).id},
                  {{"axes", intsArg(a, 1)}, {"keepdims", numberArg(a, 2, 0) != 0}}, e.range);
    }
    if (fn == "broadcast") {
      std::vector<int64_t> shape = intsArg(a, 1);
      const TbeValue& var = *a.values[0];
      if (var.kind == TbeValue::Number) {
        DType t = dtypeArg(a, 2, "float16");
        return node("Fill", {}, {{"shape", shape}, {"value", var.number}, {"dtype", std::string(dtypeName(t))}}, e.range);
      }
      TbeValue r = node("BroadcastTo", {tensorArg(a, 0).id}, {{"shape", shape}}, e.range);
      return a.has(2) ? tensorValue(castTo(r.id, dtypeArg(a, 2, ""), e.range)) : r;
    }
    if (fn == "matmul") return matmul(a);
    if (fn == "concat") {
      const TbeValue& list = *a.values[0];
      if (list.kind != TbeValue::Sequence || list.items.empty()) fail(a.ranges[0], name + ": 'raw_tensors' must be a list of tensors");
      std::vector<ValueId> parts;
      for (const auto& item : list.items) parts.push_back(operand(item, DType::Float32, a.ranges[0]));
      std::vector<int64_t> axis = intsArg(a, 1);
      if (axis.size() != 1) fail(a.ranges[1], name + ": 'axis' must be one int");
      return node("Concat", parts, {{"axis", axis[0]}}, e.range);
    }
    fail(e.range, name + " is not supported by the compiler yet");
  }


  // ---- te.compute: element functions over index variables

  // The definition being built while a te.compute element function is evaluated.
  struct ComputeContext {
    te::ComputeDef def;
    std::vector<ValueId> tensors;        // the node's inputs: every tensor the function loads
    std::map<int, int> reduceVars;       // reduce axis (of reduceAxes_) → its variable in def
  };
  struct ReduceAxisDecl {
    std::string name;
    int64_t lo = 0, extent = 1;
  };

  ComputeOperand operandOf(const TbeValue& v, const SourceRange& range) {
    if (v.kind == TbeValue::Element) return ComputeOperand::of(v.expr);
    if (v.kind == TbeValue::Number) return ComputeOperand::ofNumber(v.number, v.integral);
    if (v.kind == TbeValue::Tensor) fail(range, "a whole tensor cannot be used inside an element function; index it, e.g. x[i]");
    if (v.kind == TbeValue::ReduceAxis) fail(range, "a reduce axis is only usable inside te.compute's element function");
    fail(range, "expected an index, an element or a number here");
  }

  TbeValue typed(te::ComputeExpr e, const std::string& error, const SourceRange& range) {
    if (!e) fail(range, error);
    return elementValue(std::move(e));
  }

  TbeValue elementBinary(const std::string& op, const TbeValue& a, const TbeValue& b, const SourceRange& range) {
    std::string error;
    return typed(computeBinary(op, operandOf(a, range), operandOf(b, range), error), error, range);
  }

  TbeValue elementUnary(const std::string& op, const TbeValue& a, const SourceRange& range) {
    std::string error;
    return typed(computeUnary(op, operandOf(a, range), error), error, range);
  }

  // a < b <= c: the comparisons joined by &, as Python chains them
  TbeValue compare(const Expr& e) {
    if (!compute_) fail(e.range, "comparisons are supported inside te.compute's element function; use te.lang.cce.vcmp");
    TbeValue result, left = eval(*e.children[0]);
    for (size_t i = 0; i < e.ops.size(); ++i) {
      TbeValue right = eval(*e.children[i + 1]);
      if (left.kind == TbeValue::Number && right.kind == TbeValue::Number) left = elementValue(computeExpr(operandOf(left, e.range)));
      TbeValue c = elementBinary(e.ops[i], left, right, e.range);
      result = i == 0 ? c : elementBinary("&", result, c, e.range);
      left = right;
    }
    return result;
  }

  // x[i, j] inside an element function (a load), or a sequence's item (x.shape[0])
  TbeValue subscript(const Expr& e) {
    TbeValue base = eval(*e.children[0]);
    const Expr& index = *e.children[1];
    if (base.kind == TbeValue::Sequence) {
      TbeValue k = eval(index);
      int64_t i = 0;
      if (!k.integral || !wholeNumber(k, i)) fail(index.range, "a sequence is indexed by an int");
      auto n = static_cast<int64_t>(base.items.size());
      if (i < -n || i >= n) fail(index.range, "index " + std::to_string(i) + " is out of range for " + std::to_string(n) + " items");
      return base.items[static_cast<size_t>(i < 0 ? i + n : i)];
    }
    if (base.kind != TbeValue::Tensor) fail(e.range, "only tensors and sequences can be indexed here");
    if (!compute_) fail(e.range, "tensors are indexed inside te.compute's element function (lambda i: x[i])");
    std::vector<const Expr*> parts;
    if (index.kind == ExprKind::Tuple) {
      for (const auto& c : index.children) parts.push_back(c.get());
    } else {
      parts.push_back(&index);
    }
    std::vector<te::ComputeExpr> indices;
    for (const Expr* p : parts) {
      if (p->kind == ExprKind::Slice) fail(p->range, "slices are not supported in an element function; index one element");
      TbeValue v = eval(*p);
      te::ComputeExpr ix = computeExpr(operandOf(v, p->range));
      if (!isInteger(ix->dtype)) fail(p->range, std::string("an index must be an integer, not ") + dtypeName(ix->dtype));
      if (ix->dtype != DType::Int32) ix = te::node(te::Op::Cast, DType::Int32, {ix});
      indices.push_back(ix);
    }
    if (!sink_) return elementValue(te::load(0, DType::Float32, std::move(indices)));
    const TensorType& t = sink_->type(base.id);
    if (indices.size() != t.shape.size()) {
      fail(index.range, "tensor of shape " + t.str() + " indexed with " + std::to_string(indices.size()) + " index(es)");
    }
    if (!isStaticShape(t.shape)) fail(e.range, "te.compute needs tensors of known shape; " + t.str() + " is not");
    ComputeContext& c = *compute_;
    auto at = std::find(c.tensors.begin(), c.tensors.end(), base.id);
    int input = static_cast<int>(at - c.tensors.begin());
    if (at == c.tensors.end()) {
      c.tensors.push_back(base.id);
      c.def.inputs.push_back(te::ComputeInput{t.dtype, extents(t.shape)});
    }
    return elementValue(te::load(input, t.dtype, std::move(indices)));
  }

  // x.shape, x.dtype, x.ndim
  TbeValue attribute(const Expr& e) {
    TbeValue base = eval(*e.children[0]);
    if (base.kind != TbeValue::Tensor) fail(e.range, "attribute '" + e.text + "' is not supported here");
    if (e.text == "shape" || e.text == "ndim") {
      std::vector<int64_t> shape = sink_ ? extents(sink_->type(base.id).shape) : std::vector<int64_t>{};
      if (e.text == "ndim") return numberValue(static_cast<double>(shape.size()), true);
      TbeValue seq = valueOf(TbeValue::Sequence);
      seq.anyLength = !sink_;  // checking: any rank
      for (int d = 0; !sink_ && d < 8; ++d) seq.items.push_back(numberValue(1, true));
      for (int64_t n : shape) seq.items.push_back(numberValue(static_cast<double>(n), true));
      return seq;
    }
    if (e.text == "dtype") return stringValue(dtypeName(dtypeOf(base)));
    fail(e.range, "tensors have no attribute '" + e.text + "' here (shape, ndim, dtype)");
  }

  static std::vector<int64_t> extents(const graph::Shape& shape) {
    std::vector<int64_t> out;
    for (const auto& d : shape) out.push_back(d.extent);
    return out;
  }

  int reduceVar(int axis) {
    ComputeContext& c = *compute_;
    auto it = c.reduceVars.find(axis);
    if (it != c.reduceVars.end()) return it->second;
    const ReduceAxisDecl& d = reduceAxes_[static_cast<size_t>(axis)];
    te::IterVar v{d.name, d.lo, d.extent, true};
    for (bool clash = true; clash;) {  // a lambda parameter may share the reduce axis's name
      clash = false;
      for (const auto& other : c.def.vars) clash = clash || other.name == v.name;
      if (clash) v.name += "_";
    }
    c.def.vars.push_back(v);
    int index = static_cast<int>(c.def.vars.size()) - 1;
    c.reduceVars[axis] = index;
    return index;
  }

  std::vector<int64_t> extentsArg(const TbeValue& v, const SourceRange& range, const std::string& what) {
    std::vector<int64_t> out;
    auto add = [&](const TbeValue& item) {
      int64_t n = 0;
      if (!item.integral || !wholeNumber(item, n) || n < 1) fail(range, what + " must be positive ints");
      out.push_back(n);
    };
    if (v.kind == TbeValue::Sequence) {
      for (const auto& item : v.items) add(item);
    } else {
      add(v);
    }
    return out;
  }

  // te.compute(shape, lambda i, j: ..., name="...")
  TbeValue teCompute(const Expr& e) {
    const Expr* shapeArg = e.children.size() > 1 ? e.children[1].get() : nullptr;
    const Expr* fn = e.children.size() > 2 ? e.children[2].get() : nullptr;
    std::string name = "compute";
    for (const auto& k : e.keywords) {
      if (k.name == "shape") shapeArg = k.value.get();
      else if (k.name == "fcompute") fn = k.value.get();
      else if (k.name == "name") {
        TbeValue n = eval(*k.value);
        if (n.kind != TbeValue::String) fail(k.value->range, "te.compute: 'name' must be a string");
        name = n.text;
      } else if (k.name != "tag" && k.name != "attrs") {
        fail(k.range, "te.compute has no parameter '" + k.name + "'");
      }
    }
    if (!shapeArg || !fn || e.children.size() > 3) fail(e.range, "te.compute takes a shape and an element function: te.compute(x.shape, lambda i: ...)");
    if (compute_) fail(e.range, "te.compute cannot be nested inside an element function");
    std::vector<int64_t> shape = extentsArg(eval(*shapeArg), shapeArg->range, "te.compute: the shape's extents");
    if (fn->kind != ExprKind::Lambda) fail(fn->range, "te.compute: the element function must be a lambda, e.g. lambda i, j: x[i, j]");
    size_t params = fn->children.size() - 1;
    if (!sink_) shape.resize(params, 1);
    if (params != shape.size()) {
      fail(fn->range, "te.compute: the element function takes " + std::to_string(params) + " index(es) but the shape has " +
                          std::to_string(shape.size()) + " dimension(s)");
    }
    ComputeContext context;
    context.def.name = name;
    std::map<std::string, TbeValue> saved = env;
    for (size_t d = 0; d < params; ++d) {
      const std::string& p = fn->children[d]->text;
      context.def.vars.push_back(te::IterVar{p, 0, shape[d], false});
      env[p] = elementValue(te::var(static_cast<int>(d)));
    }
    compute_ = &context;
    TbeValue body;
    try {
      body = eval(*fn->children[params]);
    } catch (...) {
      compute_ = nullptr;
      env = saved;
      throw;
    }
    compute_ = nullptr;
    env = saved;
    const SourceRange& bodyRange = fn->children[params]->range;
    te::ComputeExpr result = computeExpr(operandOf(body, bodyRange));
    if (!sink_) return tensorValue(graph::kNoValue);
    context.def.body = result;
    if (std::string error = te::verifyComputeDef(context.def); !error.empty()) fail(bodyRange, "te.compute: " + error);
    return node("Compute", context.tensors, {{"compute", context.def.str()}}, e.range);
  }

  // te.reduce_axis((lo, hi), name="k")
  TbeValue teReduceAxis(const Expr& e) {
    if (e.children.size() != 2) fail(e.range, "te.reduce_axis takes the range (lo, hi), e.g. te.reduce_axis((0, n), name=\"k\")");
    TbeValue range = eval(*e.children[1]);
    ReduceAxisDecl d;
    d.name = "k" + std::to_string(reduceAxes_.size());
    for (const auto& k : e.keywords) {
      TbeValue v = eval(*k.value);
      if (k.name != "name" || v.kind != TbeValue::String) fail(k.range, "te.reduce_axis takes the range and a name");
      d.name = v.text;
    }
    bool ok = range.kind == TbeValue::Sequence && range.items.size() == 2;
    int64_t bounds[2] = {0, 0};
    for (size_t i = 0; ok && i < 2; ++i) ok = range.items[i].integral && wholeNumber(range.items[i], bounds[i]);
    if (!ok) fail(e.children[1]->range, "te.reduce_axis: the range must be two ints (lo, hi)");
    d.lo = bounds[0];
    d.extent = bounds[1] - d.lo;
    if (d.extent < 1 && sink_) fail(e.children[1]->range, "te.reduce_axis: the range is empty");
    d.extent = std::max<int64_t>(d.extent, 1);
    reduceAxes_.push_back(d);
    TbeValue v = valueOf(TbeValue::ReduceAxis);
    v.axis = static_cast<int>(reduceAxes_.size()) - 1;
    return v;
  }

  // te.sum/te.max/te.min(expr, axis=k) reduce; te.max/te.min(a, b) compare two values
  TbeValue teReduceOrMinMax(const Expr& e, const std::string& fn) {
    if (!compute_) fail(e.range, "te." + fn + " is used inside te.compute's element function");
    const Expr* axisExpr = nullptr;
    for (const auto& k : e.keywords) {
      if (k.name != "axis") fail(k.range, "te." + fn + " has no parameter '" + k.name + "'");
      axisExpr = k.value.get();
    }
    if (!axisExpr && e.children.size() == 3 && fn != "sum") {
      std::string error;
      return typed(computeMinMax(fn == "max", operandOf(eval(*e.children[1]), e.children[1]->range),
                                 operandOf(eval(*e.children[2]), e.children[2]->range), error),
                   error, e.range);
    }
    if (!axisExpr && e.children.size() == 3) axisExpr = e.children[2].get();
    if (!axisExpr || e.children.size() < 2) fail(e.range, "te." + fn + " takes an expression and axis=<reduce axis>");
    te::ComputeExpr source = computeExpr(operandOf(eval(*e.children[1]), e.children[1]->range));
    std::vector<int> axes;
    TbeValue axis = eval(*axisExpr);
    std::vector<TbeValue> items = axis.kind == TbeValue::Sequence ? axis.items : std::vector<TbeValue>{axis};
    for (const auto& a : items) {
      if (a.kind != TbeValue::Element || a.expr->op != te::Op::Var || !compute_->def.vars[static_cast<size_t>(a.expr->var)].reduce) {
        fail(axisExpr->range, "te." + fn + ": axis must be a reduce axis (te.reduce_axis) or a list of them");
      }
      axes.push_back(a.expr->var);
    }
    if (source->dtype == DType::Bool) fail(e.children[1]->range, "te." + fn + " of bools is not supported; convert with .astype(\"int32\")");
    return elementValue(te::reduce(fn, source, axes));
  }

  // te.exp(x) and the other math functions, te.if_then_else, te.min/max/sum
  TbeValue teElementCall(const Expr& e, const std::string& fn) {
    if (fn == "sum" || fn == "max" || fn == "min") return teReduceOrMinMax(e, fn);
    if (!compute_) fail(e.range, "te." + fn + " is used inside te.compute's element function");
    if (!e.keywords.empty()) fail(e.keywords[0].range, "te." + fn + " takes no keyword arguments");
    if (fn == "if_then_else") {
      if (e.children.size() != 4) fail(e.range, "te.if_then_else takes a condition and two values");
      std::string error;
      return typed(computeSelect(operandOf(eval(*e.children[1]), e.children[1]->range),
                                 operandOf(eval(*e.children[2]), e.children[2]->range),
                                 operandOf(eval(*e.children[3]), e.children[3]->range), error),
                   error, e.range);
    }
    if (e.children.size() != 2) fail(e.range, "te." + fn + " takes one value");
    te::ComputeExpr x = computeExpr(operandOf(eval(*e.children[1]), e.children[1]->range));
    if (fn != "abs" && fn != "relu" && !isFloat(x->dtype)) {
      fail(e.children[1]->range, "te." + fn + " of " + dtypeName(x->dtype) + " is not supported; convert to a float first");
    }
    return elementValue(te::call(fn, x));
  }

  // value.astype("float16")
  TbeValue astype(const Expr& e, const TbeValue& value) {
    if (e.children.size() != 2 || !e.keywords.empty()) fail(e.range, "astype takes the dtype");
    TbeValue name = eval(*e.children[1]);
    DType t;
    if (name.kind != TbeValue::String || !parseDType(name.text, t)) fail(e.children[1]->range, "astype: expected a dtype name such as \"float16\"");
    if (t == DType::Float64 || t == DType::Int64) {
      fail(e.children[1]->range, std::string("astype: the NPU does not compute ") + dtypeName(t) + "; use " +
                                     (t == DType::Float64 ? "float32" : "int32"));
    }
    te::ComputeExpr x = computeExpr(operandOf(value, e.range));
    return elementValue(x->dtype == t ? x : te::node(te::Op::Cast, t, {x}));
  }

  bool isElementFunction(const std::string& fn) const {
    return fn == "sum" || fn == "max" || fn == "min" || fn == "if_then_else" || te::isMathFunction(fn);
  }

  // compute_inline steps act on the expansion (they merge computes), then leave the schedule;
  // compute_at steps attach a compute to the scheduled one and stay (they say at which loop).
  void applyInlining() {
    std::vector<te::ScheduleStep> kept;
    for (const auto& step : schedule_.steps) {
      if (step.primitive != te::Primitive::ComputeInline && step.primitive != te::Primitive::ComputeAt) {
        kept.push_back(step);
        continue;
      }
      const char* what = te::primitiveName(step.primitive);
      auto it = env.find(step.names[0]);
      if (it == env.end() || it->second.kind != TbeValue::Tensor) {
        throw CompileError(step.loc, std::string(what) + ": '" + step.names[0] + "' is not a tensor of the definition");
      }
      std::string attachedName;
      std::string why = step.primitive == te::Primitive::ComputeInline ? sink_->inlineCompute(it->second.id)
                                                                       : sink_->attachCompute(it->second.id, scheduled_, attachedName);
      if (!why.empty()) throw CompileError(step.loc, std::string(what) + ": " + why);
      if (step.primitive == te::Primitive::ComputeAt) {  // the kernel knows the attached compute by its name
        te::ScheduleStep named = step;
        named.names[0] = attachedName;
        kept.push_back(named);
      }
    }
    schedule_.steps = kept;
  }

  // te.create_schedule(t): the explicit schedule of the kernel that computes t (one per definition).
  TbeValue createSchedule(const Expr& e) {
    if (e.children.size() != 2 || !e.keywords.empty()) fail(e.range, "te.create_schedule takes the tensor to schedule");
    TbeValue t = eval(*e.children[1]);
    if (t.kind != TbeValue::Tensor) fail(e.children[1]->range, "te.create_schedule: expected a tensor");
    if (hasSchedule_) fail(e.range, "te.create_schedule: a definition has one schedule");
    hasSchedule_ = true;
    scheduled_ = t.id;
    scheduleRange_ = e.range;
    return valueOf(TbeValue::ScheduleRef);
  }

  static TbeValue axisValue(const std::string& name) {
    TbeValue v = valueOf(TbeValue::Axis);
    v.text = name;
    return v;
  }

  // s.axis(k), s.reduce_axis(k), and the primitives (sdk/te/Schedule.h), recorded with their place:
  // axes and tensors are names, numbers counts, a string the memory scope or intrinsic.
  TbeValue scheduleCall(const std::string& method, const Expr& e) {
    std::vector<const Expr*> args;
    for (size_t i = 1; i < e.children.size(); ++i) args.push_back(e.children[i].get());
    for (const auto& k : e.keywords) args.push_back(k.value.get());
    if (method == "axis" || method == "reduce_axis") {
      TbeValue k = args.size() == 1 ? eval(*args[0]) : TbeValue{};
      int64_t index = 0;
      if (!wholeNumber(k, index) || index < 0) fail(e.range, "s." + method + " takes the index of an axis");
      return axisValue((method == "axis" ? "i" : "r") + std::to_string(index));
    }
    te::ScheduleStep step;
    if (!te::parsePrimitive(method, step.primitive)) {
      fail(e.range, "a schedule has no primitive '" + method + "' (" + te::primitiveNames() + ", axis, reduce_axis)");
    }
    for (const Expr* a : args) {
      TbeValue v = eval(*a);
      if (v.kind == TbeValue::Axis) {
        step.names.push_back(v.text);
      } else if (v.kind == TbeValue::Tensor) {
        step.names.push_back(a->kind == ExprKind::Name ? a->text : "tensor");
      } else if (int64_t n = 0; wholeNumber(v, n) && n >= 0) {
        step.numbers.push_back(n);
      } else if (v.kind == TbeValue::String && step.scope.empty()) {
        step.scope = v.text;
      } else {
        fail(a->range, std::string("s.") + method + ": expected an axis, a tensor, a count or a scope here");
      }
    }
    te::PrimitiveShape shape = te::primitiveShape(step.primitive);
    if (step.primitive == te::Primitive::DoubleBuffer && step.numbers.empty()) step.numbers.push_back(2);
    bool namesOk = shape.names < 0 ? !step.names.empty() : step.names.size() == static_cast<size_t>(shape.names);
    if (!namesOk || step.numbers.size() != static_cast<size_t>(shape.numbers) || step.scope.empty() == shape.scope) {
      std::string want = shape.names < 0 ? "axes" : std::to_string(shape.names) + " axis or tensor name(s)";
      fail(e.range, std::string("s.") + method + " takes " + want + ", " + std::to_string(shape.numbers) + " count(s)" +
                        (shape.scope ? " and a scope" : ""));
    }
    TbeValue result = valueOf(TbeValue::None);
    if (step.primitive == te::Primitive::Split) {
      step.results = {step.names[0] + ".o", step.names[0] + ".i"};
    } else if (step.primitive == te::Primitive::Tile) {
      step.results = {step.names[0] + ".o", step.names[1] + ".o", step.names[0] + ".i", step.names[1] + ".i"};
    } else if (step.primitive == te::Primitive::Fuse) {
      step.results = {step.names[0] + "." + step.names[1]};
    }
    if (!step.results.empty()) {
      result = valueOf(step.results.size() == 1 ? TbeValue::Axis : TbeValue::Sequence);
      if (step.results.size() == 1) result.text = step.results[0];
      for (size_t i = 0; step.results.size() > 1 && i < step.results.size(); ++i) result.items.push_back(axisValue(step.results[i]));
    }
    step.loc = loc(e.range);
    schedule_.steps.push_back(step);
    return result;
  }

  // te.lang.cce.matmul: optional transposes, float16 operands accumulating in float32 when
  // dst_dtype asks for it, alpha scaling and a bias added before the conversion to dst_dtype.
  TbeValue matmul(const Args& a) {
    for (size_t i : {size_t{4}, size_t{5}}) {
      if (stringArg(a, i, "ND") != "ND") fail(a.ranges[i], "te.lang.cce.matmul: only format 'ND' is supported");
    }
    DType dst = dtypeArg(a, 8, "float16");
    ValueId operands[2];
    for (size_t i = 0; i < 2; ++i) {
      ValueId v = tensorArg(a, i).id;
      if (numberArg(a, 2 + i, 0) != 0 && sink_) {
        int rank = sink_->type(v).rank();
        if (rank < 2) fail(a.ranges[i], "te.lang.cce.matmul: a transposed operand needs rank 2 or more");
        std::vector<int64_t> perm;
        for (int d = 0; d < rank; ++d) perm.push_back(d);
        std::swap(perm[static_cast<size_t>(rank - 1)], perm[static_cast<size_t>(rank - 2)]);
        v = sink_->add("Transpose", {v}, {{"perm", perm}}, loc(a.ranges[i]));
      }
      // float16 products are exact in float32: widening first gives the cube's float32 accumulation
      if (sink_ && dst == DType::Float32 && sink_->type(v).dtype == DType::Float16) v = castTo(v, DType::Float32, a.ranges[i]);
      operands[i] = v;
    }
    TbeValue c = node("MatMul", {operands[0], operands[1]}, {}, a.call);
    DType t = dtypeOf(c);
    double alpha = numberArg(a, 6, 1.0);
    if (alpha != 1.0) c = node("Mul", {c.id, operand(numberValue(alpha), t, a.ranges[6])}, {}, a.call);
    if (a.has(9)) c = node("Add", {c.id, castTo(tensorArg(a, 9).id, t, a.ranges[9])}, {}, a.ranges[9]);
    return sink_ ? tensorValue(castTo(c.id, dst, a.call)) : c;
  }

  NodeSink* sink_;
  ComputeContext* compute_ = nullptr;  // while a te.compute element function is evaluated
  std::vector<ReduceAxisDecl> reduceAxes_;
  te::Schedule schedule_;  // the definition's explicit schedule, when it calls te.create_schedule
  bool hasSchedule_ = false;
  ValueId scheduled_ = graph::kNoValue;
  SourceRange scheduleRange_;
};

// A node attribute as a definition value.
TbeValue attributeValue(const graph::Attribute& a) {
  if (const auto* f = std::get_if<double>(&a)) return numberValue(*f);
  if (const auto* n = std::get_if<int64_t>(&a)) return numberValue(static_cast<double>(*n));
  if (const auto* b = std::get_if<bool>(&a)) return numberValue(*b ? 1 : 0);
  if (const auto* s = std::get_if<std::string>(&a)) return stringValue(*s);
  TbeValue seq = valueOf(TbeValue::Sequence);
  if (const auto* list = std::get_if<std::vector<int64_t>>(&a))
    for (int64_t v : *list) seq.items.push_back(numberValue(static_cast<double>(v)));
  return seq;
}

// Binds the definition's parameters: inputs first, then attributes by name (the node's value, else
// the parameter's default).
void bindParams(Evaluator& ev, const Stmt& fn, const std::vector<ValueId>& inputs, const graph::Node* node) {
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const Param& p = fn.params[i];
    if (i < inputs.size()) {
      ev.env[p.name] = tensorValue(inputs[i]);
    } else if (node && node->hasAttr(p.name)) {
      ev.env[p.name] = attributeValue(*node->attr(p.name));
    } else {
      ev.env[p.name] = p.defaultValue ? ev.eval(*p.defaultValue) : TbeValue{};
    }
  }
}

// The definition's body evaluated for `node`, its nodes added through `sink`: the value returned.
ValueId runDefinition(const Stmt& fn, NodeSink& sink, const graph::Node& node, SourceLocation& returnLoc) {
  Evaluator ev(&sink);
  bindParams(ev, fn, node.inputs, &node);
  return ev.run(fn, returnLoc).id;
}

}  // namespace

std::shared_ptr<const registry::ExpansionImplementation> parseTbeDefinition(const std::string& file,
                                                                            const std::string& text,
                                                                            const registry::OpDescriptor& d,
                                                                            DiagnosticEngine& diags) {
  diags.addSource(file, text);
  auto module = std::make_shared<Module>(parseModule(file, text, diags));
  if (diags.hasErrors()) return nullptr;
  const Stmt* fn = findDefinition(*module, d);
  if (!fn) {
    diags.error(SourceRange{SourceLocation{file, 1, 1}, 1},
                "no operator definition for '" + d.op + "': expected @te_op.register(...) or a function named '" +
                    d.pythonName + "'");
    return nullptr;
  }
  std::set<std::string> bound;
  boundNames(module->body, bound);
  if (const Expr* use = unimportedUse(*fn, bound)) {
    diags.error(use->range, "name '" + use->text + "' is not defined: add `import " + use->text +
                                "` at the top of the file (CPython runs the definition for pyasc check and ascop test)");
    return nullptr;
  }
  if (fn->params.size() < d.inputs.size()) {
    diags.error(fn->range, "definition '" + fn->text + "' takes " + std::to_string(fn->params.size()) +
                               " parameter(s) but operator '" + d.op + "' has " + std::to_string(d.inputs.size()) +
                               " input(s)");
    return nullptr;
  }
  // check once now, so that an unsupported construct is reported when the operator is loaded
  try {
    Evaluator ev(nullptr);
    bindParams(ev, *fn, std::vector<ValueId>(d.inputs.size(), graph::kNoValue), nullptr);
    SourceLocation returnLoc;
    ev.run(*fn, returnLoc);
  } catch (const CompileError& e) {
    diags.add(e.diagnostic());
    return nullptr;
  }
  auto expand = [module, fn](graph::Graph& g, const registry::OpRegistry& r, const graph::Node& node,
                             std::vector<graph::Node>& out) {
    NodeSink sink(g, r, node, out);
    SourceLocation returnLoc;
    ValueId result = runDefinition(*fn, sink, node, returnLoc);
    sink.finish(result, returnLoc);
  };
  // the definition run on a scratch graph of the operand types: the shape of what it returns
  auto inferShape = [module, fn](const registry::OpRegistry& r, const graph::Node& node,
                                 const std::vector<TensorType>& inputs) {
    graph::Graph g;
    graph::Node scratch = node;
    scratch.inputs.clear();
    for (size_t i = 0; i < inputs.size(); ++i) scratch.inputs.push_back(g.addValue("in" + std::to_string(i), inputs[i], node.loc));
    scratch.outputs = {g.addValue("out", TensorType{}, node.loc)};
    std::vector<graph::Node> out;
    NodeSink sink(g, r, scratch, out);
    SourceLocation returnLoc;
    return g.type(runDefinition(*fn, sink, scratch, returnLoc)).shape;
  };
  return std::make_shared<registry::ExpansionImplementation>(expand, inferShape);
}

}  // namespace pyasc::frontend
