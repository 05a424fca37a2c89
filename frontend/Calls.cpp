// Calls: helper inlining, Python builtins, math, NumPy/pyasc.nn functions and array methods bound
// through the registry's alias table, the creation functions, and np.random streams.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "frontend/Analyzer.h"
#include "frontend/NumpyPrelude.h"
#include "registry/NameSuggestion.h"
#include "registry/ShapeInference.h"

namespace pyasc::frontend {

using graph::TensorType;
using graph::ValueId;
using registry::NumpyAlias;
using registry::NumpyParam;
using registry::ParamKind;

namespace {

constexpr int kMaxInlineDepth = 64;

std::string spellingOf(const Expr& callee) {
  if (callee.kind == ExprKind::Name) return callee.text;
  if (callee.kind == ExprKind::Attribute) {
    const std::string base = spellingOf(*callee.children[0]);
    return (base.empty() ? "a" : base) + "." + callee.text;
  }
  return "";
}

// The k-th of `count` items of a literal tuple or list expression, or null when `e` is not one
// (so a message about an item can point at it).
const Expr* literalItem(const Expr* e, size_t k, size_t count) {
  if (!e || (e->kind != ExprKind::Tuple && e->kind != ExprKind::List) || e->children.size() != count) return nullptr;
  return e->children[k].get();
}

}  // namespace

SymValue Analyzer::evalCall(const Expr& expr, const std::string& nameHint) {
  const Expr& calleeExpr = *expr.children[0];
  if (calleeExpr.kind == ExprKind::Attribute && (calleeExpr.text == "append" || calleeExpr.text == "extend") &&
      calleeExpr.children[0]->kind == ExprKind::Name && keptLoopDepth_ == 0) {
    // xs.append(v) on a list name at compile time (a loop that grows a list is unrolled): a new list
    const std::string& list = calleeExpr.children[0]->text;
    const SymValue* current = lookup(list);
    if (current && current->kind == SymKind::Tuple) {
      if (expr.children.size() != 2 || !expr.keywords.empty()) {
        fail(expr.range, "list." + calleeExpr.text + "() takes exactly one argument");
      }
      SymValue item = eval(*expr.children[1]);
      std::vector<SymValue> items = lookup(list)->items;
      if (calleeExpr.text == "append") {
        items.push_back(item);
      } else {
        const std::vector<SymValue> more = iterationItems(item, expr.children[1]->range);
        items.insert(items.end(), more.begin(), more.end());
      }
      if (static_cast<int64_t>(items.size()) > kMaxTupleItems) {
        fail(expr.range, "this list grows past " + std::to_string(kMaxTupleItems) + " items");
      }
      bind(list, SymValue::tuple(std::move(items)));
      return SymValue::none();
    }
  }
  const NumpyAlias* customOp = calleeExpr.kind == ExprKind::Name && !lookup(calleeExpr.text)
                                   ? registry_.findAlias("custom." + calleeExpr.text, registry::AliasForm::Function)
                                   : nullptr;
  if (calleeExpr.kind == ExprKind::Name && !lookup(calleeExpr.text) && !customOp) {
    const bool builtin = isBuiltin(calleeExpr.text);
    if (!builtin) {
      std::vector<std::string> candidates = visibleNames();
      const std::vector<std::string> customNames = registry_.aliasNames(registry::AliasForm::Function, "custom.");
      candidates.insert(candidates.end(), customNames.begin(), customNames.end());
      const std::string guess = registry::closestName(calleeExpr.text, candidates);
      std::vector<Diagnostic> notes;
      if (customNames.empty()) {
        notes.push_back(note(SourceRange{}, "if '" + calleeExpr.text + "' is a custom operator, load its descriptor with "
                                            "--custom-op-config=" + calleeExpr.text + ".json"));
      }
      fail(calleeExpr.range,
           "name '" + calleeExpr.text + "' is not defined" + (guess.empty() ? "" : "; did you mean '" + guess + "'?"),
           notes);
    }
  }
  SymValue callee = customOp ? SymValue::named(SymKind::Callable, "custom." + calleeExpr.text) : eval(calleeExpr);
  if (callee.kind == SymKind::Builtin && callee.text == "print") {
    // Its arguments are never evaluated: print(f"...") is common while debugging under NumPy.
    warn(expr.range, "print() is ignored by pyasc; compiled programs return their results as outputs");
    return SymValue::none();
  }
  CallArgs args;
  args.range = expr.range;
  args.calleeText = spellingOf(calleeExpr);
  bool poisoned = callee.kind == SymKind::Poison;
  for (size_t i = 1; i < expr.children.size(); ++i) {
    const Expr& argExpr = *expr.children[i];
    if (argExpr.kind == ExprKind::Starred) {
      SymValue spread = eval(*argExpr.children[0]);
      poisoned |= spread.kind == SymKind::Poison;
      if (spread.kind == SymKind::Poison) continue;
      if (spread.kind != SymKind::Tuple) {
        fail(argExpr.range, "argument unpacking (*) needs a tuple such as a.shape, found " + describeKind(spread));
      }
      for (const SymValue& item : spread.items) args.positional.push_back(Argument{item, argExpr.range, nullptr});
      continue;
    }
    Argument a{eval(argExpr), argExpr.range, &argExpr};
    poisoned |= a.value.kind == SymKind::Poison;
    args.positional.push_back(a);
  }
  for (const Keyword& k : expr.keywords) {
    Argument a{eval(*k.value), k.value->range, k.value.get()};
    poisoned |= a.value.kind == SymKind::Poison;
    args.keywords.emplace_back(k.name, a);
  }
  if (poisoned) return SymValue::poison();
  switch (callee.kind) {
    case SymKind::Function:
      if (numpyPreludeHelper(callee.function->text) == callee.function) return callPrelude(*callee.function, args);
      return callFunction(*callee.function, args);
    case SymKind::Builtin: return callBuiltin(callee.text, args);
    case SymKind::Callable: {
      const std::string& path = callee.text;
      if (callee.self) return callMethod(*callee.self, path, args, nameHint);
      if (path.rfind("numpy.random.", 0) == 0) return callRandom(path.substr(13), args, nameHint);
      if (path.rfind("ufunc.", 0) == 0) return callUfuncMethod(path.substr(6), args, nameHint);
      if (path.rfind("numpy.", 0) == 0) return callNumpy(path.substr(6), args, nameHint);
      if (path.rfind("pyasc.nn.", 0) == 0) return callNumpy("nn." + path.substr(9), args, nameHint);
      if (path.rfind("math.", 0) == 0) return callMath(path.substr(5), args);
      if (customOp) return callAlias(*customOp, std::nullopt, args, nameHint);
      break;
    }
    case SymKind::DType: {
      if (args.positional.size() != 1 || !args.keywords.empty()) {
        fail(expr.range, std::string("np.") + dtypeName(callee.dtype) + "() takes exactly one value");
      }
      const Argument& a = args.positional[0];
      if (callee.text == "complex") {  // np.complex64(x): x as a complex value of these planes
        CallArgs cast = args;
        cast.positional = {Argument{callee, a.range, nullptr}};
        if (auto z = complexCall("astype", a, cast, nameHint)) return *z;
      }
      if (a.value.kind == SymKind::Complex) {
        fail(a.range, "casting a complex value to a real dtype discards its imaginary part; take np.real(z) or np.abs(z)");
      }
      if (a.value.kind == SymKind::Tensor) {
        return fresh(builder_.cast(arrayValue(a.value, a.range), builder_.deviceDType(callee.dtype, a.range), expr.range),
                     expr.range);
      }
      return fresh(builder_.constant(callee.dtype, {requireNumber(a.value, a.range, "the value")}, {}, expr.range,
                                     nameHint.empty() ? "cst" : nameHint),
                   expr.range);
    }
    case SymKind::TensorType: fail(calleeExpr.range, "Tensor[...] is a type annotation; it cannot be called");
    default: break;
  }
  fail(calleeExpr.range, describeKind(callee) + " is not callable");
}

SymValue Analyzer::functionValue(const Stmt& function) {
  SymValue f = SymValue::make(SymKind::Function);
  f.function = &function;
  f.text = function.text;
  return f;
}

SymValue Analyzer::callPrelude(const Stmt& function, const CallArgs& args) {
  if (preludeSite_) return callFunction(function, args);  // one prelude function calling another
  preludeSite_ = &args.range;
  builder_.setSite(&args.range);
  struct Restore {
    Analyzer& a;
    ~Restore() {
      a.preludeSite_ = nullptr;
      a.builder_.setSite(nullptr);
    }
  } restore{*this};
  try {
    SymValue result = callFunction(function, args);
    result.range = args.range;
    return result;
  } catch (const CompileError& e) {
    const Diagnostic& d = e.diagnostic();
    std::vector<Diagnostic> notes;
    for (const Diagnostic& n : d.notes) {
      if (!n.range.begin.valid() || n.range.begin.file == args.range.begin.file) notes.push_back(n);
    }
    const bool inPrelude = d.range.begin.file != args.range.begin.file;
    fail(inPrelude ? args.range : d.range, (inPrelude ? args.calleeText + "(): " : std::string()) + d.message, notes);
  }
}

SymValue Analyzer::callFunction(const Stmt& function, const CallArgs& args) {
  for (const Frame& f : frames_) {
    if (f.function == &function) {
      fail(args.range, "recursive call to '" + function.text + "' cannot be inlined; pyasc inlines helper functions, "
                       "so write the recursion as a loop");
    }
  }
  if (callDepth_ >= kMaxInlineDepth) fail(args.range, "helper calls are nested too deeply to inline");
  Frame frame;
  frame.function = &function;
  frame.prelude = numpyPreludeHelper(function.text) == &function;
  const auto& params = function.params;
  if (args.positional.size() > params.size()) {
    fail(args.range, function.text + "() takes " + std::to_string(params.size()) + " positional argument(s) but " +
                         std::to_string(args.positional.size()) + " were given");
  }
  std::map<std::string, SymValue> values;
  for (size_t i = 0; i < args.positional.size(); ++i) values[params[i].name] = args.positional[i].value;
  for (const auto& kw : args.keywords) {
    const bool known = std::any_of(params.begin(), params.end(), [&](const Param& p) { return p.name == kw.first; });
    if (!known) fail(kw.second.range, function.text + "() got an unexpected keyword argument '" + kw.first + "'");
    if (values.count(kw.first)) fail(kw.second.range, function.text + "() got multiple values for argument '" + kw.first + "'");
    values[kw.first] = kw.second.value;
  }
  for (const Param& p : params) {
    if (values.count(p.name)) continue;
    if (!p.defaultValue) {
      fail(args.range, function.text + "() missing required argument '" + p.name + "'");
    }
    values[p.name] = eval(*p.defaultValue);
  }
  for (const Param& p : params) {
    frame.order.push_back(p.name);
    frame.locals[p.name] = values[p.name];
  }
  int pushed = 0;
  for (const auto& hint : functionHints_) {
    if (hint.first != &function) continue;
    for (const auto& h : hint.second) {
      builder_.pushHint(h);
      ++pushed;
    }
  }
  frames_.push_back(std::move(frame));
  ++callDepth_;
  const int savedLoopDepth = keptLoopDepth_;
  keptLoopDepth_ = 0;
  Flow flow = Flow::Normal;
  try {
    flow = execBlock(function.body);
  } catch (...) {
    keptLoopDepth_ = savedLoopDepth;
    --callDepth_;
    frames_.pop_back();
    for (int i = 0; i < pushed; ++i) builder_.popHint();
    throw;
  }
  keptLoopDepth_ = savedLoopDepth;
  --callDepth_;
  SymValue result = flow == Flow::Return ? frames_.back().returnValue : SymValue::none();
  frames_.pop_back();
  for (int i = 0; i < pushed; ++i) builder_.popHint();
  return result;
}

SymValue Analyzer::callBuiltin(const std::string& name, const CallArgs& args) {
  const std::vector<Argument>& a = args.positional;
  auto needArgs = [&](size_t lo, size_t hi) {
    if (a.size() < lo || a.size() > hi || !args.keywords.empty()) {
      fail(args.range, name + "() takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                           " positional argument(s), got " + std::to_string(a.size()));
    }
  };
  if (name == "_refuse") fail(args.range, a.empty() || a[0].value.kind != SymKind::String ? "unsupported arguments" : a[0].value.text);
  if (name == "range") {  // a value outside a for loop's header: the tuple of its integers
    needArgs(1, 3);
    std::vector<int64_t> b;
    for (const Argument& arg : a) b.push_back(requireInt(arg.value, arg.range, "a range() bound"));
    const int64_t start = b.size() == 1 ? 0 : b[0], stop = b.size() == 1 ? b[0] : b[1], step = b.size() == 3 ? b[2] : 1;
    if (step == 0) fail(a[2].range, "range() arg 3 must not be zero");
    const int64_t count = registry::sliceLength(start, stop, step);
    if (count > kMaxTupleItems) {
      fail(args.range, "range() of " + std::to_string(count) + " integers outside a for loop's header (at most " +
                           std::to_string(kMaxTupleItems) + ")");
    }
    std::vector<SymValue> items;
    for (int64_t k = 0; k < count; ++k) items.push_back(SymValue::ofInt(start + k * step));
    return SymValue::tuple(std::move(items));
  }
  if (name == "len") {
    needArgs(1, 1);
    const SymValue& v = a[0].value;
    if (v.kind == SymKind::Selection) return selectionCount(v, args.range);
    if (v.kind == SymKind::Tuple) return SymValue::ofInt(static_cast<int64_t>(v.items.size()));
    if (v.kind == SymKind::String) return SymValue::ofInt(static_cast<int64_t>(v.text.size()));
    if (v.kind == SymKind::Tensor) {
      SymValue shape = arrayAttribute(v, "shape", a[0].range, "");
      if (shape.items.empty()) fail(args.range, "len() of unsized object (a 0-d array)");
      return shape.items[0];
    }
    fail(a[0].range, "object of type " + describeKind(v) + " has no len()");
  }
  if (name == "int" || name == "float" || name == "bool") {
    needArgs(1, 1);
    const SymValue& v = a[0].value;
    if (v.kind == SymKind::Tensor) {
      fail(args.range, name + "() of an array needs its value at compile time; convert arrays with .astype(np." +
                           (name == "int" ? "int32" : name == "float" ? "float32" : "bool_") + ")");
    }
    double d = 0;
    if (v.kind == SymKind::String) {
      char* end = nullptr;
      d = std::strtod(v.text.c_str(), &end);
      if (*end != '\0' || v.text.empty()) fail(a[0].range, "could not convert string to " + name + ": '" + v.text + "'");
    } else {
      d = requireNumber(v, a[0].range, name + "() argument");
    }
    if (name == "int") return SymValue::ofInt(truncatedInt(d, a[0].range));
    if (name == "float") return SymValue::ofFloat(d);
    return SymValue::ofBool(d != 0);
  }
  if (name == "abs") {
    needArgs(1, 1);
    const SymValue& v = a[0].value;
    if (v.kind == SymKind::Int) return SymValue::ofInt(std::llabs(v.intValue));
    if (v.kind == SymKind::Float) return SymValue::ofFloat(std::fabs(v.floatValue));
    if (v.kind == SymKind::Bool) return SymValue::ofInt(v.boolValue);
    return applyOp("Abs", {a[0]}, {}, args.range, "", "abs");
  }
  if (name == "min" || name == "max") {
    std::vector<SymValue> items;
    if (a.size() == 1 && a[0].value.kind == SymKind::Tuple) {
      items = a[0].value.items;
    } else {
      for (const Argument& arg : a) items.push_back(arg.value);
    }
    if (items.empty()) fail(args.range, name + "() arg is an empty sequence");
    const bool scalars = std::all_of(items.begin(), items.end(), [&](const SymValue& v) {
      return v.kind != SymKind::Tensor || (!v.untyped && builder_.type(arrayValue(v, args.range)).rank() == 0);
    });
    if (scalars && std::any_of(items.begin(), items.end(), [](const SymValue& v) { return v.kind == SymKind::Tensor; })) {
      // runtime scalars (0-d arrays, table[i, j]): the larger or smaller of each pair
      Argument best{items[0], args.range, nullptr};
      for (size_t i = 1; i < items.size(); ++i) {
        best.value = applyOp(name == "min" ? "Minimum" : "Maximum", {best, Argument{items[i], args.range, nullptr}}, {},
                             args.range, "", name);
      }
      return best.value;
    }
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].kind == SymKind::Tensor) {
        fail(args.range, "the builtin " + name + "() compares whole arrays; use np." + (name == "min" ? "minimum" : "maximum") +
                             "(a, b) elementwise or np." + name + "(a) to reduce");
      }
      requireNumber(items[i], a.size() == 1 ? a[0].range : a[i].range, name + "() argument");
    }
    SymValue best = items[0];
    for (const SymValue& v : items) {
      if (name == "min" ? v.number() < best.number() : v.number() > best.number()) best = v;
    }
    return best;
  }
  if (name == "round") {
    needArgs(1, 2);
    const double d = requireNumber(a[0].value, a[0].range, "round() argument");
    if (a.size() == 1) return SymValue::ofInt(static_cast<int64_t>(std::nearbyint(d)));
    const double scale = std::pow(10.0, static_cast<double>(requireInt(a[1].value, a[1].range, "ndigits")));
    return SymValue::ofFloat(std::nearbyint(d * scale) / scale);
  }
  if (name == "list" || name == "tuple") {
    needArgs(1, 1);
    if (a[0].value.kind != SymKind::Tuple) fail(a[0].range, name + "() needs a tuple or list at compile time");
    return a[0].value;
  }
  if (name == "sum") {
    if (a.size() == 1 && a[0].value.kind == SymKind::Tuple) {
      SymValue total = SymValue::ofInt(0);
      for (const SymValue& v : a[0].value.items) {
        if (total.kind == SymKind::Tensor || v.kind == SymKind::Tensor || total.kind == SymKind::Complex ||
            v.kind == SymKind::Complex) {  // Python's 0 + a + b ... with arrays or complex numbers
          total = binaryOperator("+", Argument{total, args.range, nullptr}, Argument{v, args.range, nullptr}, args.range, "");
        } else {
          total = foldScalars("+", total, v, args.range);
        }
      }
      return total;
    }
    fail(args.range, "the builtin sum() is not supported on arrays; use np.sum(a)");
  }
  if (name == "zip") {  // the tuples of the sequences' items, as long as the shortest
    // as long as the shortest: an array's rows beyond it are not taken
    int64_t shortest = -1;
    for (const Argument& arg : a) {
      const SymValue& v = arg.value;
      int64_t length = -1;
      if (v.kind == SymKind::Tuple) {
        length = static_cast<int64_t>(v.items.size());
      } else if (v.kind == SymKind::Tensor && !v.weak) {
        const graph::TensorType type = builder_.type(arrayValue(v, arg.range));  // copied: reading rows adds values
        if (type.rank() >= 1 && type.shape[0].isKnown()) length = type.shape[0].extent;
      }
      if (length >= 0) shortest = shortest < 0 ? length : std::min(shortest, length);
    }
    std::vector<std::vector<SymValue>> seqs;
    for (const Argument& arg : a) seqs.push_back(iterationItems(arg.value, arg.range, shortest));
    std::vector<SymValue> tuples;
    for (size_t i = 0; !seqs.empty(); ++i) {
      std::vector<SymValue> t;
      for (const auto& s : seqs) {
        if (i >= s.size()) break;
        t.push_back(s[i]);
      }
      if (t.size() < seqs.size()) break;
      tuples.push_back(SymValue::tuple(std::move(t)));
    }
    return SymValue::tuple(std::move(tuples));
  }
  if (name == "enumerate") {
    if (a.empty() || a.size() > 2) fail(args.range, "enumerate() takes an iterable and an optional start");
    int64_t start = a.size() == 2 ? requireInt(a[1].value, a[1].range, "enumerate() start") : 0;
    for (const auto& kw : args.keywords) {
      if (kw.first != "start") fail(kw.second.range, "enumerate() got an unexpected keyword argument '" + kw.first + "'");
      start = requireInt(kw.second.value, kw.second.range, "enumerate() start");
    }
    std::vector<SymValue> tuples;
    for (const SymValue& item : iterationItems(a[0].value, a[0].range)) {
      tuples.push_back(SymValue::tuple({SymValue::ofInt(start++), item}));
    }
    return SymValue::tuple(std::move(tuples));
  }
  fail(args.range, "the builtin " + name + "() is not supported in pyasc programs");
}

void Analyzer::checkConstantSize(int64_t elements, const SourceRange& range) {
  // the widest dtype it may take: float64 before the device's demotion
  if (elements > graph::kMaxConstantBytes / 8) {
    fail(range, "this would be a constant of " + std::to_string(elements) + " elements in the model; constants hold at most " +
                    humanBytes(double(graph::kMaxConstantBytes)));
  }
}

int64_t Analyzer::truncatedInt(double d, const SourceRange& range) {
  // Python's int is unbounded; ours is int64, and int() of inf or nan is Python's OverflowError/ValueError
  if (!(std::fabs(d) < 9223372036854775808.0)) {
    fail(range, std::isnan(d)   ? "cannot convert float NaN to integer"
                : std::isinf(d) ? "cannot convert float infinity to integer"
                                : "the integer " + std::to_string(d) + " does not fit in 64 bits");
  }
  return static_cast<int64_t>(std::trunc(d));
}

const std::set<std::string>& Analyzer::mathOnRuntimeScalars() {
  static const std::set<std::string> names = {"sqrt", "exp", "log", "log2"};
  return names;
}

SymValue Analyzer::callMath(const std::string& name, const CallArgs& args) {
  std::vector<double> x;
  for (const Argument& a : args.positional) {
    if (a.value.kind == SymKind::Tuple && name == "prod") {
      double p = 1;
      for (const SymValue& v : a.value.items) p *= requireNumber(v, a.range, "math.prod() element");
      return SymValue::ofInt(truncatedInt(p, a.range));
    }
    if (a.value.kind == SymKind::Tensor && args.positional.size() == 1 && mathOnRuntimeScalars().count(name) &&
        (a.value.weak || builder_.type(arrayValue(a.value, a.range)).rank() == 0)) {
      return callNumpy(name, args, "");  // math.sqrt(a[i]): one element, as NumPy computes it
    }
    if (a.value.kind == SymKind::Tensor) fail(a.range, "math." + name + "() works on compile-time numbers; use np." + name + " on arrays");
    x.push_back(requireNumber(a.value, a.range, "math." + name + "() argument"));
  }
  const size_t want = name == "gcd" ? 2 : name == "log" ? x.size() : 1;
  if (x.size() != want || x.empty() || (name == "log" && x.size() > 2)) {
    fail(args.range, "math." + name + "() got " + std::to_string(x.size()) + " argument(s)");
  }
  if (name == "sqrt") return SymValue::ofFloat(std::sqrt(x[0]));
  if (name == "ceil") return SymValue::ofInt(truncatedInt(std::ceil(x[0]), args.range));
  if (name == "floor") return SymValue::ofInt(truncatedInt(std::floor(x[0]), args.range));
  if (name == "log") return SymValue::ofFloat(x.size() == 2 ? std::log(x[0]) / std::log(x[1]) : std::log(x[0]));
  if (name == "log2") return SymValue::ofFloat(std::log2(x[0]));
  if (name == "exp") return SymValue::ofFloat(std::exp(x[0]));
  if (name == "gcd") return SymValue::ofInt(std::gcd(truncatedInt(x[0], args.range), truncatedInt(x[1], args.range)));
  fail(args.range, "math." + name + "() needs a tuple");
}

namespace {

// NumPy's unary math functions on a compile-time number: np.floor(2.5) is the number 2.0, as NumPy gives.
double (*scalarMath(const std::string& name))(double) {
  static const std::map<std::string, double (*)(double)> functions = {
      {"floor", [](double x) { return std::floor(x); }}, {"ceil", [](double x) { return std::ceil(x); }},
      {"trunc", [](double x) { return std::trunc(x); }}, {"rint", [](double x) { return std::nearbyint(x); }},
      {"sqrt", [](double x) { return std::sqrt(x); }},   {"exp", [](double x) { return std::exp(x); }},
      {"log", [](double x) { return std::log(x); }},     {"log2", [](double x) { return std::log2(x); }},
      {"log10", [](double x) { return std::log10(x); }}, {"sin", [](double x) { return std::sin(x); }},
      {"cos", [](double x) { return std::cos(x); }},     {"tan", [](double x) { return std::tan(x); }},
      {"arctan", [](double x) { return std::atan(x); }}, {"tanh", [](double x) { return std::tanh(x); }},
  };
  auto it = functions.find(name);
  return it == functions.end() ? nullptr : it->second;
}

}  // namespace

SymValue Analyzer::callNumpy(const std::string& aliasName, const CallArgs& args, const std::string& nameHint) {
  if (auto complex = complexCall(aliasName, std::nullopt, args, nameHint)) return *complex;
  if (aliasName == "where" && args.positional.size() == 1 && args.keywords.empty()) {
    return callSelecting("nonzero", args.positional[0], args, nameHint);  // np.where(condition) is np.nonzero(condition)
  }
  if (auto* math = scalarMath(aliasName);
      math && args.keywords.empty() && args.positional.size() == 1 && args.positional[0].value.isScalarConstant()) {
    return SymValue::ofFloat(math(requireNumber(args.positional[0].value, args.positional[0].range, "np." + aliasName + "() argument")));
  }
  const NumpyAlias* alias = registry_.findAlias(aliasName, registry::AliasForm::Function);
  if (!alias) failUnknownFunction(aliasName.rfind("nn.", 0) == 0 ? "pyasc.nn" : "numpy", aliasName, args.range);
  return callAlias(*alias, std::nullopt, args, nameHint);
}

namespace {

// The binary ufuncs whose `reduce` is a NumPy reduction, and that reduction.
const std::map<std::string, std::string>& ufuncReductions() {
  static const std::map<std::string, std::string> r = {{"add", "sum"}, {"multiply", "prod"}, {"maximum", "max"},
                                                       {"minimum", "min"}, {"logical_and", "all"}, {"logical_or", "any"}};
  return r;
}

}  // namespace

SymValue Analyzer::ufuncMethod(const std::string& ufunc, const std::string& method, const SourceRange& range) {
  const NumpyAlias* alias = registry_.findAlias(ufunc, registry::AliasForm::Function);
  const registry::OpEntry* op = alias ? registry_.find(alias->op) : nullptr;
  const bool binary = op && op->category == registry::OpCategory::Broadcast && op->inputs.size() == 2;
  if (binary && method == "outer") return SymValue::named(SymKind::Callable, "ufunc." + ufunc + ".outer");
  if (binary && method == "reduce" && ufuncReductions().count(ufunc)) {
    return SymValue::named(SymKind::Callable, "ufunc." + ufunc + ".reduce");
  }
  const bool scans = ufunc == "add" || ufunc == "multiply" || ufunc == "maximum" || ufunc == "minimum";
  if (binary && method == "accumulate" && scans) return SymValue::named(SymKind::Callable, "ufunc." + ufunc + ".accumulate");
  const bool combines = scans || ufunc == "subtract";
  if (binary && method == "at" && combines) return SymValue::named(SymKind::Callable, "ufunc." + ufunc + ".at");
  if (binary && (method == "reduce" || method == "accumulate" || method == "at" || method == "reduceat")) {
    fail(range, "np." + ufunc + "." + method + " is not supported by pyasc yet",
         {note(SourceRange{}, "outer is supported for every binary ufunc, reduce for add, multiply, maximum, minimum, "
                              "logical_and and logical_or, accumulate for add, multiply, maximum and minimum, at for "
                              "add, subtract, multiply, maximum and minimum")});
  }
  fail(range, "function np." + ufunc + " has no attribute '" + method + "'");
}

// outer(a, b): a's axes, then b's (a expanded by b's rank, then broadcast); reduce(a, axis=0,
// keepdims=False): the NumPy reduction of the ufunc, over axis 0 unless told otherwise.
SymValue Analyzer::callUfuncMethod(const std::string& path, const CallArgs& args, const std::string& nameHint) {
  const std::string ufunc = path.substr(0, path.rfind('.')), method = path.substr(path.rfind('.') + 1);
  if (method == "at") return callUfuncAt(ufunc, args);
  if (method == "accumulate") {  // np.cumsum's parameters (a, axis, dtype) are accumulate's too
    std::map<std::string, Argument> bound = bindArguments(*registry_.findAlias("cumsum", registry::AliasForm::Function), std::nullopt, args);
    return callScan(ufunc, true, bound, args, nameHint);
  }
  if (method == "outer") {
    if (args.positional.size() != 2 || !args.keywords.empty()) fail(args.range, "np." + ufunc + ".outer() takes two arrays");
    const Argument& a = args.positional[0];
    const ValueId b = asArray(args.positional[1], args.calleeText);
    ValueId left = asArray(a, args.calleeText);
    const int rankA = builder_.type(left).rank(), rankB = builder_.type(b).rank();
    if (rankB > 0) {
      std::vector<int64_t> axes;
      for (int i = 0; i < rankB; ++i) axes.push_back(rankA + i);
      left = builder_.addNode("ExpandDims", {left}, {{"axes", axes}}, a.range);
    }
    CallArgs call = args;
    call.positional[0] = Argument{fresh(left, a.range), a.range, nullptr};
    call.positional[1] = Argument{fresh(b, args.positional[1].range), args.positional[1].range, nullptr};
    return callNumpy(ufunc, call, nameHint);
  }
  CallArgs call = args;
  const bool axisGiven = args.positional.size() > 1 ||
                         std::any_of(args.keywords.begin(), args.keywords.end(), [](const auto& k) { return k.first == "axis"; });
  if (!axisGiven) call.keywords.emplace_back("axis", Argument{SymValue::ofInt(0), args.range, nullptr});
  return callNumpy(ufuncReductions().at(ufunc), call, nameHint);
}

// An inclusive scan along one axis in ceil(log2 n) steps (Hillis and Steele): step k combines each
// element with the one 2^k before it, y = concat(y[:2^k], y[2^k:] op y[:-2^k]), all of it slices,
// one elementwise operation and a concatenation. Sums and products of booleans and integers are
// int64, as NumPy's (stage narrow-integers computes them in int32 when their bounds allow).
SymValue Analyzer::callScan(const std::string& ufunc, bool accumulate, std::map<std::string, Argument>& bound,
                            const CallArgs& args, const std::string& nameHint) {
  const std::string spelling = args.calleeText;
  const std::optional<Argument> axisArg = bound.count("axis") ? std::optional<Argument>(bound["axis"]) : std::nullopt;
  std::optional<DType> dtype;
  if (bound.count("dtype") && bound["dtype"].value.kind != SymKind::None) dtype = dtypeArgument(bound["dtype"].value, bound["dtype"].range);
  ValueId x = asArray(bound["a"], spelling);
  const SourceRange& range = args.range;
  int64_t axis = 0;  // the flattened array's (axis=None, cumsum's default), or accumulate's default
  const bool flatten = axisArg ? axisArg->value.kind == SymKind::None : !accumulate;
  if (flatten) {
    x = builder_.addNode("Reshape", {x}, {{"shape", std::vector<int64_t>{-1}}}, range);
  } else if (axisArg) {
    axis = requireInt(axisArg->value, axisArg->range, "axis");
  }
  const int rank = builder_.type(x).rank();
  if (rank == 0) fail(range, spelling + "() needs an array of at least one dimension");
  if (axis < -rank || axis >= rank) {
    fail(axisArg ? axisArg->range : range, "axis " + std::to_string(axis) + " is out of bounds for an array of " +
                                               std::to_string(rank) + " dimension(s)");
  }
  if (axis < 0) axis += rank;
  const DType from = builder_.type(x).dtype;
  if (dtype) {
    x = builder_.cast(x, builder_.deviceDType(*dtype, range), range);
  } else if ((ufunc == "add" || ufunc == "multiply") && !isFloat(from) && from != DType::Int64) {
    x = builder_.cast(x, DType::Int64, range);  // NumPy's sums and products of small integers
  }
  const graph::Dim extent = builder_.type(x).shape[static_cast<size_t>(axis)];
  if (!extent.isKnown()) fail(range, spelling + "() needs a known extent along its axis");
  const int64_t n = extent.extent;
  const std::string op = registry_.findAlias(ufunc, registry::AliasForm::Function)->op;
  auto slice = [&](ValueId v, int64_t begin, int64_t end) { return builder_.slice(v, axis, begin, end, 1, range); };
  for (int64_t k = 1; k < n; k *= 2) {
    const ValueId combined = builder_.addNode(op, {slice(x, k, n), slice(x, 0, n - k)}, {}, range);
    x = builder_.addNode("Concat", {slice(x, 0, k), combined}, {{"axis", axis}}, range,
                         k * 2 >= n ? nameHint : std::string());
  }
  return fresh(x, range);
}

// The vector norms over the flattened array or the given axis (ord None or 2: √Σx², 1: Σ|x|, inf:
// max|x|, -inf: min|x|, 0: the count of non-zeros, any other p: (Σ|x|^p)^(1/p)) and the Frobenius
// norm of a matrix (ord None or 'fro' with two axes or a 2-d array and no axis), in floats as NumPy.
SymValue Analyzer::callNorm(std::map<std::string, Argument>& bound, const CallArgs& args, const std::string& nameHint) {
  const SourceRange& range = args.range;
  ValueId x = asArray(bound["x"], args.calleeText);
  if (!isFloat(builder_.type(x).dtype)) x = builder_.cast(x, builder_.deviceDType(DType::Float64, range), range);
  const int rank = builder_.type(x).rank();
  std::vector<int64_t> axes;
  if (bound.count("axis") && bound["axis"].value.kind != SymKind::None) axes = intList(bound["axis"].value, bound["axis"].range, "axis");
  bool keepdims = false;
  if (bound.count("keepdims")) {
    const Argument& k = bound["keepdims"];
    if (k.value.kind != SymKind::Bool) fail(k.range, "keepdims must be True or False");
    keepdims = k.value.boolValue;
  }
  const bool matrix = axes.size() == 2 || (axes.empty() && rank == 2 && bound.count("ord") && bound["ord"].value.kind != SymKind::None);
  std::string ord = "2";
  double p = 2;
  if (bound.count("ord") && bound["ord"].value.kind != SymKind::None) {
    const Argument& o = bound["ord"];
    if (o.value.kind == SymKind::String) {
      ord = o.value.text;
    } else {
      p = requireNumber(o.value, o.range, "ord");
      ord = std::isinf(p) ? (p > 0 ? "inf" : "-inf") : "p";
    }
    if (matrix && ord != "fro") {
      fail(o.range, "np.linalg.norm of a matrix supports ord=None or 'fro' in pyasc (the Frobenius norm)");
    }
    if (!matrix && ord != "inf" && ord != "-inf" && ord != "p") fail(o.range, "ord='" + ord + "' is a matrix norm");
  }
  std::vector<graph::NamedAttr> reduce = {{"keepdims", keepdims}};
  if (!axes.empty()) reduce.push_back({"axes", axes});
  const ValueId magnitude = builder_.addNode("Abs", {x}, {}, range);
  ValueId result;
  if (ord == "inf" || ord == "-inf") {
    result = builder_.addNode(ord == "inf" ? "ReduceMax" : "ReduceMin", {magnitude}, reduce, range, nameHint);
  } else if (ord == "p" && p == 0) {
    const ValueId zero = builder_.constant(builder_.type(x).dtype, {0}, {}, range);
    const ValueId nonzero = builder_.cast(builder_.addNode("NotEqual", {x, zero}, {}, range), builder_.type(x).dtype, range);
    result = builder_.addNode("ReduceSum", {nonzero}, reduce, range, nameHint);
  } else if (ord == "p" && p == 1) {
    result = builder_.addNode("ReduceSum", {magnitude}, reduce, range, nameHint);
  } else if (ord == "fro" || p == 2) {
    const ValueId squares = builder_.addNode("Mul", {x, x}, {}, range);
    result = builder_.addNode("Sqrt", {builder_.addNode("ReduceSum", {squares}, reduce, range)}, {}, range, nameHint);
  } else {
    const DType t = builder_.type(x).dtype;
    const ValueId powers = builder_.addNode("Pow", {magnitude, builder_.constant(t, {p}, {}, range)}, {}, range);
    const ValueId total = builder_.addNode("ReduceSum", {powers}, reduce, range);
    result = builder_.addNode("Pow", {total, builder_.constant(t, {1 / p}, {}, range)}, {}, range, nameHint);
  }
  return fresh(result, range);
}

// np.sort by ranks: element i's rank along the axis counts the elements NumPy puts before it
// (smaller; equal and earlier; NaN after every number), over all n² pairs of the row; position k
// then takes the largest of the elements whose rank is k (one number, or NaN). Every comparison is
// exact, so the result is NumPy's bit for bit (stable, NaN last); n² per row bounds the size.
SymValue Analyzer::callSort(std::map<std::string, Argument>& bound, const CallArgs& args, const std::string& nameHint,
                            bool indices) {
  const std::string callee = (args.calleeText.empty() ? std::string(indices ? "np.argsort" : "np.sort") : args.calleeText) + "()";
  constexpr int64_t kMaxPairs = int64_t{1} << 24;
  // kind is accepted and ignored: every kind sorts stably here
  const std::optional<Argument> axisArg = bound.count("axis") ? std::optional<Argument>(bound["axis"]) : std::nullopt;
  const SourceRange& range = args.range;
  ValueId x = asArray(bound["a"], args.calleeText);
  int64_t axis = -1;
  if (axisArg && axisArg->value.kind == SymKind::None) {
    x = builder_.addNode("Reshape", {x}, {{"shape", std::vector<int64_t>{-1}}}, range);
  } else if (axisArg) {
    axis = requireInt(axisArg->value, axisArg->range, "axis");
  }
  const int rank = builder_.type(x).rank();
  if (rank == 0) fail(range, callee + " needs an array of at least one dimension");
  if (axis < -rank || axis >= rank) fail(range, "axis " + std::to_string(axis) + " is out of bounds for an array of " + std::to_string(rank) + " dimension(s)");
  if (axis < 0) axis += rank;
  std::vector<int64_t> perm;  // the sorted axis last, and back
  for (int64_t d = 0; d < rank; ++d) perm.push_back(d == axis ? rank - 1 : d == rank - 1 ? axis : d);
  if (axis != rank - 1) x = builder_.addNode("Transpose", {x}, {{"perm", perm}}, range);
  const TensorType type = builder_.type(x);
  if (!graph::isStaticShape(type.shape)) fail(range, callee + " needs a known shape");
  const int64_t n = type.shape.back().extent, count = graph::elementCount(type.shape);
  if (n > 0 && count / n * n * n > kMaxPairs) {
    fail(range, callee + " compares every pair of elements of a row: " + std::to_string(count / n) + " row(s) of " +
                    std::to_string(n) + " make more than 2^24 pairs");
  }
  const int64_t r = rank;
  auto node = [&](const std::string& op, std::vector<ValueId> in, std::vector<graph::NamedAttr> attrs = {}) {
    return builder_.addNode(op, std::move(in), std::move(attrs), range);
  };
  // the pairs as whole [..., i, j] arrays, so that the comparisons fuse into one elementwise kernel
  std::vector<int64_t> square;
  for (const graph::Dim& d : type.shape) square.push_back(d.extent);
  square.push_back(n);
  auto spread = [&](ValueId v, int64_t newAxis) {
    return node("BroadcastTo", {node("ExpandDims", {v}, {{"axes", std::vector<int64_t>{newAxis}}})}, {{"shape", square}});
  };
  const ValueId xi = spread(x, r), xj = spread(x, r - 1);
  const ValueId index = node("Range", {}, {{"start", 0.0}, {"stop", static_cast<double>(n)}, {"step", 1.0}, {"dtype", std::string("int32")}});
  const ValueId earlier = node("Less", {spread(index, 0), spread(index, 1)});  // j < i
  const ValueId nanI = node("IsNan", {xi}), nanJ = node("IsNan", {xj});
  const ValueId smaller = node("LogicalOr", {node("Less", {xj, xi}), node("LogicalAnd", {nanI, node("LogicalNot", {nanJ})})});
  const ValueId same = node("LogicalOr", {node("Equal", {xj, xi}), node("LogicalAnd", {nanI, nanJ})});
  const ValueId before = node("LogicalOr", {smaller, node("LogicalAnd", {same, earlier})});
  const ValueId ranks = node("ReduceSum", {builder_.cast(before, DType::Float32, range)},
                             {{"axes", std::vector<int64_t>{r}}, {"keepdims", false}});  // [..., i]
  const ValueId position = builder_.cast(index, DType::Float32, range);
  const ValueId lands = node("Equal", {node("ExpandDims", {ranks}, {{"axes", std::vector<int64_t>{r}}}),
                                       node("ExpandDims", {position}, {{"axes", std::vector<int64_t>{0}}})});  // [..., i, k]
  ValueId sorted;
  if (indices) {  // argsort: position k sums the one index whose rank is k, an int64 as NumPy's
    const ValueId zero = builder_.constant(DType::Int32, {0}, {}, range);
    const ValueId own = node("ExpandDims", {index}, {{"axes", std::vector<int64_t>{1}}});  // i along axis r - 1
    sorted = builder_.addNode("ReduceSum", {node("Where", {lands, own, zero})},
                              {{"axes", std::vector<int64_t>{r - 1}}, {"keepdims", false}}, range,
                              axis == rank - 1 ? nameHint : std::string());
  } else {
    const double lowest = isFloat(type.dtype) ? -INFINITY : type.dtype == DType::Bool ? 0.0 : static_cast<double>(INT32_MIN);
    const ValueId floor = builder_.constant(type.dtype, {lowest}, {}, range);
    sorted = builder_.addNode("ReduceMax", {node("Where", {lands, xi, floor})},
                              {{"axes", std::vector<int64_t>{r - 1}}, {"keepdims", false}}, range,
                              axis == rank - 1 ? nameHint : std::string());
  }
  if (axis != rank - 1) sorted = builder_.addNode("Transpose", {sorted}, {{"perm", perm}}, range, nameHint);
  return fresh(sorted, range);
}

SymValue Analyzer::callMethod(const SymValue& self, const std::string& name, const CallArgs& args,
                              const std::string& nameHint) {
  Argument a{self, self.range, nullptr};
  if (auto complex = complexCall(name, a, args, nameHint)) return *complex;
  const NumpyAlias* alias = registry_.findAlias(name, registry::AliasForm::Method);
  return callAlias(*alias, a, args, nameHint);
}

std::vector<int64_t> Analyzer::intList(const SymValue& v, const SourceRange& range, const std::string& what) {
  if (v.kind == SymKind::Int || v.kind == SymKind::Bool) return {requireInt(v, range, what)};
  if (v.kind == SymKind::Tuple) {
    std::vector<int64_t> list;
    for (const SymValue& item : v.items) {
      if (item.kind == SymKind::SymbolicDim) {
        fail(range, what + " uses the symbolic extent " + item.text + ", which has no compile-time value",
             {note(SourceRange{}, "give the input a fixed shape with --input=NAME:DTYPE[...] or Tensor[float32, ...]")});
      }
      list.push_back(requireInt(item, range, what));
    }
    return list;
  }
  fail(range, what + " must be an int or a tuple of ints, found " + describeKind(v));
}

DType Analyzer::dtypeArgument(const SymValue& v, const SourceRange& range) {
  if (v.kind == SymKind::DType && v.text == "complex") {
    fail(range, "complex dtypes are supported by np.zeros, np.ones, np.empty, np.full and .astype (complex arrays are "
                "pairs of real planes), not here");
  }
  if (v.kind == SymKind::DType) return v.dtype;
  if (v.kind == SymKind::Builtin && (v.text == "float" || v.text == "int" || v.text == "bool")) {
    return v.text == "float" ? DType::Float64 : v.text == "int" ? DType::Int64 : DType::Bool;
  }
  DType t;
  if (v.kind == SymKind::String && parseDType(v.text, t)) return t;
  // NumPy's type codes ("f4", "<i8", "?").
  static const std::pair<const char*, DType> codes[] = {
      {"f2", DType::Float16}, {"f4", DType::Float32}, {"f8", DType::Float64}, {"i1", DType::Int8},
      {"i2", DType::Int16},   {"i4", DType::Int32},   {"i8", DType::Int64},   {"u1", DType::UInt8},
      {"b1", DType::Bool},    {"?", DType::Bool},     {"e", DType::Float16},  {"f", DType::Float32},
      {"d", DType::Float64}};
  if (v.kind == SymKind::String) {
    std::string code = v.text;
    if (!code.empty() && (code[0] == '<' || code[0] == '|' || code[0] == '=')) code = code.substr(1);
    for (const auto& c : codes) {
      if (code == c.first) return c.second;
    }
  }
  fail(range, "data type not understood: " + (v.kind == SymKind::String ? "'" + v.text + "'" : describeKind(v)),
       {note(SourceRange{}, "use np.float16, np.float32, np.int32, np.int8, np.uint8, np.bool_ or their names")});
}

std::map<std::string, Analyzer::Argument> Analyzer::bindArguments(const NumpyAlias& alias,
                                                                  const std::optional<Argument>& self,
                                                                  const CallArgs& args) {
  std::map<std::string, Argument> bound;
  const auto& params = alias.params;
  size_t next = 0;
  if (self) bound[params[next++].name] = *self;
  const std::string callee = args.calleeText + "()";
  for (size_t i = 0; i < args.positional.size(); ++i) {
    if (next >= params.size()) {
      fail(args.positional[i].range, callee + " takes at most " + std::to_string(params.size() - (self ? 1 : 0)) +
                                         " positional argument(s)");
    }
    const NumpyParam& p = params[next];
    if (p.varargs) {
      std::vector<SymValue> rest;
      const bool single = args.positional.size() - i == 1;
      if (single && (args.positional[i].value.kind == SymKind::Tuple || args.positional[i].value.kind == SymKind::None) &&
          p.kind == ParamKind::IntList) {
        bound[p.name] = args.positional[i];
      } else {
        for (size_t j = i; j < args.positional.size(); ++j) rest.push_back(args.positional[j].value);
        SourceRange r = args.positional[i].range;
        const SourceRange& last = args.positional.back().range;
        if (last.begin.line == r.begin.line) r.length = last.begin.col + last.length - r.begin.col;
        bound[p.name] = Argument{SymValue::tuple(rest), r, nullptr};
      }
      next = params.size();
      break;
    }
    bound[p.name] = args.positional[i];
    ++next;
  }
  for (const auto& kw : args.keywords) {
    auto it = std::find_if(params.begin(), params.end(), [&](const NumpyParam& p) { return p.name == kw.first; });
    if (it == params.end() || (self && it == params.begin())) {
      static const char* const unsupported[] = {"out", "where", "order", "casting", "subok", "initial", "like", "copy", "dtype"};
      for (const char* u : unsupported) {
        if (kw.first != u) continue;
        fail(kw.second.range, callee + " argument '" + kw.first + "' is not supported by pyasc" +
                                  (kw.first == "dtype" ? "; convert the array first with .astype(...)" : ""));
      }
      std::vector<std::string> names;
      for (const auto& p : params) names.push_back(p.name);
      const std::string guess = registry::closestName(kw.first, names);
      fail(kw.second.range, callee + " got an unexpected keyword argument '" + kw.first + "'" +
                                (guess.empty() ? "" : "; did you mean '" + guess + "'?"));
    }
    if (bound.count(kw.first)) fail(kw.second.range, callee + " got multiple values for argument '" + kw.first + "'");
    bound[kw.first] = kw.second;
  }
  for (const NumpyParam& p : params) {
    if (p.required && !bound.count(p.name) && !p.defaultValue) {
      std::vector<Diagnostic> notes;
      if (alias.name == "where") notes.push_back(note(SourceRange{}, "the one-argument form np.where(cond) is not supported"));
      fail(args.range, callee + " missing required argument '" + p.name + "'", notes);
    }
  }
  return bound;
}

graph::Attribute Analyzer::attributeFor(const NumpyParam& param, const Argument& arg, const std::string& callee) {
  const std::string what = callee + " argument '" + param.name + "'";
  const SymValue& v = arg.value;
  switch (param.kind) {
    case ParamKind::Int:
    case ParamKind::Axis: return requireInt(v, arg.range, what);
    case ParamKind::Float: return requireNumber(v, arg.range, what);
    case ParamKind::Bool:
      if (v.kind != SymKind::Bool && v.kind != SymKind::Int) fail(arg.range, what + " must be True or False");
      return v.kind == SymKind::Bool ? v.boolValue : v.intValue != 0;
    case ParamKind::String:
      if (v.kind != SymKind::String) fail(arg.range, what + " must be a string, found " + describeKind(v));
      return v.text;
    case ParamKind::Axes:
    case ParamKind::IntList: return intList(v, arg.range, what);
    case ParamKind::DType: return std::string(dtypeName(dtypeArgument(v, arg.range)));
    default: fail(arg.range, what + " is not a compile-time parameter");
  }
}

SymValue Analyzer::callAlias(const NumpyAlias& alias, const std::optional<Argument>& self, const CallArgs& args,
                             const std::string& nameHint) {
  std::map<std::string, Argument> bound = bindArguments(alias, self, args);
  if (std::any_of(bound.begin(), bound.end(), [](const auto& b) { return b.second.value.kind == SymKind::Selection; })) {
    const registry::OpEntry* entry = registry_.find(alias.op);
    const bool elementwise = entry && (entry->category == registry::OpCategory::Elementwise ||
                                       entry->category == registry::OpCategory::Broadcast);
    if (!elementwise && (!entry || entry->category != registry::OpCategory::Reduce)) {
      failOnSelection(args.range, args.calleeText + "()");
    }
  }
  bool handled = true;
  SymValue special = callSpecial(alias.name, bound, args, nameHint, handled);
  if (handled) return special;
  std::vector<Argument> operands;
  std::vector<graph::NamedAttr> attrs;
  for (const NumpyParam& p : alias.params) {
    auto it = bound.find(p.name);
    if (p.kind == ParamKind::Tensor) {
      if (it != bound.end()) operands.push_back(it->second);
      continue;
    }
    if (p.kind == ParamKind::TensorList) {
      if (it == bound.end()) continue;
      const SymValue& list = it->second.value;
      if (list.kind != SymKind::Tuple) {
        fail(it->second.range, args.calleeText + "() needs a sequence of arrays for '" + p.name + "', found " +
                                   describeKind(list));
      }
      for (const SymValue& item : list.items) operands.push_back(Argument{item, it->second.range, nullptr});
      continue;
    }
    if (it != bound.end() && it->second.value.kind != SymKind::None) {
      attrs.push_back({p.attr, attributeFor(p, it->second, args.calleeText + "()")});
    } else if (it != bound.end() && (p.kind != ParamKind::Axes && p.kind != ParamKind::Axis && p.kind != ParamKind::IntList &&
                                     p.kind != ParamKind::DType)) {
      fail(it->second.range, args.calleeText + "() argument '" + p.name + "' cannot be None");
    } else if (p.defaultValue) {
      attrs.push_back({p.attr, *p.defaultValue});
    }
  }
  for (const auto& fixed : alias.fixedAttrs) attrs.push_back(fixed);
  return applyOp(alias.op, operands, attrs, args.range, nameHint, args.calleeText);
}

SymValue Analyzer::callSpecial(const std::string& name, std::map<std::string, Argument>& bound,
                               const CallArgs& args, const std::string& nameHint, bool& handled) {
  const std::string callee = args.calleeText + "()";
  auto optionalDType = [&](const char* key) -> std::optional<DType> {
    auto it = bound.find(key);
    if (it == bound.end() || it->second.value.kind == SymKind::None) return std::nullopt;
    return dtypeArgument(it->second.value, it->second.range);
  };
  if (name == "cumsum" || name == "cumprod") return callScan(name == "cumsum" ? "add" : "multiply", false, bound, args, nameHint);
  if (name == "sort" || name == "argsort") return callSort(bound, args, nameHint, name == "argsort");
  if (name == "nonzero" || name == "flatnonzero") return callSelecting(name, bound.at("a"), args, nameHint);
  if (name == "unique") return callSelecting(name, bound.at("ar"), args, nameHint);
  if (name == "linalg.norm") return callNorm(bound, args, nameHint);
  if (name == "array" || name == "asarray") {
    const Argument& obj = bound.count("object") ? bound["object"] : bound["a"];
    const std::optional<DType> dtype = optionalDType("dtype");
    if (obj.value.kind == SymKind::Tensor) {
      const ValueId id = arrayValue(obj.value, obj.range);
      if (dtype) return fresh(builder_.cast(id, builder_.deviceDType(*dtype, args.range), args.range), args.range);
      if (name == "asarray") return obj.value;
      return fresh(builder_.addNode("Identity", {id}, {}, args.range, nameHint), args.range);
    }
    return constantArray(obj.value, dtype, args.range, nameHint);
  }
  if (name == "astype") {
    const Argument& a = bound["a"];
    const DType to = builder_.deviceDType(dtypeArgument(bound["dtype"].value, bound["dtype"].range), args.range);
    if (a.value.kind == SymKind::Tensor && !a.value.untyped && builder_.type(arrayValue(a.value, a.range)).dtype == to) {
      return fresh(arrayValue(a.value, a.range), args.range);  // a copy with nothing to convert
    }
    handled = false;
    return SymValue::none();
  }
  if (name == "linspace") {
    const double start = requireNumber(bound["start"].value, bound["start"].range, "linspace() start");
    const double stop = requireNumber(bound["stop"].value, bound["stop"].range, "linspace() stop");
    const int64_t num = bound.count("num") ? requireInt(bound["num"].value, bound["num"].range, "linspace() num") : 50;
    const bool endpoint = !bound.count("endpoint") || truthy(bound["endpoint"].value, bound["endpoint"].range);
    if (num < 0) fail(bound["num"].range, "Number of samples, " + std::to_string(num) + ", must be non-negative.");
    // numpy/core/function_base.py: y = arange(num) * (delta / div) + start, last value set to stop.
    const int64_t div = endpoint ? num - 1 : num;
    const double delta = stop - start;
    checkConstantSize(num, args.range);
    std::vector<double> values(static_cast<size_t>(num));
    for (int64_t i = 0; i < num; ++i) {
      values[static_cast<size_t>(i)] = div > 0 ? static_cast<double>(i) * (delta / static_cast<double>(div)) + start
                                               : static_cast<double>(i) * delta + start;
    }
    if (endpoint && num > 1) values.back() = stop;
    const std::optional<DType> dtype = optionalDType("dtype");
    SymValue array = fresh(builder_.constant(dtype.value_or(DType::Float64), values, graph::knownShape({num}), args.range,
                                             nameHint.empty() ? "cst" : nameHint, !dtype),
                           args.range);
    array.demotedFloat64 = !dtype;
    return array;
  }
  if (name == "eye" || name == "identity") {
    const Argument& rows = bound.count("N") ? bound["N"] : bound["n"];
    const int64_t n = requireInt(rows.value, rows.range, name + "() size");
    int64_t m = n;
    if (bound.count("M") && bound["M"].value.kind != SymKind::None) m = requireInt(bound["M"].value, bound["M"].range, "eye() M");
    const int64_t k = bound.count("k") ? requireInt(bound["k"].value, bound["k"].range, "eye() k") : 0;
    if (n < 0 || m < 0) fail(args.range, "negative dimensions are not allowed");
    checkConstantSize(m == 0 ? 0 : (n > graph::kMaxElements / m ? graph::kMaxElements : n * m), args.range);
    std::vector<double> values(static_cast<size_t>(n * m), 0.0);
    for (int64_t i = 0; i < n; ++i) {
      if (i + k >= 0 && i + k < m) values[static_cast<size_t>(i * m + i + k)] = 1.0;
    }
    const std::optional<DType> dtype = optionalDType("dtype");
    SymValue array = fresh(builder_.constant(dtype.value_or(DType::Float64), values, graph::knownShape({n, m}), args.range,
                                             nameHint.empty() ? "cst" : nameHint, !dtype),
                           args.range);
    array.demotedFloat64 = !dtype;
    return array;
  }
  if (name == "arange") {
    const double first = requireNumber(bound["start"].value, bound["start"].range, "arange() start");
    bool floats = bound["start"].value.kind == SymKind::Float;
    double start = 0, stop = first, step = 1;
    if (bound.count("stop") && bound["stop"].value.kind != SymKind::None) {
      start = first;
      stop = requireNumber(bound["stop"].value, bound["stop"].range, "arange() stop");
      floats |= bound["stop"].value.kind == SymKind::Float;
    }
    if (bound.count("step")) {
      step = requireNumber(bound["step"].value, bound["step"].range, "arange() step");
      floats |= bound["step"].value.kind == SymKind::Float;
    }
    if (step == 0) fail(args.range, "arange() step must not be zero");
    const DType dtype = optionalDType("dtype").value_or(floats ? DType::Float64 : DType::Int64);
    return fresh(builder_.addNode("Range", {}, {{"start", start}, {"stop", stop}, {"step", step},
                                                 {"dtype", std::string(dtypeName(dtype))}},
                                  args.range, nameHint),
                 args.range);
  }
  if (name == "full" || name == "zeros_like" || name == "ones_like" || name == "empty_like" || name == "full_like") {
    std::vector<int64_t> shape;
    std::optional<DType> dtype = optionalDType("dtype");
    if (name == "full") {
      shape = intList(bound["shape"].value, bound["shape"].range, callee + " shape");
    } else {
      const Argument& a = bound["a"];
      if (a.value.kind != SymKind::Tensor) fail(a.range, callee + " needs an array, found " + describeKind(a.value));
      const TensorType& t = builder_.type(arrayValue(a.value, a.range));
      if (!t.ranked || !graph::isStaticShape(t.shape)) {
        fail(a.range, callee + " needs an array with a static shape, found " + t.str());
      }
      for (const auto& d : t.shape) shape.push_back(d.extent);
      if (!dtype) dtype = t.dtype;
    }
    double value = name == "ones_like" ? 1.0 : 0.0;
    if (bound.count("fill_value")) {
      const Argument& fv = bound["fill_value"];
      value = requireNumber(fv.value, fv.range, callee + " fill_value");
      if (!dtype) {
        dtype = fv.value.kind == SymKind::Float ? DType::Float64 : fv.value.kind == SymKind::Bool ? DType::Bool : DType::Int64;
      }
    }
    std::vector<int64_t> dims = shape;
    return fresh(builder_.addNode("Fill", {}, {{"shape", dims}, {"value", value}, {"dtype", std::string(dtypeName(*dtype))}},
                                  args.range, nameHint),
                 args.range);
  }
  if (name == "tensordot") {
    const Argument& a = bound["a"];
    const Argument& b = bound["b"];
    std::vector<int64_t> axesA, axesB;
    const Argument axes = bound.count("axes") ? bound["axes"] : Argument{SymValue::ofInt(2), args.range, nullptr};
    if (axes.value.kind == SymKind::Int) {
      const int64_t n = axes.value.intValue;
      if (a.value.kind != SymKind::Tensor || b.value.kind != SymKind::Tensor) fail(args.range, callee + " needs two arrays");
      const int rankA = builder_.type(arrayValue(a.value, a.range)).rank();
      if (n < 0 || n > rankA) fail(axes.range, callee + " axes=" + std::to_string(n) + " exceeds the rank of the first operand");
      for (int64_t k = 0; k < n; ++k) {
        axesA.push_back(rankA - n + k);
        axesB.push_back(k);
      }
    } else if (axes.value.kind == SymKind::Tuple && axes.value.items.size() == 2) {
      axesA = intList(axes.value.items[0], axes.range, callee + " axes");
      axesB = intList(axes.value.items[1], axes.range, callee + " axes");
    } else {
      fail(axes.range, callee + " axes must be an int or a pair of axis lists");
    }
    return applyOp("TensorDot", {a, b}, {{"axes_a", axesA}, {"axes_b", axesB}}, args.range, nameHint, args.calleeText);
  }
  if (name == "dot") {
    Argument a = bound["a"];
    Argument b = bound["b"];
    if (a.value.isScalarConstant() || b.value.isScalarConstant()) {
      return applyOp("Mul", {a, b}, {}, args.range, nameHint, args.calleeText);
    }
    // N-d operands (nested lists as arrays): dot sums over a's last axis and b's second to last
    // (its only one when 1-d); with a b of 2 dimensions or fewer that is matmul, else tensordot;
    // a 0-d operand multiplies
    for (Argument* x : {&a, &b}) x->value = fresh(asArray(*x, callee), x->range);
    const int rankA = builder_.type(arrayValue(a.value, a.range)).rank(), rankB = builder_.type(arrayValue(b.value, b.range)).rank();
    if (rankA == 0 || rankB == 0) return applyOp("Mul", {a, b}, {}, args.range, nameHint, args.calleeText);
    if (rankB > 2 && rankA >= 1) {
      return applyOp("TensorDot", {a, b}, {{"axes_a", std::vector<int64_t>{rankA - 1}}, {"axes_b", std::vector<int64_t>{rankB - 2}}},
                     args.range, nameHint, args.calleeText);
    }
    return applyOp("MatMul", {a, b}, {}, args.range, nameHint, args.calleeText);
  }
  if (name == "pad") {
    Argument a = bound["array"];
    a.value = fresh(asArray(a, callee), a.range);
    const TensorType& t = builder_.type(arrayValue(a.value, a.range));
    if (!t.ranked) fail(a.range, callee + " needs an array of known rank; declare its shape, e.g. Tensor[float32, 64, 128]");
    const std::vector<int64_t> pads = padWidths(bound["pad_width"], t.rank(), callee);
    std::string mode = "constant";
    if (bound.count("mode")) {
      const Argument& m = bound["mode"];
      if (m.value.kind != SymKind::String) fail(m.range, callee + " mode must be a string, found " + describeKind(m.value));
      mode = m.value.text;
      if (mode != "constant" && mode != "edge") {
        fail(m.range, callee + " mode '" + mode + "' is not supported by pyasc; use 'constant' or 'edge'");
      }
    }
    double value = 0;
    if (bound.count("constant_values")) {
      const Argument& v = bound["constant_values"];
      if (mode != "constant") fail(v.range, "unsupported keyword arguments for mode '" + mode + "': {'constant_values'}");
      if (v.value.kind == SymKind::Tuple) {
        fail(v.range, callee + " constant_values must be one number; per-axis values are not supported by pyasc");
      }
      value = requireNumber(v.value, v.range, callee + " constant_values");
      // stored as the array's dtype, as NumPy's assignment casts it
      if (isInteger(t.dtype)) value = std::trunc(value);
      if (t.dtype == DType::Bool) value = value != 0;
    }
    return applyOp("Pad", {a}, {{"pads", pads}, {"mode", mode}, {"value", value}}, args.range, nameHint, args.calleeText);
  }
  if (name == "take") {
    const Argument& a = bound["a"];
    if (a.value.kind != SymKind::Tensor) fail(a.range, callee + " needs an array, found " + describeKind(a.value));
    const ValueId base = arrayValue(a.value, a.range);
    const TensorType& t = builder_.type(base);
    if (!t.ranked) fail(a.range, callee + " needs an array of known rank; declare its shape, e.g. Tensor[float32, 64, 128]");
    const Argument& indices = bound["indices"];
    if (!bound.count("axis") || bound["axis"].value.kind == SymKind::None) {
      // NumPy takes from the flattened array
      const ValueId flat = builder_.addNode("Reshape", {base}, {{"shape", std::vector<int64_t>{-1}}}, args.range);
      return gather(flat, 0, indices, args.range, nameHint, callee + " indices");
    }
    const Argument& axisArg = bound["axis"];
    int64_t axis = requireInt(axisArg.value, axisArg.range, callee + " axis");
    if (!registry::normalizeAxis(axis, t.rank(), axis)) fail(axisArg.range, registry::axisError(axis, t.rank()));
    return gather(base, axis, indices, args.range, nameHint, callee + " indices");
  }
  if (name == "clip") {
    const Argument& a = bound["a"];
    const Argument& lo = bound.count("a_min") ? bound["a_min"] : bound["min"];
    const Argument& hi = bound.count("a_max") ? bound["a_max"] : bound["max"];
    if (lo.value.kind == SymKind::None && hi.value.kind == SymKind::None) fail(args.range, "One of max or min must be given");
    if (lo.value.kind == SymKind::None) return applyOp("Minimum", {a, hi}, {}, args.range, nameHint, args.calleeText);
    if (hi.value.kind == SymKind::None) return applyOp("Maximum", {a, lo}, {}, args.range, nameHint, args.calleeText);
    return applyOp("Clip", {a, lo, hi}, {}, args.range, nameHint, args.calleeText);
  }
  handled = false;
  return SymValue::none();
}

std::vector<int64_t> Analyzer::padWidths(const Argument& arg, int rank, const std::string& callee) {
  // np.broadcast_to(pad_width, (rank, 2)): an int, one pair, or one pair per axis
  const std::string what = callee + " pad_width";
  std::vector<std::vector<int64_t>> rows;
  auto rangeOf = [&](const Expr* e) { return e ? e->range : arg.range; };
  auto row = [&](const SymValue& v, const Expr* e) {
    std::vector<int64_t> r;
    const std::vector<SymValue> items = v.kind == SymKind::Tuple ? v.items : std::vector<SymValue>{v};
    for (size_t k = 0; k < items.size(); ++k) {
      const Expr* itemExpr = v.kind == SymKind::Tuple ? literalItem(e, k, items.size()) : e;
      if (items[k].kind == SymKind::Tuple) {
        fail(rangeOf(itemExpr), what + " nests too deeply; give one (before, after) pair per axis");
      }
      r.push_back(requireInt(items[k], rangeOf(itemExpr), what));
    }
    return r;
  };
  const SymValue& v = arg.value;
  const bool pairs = v.kind == SymKind::Tuple && !v.items.empty() && v.items[0].kind == SymKind::Tuple;
  if (pairs) {
    for (size_t k = 0; k < v.items.size(); ++k) {
      const Expr* itemExpr = literalItem(arg.expr, k, v.items.size());
      if (v.items[k].kind != SymKind::Tuple) {
        fail(rangeOf(itemExpr), what + " mixes pairs and numbers; give one (before, after) pair per axis");
      }
      rows.push_back(row(v.items[k], itemExpr));
    }
  } else {
    rows.push_back(row(v, arg.expr));
  }
  const size_t columns = rows[0].size();
  bool fits = rows.size() == 1 || rows.size() == static_cast<size_t>(rank);
  for (const auto& r : rows) fits = fits && r.size() == columns && (columns == 1 || columns == 2);
  if (!fits) {
    fail(arg.range, what + " of shape (" + std::to_string(rows.size()) + ", " + std::to_string(columns) +
                        ") does not fit an array of " + std::to_string(rank) +
                        " dimension(s); give an int, a (before, after) pair, or one pair per axis");
  }
  std::vector<int64_t> pads;
  for (int d = 0; d < rank; ++d) {
    const std::vector<int64_t>& r = rows[rows.size() == 1 ? 0 : static_cast<size_t>(d)];
    pads.push_back(r[0]);
    pads.push_back(r[columns - 1]);
  }
  for (int64_t p : pads) {
    if (p < 0) fail(arg.range, "index can't contain negative values");
  }
  return pads;
}

SymValue Analyzer::gather(ValueId base, int64_t axis, const Argument& indices, const SourceRange& range,
                          const std::string& nameHint, const std::string& what) {
  const TensorType& t = builder_.type(base);
  const graph::Dim dim = t.shape[static_cast<size_t>(axis)];
  const bool single = indices.value.kind != SymKind::Tuple;
  const std::vector<SymValue> items = single ? std::vector<SymValue>{indices.value} : indices.value.items;
  std::vector<int64_t> normalized;
  for (size_t k = 0; k < items.size(); ++k) {
    // each index is reported where it is written when the indices are a literal list
    const Expr* written = single ? nullptr : literalItem(indices.expr, k, items.size());
    const SourceRange& r = written ? written->range : indices.range;
    if (items[k].kind != SymKind::Int) {
      fail(r, what + " must hold compile-time ints, found " + describeKind(items[k]),
           {note(SourceRange{}, "gathers take literal index lists such as [0, 2, 5]; select with np.where by a mask")});
    }
    int64_t i = items[k].intValue;
    if (!dim.isKnown()) fail(r, what + " needs the extent of axis " + std::to_string(axis) + ", which is symbolic (" + dim.str() + ")");
    if (i < -dim.extent || i >= dim.extent) {
      fail(r, "index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) + " with size " +
                  std::to_string(dim.extent));
    }
    normalized.push_back(i < 0 ? i + dim.extent : i);
  }
  ValueId v = builder_.addNode("Gather", {base}, {{"indices", normalized}, {"axis", axis}}, range, single ? "" : nameHint);
  // a single index drops the axis, as np.take(a, 2, axis=1) does
  if (single) v = builder_.addNode("Squeeze", {v}, {{"axes", std::vector<int64_t>{axis}}}, range, nameHint);
  return fresh(v, range);
}

SymValue Analyzer::callRandom(const std::string& name, const CallArgs& args, const std::string& nameHint) {
  const std::string callee = "np.random." + name + "()";
  if (name == "seed") {
    if (args.positional.size() > 1 || !args.keywords.empty()) fail(args.range, callee + " takes one seed");
    ++randomStream_;
    randomOffset_ = 0;
    randomSeeded_ = !args.positional.empty() && args.positional[0].value.kind != SymKind::None;
    if (randomSeeded_) {
      const int64_t seed = requireInt(args.positional[0].value, args.positional[0].range, "the seed");
      if (seed < 0 || seed > 0xffffffffLL) fail(args.positional[0].range, "Seed must be between 0 and 2**32 - 1");
      randomSeed_ = static_cast<uint32_t>(seed);
    }
    return SymValue::none();
  }
  if (builder_.inLoopBody()) {
    fail(args.range, callee + " inside a loop kept as a loop would draw new values on every iteration; draw them all "
                     "before the loop (e.g. np.random." + name + "(n, ...)) and index them");
  }
  std::vector<int64_t> shape;
  if (name == "rand" || name == "randn") {
    if (!args.keywords.empty()) fail(args.keywords[0].second.range, callee + " takes dimensions only");
    for (const Argument& a : args.positional) {
      const int64_t d = requireInt(a.value, a.range, "a dimension");
      if (d < 0) fail(a.range, "negative dimensions are not allowed");
      shape.push_back(d);
    }
  } else {
    const Argument* size = args.positional.empty() ? nullptr : &args.positional[0];
    for (const auto& kw : args.keywords) {
      if (kw.first == "size") size = &kw.second;
    }
    if (size && size->value.kind != SymKind::None) shape = intList(size->value, size->range, callee + " size");
    if (!size || size->value.kind == SymKind::None) shape.clear();
  }
  if (shape.empty()) {
    fail(args.range, callee + " without dimensions returns a Python float, which pyasc cannot draw at compile "
                     "time; pass a shape such as np.random." + name + "(1)");
  }
  graph::RandomSpec spec;
  spec.distribution = name == "randn" ? graph::RandomDistribution::Normal : graph::RandomDistribution::Uniform;
  spec.seeded = randomSeeded_;
  spec.seed = randomSeed_;
  spec.stream = randomStream_;
  spec.offset = randomOffset_;
  // the element count (an array above 2^40 elements is refused before it can overflow) and the
  // stream's position after it
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d > 0 && count > graph::kMaxElements / d) {
      fail(args.range, callee + " would give an array of shape " + graph::shapeString(graph::knownShape(shape)) +
                           ", more than 2^40 elements (more than any device holds)");
    }
    count *= d;
  }
  if (randomOffset_ > (int64_t{1} << 62) - count) {
    fail(args.range, "the program draws more than 2^62 random values from one stream");
  }
  randomOffset_ += count;
  const ValueId id = builder_.addInput(nameHint.empty() ? "rand" : nameHint,
                                       TensorType{DType::Float64, graph::knownShape(shape), graph::Layout::ND, true},
                                       graph::InputRole::Random, spec, args.range);
  SymValue drawn = fresh(id, args.range);
  drawn.demotedFloat64 = true;
  return drawn;
}

}  // namespace pyasc::frontend
