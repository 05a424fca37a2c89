// Expressions: names, module members, array attributes, operators with NumPy 2 promotion and
// weak Python scalars, compile-time folding, and the conversion of values to graph arrays.
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <map>

#include "frontend/Analyzer.h"
#include "frontend/NumpyPrelude.h"
#include "registry/NameSuggestion.h"
#include "registry/ShapeInference.h"

namespace pyasc::frontend {

using graph::TensorType;
using graph::ValueId;
using registry::ScalarKind;

namespace {

const char* const kBuiltins[] = {"range", "len", "int", "float", "bool", "abs", "min", "max", "print", "round",
                                 "list", "tuple", "sum", "enumerate", "zip", "isinstance", "type", "map", "open"};

// NumPy's dtype attribute names (np.float32, np.double, np.bool_...).
bool dtypeFromName(const std::string& name, DType& out) {
  static const std::pair<const char*, DType> names[] = {
      {"float16", DType::Float16}, {"half", DType::Float16},   {"float32", DType::Float32}, {"single", DType::Float32},
      {"float64", DType::Float64}, {"double", DType::Float64}, {"float_", DType::Float64},  {"int8", DType::Int8},
      {"int16", DType::Int16},     {"int32", DType::Int32},    {"intc", DType::Int32},      {"int64", DType::Int64},
      {"int_", DType::Int64},      {"uint8", DType::UInt8},    {"bool_", DType::Bool},      {"bool", DType::Bool}};
  for (const auto& n : names) {
    if (name == n.first) {
      out = n.second;
      return true;
    }
  }
  return false;
}

ScalarKind kindOfDType(DType t) {
  return isFloat(t) ? ScalarKind::Float : t == DType::Bool ? ScalarKind::Bool : ScalarKind::Int;
}

bool fitsIn(int64_t v, DType t) {
  switch (t) {
    case DType::Int8: return v >= -128 && v <= 127;
    case DType::UInt8: return v >= 0 && v <= 255;
    case DType::Int16: return v >= -32768 && v <= 32767;
    case DType::Int32: return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
    default: return true;
  }
}

}  // namespace

SymValue Analyzer::fresh(ValueId value, const SourceRange& range) {
  SymValue v = SymValue::make(SymKind::Tensor);
  v.storage = std::make_shared<ArrayStorage>();
  v.storage->current = value;
  v.range = range;
  return v;
}

bool Analyzer::isTensorLike(const SymValue& v) const {
  return v.kind == SymKind::Tensor || v.isScalarConstant() || v.kind == SymKind::LoopIndex;
}

std::string Analyzer::typeName(const SymValue& v) const {
  switch (v.kind) {
    case SymKind::Tensor:
      if (v.untyped) return "Tensor";
      if (v.weak) return *v.weak == ScalarKind::Int ? "int" : *v.weak == ScalarKind::Float ? "float" : "bool";
      return std::string("Tensor[") + dtypeName(builder_.type(v.view ? v.view->cachedValue : v.storage->current).dtype) + "]";
    case SymKind::Int:
    case SymKind::LoopIndex: return "int";
    case SymKind::Float: return "float";
    case SymKind::Bool: return "bool";
    case SymKind::Complex: return "complex";
    default: return describeKind(v);
  }
}

std::string Analyzer::describeKind(const SymValue& v) const {
  switch (v.kind) {
    case SymKind::Poison: return "an invalid value";
    case SymKind::None: return "None";
    case SymKind::Bool: return "a bool";
    case SymKind::Int: return "an int";
    case SymKind::Float: return "a float";
    case SymKind::String: return "a string";
    case SymKind::Tuple: return "a tuple";
    case SymKind::Complex: return isComplexConstant(v) ? "a complex number" : "a complex array";
    case SymKind::DType: return "a dtype";
    case SymKind::Module: return "the module '" + v.text + "'";
    case SymKind::Function: return "the function '" + v.text + "'";
    case SymKind::Builtin: return "the builtin '" + v.text + "'";
    case SymKind::Callable: return "the function '" + v.text + "'";
    case SymKind::Tensor:
      if (v.untyped) return "an array of unknown dtype";
      if (v.weak) return "a runtime scalar";
      return "an array (" + typeName(v) + ")";
    case SymKind::LoopIndex: return "the loop index '" + v.text + "'";
    case SymKind::SymbolicDim: return "the symbolic extent " + v.text;
    case SymKind::TensorType: return "the Tensor type";
    case SymKind::Selection: return "a boolean-mask selection";
  }
  return "a value";
}

std::string Analyzer::ufuncName(const std::string& op) const {
  auto it = ufuncNames_.find(op);
  return it == ufuncNames_.end() ? op : it->second;
}

SymValue Analyzer::eval(const Expr& expr, const std::string& nameHint) {
  struct Depth {
    int& d;
    ~Depth() { --d; }
  } depth{++evalDepth_};
  if (evalDepth_ > kMaxEvalDepth) {
    fail(expr.range, "expression nested more than " + std::to_string(kMaxEvalDepth) +
                         " levels deep (counting the expressions of the functions it calls); split it into several "
                         "statements");
  }
  SymValue v;
  switch (expr.kind) {
    case ExprKind::Name: v = evalName(expr); break;
    case ExprKind::Int: v = SymValue::ofInt(expr.intValue); break;
    case ExprKind::Float: v = SymValue::ofFloat(expr.floatValue); break;
    case ExprKind::Imaginary: v = complexOf(SymValue::ofFloat(0.0), SymValue::ofFloat(expr.floatValue), expr.range); break;
    case ExprKind::Bool: v = SymValue::ofBool(expr.intValue != 0); break;
    case ExprKind::None: v = SymValue::none(); break;
    case ExprKind::String:
      if (expr.formatted) {
        fail(expr.range, "f-strings are not supported; pyasc programs use strings only as literals (einsum "
                         "subscripts, dtype names)");
      }
      v = SymValue::ofString(expr.text);
      break;
    case ExprKind::Tuple:
    case ExprKind::List: {
      std::vector<SymValue> items;
      for (const auto& c : expr.children) items.push_back(eval(*c));
      // an item whose error was reported makes the whole literal invalid (no second error)
      const bool poisoned = std::any_of(items.begin(), items.end(), [](const SymValue& i) { return i.kind == SymKind::Poison; });
      v = poisoned ? SymValue::poison() : SymValue::tuple(std::move(items));
      break;
    }
    case ExprKind::Attribute: v = evalAttribute(expr); break;
    case ExprKind::Call: v = evalCall(expr, nameHint); break;
    case ExprKind::Subscript: v = evalSubscript(expr, nameHint); break;
    case ExprKind::BinOp: v = evalBinary(expr, nameHint); break;
    case ExprKind::UnaryOp: v = evalUnary(expr, nameHint); break;
    case ExprKind::Compare: v = evalCompare(expr, nameHint); break;
    case ExprKind::BoolOp: v = evalBoolOp(expr); break;
    case ExprKind::IfExp: {
      SymValue test = eval(*expr.children[1]);
      if (test.kind == SymKind::Poison) return test;
      if (test.kind == SymKind::Tensor) {  // x if cond else y on array data: both, selected
        const Argument cond{test, expr.children[1]->range, expr.children[1].get()};
        const Argument a{eval(*expr.children[0]), expr.children[0]->range, expr.children[0].get()};
        const Argument b{eval(*expr.children[2]), expr.children[2]->range, expr.children[2].get()};
        if (graph::elementCount(builder_.type(arrayValue(test, cond.range)).shape) != 1) {
          fail(cond.range, "the truth value of an array with more than one element is ambiguous; use np.where(cond, x, y) "
                           "to select elementwise");
        }
        v = applyOp("Where", {cond, a, b}, {}, expr.range, nameHint);
        break;
      }
      v = eval(truthy(test, expr.children[1]->range) ? *expr.children[0] : *expr.children[2], nameHint);
      break;
    }
    case ExprKind::Slice: fail(expr.range, "a slice is only allowed inside [] (a[1:3])");
    case ExprKind::Ellipsis: fail(expr.range, "'...' is only allowed inside [] (a[..., 0])");
    case ExprKind::Starred: fail(expr.range, "argument unpacking (*) is only supported in calls");
    case ExprKind::Lambda: v = functionValue(*expr.function); break;
    case ExprKind::ListComp: v = evalListComp(expr); break;
    case ExprKind::Error: return SymValue::poison();
  }
  if (v.kind != SymKind::Tensor || !v.range.begin.valid()) v.range = expr.range;
  return v;
}

bool Analyzer::isBuiltin(const std::string& name) const {
  for (const char* b : kBuiltins) {
    if (name == b) return true;
  }
  // the NumPy prelude's refusal of arguments it cannot compile: _refuse("why"), reported at the call
  return name == "_refuse" && frames_.back().prelude;
}

SymValue Analyzer::evalName(const Expr& expr) {
  const SymValue* v = lookup(expr.text);
  if (v) {
    if (v->kind == SymKind::Poison && !v->text.empty()) fail(expr.range, v->text);
    return *v;
  }
  if (isBuiltin(expr.text)) return SymValue::named(SymKind::Builtin, expr.text);
  const std::string guess = registry::closestName(expr.text, visibleNames());
  std::string message = "name '" + expr.text + "' is not defined";
  if (!guess.empty()) message += "; did you mean '" + guess + "'?";
  fail(SourceRange{expr.range.begin, static_cast<int>(expr.text.size())}, message);
}

SymValue Analyzer::evalAttribute(const Expr& expr) {
  SymValue base = eval(*expr.children[0]);
  const SourceRange nameRange{SourceLocation{expr.range.begin.file, expr.range.begin.line,
                                             expr.range.begin.col + expr.range.length - static_cast<int>(expr.text.size())},
                              static_cast<int>(expr.text.size())};
  switch (base.kind) {
    case SymKind::Poison: return base;
    case SymKind::Module: return moduleMember(base.text, expr.text, nameRange);
    case SymKind::Callable:
      if (!base.self && base.text.rfind("numpy.", 0) == 0 && base.text.rfind("numpy.random.", 0) != 0) {
        return ufuncMethod(base.text.substr(6), expr.text, nameRange);
      }
      fail(nameRange, describeKind(base) + " has no attribute '" + expr.text + "'");
    case SymKind::Selection: return selectionAttribute(base, expr.text, expr.range, "");
    case SymKind::Complex: {
      base.range = expr.children[0]->range;
      return complexAttribute(base, expr.text, expr.range, "");
    }
    case SymKind::Tensor: {
      base.range = expr.children[0]->range;  // a bound method's array is the expression before the dot
      return arrayAttribute(base, expr.text, expr.range, "");
    }
    case SymKind::Tuple:
      if (expr.text == "append" || expr.text == "extend" || expr.text == "insert") {
        fail(nameRange, "this list cannot grow: lists grow by name (xs.append(v)) in code pyasc runs at compile time, "
                        "not in a loop kept as a loop; preallocate an array (np.zeros) and assign rows, or combine "
                        "arrays with np.stack / np.concatenate");
      }
      fail(nameRange, describeKind(base) + " has no attribute '" + expr.text + "'");
    default: fail(nameRange, describeKind(base) + " has no attribute '" + expr.text + "'");
  }
}

namespace {

// NumPy functions pyasc does not compile yet, each with a rewrite that compiles (and computes the
// same values), or none. Their names get no "did you mean" guess: np.sort is not a misspelt np.sqrt.
const std::map<std::string, std::string>& numpyFunctionsNotYetSupported() {
  static const std::map<std::string, std::string> functions = {
      {"argwhere", "its length depends on the data; keep the shape with np.where(mask, values, 0)"},
      {"tile", "np.broadcast_to(a, (k,) + a.shape).reshape(-1) (1-D a repeated k times)"},
  };
  return functions;
}

}  // namespace

void Analyzer::failUnknownFunction(const std::string& module, const std::string& name, const SourceRange& range) {
  const bool nn = module == "pyasc.nn";
  const auto& notYet = numpyFunctionsNotYetSupported();
  if (auto it = notYet.find(name); module == "numpy" && it != notYet.end()) {
    std::vector<Diagnostic> notes;
    if (!it->second.empty()) notes.push_back(note(SourceRange{}, "rewrite: " + it->second));
    notes.push_back(note(SourceRange{}, "the supported functions are listed in docs/numpy-support.md"));
    fail(range, "numpy function '" + name + "' is not supported by pyasc yet", notes);
  }
  const std::string prefix = nn ? "nn." : module == "numpy.random" ? "random." : "";
  std::vector<std::string> candidates = registry_.aliasNames(registry::AliasForm::Function, nn ? "nn." : "");
  if (!nn) {
    std::vector<std::string> filtered;
    for (const auto& c : candidates) {
      const bool isRandom = c.rfind("random.", 0) == 0;
      if (c.rfind("custom.", 0) == 0) continue;  // custom operators are called by bare name
      if (prefix.empty() ? !isRandom : isRandom) filtered.push_back(prefix.empty() ? c : c.substr(prefix.size()));
    }
    candidates = filtered;
  }
  const std::string guess = registry::closestName(name, candidates);
  const std::string shown = nn ? "pyasc.nn function '" + name + "'"
                               : "numpy function '" + (prefix.empty() ? name : "random." + name) + "'";
  std::string message = shown + " is not supported by pyasc";
  if (!guess.empty()) message += "; did you mean '" + (prefix.empty() || nn ? guess : "random." + guess) + "'?";
  fail(range, message, {note(SourceRange{}, "the supported functions are listed in docs/numpy-support.md")});
}

SymValue Analyzer::moduleMember(const std::string& module, const std::string& name, const SourceRange& range) {
  DType dtype;
  if (module == "numpy") {
    if (dtypeFromName(name, dtype)) return SymValue::ofDType(dtype);
    static const std::pair<const char*, DType> complexNames[] = {{"complex64", DType::Float32}, {"csingle", DType::Float32},
                                                                 {"complex128", DType::Float64}, {"cdouble", DType::Float64},
                                                                 {"complex_", DType::Float64}};
    for (const auto& [complexName, component] : complexNames) {
      if (name != complexName) continue;
      SymValue complexDType = SymValue::ofDType(component);
      complexDType.text = "complex";
      return complexDType;
    }
    if (name == "newaxis") return SymValue::none();
    if (name == "pi") return SymValue::ofFloat(M_PI);
    if (name == "e") return SymValue::ofFloat(M_E);
    if (name == "inf" || name == "Inf") return SymValue::ofFloat(std::numeric_limits<double>::infinity());
    if (name == "nan" || name == "NaN") return SymValue::ofFloat(std::numeric_limits<double>::quiet_NaN());
    if (name == "random") return SymValue::named(SymKind::Module, "numpy.random");
    if (name == "linalg") return SymValue::named(SymKind::Module, "numpy.linalg");
    if (name == "lib") return SymValue::named(SymKind::Module, "numpy.lib");
    if (name == "mgrid" || name == "ogrid") return SymValue::named(SymKind::Callable, "numpy." + name);
    if (name == "fft" || name == "ma" || name == "char") {
      fail(range, "numpy." + name + " is not supported by pyasc",
           {note(SourceRange{}, "the supported functions are listed in docs/numpy-support.md")});
    }
    if (registry_.findAlias(name, registry::AliasForm::Function)) return SymValue::named(SymKind::Callable, "numpy." + name);
    for (const char* f : {"real", "imag", "conj", "conjugate", "angle", "iscomplexobj"}) {  // frontend/Complex.cpp
      if (name == f) return SymValue::named(SymKind::Callable, "numpy." + name);
    }
    if (const Stmt* f = numpyPreludeFunction(name)) return functionValue(*f);
    failUnknownFunction(module, name, range);
  }
  if (module == "numpy.lib" || module == "numpy.lib.stride_tricks") {
    if (module == "numpy.lib" && name == "stride_tricks") return SymValue::named(SymKind::Module, "numpy.lib.stride_tricks");
    const std::string path = module.substr(6) + "." + name;  // lib.stride_tricks.NAME
    if (registry_.findAlias(path, registry::AliasForm::Function)) return SymValue::named(SymKind::Callable, "numpy." + path);
    fail(range, "np." + path + " is not supported by pyasc",
         {note(SourceRange{}, "pyasc compiles np.lib.stride_tricks.sliding_window_view")});
  }
  if (module == "numpy.linalg") {
    if (name == "norm") return SymValue::named(SymKind::Callable, "numpy.linalg.norm");
    if (const Stmt* f = numpyPreludeFunction("linalg." + name)) return functionValue(*f);
    std::string supported = "norm";
    for (const std::string& n : numpyPreludeNames()) {
      if (n.rfind("linalg.", 0) == 0) supported += ", " + n.substr(7);
    }
    fail(range, "np.linalg." + name + " is not supported by pyasc yet",
         {note(SourceRange{}, "pyasc compiles np.linalg." + supported)});
  }
  if (module == "numpy.random") {
    if (registry_.findAlias("random." + name, registry::AliasForm::Function)) {
      return SymValue::named(SymKind::Callable, "numpy.random." + name);
    }
    if (const Stmt* f = numpyPreludeFunction("random." + name)) return functionValue(*f);
    failUnknownFunction(module, name, range);
  }
  if (module == "pyasc") {
    if (name == "Tensor") return SymValue::make(SymKind::TensorType);
    if (name == "nn") return SymValue::named(SymKind::Module, "pyasc.nn");
    if (dtypeFromName(name, dtype)) return SymValue::ofDType(dtype);
    std::vector<std::string> members = {"Tensor", "nn", "float16", "float32", "float64", "int8", "int16",
                                        "int32", "int64", "uint8", "bool_"};
    const std::string guess = registry::closestName(name, members);
    fail(range, "module 'pyasc' has no member '" + name + "'" + (guess.empty() ? "" : "; did you mean '" + guess + "'?"));
  }
  if (module == "pyasc.nn") {
    if (registry_.findAlias("nn." + name, registry::AliasForm::Function)) {
      return SymValue::named(SymKind::Callable, "pyasc.nn." + name);
    }
    failUnknownFunction(module, name, range);
  }
  if (module == "math") {
    if (name == "pi") return SymValue::ofFloat(M_PI);
    if (name == "e") return SymValue::ofFloat(M_E);
    if (name == "tau") return SymValue::ofFloat(2 * M_PI);
    if (name == "inf") return SymValue::ofFloat(std::numeric_limits<double>::infinity());
    if (name == "nan") return SymValue::ofFloat(std::numeric_limits<double>::quiet_NaN());
    for (const char* f : {"sqrt", "ceil", "floor", "log", "log2", "exp", "prod", "gcd"}) {
      if (name == f) return SymValue::named(SymKind::Callable, "math." + name);
    }
    fail(range, "math." + name + " is not supported; pyasc supports math.sqrt, ceil, floor, log, log2, exp, prod, "
                "gcd, pi, e, tau, inf and nan at compile time");
  }
  fail(range, "module '" + module + "' has no member '" + name + "'");
}

SymValue Analyzer::arrayAttribute(const SymValue& array, const std::string& name, const SourceRange& range,
                                  const std::string& nameHint) {
  if (array.untyped) {
    fail(range, "the shape and dtype of parameter '" + array.paramName + "' are unknown",
         {note(array.range, "annotate it (" + array.paramName + ": Tensor[float32, 64, 128]) or pass --input=" +
                                array.paramName + ":float32[64,128]")});
  }
  if (array.weak) fail(range, "a runtime scalar has no attribute '" + name + "'");
  const ValueId id = arrayValue(array, range);
  const TensorType type = builder_.type(id);
  auto needRank = [&]() {
    if (!type.ranked) {
      fail(range, "the rank of this array is unknown, so '." + name + "' has no compile-time value",
           {note(array.range, "declare the shape: Tensor[float32, 64, 128] or --input=NAME:float32[64,128]")});
    }
  };
  if (name == "shape") {
    needRank();
    std::vector<SymValue> dims;
    for (const graph::Dim& d : type.shape) {
      dims.push_back(d.isKnown() ? SymValue::ofInt(d.extent) : SymValue::named(SymKind::SymbolicDim, d.str()));
    }
    return SymValue::tuple(std::move(dims));
  }
  if (name == "ndim") {
    needRank();
    return SymValue::ofInt(type.rank());
  }
  if (name == "size") {
    needRank();
    const int64_t n = graph::elementCount(type.shape);
    if (n < 0) fail(range, "the size of an array of shape " + graph::shapeString(type.shape) + " is not known at compile time");
    return SymValue::ofInt(n);
  }
  if (name == "dtype") return SymValue::ofDType(type.dtype);
  if (name == "itemsize") return SymValue::ofInt(dtypeSize(type.dtype));
  if (name == "T") {
    Argument self{array, range, nullptr};
    return applyOp("Transpose", {self}, {}, range, nameHint);
  }
  if (registry_.findAlias(name, registry::AliasForm::Method)) {
    SymValue method = SymValue::named(SymKind::Callable, name);
    method.self = std::make_shared<SymValue>(array);
    return method;
  }
  std::vector<std::string> candidates = registry_.aliasNames(registry::AliasForm::Method);
  for (const char* a : {"shape", "ndim", "size", "dtype", "T", "itemsize"}) candidates.push_back(a);
  const std::string guess = registry::closestName(name, candidates);
  const SourceRange nameRange{SourceLocation{range.begin.file, range.begin.line,
                                             range.begin.col + range.length - static_cast<int>(name.size())},
                              static_cast<int>(name.size())};
  fail(nameRange, "array attribute '" + name + "' is not supported by pyasc" +
                      (guess.empty() ? "" : "; did you mean '" + guess + "'?"),
       {note(SourceRange{}, "the supported methods are listed in docs/numpy-support.md")});
}

// ---- operators

SymValue Analyzer::evalBinary(const Expr& expr, const std::string& nameHint) {
  Argument lhs{eval(*expr.children[0]), expr.children[0]->range, expr.children[0].get()};
  Argument rhs{eval(*expr.children[1]), expr.children[1]->range, expr.children[1].get()};
  return binaryOperator(expr.text, lhs, rhs, expr.range, nameHint);
}

SymValue Analyzer::binaryOperator(const std::string& symbol, const Argument& lhsArg, const Argument& rhsArg,
                                  const SourceRange& range, const std::string& nameHint) {
  const SymValue& lhs = lhsArg.value;
  const SymValue& rhs = rhsArg.value;
  const SourceRange& lhsRange = lhsArg.range;
  const SourceRange& rhsRange = rhsArg.range;
  if (lhs.kind == SymKind::Poison || rhs.kind == SymKind::Poison) return SymValue::poison();
  if (lhs.kind == SymKind::Complex || rhs.kind == SymKind::Complex) return complexBinary(symbol, lhsArg, rhsArg, range);
  if (lhs.isScalarConstant() && rhs.isScalarConstant()) return foldScalars(symbol, lhs, rhs, range);
  // Shape tuples: a.shape + (1,), (n,) * 2; compile-time values, so of bounded length.
  auto tupleOf = [&](const std::vector<SymValue>& first, const std::vector<SymValue>& second, int64_t times) {
    int64_t length = 0;
    const bool huge =
        __builtin_mul_overflow(static_cast<int64_t>(first.size() + second.size()), std::max<int64_t>(times, 0), &length);
    if (huge || length > kMaxTupleItems) {
      fail(range, "a tuple of " + (huge ? std::string("more than 2^63") : std::to_string(length)) +
                      " items: compile-time tuples hold at most " + std::to_string(kMaxTupleItems));
    }
    std::vector<SymValue> items;
    for (int64_t k = 0; k < times; ++k) {
      items.insert(items.end(), first.begin(), first.end());
      items.insert(items.end(), second.begin(), second.end());
    }
    return SymValue::tuple(std::move(items));
  };
  if (lhs.kind == SymKind::Tuple && rhs.kind == SymKind::Tuple && symbol == "+") return tupleOf(lhs.items, rhs.items, 1);
  if (lhs.kind == SymKind::Tuple && rhs.kind == SymKind::Int && symbol == "*") return tupleOf(lhs.items, {}, rhs.intValue);
  // The loop index stays affine (scale * i + offset) under + - * by compile-time ints.
  const bool indexLeft = lhs.kind == SymKind::LoopIndex && rhs.kind == SymKind::Int;
  const bool indexRight = lhs.kind == SymKind::Int && rhs.kind == SymKind::LoopIndex;
  if ((indexLeft || indexRight) && (symbol == "+" || symbol == "-" || symbol == "*")) {
    SymValue v = indexLeft ? lhs : rhs;
    const int64_t k = indexLeft ? rhs.intValue : lhs.intValue;
    bool overflow = false;
    if (symbol == "*") {
      overflow = __builtin_mul_overflow(v.scale, k, &v.scale) || __builtin_mul_overflow(v.offset, k, &v.offset);
    } else if (symbol == "+") {
      overflow = __builtin_add_overflow(v.offset, k, &v.offset);
    } else if (indexLeft) {
      overflow = __builtin_sub_overflow(v.offset, k, &v.offset);
    } else {
      overflow = __builtin_sub_overflow(int64_t{0}, v.scale, &v.scale) || __builtin_sub_overflow(k, v.offset, &v.offset);
    }
    if (overflow) fail(range, "integer overflow: the loop index expression '" + symbol + "' does not fit in 64 bits");
    return v;
  }
  for (const SymValue* side : {&lhs, &rhs}) {
    if (side->kind == SymKind::SymbolicDim) {
      fail(side == &lhs ? lhsRange : rhsRange,
           "the extent " + side->text + " is symbolic, so it has no compile-time value for '" + symbol + "'",
           {note(SourceRange{}, "give the input a fixed shape with --input=NAME:DTYPE[...] or a Tensor[...] annotation")});
    }
    if (!isTensorLike(*side) && side->kind != SymKind::Tuple && side->kind != SymKind::Selection) {
      fail(side == &lhs ? lhsRange : rhsRange,
           "unsupported operand for '" + symbol + "': " + describeKind(*side));
    }
  }
  const registry::NumpyAlias* alias = registry_.findAlias(symbol, registry::AliasForm::Operator);
  if (!alias) fail(range, "operator '" + symbol + "' is not supported on arrays");
  return applyOp(alias->op, {lhsArg, rhsArg}, {}, range, nameHint, symbol);
}

SymValue Analyzer::foldScalars(const std::string& symbol, const SymValue& lhs, const SymValue& rhs,
                               const SourceRange& range) {
  const bool floats = lhs.kind == SymKind::Float || rhs.kind == SymKind::Float;
  const bool bools = lhs.kind == SymKind::Bool && rhs.kind == SymKind::Bool;
  const double x = lhs.number(), y = rhs.number();
  // the integer operands (bools as 0 and 1); unused when either side is a float
  auto exact = [floats](const SymValue& v) {
    return floats ? 0 : v.kind == SymKind::Int ? v.intValue : static_cast<int64_t>(v.number());
  };
  const int64_t i = exact(lhs), j = exact(rhs);
  // Python's integers are unbounded and ours are 64-bit: a result outside that range is an error
  int64_t r = 0;  // an integer result, read by `checked` once its overflow flag is known
  auto checked = [&](bool overflow) {
    if (overflow) fail(range, "integer overflow: the result of '" + symbol + "' does not fit in 64 bits");
    return SymValue::ofInt(r);
  };
  if (symbol == "==") return SymValue::ofBool(x == y);
  if (symbol == "!=") return SymValue::ofBool(x != y);
  if (symbol == "<") return SymValue::ofBool(x < y);
  if (symbol == "<=") return SymValue::ofBool(x <= y);
  if (symbol == ">") return SymValue::ofBool(x > y);
  if (symbol == ">=") return SymValue::ofBool(x >= y);
  if (symbol == "+") return floats ? SymValue::ofFloat(x + y) : checked(__builtin_add_overflow(i, j, &r));
  if (symbol == "-") return floats ? SymValue::ofFloat(x - y) : checked(__builtin_sub_overflow(i, j, &r));
  if (symbol == "*") return floats ? SymValue::ofFloat(x * y) : checked(__builtin_mul_overflow(i, j, &r));
  if (symbol == "/" || symbol == "//" || symbol == "%") {
    if (y == 0) fail(range, floats ? "float division by zero" : "integer division or modulo by zero");
    if (symbol == "/") return SymValue::ofFloat(x / y);
    if (symbol == "//") {
      if (floats) return SymValue::ofFloat(std::floor(x / y));
      if (i == INT64_MIN && j == -1) checked(true);
      int64_t q = i / j;
      if ((i % j != 0) && ((i < 0) != (j < 0))) --q;
      return SymValue::ofInt(q);
    }
    if (floats) {
      double m = std::fmod(x, y);
      if (m != 0 && ((m < 0) != (y < 0))) m += y;
      return SymValue::ofFloat(m);
    }
    int64_t m = j == -1 ? 0 : i % j;
    if (m != 0 && ((m < 0) != (j < 0))) m += j;
    return SymValue::ofInt(m);
  }
  if (symbol == "**") {
    if (!floats && j >= 0) {
      int64_t base = i;  // by squaring: a huge exponent of 0, 1 or -1 ends quickly
      bool overflow = false;
      r = 1;
      for (int64_t e = j; e > 0 && !overflow; e >>= 1) {
        if (e & 1) overflow = __builtin_mul_overflow(r, base, &r);
        if (e > 1 && !overflow) overflow = __builtin_mul_overflow(base, base, &base);
      }
      return checked(overflow);
    }
    return SymValue::ofFloat(std::pow(x, y));
  }
  if (!floats && (symbol == "&" || symbol == "|" || symbol == "^" || symbol == "<<" || symbol == ">>")) {
    if ((symbol == "<<" || symbol == ">>") && j < 0) fail(range, "negative shift count");
    if (symbol == "<<") {
      bool overflow = i != 0 && (j >= 63 || i > (INT64_MAX >> j) || i < (INT64_MIN >> j));
      r = overflow || i == 0 ? 0 : i * (int64_t{1} << j);
      return checked(overflow);
    }
    r = symbol == "&" ? (i & j) : symbol == "|" ? (i | j) : symbol == "^" ? (i ^ j) : j >= 64 ? (i < 0 ? -1 : 0) : (i >> j);
    return bools && symbol != "<<" && symbol != ">>" ? SymValue::ofBool(r != 0) : SymValue::ofInt(r);
  }
  fail(range, "unsupported operand types for " + symbol + ": '" + typeName(lhs) + "' and '" + typeName(rhs) + "'");
}

SymValue Analyzer::evalUnary(const Expr& expr, const std::string& nameHint) {
  SymValue operand = eval(*expr.children[0]);
  if (operand.kind == SymKind::Poison) return operand;
  const std::string& op = expr.text;
  if (op == "not") {
    if (operand.kind == SymKind::Tensor) {
      fail(expr.range, "'not' on an array is ambiguous; use np.logical_not(a) or ~a");
    }
    return SymValue::ofBool(!truthy(operand, expr.children[0]->range));
  }
  if (op == "+") return operand;
  if (operand.kind == SymKind::Complex && op == "-") {
    return complexOf(planeNeg(operand.items[0], expr.range), planeNeg(operand.items[1], expr.range), expr.range);
  }
  if (operand.kind == SymKind::Complex) fail(expr.range, "bad operand for unary " + op + ": " + describeKind(operand));
  if (operand.isScalarConstant()) {
    if (op == "-") {
      if (operand.kind == SymKind::Float) return SymValue::ofFloat(-operand.floatValue);
      if (operand.kind == SymKind::Int && operand.intValue == INT64_MIN) {
        fail(expr.range, "integer overflow: the result of '-' does not fit in 64 bits");
      }
      return SymValue::ofInt(operand.kind == SymKind::Int ? -operand.intValue : -static_cast<int64_t>(operand.boolValue));
    }
    if (op == "~") {
      if (operand.kind == SymKind::Float) fail(expr.range, "bad operand type for unary ~: 'float'");
      return operand.kind == SymKind::Bool ? SymValue::ofInt(~static_cast<int64_t>(operand.boolValue)) : SymValue::ofInt(~operand.intValue);
    }
  }
  if (operand.kind == SymKind::LoopIndex && op == "-") {
    operand.scale = -operand.scale;
    operand.offset = -operand.offset;
    return operand;
  }
  if (!isTensorLike(operand) && operand.kind != SymKind::Selection) fail(expr.range, "bad operand for unary " + op + ": " + describeKind(operand));
  const registry::NumpyAlias* alias = registry_.findAlias("unary " + op, registry::AliasForm::Operator);
  Argument a{operand, expr.children[0]->range, expr.children[0].get()};
  // ~ is logical not on bools, bitwise not on integers (and refused on floats by Invert's dtypes)
  auto integers = [&](const SymValue& v) {
    return v.kind == SymKind::Tensor && !v.untyped && builder_.type(arrayValue(v, expr.range)).dtype != DType::Bool;
  };
  const bool bitwiseNot = op == "~" && (integers(operand) || (operand.kind == SymKind::Selection &&
                                                              !operand.items.empty() && integers(operand.items[0])));
  return applyOp(bitwiseNot ? "Invert" : alias->op, {a}, {}, expr.range, nameHint, op);
}

SymValue Analyzer::evalCompare(const Expr& expr, const std::string& nameHint) {
  std::vector<SymValue> operands;
  for (const auto& c : expr.children) operands.push_back(eval(*c));
  for (const auto& o : operands) {
    if (o.kind == SymKind::Poison) return o;
  }
  // Identity tests are about Python objects: an array is never None.
  if (expr.ops.size() == 1 && (expr.ops[0] == "is" || expr.ops[0] == "is not") &&
      (operands[0].kind == SymKind::None || operands[1].kind == SymKind::None)) {
    const bool same = operands[0].kind == operands[1].kind;
    return SymValue::ofBool(expr.ops[0] == "is" ? same : !same);
  }
  bool anyArray = false;
  for (const auto& o : operands) {
    anyArray |= o.kind == SymKind::Tensor || o.kind == SymKind::LoopIndex || o.kind == SymKind::Selection ||
                o.kind == SymKind::Complex;
  }
  if (anyArray && expr.ops.size() > 1) {
    fail(expr.range, "chained comparisons of arrays are ambiguous; combine them with &: (a < b) & (b < c)");
  }
  if (anyArray) {
    const std::string& op = expr.ops[0];
    if (op == "in" || op == "not in" || op == "is" || op == "is not") {
      fail(expr.range, "'" + op + "' on arrays is not supported; compare with ==, <, ... elementwise");
    }
    return binaryOperator(op, Argument{operands[0], expr.children[0]->range, expr.children[0].get()},
                          Argument{operands[1], expr.children[1]->range, expr.children[1].get()}, expr.range, nameHint);
  }
  for (size_t k = 0; k < expr.ops.size(); ++k) {
    const std::string& op = expr.ops[k];
    const SymValue& a = operands[k];
    const SymValue& b = operands[k + 1];
    bool result;
    if (op == "is" || op == "is not") {
      const bool same = (a.kind == SymKind::None && b.kind == SymKind::None) ||
                        (a.kind == b.kind && a.isScalarConstant() && a.number() == b.number()) ||
                        (a.kind == SymKind::DType && b.kind == SymKind::DType && a.dtype == b.dtype && a.text == b.text);
      result = op == "is" ? same : !same;
    } else if (op == "in" || op == "not in") {
      if (b.kind != SymKind::Tuple) fail(expr.children[k + 1]->range, "'in' needs a tuple or list on the right");
      bool found = false;
      for (const auto& item : b.items) found |= item.isScalarConstant() && a.isScalarConstant() && item.number() == a.number();
      result = op == "in" ? found : !found;
    } else if (a.kind == SymKind::DType && b.kind == SymKind::DType && (op == "==" || op == "!=")) {
      result = (a.dtype == b.dtype && a.text == b.text) == (op == "==");
    } else if (a.kind == SymKind::String && b.kind == SymKind::String && (op == "==" || op == "!=")) {
      result = (a.text == b.text) == (op == "==");
    } else if (a.kind == SymKind::Tuple && b.kind == SymKind::Tuple && (op == "==" || op == "!=")) {
      bool equal = a.items.size() == b.items.size();
      for (size_t i = 0; equal && i < a.items.size(); ++i) {
        equal = a.items[i].isScalarConstant() && b.items[i].isScalarConstant() && a.items[i].number() == b.items[i].number();
      }
      result = equal == (op == "==");
    } else {
      if (!a.isScalarConstant() || !b.isScalarConstant()) {
        fail(expr.range, "cannot compare " + describeKind(a) + " and " + describeKind(b) + " at compile time");
      }
      result = foldScalars(op, a, b, expr.range).boolValue;
    }
    if (!result) return SymValue::ofBool(false);
  }
  return SymValue::ofBool(true);
}

SymValue Analyzer::evalBoolOp(const Expr& expr) {
  SymValue last;
  for (const auto& c : expr.children) {
    last = eval(*c);
    if (last.kind == SymKind::Poison) return last;
    if (last.kind == SymKind::Tensor) {
      fail(expr.range, "'" + expr.text + "' of arrays is ambiguous; use np.logical_" + expr.text + "(a, b) or (a " +
                           (expr.text == "and" ? "&" : "|") + " b)");
    }
    const bool t = truthy(last, c->range);
    if (expr.text == "and" ? !t : t) return last;
  }
  return last;
}

// ---- conversions

bool Analyzer::truthy(const SymValue& v, const SourceRange& range) {
  switch (v.kind) {
    case SymKind::Bool: return v.boolValue;
    case SymKind::Int: return v.intValue != 0;
    case SymKind::Float: return v.floatValue != 0;
    case SymKind::None: return false;
    case SymKind::String: return !v.text.empty();
    case SymKind::Tuple: return !v.items.empty();
    case SymKind::Complex:
      if (isComplexConstant(v)) return v.items[0].number() != 0 || v.items[1].number() != 0;
      fail(range, "the truth value of a complex array is not known at compile time");
    case SymKind::Tensor:
      if (!v.text.empty()) {
        fail(range, "this condition depends on the loop index '" + v.text + "', which has no compile-time value in a "
                    "loop kept as a loop",
             {note(range, "select per iteration with np.where, or peel the special iteration out of the loop")});
      }
      fail(range, "the truth value of an array is not known at compile time; if needs a compile-time condition",
           {note(range, "select elementwise with np.where(cond, x, y)")});
    case SymKind::LoopIndex:
      fail(range, "the loop index '" + v.text + "' has no compile-time value in a loop kept as a loop",
           {note(v.range, "pyasc keeps range loops as loops; select per iteration with np.where, or peel the "
                          "special iteration out of the loop")});
    case SymKind::SymbolicDim: fail(range, "the extent " + v.text + " is symbolic and has no compile-time value");
    default: return true;
  }
}

std::optional<double> Analyzer::foldIntegerElements(const std::string& op, const std::vector<ValueId>& inputs) {
  std::vector<int64_t> x;
  for (ValueId in : inputs) {  // the types first: the constant lookup is a search
    const TensorType& type = builder_.type(in);
    if (type.rank() != 0 || !isInteger(type.dtype) || type.dtype != builder_.type(inputs[0]).dtype) return std::nullopt;
  }
  for (ValueId in : inputs) {
    const graph::GraphConstant* c = builder_.graph().findConstant(in);
    if (!c) return std::nullopt;
    x.push_back(static_cast<int64_t>(graph::decodeConstant(builder_.type(in).dtype, c->bytes).at(0)));
  }
  int64_t r = 0;
  bool overflow = false;
  if (op == "Neg" && x.size() == 1) {
    overflow = __builtin_sub_overflow(int64_t{0}, x[0], &r);
  } else if (x.size() != 2) {
    return std::nullopt;
  } else if (op == "Add") {
    overflow = __builtin_add_overflow(x[0], x[1], &r);
  } else if (op == "Sub") {
    overflow = __builtin_sub_overflow(x[0], x[1], &r);
  } else if (op == "Mul") {
    overflow = __builtin_mul_overflow(x[0], x[1], &r);
  } else if ((op == "FloorDiv" || op == "Mod") && x[1] != 0 && !(x[0] == INT64_MIN && x[1] == -1)) {
    int64_t q = x[0] / x[1];
    if ((x[0] % x[1] != 0) && ((x[0] < 0) != (x[1] < 0))) --q;  // Python's floor division
    r = op == "FloorDiv" ? q : x[0] - q * x[1];
  } else {
    return std::nullopt;
  }
  const double bound = std::ldexp(1.0, 8 * dtypeSize(builder_.type(inputs[0]).dtype) - 1);
  if (overflow || static_cast<double>(r) < -bound || static_cast<double>(r) >= bound) return std::nullopt;
  return static_cast<double>(r);
}

SymValue Analyzer::constantIndex(const SymValue& v) {
  if (v.kind != SymKind::Tensor || v.untyped || v.weak || v.view) return v;
  const ValueId id = v.storage ? v.storage->current : graph::kNoValue;
  if (id == graph::kNoValue) return v;
  const TensorType& type = builder_.type(id);
  if (type.rank() != 0 || !(isInteger(type.dtype) || type.dtype == DType::Bool)) return v;
  const graph::GraphConstant* c = builder_.graph().findConstant(id);
  if (!c) return v;
  const std::vector<double> values = graph::decodeConstant(type.dtype, c->bytes);
  return values.size() == 1 ? SymValue::ofInt(static_cast<int64_t>(values[0])) : v;
}

int64_t Analyzer::requireInt(const SymValue& given, const SourceRange& range, const std::string& what) {
  const SymValue v = constantIndex(given);
  switch (v.kind) {
    case SymKind::Int: return v.intValue;
    case SymKind::Bool: return v.boolValue;
    case SymKind::LoopIndex:
    case SymKind::SymbolicDim: truthy(v, range); break;
    default: break;
  }
  fail(range, what + " must be a compile-time integer, found " + describeKind(v));
}

double Analyzer::exactNumber(const SymValue& v, const SourceRange& range) {
  const double n = v.number();
  if (v.kind == SymKind::Int && (n >= 0x1p63 || static_cast<int64_t>(n) != v.intValue)) {
    char rounded[32];
    std::snprintf(rounded, sizeof rounded, "%.0f", n);
    fail(range, "the integer " + std::to_string(v.intValue) + " has more than 53 significant bits, which pyasc's "
                "constants (doubles) cannot hold yet; it would become " + rounded);
  }
  return n;
}

double Analyzer::requireNumber(const SymValue& v, const SourceRange& range, const std::string& what) {
  if (v.isScalarConstant()) return exactNumber(v, range);
  if (v.kind == SymKind::LoopIndex || v.kind == SymKind::SymbolicDim) truthy(v, range);
  fail(range, what + " must be a compile-time number, found " + describeKind(v));
}

ValueId Analyzer::indexValue(const SymValue& index, const SourceRange& range) {
  const auto key = std::make_tuple(index.indexVar, index.scale, index.offset);
  auto cached = indexValues_.find(key);
  if (cached != indexValues_.end() && builder_.isRegionOpen(cached->second.second)) return cached->second.first;
  ValueId v = index.indexVar;
  if (index.scale != 1) {
    v = builder_.addNode("Mul", {v, builder_.constant(DType::Int32, {static_cast<double>(index.scale)}, {}, range)}, {},
                         range, "idx");
  }
  if (index.offset != 0) {
    v = builder_.addNode("Add", {v, builder_.constant(DType::Int32, {static_cast<double>(index.offset)}, {}, range)}, {},
                         range, "idx");
  }
  indexValues_[key] = {v, builder_.currentRegionId()};
  return v;
}

ValueId Analyzer::arrayValue(const SymValue& array, const SourceRange& range) {
  if (array.kind == SymKind::Selection) failOnSelection(range, "this use");
  if (array.untyped) {
    fail(range, "cannot infer the dtype of parameter '" + array.paramName + "'",
         {note(array.range, "annotate it (" + array.paramName + ": Tensor[float32]) or pass --input=" + array.paramName +
                                ":float32[...]")});
  }
  if (!array.view) return array.storage->current;
  ArrayView& view = *array.view;
  if (view.cachedVersion == view.root->version && builder_.isRegionOpen(view.cachedRegion)) return view.cachedValue;
  IndexPlan plan = planOfView(view);
  view.cachedValue = readThroughPlan(view.root->current, plan, range, "");
  view.cachedVersion = view.root->version;
  view.cachedRegion = builder_.currentRegionId();
  return view.cachedValue;
}

ValueId Analyzer::tensorOf(const SymValue& value, DType scalarDType, const SourceRange& range) {
  switch (value.kind) {
    case SymKind::Tensor: return arrayValue(value, range);
    case SymKind::Bool:
    case SymKind::Int:
    case SymKind::Float: return builder_.constant(scalarDType, {exactNumber(value, range)}, {}, range);
    case SymKind::LoopIndex: return builder_.cast(indexValue(value, range), scalarDType, range);
    case SymKind::Tuple: return arrayValue(constantArray(value, std::nullopt, range, "cst"), range);
    case SymKind::Selection: failOnSelection(range, "this use");
    default: fail(range, "expected an array or a number, found " + describeKind(value));
  }
}

ValueId Analyzer::asArray(const Argument& a, const std::string& callee) {
  const SymValue v = a.value.kind == SymKind::Tuple || a.value.isScalarConstant()
                         ? constantArray(a.value, std::nullopt, a.range, "cst")
                         : a.value;
  if (v.kind != SymKind::Tensor) fail(a.range, callee + " needs an array, found " + describeKind(v));
  return arrayValue(v, a.range);
}

SymValue Analyzer::constantArray(const SymValue& literal, std::optional<DType> dtype, const SourceRange& range,
                                 const std::string& nameHint) {
  std::function<bool(const SymValue&)> hasArray = [&](const SymValue& v) {
    if (v.kind == SymKind::Tensor) return true;
    return v.kind == SymKind::Tuple && std::any_of(v.items.begin(), v.items.end(), hasArray);
  };
  if (literal.kind == SymKind::Tuple && hasArray(literal)) {
    // lists of arrays and numbers (np.array([np.cos(t), np.sin(t)])): stacked, in their common dtype
    std::optional<DType> common = dtype;
    std::optional<ScalarKind> scalar;
    std::function<void(const SymValue&)> promote = [&](const SymValue& v) {
      if (v.kind == SymKind::Tuple) {
        for (const auto& item : v.items) promote(item);
      } else if (v.kind == SymKind::Tensor && !v.weak) {
        const DType t = builder_.type(arrayValue(v, range)).dtype;
        if (!dtype) common = common ? registry::promoteTypes(*common, t) : t;
      } else {
        const ScalarKind k = v.kind == SymKind::Float || (v.kind == SymKind::Tensor && v.weak && v.weak == ScalarKind::Float)
                                 ? ScalarKind::Float : v.kind == SymKind::Bool ? ScalarKind::Bool : ScalarKind::Int;
        if (!scalar || static_cast<int>(k) > static_cast<int>(*scalar)) scalar = k;
      }
    };
    promote(literal);
    DType t = common ? (dtype || !scalar ? *common : registry::promoteWithScalar(*common, *scalar))
                     : registry::scalarDefaultDType(scalar ? *scalar : ScalarKind::Float);
    t = builder_.deviceDType(t, range);
    std::function<ValueId(const SymValue&)> build = [&](const SymValue& v) -> ValueId {
      if (v.kind == SymKind::Tuple) {
        if (v.items.empty()) fail(range, "np.array of an empty list among arrays");
        std::vector<ValueId> parts;
        for (const auto& item : v.items) parts.push_back(build(item));
        return builder_.addNode("Stack", parts, {{"axis", int64_t{0}}}, range);
      }
      if (v.kind == SymKind::Tensor) {
        const ValueId x = arrayValue(v, range);
        return builder_.type(x).dtype == t ? x : builder_.cast(x, t, range);
      }
      return builder_.constant(t, {requireNumber(v, range, "an array element")}, {}, range);
    };
    return fresh(build(literal), range);
  }
  graph::Shape shape;
  std::vector<double> values;
  ScalarKind kind = ScalarKind::Bool;
  std::function<void(const SymValue&, size_t)> walk = [&](const SymValue& v, size_t depth) {
    if (v.kind == SymKind::Tuple) {
      if (depth == shape.size()) {
        if (!values.empty()) {
          fail(range, "setting an array element with a sequence: the nested lists have an inhomogeneous shape");
        }
        shape.push_back(graph::Dim::known(static_cast<int64_t>(v.items.size())));
      } else if (depth > shape.size() || shape[depth].extent != static_cast<int64_t>(v.items.size())) {
        fail(range, "setting an array element with a sequence: the nested lists have an inhomogeneous shape");
      }
      for (const auto& item : v.items) walk(item, depth + 1);
      return;
    }
    if (depth != shape.size()) fail(range, "setting an array element with a sequence: the nested lists have an inhomogeneous shape");
    if (v.kind == SymKind::Tensor) {
      fail(range, "np.array of arrays is not supported; combine arrays with np.stack or np.concatenate");
    }
    const double n = requireNumber(v, range, "an array element");
    if (v.kind == SymKind::Float) kind = ScalarKind::Float;
    if (v.kind == SymKind::Int && kind == ScalarKind::Bool) kind = ScalarKind::Int;
    values.push_back(n);
  };
  walk(literal, 0);
  const DType t = dtype ? *dtype : registry::scalarDefaultDType(kind);
  SymValue array = fresh(builder_.constant(t, values, shape, range, nameHint.empty() ? "cst" : nameHint, !dtype), range);
  array.demotedFloat64 = !dtype && t == DType::Float64;
  return array;
}

SymValue Analyzer::evalListComp(const Expr& expr) {
  // the targets are the comprehension's own names, as in Python 3: restored afterwards
  std::vector<std::pair<std::string, std::optional<SymValue>>> saved;
  std::function<void(const Expr&)> save = [&](const Expr& t) {
    if (t.kind == ExprKind::Name) {
      const SymValue* v = lookup(t.text);
      saved.emplace_back(t.text, v ? std::optional<SymValue>(*v) : std::nullopt);
    }
    for (const auto& c : t.children) save(*c);
  };
  size_t k = 1;
  for (const std::string& op : expr.ops) {
    if (op == "for") save(*expr.children[k++]);
    ++k;
  }
  std::vector<SymValue> items;
  std::function<void(size_t, size_t)> run = [&](size_t clause, size_t child) {
    if (clause == expr.ops.size()) {
      if (static_cast<int64_t>(items.size()) >= kMaxTupleItems) {
        fail(expr.range, "this list comprehension makes more than " + std::to_string(kMaxTupleItems) + " items");
      }
      items.push_back(eval(*expr.children[0]));
      return;
    }
    if (expr.ops[clause] == "if") {
      const SymValue test = eval(*expr.children[child]);
      if (test.kind == SymKind::Tensor) {
        fail(expr.children[child]->range, "a comprehension's condition must be a compile-time value; select array "
                                          "elements with np.where(cond, x, y)");
      }
      if (truthy(test, expr.children[child]->range)) run(clause + 1, child + 1);
      return;
    }
    const Expr& iterable = *expr.children[child + 1];
    for (const SymValue& item : iterationItems(eval(iterable), iterable.range)) {
      assignTo(*expr.children[child], item);
      run(clause + 1, child + 2);
    }
  };
  try {
    run(0, 1);
  } catch (...) {
    for (auto& [name, value] : saved) bind(name, value ? *value : SymValue::poison());
    throw;
  }
  for (auto& [name, value] : saved) {
    if (value) {
      bind(name, *value);
    } else {
      frames_.back().locals.erase(name);
      auto& order = frames_.back().order;
      order.erase(std::remove(order.begin(), order.end(), name), order.end());
    }
  }
  return SymValue::tuple(std::move(items));
}

std::vector<SymValue> Analyzer::iterationItems(const SymValue& seq, const SourceRange& range, int64_t limit) {
  if (seq.kind == SymKind::Tuple) {
    if (limit < 0 || limit >= static_cast<int64_t>(seq.items.size())) return seq.items;
    return std::vector<SymValue>(seq.items.begin(), seq.items.begin() + limit);
  }
  if (seq.kind == SymKind::Tensor && !seq.weak) {
    const TensorType type = builder_.type(arrayValue(seq, range));  // copied: reading rows adds values
    if (type.rank() < 1) fail(range, "iteration over a 0-d array");
    if (!type.shape[0].isKnown()) fail(range, "iterating over an array needs its first dimension at compile time");
    const int64_t taken = limit < 0 ? type.shape[0].extent : std::min(limit, type.shape[0].extent);
    if (taken > kMaxArrayRows) {
      fail(range, "this takes an array's " + std::to_string(taken) + " rows one by one at compile time, which pyasc does "
                  "for up to " + std::to_string(kMaxArrayRows) + " rows; index the array in a `for i in range(n)` loop instead, "
                  "which stays a loop");
    }
    std::vector<SymValue> rows;
    for (int64_t i = 0; i < taken; ++i) {
      IndexPlan plan;
      plan.axes = {0};
      plan.begin = {i};
      plan.end = {i + 1};
      plan.step = {1};
      plan.squeezedAxes = {0};
      rows.push_back(fresh(readThroughPlan(arrayValue(seq, range), plan, range, ""), range));
    }
    return rows;
  }
  fail(range, "this iterates over " + describeKind(seq) + "; comprehensions and zip() take range(), lists, tuples "
              "and arrays");
}

void Analyzer::failCannotInfer(const std::string& op, const std::vector<Argument>& operands, const SourceRange& range) {
  std::string message = "TypeError: Cannot infer dtype for operation '" + ufuncName(op) + "' ";
  if (operands.size() == 2) {
    message += "between '" + typeName(operands[0].value) + "' and '" + typeName(operands[1].value) + "'";
  } else {
    message += "on";
    for (size_t i = 0; i < operands.size(); ++i) message += std::string(i ? "," : "") + " '" + typeName(operands[i].value) + "'";
  }
  std::vector<Diagnostic> notes;
  std::optional<DType> strong;
  for (const Argument& a : operands) {
    if (a.value.kind == SymKind::Tensor && !a.value.untyped && !a.value.weak) strong = builder_.type(arrayValue(a.value, a.range)).dtype;
  }
  const std::string dtypeText = std::string("float32");
  for (const Argument& a : operands) {
    const SymValue& v = a.value;
    if (v.kind == SymKind::Tensor && v.untyped) {
      notes.push_back(note(v.range, "parameter '" + v.paramName + "' has no declared dtype"));
      notes.push_back(note(SourceRange{}, "declare it: def func(" + v.paramName + ": Tensor[" + dtypeText +
                                              "]) -> Tensor[" + dtypeText + "], or pass --input=" + v.paramName + ":" +
                                              dtypeText + "[...]"));
    }
  }
  for (const Argument& a : operands) {
    const SymValue& v = a.value;
    const bool weak = v.isScalarConstant() || v.kind == SymKind::LoopIndex || (v.kind == SymKind::Tensor && v.weak);
    if (!weak || !strong) continue;
    const std::string target = dtypeName(*strong);
    std::string literal = a.expr && (a.expr->kind == ExprKind::Int || a.expr->kind == ExprKind::Float) ? a.expr->text
                          : v.kind == SymKind::Int ? std::to_string(v.intValue)
                          : v.kind == SymKind::Float ? graph::formatFloat(v.floatValue, DType::Float64)
                                                     : "x";
    notes.push_back(note(a.range, "give the scalar a dtype: np.array(" + literal + ", dtype=np." + target + ")"));
    notes.push_back(note(SourceRange{}, "--strict-dtypes turns off NumPy's weak-scalar promotion, which would give 'Tensor[" +
                                            target + "]'"));
    break;
  }
  fail(range, message, notes);
}

SymValue Analyzer::applyOp(const std::string& op, const std::vector<Argument>& operandsIn,
                           std::vector<graph::NamedAttr> attrs, const SourceRange& range, const std::string& nameHint,
                           const std::string& spelling) {
  std::vector<Argument> operands = operandsIn;
  for (const Argument& a : operands) {
    if (a.value.kind == SymKind::Poison) return SymValue::poison();
  }
  for (const Argument& a : operands) {
    if (a.value.kind == SymKind::Complex) return complexOp(op, operands, std::move(attrs), range, spelling);
  }
  for (const Argument& a : operands) {
    if (a.value.kind == SymKind::Selection) return applyToSelection(op, operands, std::move(attrs), range, nameHint, spelling);
  }
  for (Argument& a : operands) {
    if (a.value.kind == SymKind::Tensor && a.value.untyped) failCannotInfer(op, operands, range);
    if (a.value.demotedFloat64 && op != "Cast") builder_.deviceDType(DType::Float64, a.range);
    if (a.value.kind == SymKind::Tuple) a.value = constantArray(a.value, std::nullopt, a.range, "cst");
    if (!isTensorLike(a.value)) {
      fail(a.range, "expected an array or a number for '" + (spelling.empty() ? ufuncName(op) : spelling) + "', found " +
                        describeKind(a.value));
    }
  }
  const size_t firstParticipant = op == "Where" ? 1 : 0;
  std::optional<DType> strong;
  std::optional<DType> weakTensor;
  std::optional<ScalarKind> literalKind;
  bool anyWeak = false;
  for (size_t i = firstParticipant; i < operands.size(); ++i) {
    const SymValue& v = operands[i].value;
    if (v.kind == SymKind::Tensor && !v.weak) {
      const DType t = builder_.type(arrayValue(v, operands[i].range)).dtype;
      strong = strong ? registry::promoteTypes(*strong, t) : t;
    } else if (v.kind == SymKind::Tensor) {
      anyWeak = true;
      const DType t = builder_.type(arrayValue(v, operands[i].range)).dtype;
      weakTensor = weakTensor ? registry::promoteTypes(*weakTensor, t) : t;
    } else {
      anyWeak = true;
      const ScalarKind k = v.kind == SymKind::Float ? ScalarKind::Float
                           : v.kind == SymKind::Bool ? ScalarKind::Bool
                                                     : ScalarKind::Int;
      literalKind = literalKind ? std::max(*literalKind, k) : k;
    }
  }
  const size_t participants = operands.size() - firstParticipant;
  if (options_.strictDtypes && strong && anyWeak) failCannotInfer(op, operands, range);
  DType common;
  if (strong) {
    common = *strong;
    if (weakTensor) common = registry::promoteWithScalar(common, kindOfDType(*weakTensor));
    if (literalKind) common = registry::promoteWithScalar(common, *literalKind);
  } else if (weakTensor) {
    common = literalKind ? registry::promoteWithScalar(*weakTensor, *literalKind) : *weakTensor;
  } else {
    common = registry::scalarDefaultDType(literalKind ? *literalKind : ScalarKind::Int);
  }
  common = builder_.deviceDType(common, range);
  std::vector<ValueId> inputs;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Argument& a = operands[i];
    const SymValue& v = a.value;
    const bool participant = i >= firstParticipant;
    if (v.kind == SymKind::Int && isInteger(common) && participant && !fitsIn(v.intValue, common)) {
      fail(a.range, "Python integer " + std::to_string(v.intValue) + " out of bounds for " + dtypeName(common),
           {note(range, "NumPy 2 keeps the array's dtype for Python scalars; cast the array first "
                        "(.astype(np.int32)) or use a smaller value")});
    }
    ValueId id = participant ? tensorOf(v, common, a.range) : tensorOf(v, DType::Bool, a.range);
    if (participant && participants > 1 && builder_.type(id).dtype != common) id = builder_.cast(id, common, a.range);
    inputs.push_back(id);
  }
  if (op == "Pow" && isInteger(common) && operands.size() == 2 && operands[1].value.kind == SymKind::Int &&
      operands[1].value.intValue < 0) {
    fail(operands[1].range, "integers to negative integer powers are not allowed (NumPy raises ValueError); use a "
                            "float base, such as x.astype(np.float32) ** " + std::to_string(operands[1].value.intValue));
  }
  ValueId result;
  std::string error;
  if (const std::optional<double> folded = foldIntegerElements(op, inputs)) {  // (24 - w with w = widths[k])
    const DType t = builder_.type(inputs[0]).dtype;
    SymValue out = fresh(builder_.constant(t, {*folded}, {}, range, nameHint.empty() ? "cst" : nameHint), range);
    return out;
  }
  if (!builder_.tryAddNode(op, inputs, std::move(attrs), range, nameHint, result, error)) {
    std::vector<Diagnostic> notes;
    for (size_t i = 0; i < operands.size(); ++i) {
      const Argument& a = operands[i];
      if (a.value.kind != SymKind::Tensor) continue;
      const std::string who = a.expr && a.expr->kind == ExprKind::Name ? "'" + a.expr->text + "'" : "this operand";
      notes.push_back(note(a.range, who + " has shape " + registry::numpyShape(builder_.type(inputs[i]).shape) + " (" +
                                        builder_.type(inputs[i]).str() + ")"));
    }
    const std::string prefix = spelling == "@" ? "matmul: " : "";
    fail(range, prefix + error, notes);
  }
  SymValue out = fresh(result, range);
  // np.where(mask, 1, -1) is an array of the mask's shape, not a Python scalar
  bool arrayCondition = false;
  for (size_t i = 0; i < firstParticipant && i < operands.size(); ++i) {
    arrayCondition = arrayCondition || (operands[i].value.kind == SymKind::Tensor && !operands[i].value.weak);
  }
  if (!strong && anyWeak && participants > 0 && !arrayCondition) out.weak = kindOfDType(builder_.type(result).dtype);
  for (const Argument& a : operands) {
    if (a.value.kind == SymKind::LoopIndex || !a.value.text.empty()) out.text = a.value.text;  // depends on a loop index
  }
  return out;
}

}  // namespace pyasc::frontend
