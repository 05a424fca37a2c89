// Construction, printing and ordering of TE compute expressions.
#include "sdk/te/Expr.h"

#include <functional>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

namespace pyasc::te {

static ExprPtr make(Expr e) { return std::make_shared<const Expr>(std::move(e)); }

ExprPtr placeholder(int index, DType dtype) {
  Expr e{Prim::Placeholder, dtype, {}};
  e.index = index;
  return make(e);
}

ExprPtr constant(double value, DType dtype) {
  Expr e{Prim::Const, dtype, {}};
  e.value = value;
  return make(e);
}

ExprPtr binary(Prim prim, ExprPtr a, ExprPtr b) {
  if (a->dtype != b->dtype) throw std::invalid_argument(std::string(primName(prim)) + ": operand dtypes differ");
  DType t = a->dtype;
  return make(Expr{prim, t, {std::move(a), std::move(b)}});
}

ExprPtr withScalar(Prim prim, ExprPtr a, double value) {
  Expr e{prim, a->dtype, {std::move(a)}};
  e.value = value;
  return make(e);
}

ExprPtr unary(Prim prim, ExprPtr a) {
  DType t = a->dtype;
  return make(Expr{prim, t, {std::move(a)}});
}

ExprPtr cast(ExprPtr a, DType to, RoundMode round) {
  Expr e{Prim::Cast, to, {std::move(a)}};
  e.round = round;
  return make(e);
}

ExprPtr compare(Cmp cmp, ExprPtr a, ExprPtr b) {
  if (a->dtype != b->dtype) throw std::invalid_argument("vcmp: operand dtypes differ");
  Expr e{Prim::VCmp, DType::Bool, {std::move(a), std::move(b)}};
  e.cmp = cmp;
  return make(e);
}

ExprPtr select(ExprPtr cond, ExprPtr a, ExprPtr b) {
  if (a->dtype != b->dtype) throw std::invalid_argument("vsel: operand dtypes differ");
  DType t = a->dtype;
  return make(Expr{Prim::VSel, t, {std::move(cond), std::move(a), std::move(b)}});
}

const char* primName(Prim prim) {
  switch (prim) {
    case Prim::Placeholder: return "placeholder";
    case Prim::Const: return "const";
    case Prim::VAdd: return "vadd";
    case Prim::VSub: return "vsub";
    case Prim::VMul: return "vmul";
    case Prim::VDiv: return "vdiv";
    case Prim::VMax: return "vmax";
    case Prim::VMin: return "vmin";
    case Prim::VAdds: return "vadds";
    case Prim::VMuls: return "vmuls";
    case Prim::VMaxs: return "vmaxs";
    case Prim::VMins: return "vmins";
    case Prim::VExp: return "vexp";
    case Prim::VLog: return "vlog";
    case Prim::VAbs: return "vabs";
    case Prim::VRec: return "vrec";
    case Prim::VSqrt: return "vsqrt";
    case Prim::VRsqrt: return "vrsqrt";
    case Prim::VRelu: return "vrelu";
    case Prim::VLRelu: return "vlrelu";
    case Prim::Cast: return "cast_to";
    case Prim::VCmp: return "vcmp";
    case Prim::VSel: return "vsel";
  }
  return "?";
}

const char* cmpName(Cmp cmp) {
  static const char* names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return names[static_cast<int>(cmp)];
}

std::string print(const ExprPtr& e) {
  std::ostringstream os;
  if (e->prim == Prim::Placeholder) {
    os << "x" << e->index;
    return os.str();
  }
  if (e->prim == Prim::Const) {
    os << e->value;
    return os.str();
  }
  os << primName(e->prim) << "(";
  for (size_t i = 0; i < e->args.size(); ++i) os << (i ? ", " : "") << print(e->args[i]);
  switch (e->prim) {
    case Prim::VAdds: case Prim::VMuls: case Prim::VMaxs: case Prim::VMins: case Prim::VLRelu:
      os << ", " << e->value;
      break;
    case Prim::Cast: os << ", " << dtypeName(e->dtype) << ", " << roundModeName(e->round); break;
    case Prim::VCmp: os << ", '" << cmpName(e->cmp) << "'"; break;
    default: break;
  }
  os << ")";
  return os.str();
}

std::vector<const Expr*> topologicalOrder(const std::vector<ExprPtr>& roots) {
  std::vector<const Expr*> order;
  std::unordered_set<const Expr*> seen;
  std::function<void(const Expr*)> visit = [&](const Expr* e) {
    if (!seen.insert(e).second) return;
    for (const auto& a : e->args) visit(a.get());
    order.push_back(e);
  };
  for (const auto& r : roots) visit(r.get());
  return order;
}

}  // namespace pyasc::te
