// Complex numbers and arrays as pairs of real planes (real, imaginary): literals, NumPy's complex
// arithmetic and functions, indexing through both planes, and outputs as (real, imaginary) pairs
// along a last axis of 2.
#include <cmath>
#include <complex>

#include "frontend/Analyzer.h"
#include "registry/ShapeInference.h"

namespace pyasc::frontend {

using graph::TensorType;
using graph::ValueId;

namespace {

// The name a plane is bound to while an index expression runs on it; no program can spell it.
constexpr const char* kPlaneName = "complex plane";

bool isComplex(const SymValue& v) { return v.kind == SymKind::Complex; }

}  // namespace

SymValue Analyzer::complexOf(SymValue re, SymValue im, const SourceRange& range, bool keepViews) {
  const bool reArray = re.kind == SymKind::Tensor || re.kind == SymKind::LoopIndex;
  const bool imArray = im.kind == SymKind::Tensor || im.kind == SymKind::LoopIndex;
  if ((reArray || imArray) && re.kind != SymKind::Selection && im.kind != SymKind::Selection) {
    // one float dtype (float32 at least: NumPy has no complex of float16) and one shape for both planes
    std::optional<DType> strong;
    bool weak = true;  // a Python complex computed at run time (1j * k of a loop index) promotes as a literal
    for (const SymValue* p : {&re, &im}) {
      if (p->kind == SymKind::LoopIndex || (p->kind == SymKind::Tensor && p->weak)) continue;
      if (p->kind != SymKind::Tensor) continue;
      weak = false;
      const DType t = builder_.type(arrayValue(*p, range)).dtype;
      strong = strong ? registry::promoteTypes(*strong, t) : t;
    }
    DType component = strong ? *strong : DType::Float64;
    if (!isFloat(component)) component = DType::Float64;
    if (component == DType::Float16) component = DType::Float32;
    component = builder_.deviceDType(component, range);
    const ValueId r0 = tensorOf(re, component, range), i0 = tensorOf(im, component, range);
    ValueId r = r0, i = i0;
    if (builder_.type(r).dtype != component) r = builder_.cast(r, component, range);
    if (builder_.type(i).dtype != component) i = builder_.cast(i, component, range);
    const graph::Shape a = builder_.type(r).shape, b = builder_.type(i).shape;
    if (a != b) {
      graph::Shape shape;
      if (!registry::broadcastShapes(a, b, shape)) fail(range, "the real and imaginary parts of this complex array do not broadcast");
      std::vector<int64_t> dims;
      for (const graph::Dim& d : shape) dims.push_back(d.extent);
      if (a != shape) r = builder_.addNode("BroadcastTo", {r}, {{"shape", dims}}, range);
      if (b != shape) i = builder_.addNode("BroadcastTo", {i}, {{"shape", dims}}, range);
    }
    // a result is an array of its own (writes into it change nothing else); a subscript's planes
    // keep their views, which write through as NumPy's
    auto plane = [&](SymValue& p, ValueId v, ValueId v0) {
      if (keepViews && v == v0 && p.kind == SymKind::Tensor && !p.weak) return;
      p = fresh(v, range);
      if (weak) p.weak = registry::ScalarKind::Float;
    };
    plane(re, r, r0);
    plane(im, i, i0);
  }
  SymValue z = SymValue::make(SymKind::Complex);
  z.range = range;
  z.items = {std::move(re), std::move(im)};
  return z;
}

SymValue Analyzer::zerosLike(const SymValue& v, const SourceRange& range) {
  if (v.isScalarConstant()) return SymValue::ofFloat(0.0);
  if (v.kind == SymKind::Selection) return planeOp("*", v, SymValue::ofFloat(0.0), range);
  const TensorType type = builder_.type(tensorOf(v, DType::Float64, range));
  DType t = isFloat(type.dtype) ? type.dtype : DType::Float64;
  if (t == DType::Float16) t = DType::Float32;
  t = builder_.deviceDType(t, range);
  std::vector<int64_t> shape;
  for (const graph::Dim& d : type.shape) shape.push_back(d.extent);
  SymValue zeros = fresh(builder_.addNode("Fill", {}, {{"shape", shape}, {"value", 0.0}, {"dtype", std::string(dtypeName(t))}},
                                          range),
                         range);
  zeros.weak = v.weak;
  return zeros;
}

bool Analyzer::isComplexConstant(const SymValue& v) {
  return v.kind == SymKind::Complex && v.items[0].isScalarConstant() && v.items[1].isScalarConstant();
}

// The planes of an operand: a real value's imaginary plane is none (an exact zero that costs nothing).
Analyzer::Planes Analyzer::planesOf(const SymValue& v) {
  if (isComplex(v)) return Planes{v.items[0], v.items[1]};
  return Planes{v, std::nullopt};
}

SymValue Analyzer::planeOp(const std::string& symbol, const SymValue& a, const SymValue& b, const SourceRange& range) {
  return binaryOperator(symbol, Argument{a, range, nullptr}, Argument{b, range, nullptr}, range, "");
}

SymValue Analyzer::planeNeg(const SymValue& a, const SourceRange& range) {
  if (a.isScalarConstant()) return SymValue::ofFloat(-a.number());
  return applyOp("Neg", {Argument{a, range, nullptr}}, {}, range, "");
}

SymValue Analyzer::planeCall(const std::string& op, std::vector<SymValue> operands, const SourceRange& range,
                             std::vector<graph::NamedAttr> attrs) {
  std::vector<Argument> args;
  for (SymValue& v : operands) args.push_back(Argument{std::move(v), range, nullptr});
  return applyOp(op, args, std::move(attrs), range, "");
}

SymValue Analyzer::complexMultiply(const Planes& a, const Planes& b, const SourceRange& range) {
  if (a.im && b.im) {
    return complexOf(planeOp("-", planeOp("*", a.re, b.re, range), planeOp("*", *a.im, *b.im, range), range),
                     planeOp("+", planeOp("*", a.re, *b.im, range), planeOp("*", *a.im, b.re, range), range), range);
  }
  if (a.im) return complexOf(planeOp("*", a.re, b.re, range), planeOp("*", *a.im, b.re, range), range);
  return complexOf(planeOp("*", a.re, b.re, range), planeOp("*", a.re, *b.im, range), range);
}

// NumPy's complex division (Smith's algorithm, as npy_cdiv): by a real divisor, both planes times
// its reciprocal; otherwise scaled by the larger of the divisor's parts, and a zero divisor divides
// each plane by zero.
SymValue Analyzer::complexDivide(const Planes& a, const Planes& b, const SourceRange& range) {
  auto op = [&](const char* s, const SymValue& x, const SymValue& y) { return planeOp(s, x, y, range); };
  if (!b.im) {
    const SymValue scale = op("/", SymValue::ofFloat(1.0), b.re);
    return complexOf(op("*", a.re, scale), a.im ? op("*", *a.im, scale) : zerosLike(scale, range), range);
  }
  const SymValue ar = a.re, ai = a.im ? *a.im : SymValue::ofFloat(0.0), br = b.re, bi = *b.im;
  if (ar.isScalarConstant() && ai.isScalarConstant() && br.isScalarConstant() && bi.isScalarConstant()) {
    const std::complex<double> q = std::complex<double>(ar.number(), ai.number()) / std::complex<double>(br.number(), bi.number());
    return complexOf(SymValue::ofFloat(q.real()), SymValue::ofFloat(q.imag()), range);
  }
  auto abs = [&](const SymValue& x) { return x.isScalarConstant() ? SymValue::ofFloat(std::fabs(x.number())) : planeCall("Abs", {x}, range); };
  auto where = [&](const SymValue& c, const SymValue& x, const SymValue& y) { return planeCall("Where", {c, x, y}, range); };
  const SymValue brAbs = abs(br), biAbs = abs(bi);
  const SymValue realLarger = op(">=", brAbs, biAbs);
  // |br| >= |bi|: rat = bi/br, scl = 1/(br + bi*rat), ((ar + ai*rat)*scl, (ai - ar*rat)*scl)
  const SymValue rat1 = op("/", bi, br);
  const SymValue scl1 = op("/", SymValue::ofFloat(1.0), op("+", br, op("*", bi, rat1)));
  const SymValue re1 = op("*", op("+", ar, op("*", ai, rat1)), scl1);
  const SymValue im1 = op("*", op("-", ai, op("*", ar, rat1)), scl1);
  // otherwise: rat = br/bi, scl = 1/(bi + br*rat), ((ar*rat + ai)*scl, (ai*rat - ar)*scl)
  const SymValue rat2 = op("/", br, bi);
  const SymValue scl2 = op("/", SymValue::ofFloat(1.0), op("+", bi, op("*", br, rat2)));
  const SymValue re2 = op("*", op("+", op("*", ar, rat2), ai), scl2);
  const SymValue im2 = op("*", op("-", op("*", ai, rat2), ar), scl2);
  const SymValue zero = op("&", op("==", br, SymValue::ofFloat(0.0)), op("==", bi, SymValue::ofFloat(0.0)));
  return complexOf(where(zero, op("/", ar, brAbs), where(realLarger, re1, re2)),
                   where(zero, op("/", ai, brAbs), where(realLarger, im1, im2)), range);
}

SymValue Analyzer::complexBinary(const std::string& symbol, const Argument& lhs, const Argument& rhs,
                                 const SourceRange& range) {
  const Planes a = planesOf(lhs.value), b = planesOf(rhs.value);
  for (const Argument* side : {&lhs, &rhs}) {
    const SymValue& v = side->value;
    const bool number = v.isScalarConstant() || v.kind == SymKind::Tensor || v.kind == SymKind::LoopIndex ||
                        v.kind == SymKind::Selection || isComplex(v);
    if (!number) fail(side->range, "unsupported operand for '" + symbol + "' with a complex number: " + describeKind(v));
  }
  if (symbol == "+" || symbol == "-") {
    SymValue im;
    if (a.im && b.im) im = planeOp(symbol, *a.im, *b.im, range);
    else if (a.im) im = *a.im;
    else im = symbol == "-" ? planeNeg(*b.im, range) : *b.im;
    return complexOf(planeOp(symbol, a.re, b.re, range), im, range);
  }
  if (symbol == "*") return complexMultiply(a, b, range);
  if (symbol == "@") return complexOp("MatMul", {lhs, rhs}, {}, range, "@");
  if (symbol == "/") return complexDivide(a, b, range);
  if (symbol == "**") {
    const SymValue& e = rhs.value;
    const bool integer = e.kind == SymKind::Int || (e.kind == SymKind::Float && std::floor(e.floatValue) == e.floatValue);
    if (!integer || std::fabs(e.number()) >= 100 || isComplex(e)) {
      fail(rhs.range, "a complex number raised to " + (isComplex(e) ? std::string("a complex power") : "this power") +
                          " is not supported; pyasc raises complex numbers to integer constants below 100 in magnitude");
    }
    // NumPy's npy_cpow for an integer exponent: binary powering by complex products
    int64_t n = static_cast<int64_t>(std::fabs(e.number()));
    if (n == 0) {  // 1 + 0j for every element, as npy_cpow
      const SymValue zero = zerosLike(a.re, range);
      return complexOf(planeOp("+", zero, SymValue::ofFloat(1.0), range), zerosLike(a.re, range), range);
    }
    SymValue result, power = complexOf(a.re, a.im ? *a.im : SymValue::ofFloat(0.0), range);
    bool started = false;
    for (int64_t mask = 1;; mask <<= 1) {
      if (n & mask) {
        result = started ? complexMultiply(planesOf(result), planesOf(power), range) : power;
        started = true;
      }
      if (n < (mask << 1)) break;
      power = complexMultiply(planesOf(power), planesOf(power), range);
    }
    if (e.number() < 0) return complexDivide(Planes{SymValue::ofFloat(1.0), std::nullopt}, planesOf(result), range);
    return result;
  }
  if (symbol == "==" || symbol == "!=") {
    const SymValue zero = SymValue::ofFloat(0.0);
    const SymValue re = planeOp(symbol, a.re, b.re, range);
    const SymValue im = planeOp(symbol, a.im ? *a.im : zero, b.im ? *b.im : zero, range);
    return planeOp(symbol == "==" ? "&" : "|", re, im, range);
  }
  fail(range, "operator '" + symbol + "' is not supported on complex numbers; pyasc computes +, -, *, /, ** (integer "
                                      "exponents), @, == and != on them, and np.abs, np.real, np.imag, np.conj, np.angle, np.exp");
}

SymValue Analyzer::complexOp(const std::string& op, const std::vector<Argument>& operands,
                             std::vector<graph::NamedAttr> attrs, const SourceRange& range, const std::string& spelling) {
  const std::string name = spelling.empty() ? op : spelling;
  // operators that act on each plane alike
  static const std::set<std::string> linear = {"Identity", "Reshape", "Transpose", "ExpandDims", "Squeeze", "BroadcastTo",
                                               "Slice", "ReduceSum", "ReduceMean", "Flip", "Roll", "Neg", "Concat", "Stack",
                                               "Repeat"};
  if (linear.count(op)) {
    std::vector<Argument> re, im;
    for (const Argument& a : operands) {
      const Planes p = planesOf(a.value);
      re.push_back(Argument{p.re, a.range, nullptr});
      im.push_back(Argument{p.im ? *p.im : SymValue::ofFloat(0.0), a.range, nullptr});
    }
    if (op == "Concat" || op == "Stack") {  // a real part beside complex ones: its imaginary plane is zeros
      for (size_t k = 0; k < operands.size(); ++k) {
        if (!isComplex(operands[k].value)) im[k].value = zerosLike(re[k].value, range);
      }
    }
    return complexOf(applyOp(op, re, attrs, range, ""), applyOp(op, im, attrs, range, ""), range);
  }
  if (operands.size() == 1) {
    const Planes p = planesOf(operands[0].value);
    const SymValue im = p.im ? *p.im : SymValue::ofFloat(0.0);
    if (op == "Abs") {  // NumPy's npy_hypot
      if (isComplexConstant(operands[0].value)) return SymValue::ofFloat(std::hypot(p.re.number(), im.number()));
      return planeCall("Hypot", {p.re, im}, range);
    }
    if (op == "Exp") {  // NumPy's npy_cexp: e^re (cos im, sin im), and e^re + 0j for a zero imaginary part
      if (isComplexConstant(operands[0].value)) {
        const std::complex<double> z = std::exp(std::complex<double>(p.re.number(), im.number()));
        return complexOf(SymValue::ofFloat(z.real()), SymValue::ofFloat(z.imag()), range);
      }
      const SymValue magnitude = planeCall("Exp", {p.re}, range);
      const SymValue imaginary = planeOp("*", magnitude, planeCall("Sin", {im}, range), range);
      return complexOf(planeOp("*", magnitude, planeCall("Cos", {im}, range), range),
                       planeCall("Where", {planeOp("==", im, SymValue::ofFloat(0.0), range), im, imaginary}, range), range);
    }
    if (op == "Square") return complexMultiply(p, p, range);
  }
  if (op == "Where" && operands.size() == 3 && !isComplex(operands[0].value)) {  // np.where(c, z, w), an if on data
    const Planes a = planesOf(operands[1].value), b = planesOf(operands[2].value);
    const SymValue zero = SymValue::ofFloat(0.0);
    return complexOf(planeCall("Where", {operands[0].value, a.re, b.re}, range),
                     planeCall("Where", {operands[0].value, a.im ? *a.im : zero, b.im ? *b.im : zero}, range), range);
  }
  if (op == "MatMul" && operands.size() == 2) {
    const Planes a = planesOf(operands[0].value), b = planesOf(operands[1].value);
    auto mm = [&](const SymValue& x, const SymValue& y) { return planeCall("MatMul", {x, y}, range, attrs); };
    if (a.im && b.im) {
      return complexOf(planeOp("-", mm(a.re, b.re), mm(*a.im, *b.im), range),
                       planeOp("+", mm(a.re, *b.im), mm(*a.im, b.re), range), range);
    }
    if (a.im) return complexOf(mm(a.re, b.re), mm(*a.im, b.re), range);
    return complexOf(mm(a.re, b.re), mm(a.re, *b.im), range);
  }
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Equal" || op == "NotEqual" || op == "Pow") {
    static const std::map<std::string, std::string> symbols = {{"Add", "+"}, {"Sub", "-"}, {"Mul", "*"}, {"Div", "/"},
                                                               {"Equal", "=="}, {"NotEqual", "!="}, {"Pow", "**"}};
    if (operands.size() == 2) return complexBinary(symbols.at(op), operands[0], operands[1], range);
  }
  if (op == "Cast") {
    fail(range, "casting a complex array to a real dtype discards its imaginary part; take np.real(z) or np.abs(z)");
  }
  fail(range, "'" + name + "' on complex numbers is not supported; pyasc computes +, -, *, /, ** (integer exponents), "
                           "== and !=, @, sums and means, shape operations, np.abs, np.real, np.imag, np.conj, np.angle "
                           "and np.exp on them");
}

std::optional<SymValue> Analyzer::complexCall(const std::string& name, const std::optional<Argument>& self,
                                              const CallArgs& args, const std::string& nameHint) {
  std::vector<Argument> all;
  if (self) all.push_back(*self);
  for (const Argument& a : args.positional) all.push_back(a);
  const bool anyComplex = std::any_of(all.begin(), all.end(), [](const Argument& a) { return isComplex(a.value); });
  auto dtypeArgument = [&](size_t position) -> const Argument* {
    for (const auto& [key, value] : args.keywords) {
      if (key == "dtype") return &value;
    }
    return args.positional.size() > position ? &args.positional[position] : nullptr;
  };
  auto complexDType = [](const Argument* a) { return a && a->value.kind == SymKind::DType && a->value.text == "complex"; };
  // creation with a complex dtype: two planes of the component dtype
  static const std::map<std::string, size_t> creators = {{"zeros", 1}, {"ones", 1}, {"empty", 1}, {"full", 2}};
  if (auto c = creators.find(name); c != creators.end() && !self && complexDType(dtypeArgument(c->second))) {
    const Argument* d = dtypeArgument(c->second);
    CallArgs real = args;
    for (auto& [key, value] : real.keywords) {
      if (key == "dtype") value.value = SymValue::ofDType(d->value.dtype);
    }
    if (real.positional.size() > c->second) real.positional[c->second].value = SymValue::ofDType(d->value.dtype);
    CallArgs zero = real;
    if (name == "full") {
      const Planes fill = planesOf(real.positional.at(1).value);
      real.positional[1].value = fill.re;
      zero.positional[1].value = fill.im ? *fill.im : SymValue::ofFloat(0.0);
      return complexOf(callNumpy("full", real, nameHint), callNumpy("full", zero, nameHint), args.range);
    }
    return complexOf(callNumpy(name == "ones" ? "ones" : "zeros", real, nameHint), callNumpy("zeros", zero, nameHint), args.range);
  }
  if (name == "astype" && self && complexDType(dtypeArgument(0))) {  // planes of the component dtype
    const DType component = builder_.deviceDType(dtypeArgument(0)->value.dtype, args.range);
    const Planes p = planesOf(self->value);
    auto cast = [&](const SymValue& v) { return fresh(builder_.cast(tensorOf(v, component, args.range), component, args.range), args.range); };
    return complexOf(cast(p.re), p.im ? cast(*p.im) : cast(zerosLike(p.re, args.range)), args.range);
  }
  auto degrees = [&](const SymValue& radians) {  // np.angle(z, deg=True)
    for (const auto& [key, value] : args.keywords) {
      if (key == "deg" && truthy(value.value, value.range)) return planeOp("*", radians, SymValue::ofFloat(180.0 / M_PI), args.range);
    }
    if (args.positional.size() > 1 && truthy(args.positional[1].value, args.positional[1].range)) {
      return planeOp("*", radians, SymValue::ofFloat(180.0 / M_PI), args.range);
    }
    return radians;
  };
  if (!anyComplex) {  // NumPy's complex functions of a real x
    if (all.empty() || self) return std::nullopt;
    const SymValue& x = all[0].value;
    if (name == "real" || name == "conj" || name == "conjugate") return x;
    if (name == "imag") return zerosLike(x, args.range);
    if (name == "angle") return degrees(planeCall("Arctan2", {zerosLike(x, args.range), x}, args.range));
    if (name == "iscomplexobj") return SymValue::ofBool(false);
    return std::nullopt;
  }
  const Planes z = planesOf(all[0].value);
  const SymValue im = z.im ? *z.im : SymValue::ofFloat(0.0);
  if (name == "real") return z.re;
  if (name == "imag") return im;
  if (name == "conj" || name == "conjugate") return complexOf(z.re, planeNeg(im, args.range), args.range);
  if (name == "angle") {
    if (isComplexConstant(all[0].value)) return degrees(SymValue::ofFloat(std::atan2(im.number(), z.re.number())));
    return degrees(planeCall("Arctan2", {im, z.re}, args.range));
  }
  if (name == "copy") return complexOf(planeCall("Identity", {z.re}, args.range), planeCall("Identity", {im}, args.range), args.range);
  const bool like = name == "zeros_like" || name == "ones_like" || name == "empty_like";
  if (like && !self && dtypeArgument(1) && !complexDType(dtypeArgument(1))) {  // a real array of z's shape
    CallArgs real = args;
    real.positional[0].value = z.re;
    return callNumpy(name, real, nameHint);
  }
  if (like) {
    CallArgs real = args;
    if (self) real.positional.insert(real.positional.begin(), *self);
    real.positional[0].value = z.re;
    CallArgs zero = real;
    return complexOf(callNumpy(name == "ones_like" ? "ones_like" : "zeros_like", real, nameHint),
                     callNumpy("zeros_like", zero, nameHint), args.range);
  }
  if (name == "iscomplexobj") return SymValue::ofBool(true);
  return std::nullopt;  // the operator's own path: complexOp, or a located refusal
}

SymValue Analyzer::complexAttribute(const SymValue& z, const std::string& name, const SourceRange& range,
                                    const std::string& nameHint) {
  const SymValue& re = z.items[0];
  if (name == "real") return re;
  if (name == "imag") return z.items[1];
  if (name == "T") return complexOp("Transpose", {Argument{z, range, nullptr}}, {}, range, "T");
  if (name == "shape" || name == "ndim" || name == "size") {
    if (re.isScalarConstant()) fail(range, "a complex number has no attribute '" + name + "'");
    return re.kind == SymKind::Selection ? selectionAttribute(re, name, range, nameHint) : arrayAttribute(re, name, range, nameHint);
  }
  if (name == "conj" || name == "conjugate" || name == "copy" || registry_.findAlias(name, registry::AliasForm::Method)) {
    SymValue method = SymValue::named(SymKind::Callable, name);
    method.self = std::make_shared<SymValue>(z);
    return method;
  }
  fail(range, "complex arrays have no attribute '" + name + "' in pyasc; they have .real, .imag, .T, .shape, .ndim, "
              ".size and the methods conj, copy, sum, mean, reshape, transpose");
}

SymValue Analyzer::onPlane(const SymValue& plane, const Expr& subscript, const std::function<SymValue(const Expr&)>& f) {
  const size_t frame = frames_.size() - 1;  // (a helper the index calls pushes frames: no reference held)
  const bool wasBound = frames_[frame].locals.count(kPlaneName) > 0;
  const SymValue before = wasBound ? frames_[frame].locals[kPlaneName] : SymValue::none();
  bind(kPlaneName, plane);
  Expr onIt;
  onIt.kind = ExprKind::Subscript;
  onIt.range = subscript.range;
  auto base = std::make_unique<Expr>();
  base->kind = ExprKind::Name;
  base->text = kPlaneName;
  base->range = subscript.children[0]->range;
  onIt.children.push_back(std::move(base));
  onIt.children.push_back(cloneExpr(*subscript.children[1]));
  auto restore = [&] {
    Frame& f = frames_[frame];
    if (wasBound) {
      f.locals[kPlaneName] = before;
      return;
    }
    f.locals.erase(kPlaneName);
    f.order.erase(std::remove(f.order.begin(), f.order.end(), kPlaneName), f.order.end());
  };
  try {
    SymValue result = f(onIt);
    restore();
    return result;
  } catch (...) {
    restore();
    throw;
  }
}

ExprPtr Analyzer::callsEvaluatedOnce(const Expr& index, std::vector<std::string>& hoisted) {
  if (index.kind == ExprKind::Call || index.kind == ExprKind::ListComp || index.kind == ExprKind::Lambda) {
    const std::string name = std::string(kPlaneName) + " index " + std::to_string(hoisted.size());
    bind(name, eval(index));
    hoisted.push_back(name);
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::Name;
    e->text = name;
    e->range = index.range;
    return e;
  }
  ExprPtr copy = cloneExpr(index);
  for (size_t k = 0; k < index.children.size(); ++k) {
    if (index.children[k]) copy->children[k] = callsEvaluatedOnce(*index.children[k], hoisted);
  }
  return copy;
}

SymValue Analyzer::complexSubscript(const SymValue& z, const Expr& expr, const std::string& nameHint) {
  if (isComplexConstant(z)) fail(expr.range, "a complex number is not subscriptable");
  auto read = [&](const Expr& e) { return evalSubscript(e, nameHint); };
  return onBothPlanes(z, expr, read, true);
}

SymValue Analyzer::onBothPlanes(const SymValue& z, const Expr& subscript, const std::function<SymValue(const Expr&)>& f,
                                bool combine) {
  // the index's calls (np.random draws, helpers) run once for both planes
  std::vector<std::string> hoisted;
  Expr once;
  once.kind = ExprKind::Subscript;
  once.range = subscript.range;
  once.children.push_back(cloneExpr(*subscript.children[0]));
  once.children.push_back(callsEvaluatedOnce(*subscript.children[1], hoisted));
  auto unbind = [&] {
    Frame& f = frames_.back();
    for (const std::string& name : hoisted) {
      f.locals.erase(name);
      f.order.erase(std::remove(f.order.begin(), f.order.end(), name), f.order.end());
    }
  };
  try {
    const SymValue re = onPlane(z.items[0], once, f), im = onPlane(z.items[1], once, f);
    unbind();
    return combine ? complexOf(re, im, subscript.range, true) : SymValue::none();
  } catch (...) {
    unbind();
    throw;
  }
}

void Analyzer::assignComplexSubscript(const Expr& target, const SymValue& base, const SymValue& value) {
  if (!isComplex(base)) {
    fail(target.range, "assigning a complex value into a real array is not supported (NumPy raises TypeError for one "
                       "element and drops the imaginary parts of several); make the array complex "
                       "(np.zeros(shape, np.complex64)) or assign np.real(value)");
  }
  if (isComplexConstant(base)) fail(target.range, "a complex number does not support item assignment");
  const Planes v = planesOf(value);
  const SymValue im = v.im ? *v.im : SymValue::ofFloat(0.0);
  bool real = true;
  onBothPlanes(base, target, [&](const Expr& e) {
    assignSubscript(e, real ? v.re : im);
    real = false;
    return SymValue::none();
  }, false);
}

ValueId Analyzer::complexPairs(const SymValue& z, const SourceRange& range) {
  const Planes p = planesOf(z);
  const DType component = isComplexConstant(z) ? DType::Float64 : builder_.type(tensorOf(p.re, DType::Float64, range)).dtype;
  const ValueId re = tensorOf(p.re, component, range), im = tensorOf(*p.im, component, range);
  const TensorType reType = builder_.type(re);
  const ValueId imCast = builder_.type(im).dtype == reType.dtype ? im : builder_.cast(im, reType.dtype, range);
  return builder_.addNode("Stack", {re, imCast}, {{"axis", int64_t{-1}}}, range);
}

}  // namespace pyasc::frontend
