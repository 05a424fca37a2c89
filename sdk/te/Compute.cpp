// te.compute definitions: construction, the one-line text form and its parser, the verifier and a
// float64 evaluator.
#include "sdk/te/Compute.h"

#include "sdk/te/ExprText.h"

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

namespace pyasc::te {

namespace {

ComputeExpr make(ComputeNode n) { return std::make_shared<const ComputeNode>(std::move(n)); }

struct OpSpelling {
  Op op;
  const char* name;
};
constexpr OpSpelling kOps[] = {
    {Op::Var, "var"},     {Op::Int, "int"},   {Op::Float, "float"},       {Op::Add, "add"},
    {Op::Sub, "sub"},     {Op::Mul, "mul"},   {Op::Div, "div"},           {Op::FloorDiv, "floordiv"},
    {Op::FloorMod, "floormod"}, {Op::Min, "min"}, {Op::Max, "max"},       {Op::Neg, "neg"},
    {Op::Lt, "lt"},       {Op::Le, "le"},     {Op::Gt, "gt"},             {Op::Ge, "ge"},
    {Op::Eq, "eq"},       {Op::Ne, "ne"},     {Op::And, "and"},           {Op::Or, "or"},
    {Op::Not, "not"},     {Op::Select, "select"}, {Op::Load, "load"},     {Op::Cast, "cast"},
    {Op::Call, "call"},   {Op::Reduce, "reduce"},
};

std::string typeText(DType t, const std::vector<int64_t>& shape) {
  std::string s = std::string(dtypeShortName(t)) + "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

DType readType(TextReader& r, std::vector<int64_t>& shape) {
  DType t = r.dtype();
  r.expect('[');
  while (!r.peek(']')) {
    shape.push_back(r.integer());
    if (!r.peek(']')) r.expect(',');
  }
  r.expect(']');
  return t;
}

void readIterVars(TextReader& r, ComputeDef& def, bool reduce) {
  r.expect('(');
  while (!r.peek(')')) {
    IterVar v;
    v.reduce = reduce;
    v.name = r.identifier();
    for (const auto& other : def.vars) {
      if (other.name == v.name) r.fail("axis '" + v.name + "' is declared twice");
    }
    r.expect(':');
    int64_t first = r.integer();
    if (reduce) {
      r.expect(':');
      v.lo = first;
      v.extent = r.integer();
    } else {
      v.extent = first;
    }
    def.vars.push_back(v);
    if (!r.peek(')')) r.expect(',');
  }
  r.expect(')');
}

// Reads one ComputeDef::str() text from `r`, up to the end of its body.
ComputeDef readDef(TextReader& r) {
  ComputeDef def;
  r.word("compute");
  def.name = r.identifier();
  r.expect(':');
  std::vector<int64_t> shape;
  DType outType = readType(r, shape);
  r.expect('(');
  while (!r.peek(')')) {
    ComputeInput in;
    in.dtype = readType(r, in.shape);
    def.inputs.push_back(in);
    if (!r.peek(')')) r.expect(',');
  }
  r.expect(')');
  while (r.atWord("with")) {
    r.word("with");
    r.expect('(');
    def.attached.push_back(readDef(r));
    r.expect(')');
  }
  r.word("axes");
  readIterVars(r, def, false);
  if (def.vars.size() != shape.size()) {
    r.fail("the type has " + std::to_string(shape.size()) + " dimensions but " + std::to_string(def.vars.size()) +
           " axes are given");
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    if (def.vars[i].extent != shape[i]) r.fail("axis '" + def.vars[i].name + "' does not match the type's extent");
  }
  if (r.atWord("reduce")) {
    r.word("reduce");
    readIterVars(r, def, true);
  }
  r.expect('=');
  def.body = readExpr(r, def.names());
  if (def.body->dtype != outType) r.fail("the body's dtype differs from the type's");
  return def;
}

ComputeDef readDef(const std::string& text) {
  TextReader r(text, "compute text");
  ComputeDef def = readDef(r);
  if (!r.atEnd()) r.fail("unexpected text after the body");
  return def;
}

}  // namespace

std::string operationError(const ComputeNode& n) {
  std::string error;
  auto bad = [&](const std::string& what) {
    if (error.empty()) error = std::string(opName(n.op)) + ": " + what;
  };
  auto arity = [&](size_t k) {
    if (n.args.size() != k) bad("takes " + std::to_string(k) + " operand(s), has " + std::to_string(n.args.size()));
  };
  auto sameAsNode = [&](size_t from) {
    for (size_t i = from; i < n.args.size(); ++i) {
      if (n.args[i]->dtype != n.dtype) bad(std::string("operand is ") + dtypeName(n.args[i]->dtype) + ", not " + dtypeName(n.dtype));
    }
  };
  switch (n.op) {
    case Op::Var: if (n.dtype != DType::Int32) bad("an axis is int32"); break;
    case Op::Int: if (!isInteger(n.dtype) && n.dtype != DType::Bool) bad("needs an integer dtype"); break;
    case Op::Float: if (!isFloat(n.dtype)) bad("needs a float dtype"); break;
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Min: case Op::Max:
      arity(2);
      sameAsNode(0);
      if (n.dtype == DType::Bool) bad("not defined on bool");
      break;
    case Op::Div: arity(2); sameAsNode(0); if (!isFloat(n.dtype)) bad("true division needs floats; use // for integers"); break;
    case Op::FloorDiv: case Op::FloorMod:
      arity(2);
      sameAsNode(0);
      if (!isInteger(n.dtype)) bad("needs integers");
      break;
    case Op::Neg: arity(1); sameAsNode(0); break;
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne:
      arity(2);
      if (n.dtype != DType::Bool) bad("a comparison is bool");
      if (n.args.size() == 2 && n.args[0]->dtype != n.args[1]->dtype) bad("operand dtypes differ");
      break;
    case Op::And: case Op::Or: arity(2); sameAsNode(0); if (n.dtype != DType::Bool) bad("needs bools"); break;
    case Op::Not: arity(1); sameAsNode(0); if (n.dtype != DType::Bool) bad("needs a bool"); break;
    case Op::Select:
      arity(3);
      if (n.args.size() == 3) {
        if (n.args[0]->dtype != DType::Bool) bad("the condition must be bool");
        sameAsNode(1);
      }
      break;
    case Op::Load:
      for (const auto& a : n.args) {
        if (a->dtype != DType::Int32 && a->dtype != DType::Int64) bad("an index must be an integer");
      }
      break;
    case Op::Cast: arity(1); break;
    case Op::Call:
      arity(1);
      sameAsNode(0);
      if (!isMathFunction(n.fn)) bad("unknown function '" + n.fn + "'");
      if (n.fn != "abs" && n.fn != "relu" && !isFloat(n.dtype)) bad(n.fn + " needs a float operand");
      break;
    case Op::Reduce:
      arity(1);
      sameAsNode(0);
      if (!isReducer(n.fn)) bad("unknown reduction '" + n.fn + "'");
      if (n.axes.empty()) bad("needs a reduce axis");
      break;
  }
  return error;
}

namespace {

// Checks one node and its arguments; `top` is whether a reduction may appear here (outside indices
// and other reductions).
void verifyNode(const ComputeDef& def, const ComputeExpr& e, bool top, std::string& error) {
  if (!error.empty()) return;
  const ComputeNode& n = *e;
  auto bad = [&](const std::string& what) {
    if (error.empty()) error = std::string(opName(n.op)) + ": " + what;
  };
  error = operationError(n);
  if (n.op == Op::Var && (n.var < 0 || static_cast<size_t>(n.var) >= def.vars.size())) bad("axis out of range");
  if (n.op == Op::Load) {
    if (n.tensor < 0 || n.tensor >= def.tensors()) {
      bad("input out of range");
    } else {
      const ComputeInput in = def.tensor(n.tensor);
      if (n.dtype != in.dtype) bad("dtype differs from the input's");
      if (n.args.size() != in.shape.size()) {
        bad("input " + std::to_string(n.tensor) + " has " + std::to_string(in.shape.size()) + " dimensions, " +
            std::to_string(n.args.size()) + " indices given");
      }
    }
  }
  if (n.op == Op::Reduce) {
    if (!top) bad("a reduction cannot be inside an index or another reduction");
    for (int a : n.axes) {
      if (a < 0 || static_cast<size_t>(a) >= def.vars.size() || !def.vars[static_cast<size_t>(a)].reduce) bad("reduces over a data axis");
    }
  }
  bool childTop = top && n.op != Op::Load && n.op != Op::Reduce;
  for (const auto& a : n.args) verifyNode(def, a, childTop, error);
}

int countReductions(const ComputeExpr& e) {
  int n = e->op == Op::Reduce ? 1 : 0;
  for (const auto& a : e->args) n += countReductions(a);
  return n;
}

// Whether reduce axis `axis` occurs in `e` outside a reduction over it.
bool usesFreely(const ComputeExpr& e, int axis) {
  if (e->op == Op::Var) return e->var == axis;
  if (e->op == Op::Reduce) {
    for (int a : e->axes) {
      if (a == axis) return false;
    }
  }
  for (const auto& a : e->args) {
    if (usesFreely(a, axis)) return true;
  }
  return false;
}

int64_t floorDiv(int64_t a, int64_t b) {
  if (b == 0) throw std::domain_error("integer division by zero");
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

}  // namespace

const char* opName(Op op) {
  for (const auto& k : kOps) {
    if (k.op == op) return k.name;
  }
  return "?";
}

bool parseOpName(const std::string& name, Op& out) {
  for (const auto& k : kOps) {
    if (name == k.name && k.op != Op::Var && k.op != Op::Int && k.op != Op::Float) {
      out = k.op;
      return true;
    }
  }
  return false;
}

bool isComparison(Op op) { return op >= Op::Lt && op <= Op::Ne; }
bool isMathFunction(const std::string& fn) {
  return fn == "exp" || fn == "log" || fn == "sqrt" || fn == "rsqrt" || fn == "abs" || fn == "relu";
}
bool isReducer(const std::string& fn) { return fn == "sum" || fn == "max" || fn == "min"; }

std::string inlineInto(ComputeDef& consumer, int tensor, const ComputeDef& producer, const std::vector<int>& inputs) {
  const bool reduces = reductionOf(producer.body) != nullptr;
  int reads = 0;
  std::set<int> indexAxes;  // the consumer's axes its reads of the tensor depend on
  std::function<void(const ComputeExpr&, bool)> scan = [&](const ComputeExpr& e, bool inIndex) {
    if (inIndex && e->op == Op::Var) indexAxes.insert(e->var);
    reads += e->op == Op::Load && e->tensor == tensor ? 1 : 0;
    for (const auto& a : e->args) scan(a, inIndex || (e->op == Op::Load && e->tensor == tensor));
  };
  scan(consumer.body, false);
  if (reduces && reductionOf(consumer.body)) return "'" + consumer.name + "' reduces too; a te.compute holds one reduction";
  for (int a = 0; reduces && a < consumer.rank(); ++a) {
    if (!indexAxes.count(a)) return "a reduction cannot be inlined; its consumers would repeat it for every element";
  }
  if (reduces && reads > 1) {
    return "'" + consumer.name + "' reads the reduction at " + std::to_string(reads) + " places, which would repeat it; read it once";
  }
  std::map<int, int> reduceVar;  // the producer's reduce axes join the consumer's
  for (size_t a = static_cast<size_t>(producer.rank()); a < producer.vars.size(); ++a) {
    IterVar r = producer.vars[a];
    auto taken = [&](const std::string& name) {
      for (const auto& w : consumer.vars) {
        if (w.name == name) return true;
      }
      return false;
    };
    for (int k = 1; taken(r.name); ++k) r.name = producer.vars[a].name + "_" + std::to_string(k);
    reduceVar[static_cast<int>(a)] = static_cast<int>(consumer.vars.size());
    consumer.vars.push_back(r);
  }
  std::function<ComputeExpr(const ComputeExpr&, const std::vector<ComputeExpr>&)> inner =
      [&](const ComputeExpr& e, const std::vector<ComputeExpr>& at) -> ComputeExpr {
    if (e->op == Op::Var) {
      auto r = reduceVar.find(e->var);
      return r != reduceVar.end() ? var(r->second) : at[static_cast<size_t>(e->var)];
    }
    ComputeNode copy = *e;
    if (copy.op == Op::Load) copy.tensor = inputs[static_cast<size_t>(copy.tensor)];
    for (auto& a : copy.axes) a = reduceVar.at(a);
    for (auto& a : copy.args) a = inner(a, at);
    return std::make_shared<const ComputeNode>(std::move(copy));
  };
  std::function<ComputeExpr(const ComputeExpr&)> outer = [&](const ComputeExpr& e) -> ComputeExpr {
    ComputeNode copy = *e;
    for (auto& a : copy.args) a = outer(a);
    if (copy.op == Op::Load && copy.tensor == tensor) return inner(producer.body, copy.args);
    return std::make_shared<const ComputeNode>(std::move(copy));
  };
  consumer.body = outer(consumer.body);
  return "";
}

std::optional<Contraction> contractionOf(const ComputeDef& def) {
  if (def.rank() != 2 || def.vars.size() != 3 || def.vars[2].lo != 0 || !def.attached.empty()) return std::nullopt;
  ComputeExpr sum = def.body->op == Op::Cast ? def.body->args[0] : def.body;
  if (sum->op != Op::Reduce || sum->fn != "sum" || sum->args[0]->op != Op::Mul) return std::nullopt;
  auto operand = [](ComputeExpr e) { return e->op == Op::Cast ? e->args[0] : e; };
  ComputeExpr x = operand(sum->args[0]->args[0]), y = operand(sum->args[0]->args[1]);
  if (x->op != Op::Load || y->op != Op::Load || x->args.size() != 2 || y->args.size() != 2) return std::nullopt;
  auto at = [](const ComputeExpr& load, int first, int second) {
    return load->args[0]->op == Op::Var && load->args[0]->var == first && load->args[1]->op == Op::Var &&
           load->args[1]->var == second;
  };
  if (!at(x, 0, 2)) std::swap(x, y);  // A is read at [i, k]
  if (!at(x, 0, 2) || !(at(y, 2, 1) || at(y, 1, 2)) || x->dtype != y->dtype) return std::nullopt;
  if (x->dtype != DType::Float16 && x->dtype != DType::Float32) return std::nullopt;
  return Contraction{x->tensor, y->tensor, at(y, 1, 2)};
}

ComputeExpr reductionOf(const ComputeExpr& body) {
  if (body->op == Op::Reduce) return body;
  for (const auto& a : body->args) {
    if (ComputeExpr r = reductionOf(a)) return r;
  }
  return nullptr;
}

ComputeExpr var(int index) {
  ComputeNode n;
  n.op = Op::Var;
  n.var = index;
  return make(n);
}
ComputeExpr intImm(int64_t value, DType dtype) {
  ComputeNode n;
  n.op = Op::Int;
  n.dtype = dtype;
  n.ival = value;
  return make(n);
}
ComputeExpr floatImm(double value, DType dtype) {
  ComputeNode n;
  n.op = Op::Float;
  n.dtype = dtype;
  n.fval = value;
  return make(n);
}
ComputeExpr node(Op op, DType dtype, std::vector<ComputeExpr> args) {
  ComputeNode n;
  n.op = op;
  n.dtype = dtype;
  n.args = std::move(args);
  return make(std::move(n));
}
ComputeExpr load(int tensor, DType dtype, std::vector<ComputeExpr> indices) {
  ComputeNode n;
  n.op = Op::Load;
  n.dtype = dtype;
  n.tensor = tensor;
  n.args = std::move(indices);
  return make(std::move(n));
}
ComputeExpr call(const std::string& fn, ComputeExpr arg) {
  ComputeNode n;
  n.op = Op::Call;
  n.dtype = arg->dtype;
  n.fn = fn;
  n.args = {std::move(arg)};
  return make(std::move(n));
}
ComputeExpr reduce(const std::string& fn, ComputeExpr source, std::vector<int> axes) {
  ComputeNode n;
  n.op = Op::Reduce;
  n.dtype = source->dtype;
  n.fn = fn;
  n.args = {std::move(source)};
  n.axes = std::move(axes);
  return make(std::move(n));
}

int ComputeDef::rank() const {
  int r = 0;
  for (const auto& v : vars) r += v.reduce ? 0 : 1;
  return r;
}

std::vector<int64_t> ComputeDef::shape() const {
  std::vector<int64_t> s;
  for (const auto& v : vars) {
    if (!v.reduce) s.push_back(v.extent);
  }
  return s;
}

std::string ComputeDef::str() const {
  std::string s = "compute " + name + " : " + typeText(dtype(), shape()) + " (";
  for (size_t i = 0; i < inputs.size(); ++i) s += (i ? ", " : "") + typeText(inputs[i].dtype, inputs[i].shape);
  s += ")";
  for (const auto& a : attached) s += " with (" + a.str() + ")";
  s += " axes(";
  std::string reduceAxes;
  for (const auto& v : vars) {
    if (v.reduce) {
      reduceAxes += (reduceAxes.empty() ? "" : ", ") + v.name + ":" + std::to_string(v.lo) + ":" + std::to_string(v.extent);
    } else {
      s += (s.back() == '(' ? "" : ", ") + v.name + ":" + std::to_string(v.extent);
    }
  }
  s += ")";
  if (!reduceAxes.empty()) s += " reduce(" + reduceAxes + ")";
  s += " = " + printExpr(body, names());
  return s;
}

ExprNames ComputeDef::names() const {
  ExprNames n;
  for (const auto& v : vars) n.vars.push_back(v.name);
  for (int i = 0; i < tensors(); ++i) n.tensors.push_back("in" + std::to_string(i));
  return n;
}

ComputeInput ComputeDef::tensor(int t) const {
  if (t < static_cast<int>(inputs.size())) return inputs[static_cast<size_t>(t)];
  const ComputeDef& a = attached.at(static_cast<size_t>(t) - inputs.size());
  return ComputeInput{a.dtype(), a.shape()};
}

ComputeDef parseComputeDef(const std::string& text) {
  ComputeDef def = readDef(text);
  if (std::string error = verifyComputeDef(def); !error.empty()) throw std::invalid_argument("compute text: " + error);
  return def;
}

std::string verifyComputeDef(const ComputeDef& def) {
  if (!def.body) return "no body";
  // every extent positive, and no more than 2^40 elements or iterations (far beyond any device),
  // so that what the loops compute from them stays far from overflow
  constexpr int64_t kMaxCount = int64_t{1} << 40;
  for (size_t i = 0; i < def.inputs.size(); ++i) {
    int64_t count = 1;
    for (int64_t d : def.inputs[i].shape) {
      if (d < 1) return "input " + std::to_string(i) + " has an extent of " + std::to_string(d);
      if (__builtin_mul_overflow(count, d, &count) || count > kMaxCount)
        return "input " + std::to_string(i) + " has more than 2^40 elements";
    }
  }
  int64_t iterations = 1;
  for (const auto& v : def.vars) {
    if (v.extent >= 1 && (__builtin_mul_overflow(iterations, v.extent, &iterations) || iterations > kMaxCount))
      return "the axes span more than 2^40 iterations";
  }
  bool reduceSeen = false;
  for (const auto& v : def.vars) {
    if (v.extent < 1) return "axis '" + v.name + "' has extent " + std::to_string(v.extent);
    if (!v.reduce && reduceSeen) return "the output's axes come before the reduce axes";
    reduceSeen = reduceSeen || v.reduce;
  }
  for (const auto& a : def.attached) {
    if (a.inputs.size() != def.inputs.size()) return "attached '" + a.name + "' reads other inputs than its consumer";
    for (size_t i = 0; i < a.inputs.size(); ++i) {
      if (a.inputs[i].dtype != def.inputs[i].dtype || a.inputs[i].shape != def.inputs[i].shape) {
        return "attached '" + a.name + "' reads other inputs than its consumer";
      }
    }
    if (!a.attached.empty()) return "attached '" + a.name + "' has attached computes of its own";
    if (std::string error = verifyComputeDef(a); !error.empty()) return "attached '" + a.name + "': " + error;
  }
  std::string error;
  verifyNode(def, def.body, true, error);
  if (!error.empty()) return error;
  if (countReductions(def.body) > 1) return "a te.compute holds at most one reduction";
  for (size_t i = 0; i < def.vars.size(); ++i) {
    if (def.vars[i].reduce && usesFreely(def.body, static_cast<int>(i))) {
      return "reduce axis '" + def.vars[i].name + "' is used outside a reduction over it";
    }
  }
  return "";
}

double evaluateExpr(const ComputeExpr& e, const ExprEnvironment& env) {
  const ComputeNode& n = *e;
  auto arg = [&](size_t i) { return evaluateExpr(n.args[i], env); };
  auto asInt = [](double v) { return static_cast<int64_t>(v); };
  switch (n.op) {
    case Op::Var: return env.var(n.var);
    case Op::Int: return static_cast<double>(n.ival);
    case Op::Float: return n.fval;
    case Op::Add: return arg(0) + arg(1);
    case Op::Sub: return arg(0) - arg(1);
    case Op::Mul: return arg(0) * arg(1);
    case Op::Div: return arg(0) / arg(1);
    case Op::FloorDiv: return static_cast<double>(floorDiv(asInt(arg(0)), asInt(arg(1))));
    case Op::FloorMod: {
      int64_t a = asInt(arg(0)), b = asInt(arg(1));
      return static_cast<double>(a - floorDiv(a, b) * b);
    }
    case Op::Min: return std::min(arg(0), arg(1));
    case Op::Max: return std::max(arg(0), arg(1));
    case Op::Neg: return -arg(0);
    case Op::Lt: return arg(0) < arg(1);
    case Op::Le: return arg(0) <= arg(1);
    case Op::Gt: return arg(0) > arg(1);
    case Op::Ge: return arg(0) >= arg(1);
    case Op::Eq: return arg(0) == arg(1);
    case Op::Ne: return arg(0) != arg(1);
    case Op::And: return arg(0) != 0 && arg(1) != 0;
    case Op::Or: return arg(0) != 0 || arg(1) != 0;
    case Op::Not: return arg(0) == 0;
    case Op::Select: return arg(0) != 0 ? arg(1) : arg(2);
    case Op::Load: {
      std::vector<int64_t> indices;
      for (size_t d = 0; d < n.args.size(); ++d) indices.push_back(asInt(arg(d)));
      return env.load(n.tensor, indices);
    }
    case Op::Cast: return castValue(arg(0), n.dtype);
    case Op::Call: {
      double v = arg(0);
      if (n.fn == "exp") return std::exp(v);
      if (n.fn == "log") return std::log(v);
      if (n.fn == "sqrt") return std::sqrt(v);
      if (n.fn == "rsqrt") return 1 / std::sqrt(v);
      if (n.fn == "abs") return std::fabs(v);
      return v > 0 ? v : 0;  // relu
    }
    case Op::Reduce: return env.reduce(n);
  }
  return 0;
}

double castValue(double v, DType t) {
  if (t == DType::Bool) return v != 0;
  if (isInteger(t)) return std::trunc(v);
  return v;
}

std::vector<double> evaluateComputeDef(const ComputeDef& def, const std::vector<std::vector<double>>& given) {
  std::vector<std::vector<double>> inputs = given;  // then the attached computes' results
  for (const auto& a : def.attached) inputs.push_back(evaluateComputeDef(a, given));
  std::vector<int64_t> vars(def.vars.size(), 0);
  ExprEnvironment env;
  env.var = [&](int v) { return static_cast<double>(vars[static_cast<size_t>(v)]); };
  env.load = [&](int tensor, const std::vector<int64_t>& indices) {
    const ComputeInput in = def.tensor(tensor);
    int64_t flat = 0;
    for (size_t d = 0; d < in.shape.size(); ++d) {
      int64_t i = indices[d];
      if (i < 0 || i >= in.shape[d]) {
        throw std::out_of_range("input " + std::to_string(tensor) + " read at index " + std::to_string(i) +
                                " of dimension " + std::to_string(d) + " (extent " + std::to_string(in.shape[d]) + ")");
      }
      flat = flat * in.shape[d] + i;
    }
    return inputs[static_cast<size_t>(tensor)][static_cast<size_t>(flat)];
  };
  env.reduce = [&](const ComputeNode& n) {
    double acc = n.fn == "sum" ? 0.0
                 : n.fn == "max" ? -std::numeric_limits<double>::infinity()
                                 : std::numeric_limits<double>::infinity();
    std::function<void(size_t)> loop = [&](size_t k) {
      if (k == n.axes.size()) {
        double v = evaluateExpr(n.args[0], env);
        acc = n.fn == "sum" ? acc + v : n.fn == "max" ? std::max(acc, v) : std::min(acc, v);
        return;
      }
      const IterVar& r = def.vars[static_cast<size_t>(n.axes[k])];
      for (int64_t i = r.lo; i < r.lo + r.extent; ++i) {
        vars[static_cast<size_t>(n.axes[k])] = i;
        loop(k + 1);
      }
    };
    loop(0);
    return acc;
  };
  std::vector<int64_t> shape = def.shape();
  int64_t count = 1;
  for (int64_t e : shape) count *= e;
  std::vector<double> out(static_cast<size_t>(count));
  for (int64_t flat = 0; flat < count; ++flat) {
    int64_t rest = flat;
    for (size_t d = shape.size(); d-- > 0;) {
      vars[d] = rest % shape[d];
      rest /= shape[d];
    }
    out[static_cast<size_t>(flat)] = evaluateExpr(def.body, env);
  }
  return out;
}

}  // namespace pyasc::te
