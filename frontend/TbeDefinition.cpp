// Evaluates a TBE-style definition's body symbolically: te.lang.cce calls become nodes of built-in
// operators typed by the registry; Python numbers, strings, None and tuples stay compile-time values.
#include "frontend/TbeDefinition.h"

#include <algorithm>
#include <map>
#include <optional>

#include "frontend/Parser.h"
#include "registry/OpRegistry.h"
#include "sdk/te/Schedule.h"

namespace pyasc::frontend {

namespace {

using graph::TensorType;
using graph::ValueId;

// A value of the definition. Tensors are graph values; while a definition is only being checked
// (no operand types yet) they carry no value.
struct TbeValue {
  enum Kind { Tensor, Number, String, None, Sequence, ScheduleRef, Axis } kind = None;
  ValueId id = graph::kNoValue;
  double number = 0;
  std::string text;
  std::vector<TbeValue> items;
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
TbeValue numberValue(double number) {
  TbeValue v = valueOf(TbeValue::Number);
  v.number = number;
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
          if (hasSchedule_ && sink_ && !sink_->attachSchedule(scheduled_, schedule_.str())) {
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
        return it->second;
      }
      case ExprKind::Int:
      case ExprKind::Bool: return numberValue(static_cast<double>(e.intValue));
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
        if (e.text == "+") return v;
        if (e.text != "-") fail(e.range, "operator '" + e.text + "' is not supported in an operator definition");
        if (v.kind == TbeValue::Number) return numberValue(-v.number);
        return numpyBinary("Mul", v, numberValue(-1), e.range);
      }
      case ExprKind::BinOp: return binary(e.text, eval(*e.children[0]), eval(*e.children[1]), e.range);
      case ExprKind::Call: return call(e);
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
    static const std::map<std::string, std::string> ops = {{"+", "Add"}, {"-", "Sub"}, {"*", "Mul"}, {"/", "Div"}};
    auto it = ops.find(op);
    if (it == ops.end()) fail(range, "operator '" + op + "' is not supported in an operator definition");
    if (a.kind == TbeValue::Number && b.kind == TbeValue::Number) {
      if (op == "+") return numberValue(a.number + b.number);
      if (op == "-") return numberValue(a.number - b.number);
      if (op == "*") return numberValue(a.number * b.number);
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
      if (item.kind != TbeValue::Number || item.number != static_cast<double>(static_cast<int64_t>(item.number))) {
        fail(a.ranges[i], "te.lang.cce." + a.fn + ": '" + cceFunctions().at(a.fn).params[i] +
                              "' must be an int or a tuple of ints");
      }
      out.push_back(static_cast<int64_t>(item.number));
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
      if (k.kind != TbeValue::Number || k.number < 0) fail(e.range, "s." + method + " takes the index of an axis");
      return axisValue((method == "axis" ? "i" : "r") + std::to_string(static_cast<int64_t>(k.number)));
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
      } else if (v.kind == TbeValue::Number && v.number >= 0 && v.number == static_cast<double>(static_cast<int64_t>(v.number))) {
        step.numbers.push_back(static_cast<int64_t>(v.number));
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
  return std::make_shared<registry::ExpansionImplementation>(
      [module, fn](graph::Graph& g, const registry::OpRegistry& r, const graph::Node& node,
                         std::vector<graph::Node>& out) {
        NodeSink sink(g, r, node, out);
        Evaluator ev(&sink);
        bindParams(ev, *fn, node.inputs, &node);
        SourceLocation returnLoc;
        TbeValue result = ev.run(*fn, returnLoc);
        sink.finish(result.id, returnLoc);
      });
}

}  // namespace pyasc::frontend
