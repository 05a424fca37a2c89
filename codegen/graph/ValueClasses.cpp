// Value classes during the in-order walk: arrays, compile-time scalars, loop counters; reads ahead.
#include "codegen/graph/ValueClasses.h"

#include <cmath>

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

ValueClasses::ValueClasses(const graph::Graph& g) : g_(g), info_(g.values.size()), reads_(g.values.size(), 0) {
  for (const auto& in : g.inputs) setArray(in.value);
  for (const auto& c : g.constants) {
    const graph::Value& v = g.value(c.value);
    if (v.type.rank() == 0 || graph::elementCount(v.type.shape) == 1) {
      setScalar(c.value, graph::decodeConstant(v.type.dtype, c.bytes).at(0));
    } else {
      setArray(c.value);
    }
  }
  countReads(g.body);
  for (const auto& out : g.outputs) ++reads_[static_cast<size_t>(out.value)];
}

void ValueClasses::countReads(const graph::Region& r) {
  for (const Node& n : r.nodes) {
    for (ValueId v : n.inputs) ++reads_[static_cast<size_t>(v)];
    for (const auto& sub : n.regions) countReads(sub);
  }
  for (ValueId v : r.yields) ++reads_[static_cast<size_t>(v)];
}

void ValueClasses::setScalar(ValueId v, double value) {
  Info& i = at(v);
  i.cls = Class::Scalar;
  i.wasScalar = true;
  i.scalar = value;
}

void ValueClasses::readAsArray(ValueId v) {
  if (of(v) == Class::Scalar) setArray(v);
}

bool ValueClasses::foldAffine(const Node& n) {
  if (n.outputs.size() != 1 || graph::elementCount(g_.type(n.outputs[0]).shape) != 1 ||
      !isInteger(g_.type(n.outputs[0]).dtype)) {
    return false;
  }
  // a compile-time scalar takes part only when int64 holds it (a Cast from float truncates it)
  constexpr double kInt64Bound = 9223372036854775808.0;  // 2^63
  std::vector<model::AffineScalar> args;
  bool anyCounter = false;
  for (ValueId v : n.inputs) {
    if (of(v) == Class::Counter) {
      args.push_back(affine(v));
      anyCounter = true;
    } else if (of(v) == Class::Scalar && std::fabs(scalar(v)) < kInt64Bound) {
      args.push_back(model::AffineScalar{static_cast<int64_t>(scalar(v)), {}});
    } else {
      return false;
    }
  }
  if (!anyCounter) return false;
  // the forms below fold only while every base and coefficient fits in int64
  bool overflow = false;
  auto scaled = [&overflow](model::AffineScalar a, int64_t k) {
    overflow |= __builtin_mul_overflow(a.base, k, &a.base);
    for (auto& t : a.terms) overflow |= __builtin_mul_overflow(t.coeff, k, &t.coeff);
    return a;
  };
  auto sum = [&overflow](model::AffineScalar a, const model::AffineScalar& b) {
    overflow |= __builtin_add_overflow(a.base, b.base, &a.base);
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
  if (overflow) return false;
  Info& out = at(n.outputs[0]);
  out.cls = Class::Counter;
  out.affine = r;
  return true;
}

uint32_t ValueClasses::enterLoop(const Node& n) {
  const graph::Region& body = n.body();
  for (ValueId init : n.inputs) readAsArray(init);
  for (size_t k = 1; k < body.arguments.size(); ++k) setArray(body.arguments[k]);
  uint32_t counter = nextCounter_++;
  Info& c = at(body.arguments[0]);
  c.cls = Class::Counter;
  c.affine.base = n.intAttr("start");
  c.affine.terms = {model::AffineTerm{counter, n.intAttr("step", 1)}};
  return counter;
}

void ValueClasses::leaveLoop(const Node& n) {
  for (ValueId y : n.body().yields) {
    readAsArray(y);
    --reads_[static_cast<size_t>(y)];
  }
  for (ValueId out : n.outputs) setArray(out);
}

void ValueClasses::readsDone(const Node& n) {
  for (ValueId v : n.inputs) --reads_[static_cast<size_t>(v)];
}

}  // namespace pyasc::codegen
