// Shape expressions: folding constructors, evaluation, interval bounds and text.
#include "sdk/support/ShapeExpr.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <cstdint>
#include <stdexcept>

namespace pyasc::shape {

namespace {

ShapeExpr node(ShapeOp op, int64_t value, ShapeExpr a = nullptr, ShapeExpr b = nullptr) {
  auto n = std::make_shared<ShapeExprNode>();
  n->op = op;
  n->value = value;
  n->a = std::move(a);
  n->b = std::move(b);
  return n;
}

int64_t floorDivide(int64_t a, int64_t b) {
  if (b == 0) throw std::domain_error("a shape expression divides by zero");
  if (a == INT64_MIN && b == -1) throw std::domain_error("a shape expression overflows");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// The operations throw std::domain_error where int64 arithmetic would overflow.
int64_t apply(ShapeOp op, int64_t a, int64_t b) {
  int64_t r = 0;
  bool overflow = false;
  switch (op) {
    case ShapeOp::Add: overflow = __builtin_add_overflow(a, b, &r); break;
    case ShapeOp::Sub: overflow = __builtin_sub_overflow(a, b, &r); break;
    case ShapeOp::Mul: overflow = __builtin_mul_overflow(a, b, &r); break;
    default: break;
  }
  if (overflow) throw std::domain_error("a shape expression overflows");
  switch (op) {
    case ShapeOp::Add:
    case ShapeOp::Sub:
    case ShapeOp::Mul: return r;
    case ShapeOp::FloorDiv: return floorDivide(a, b);
    case ShapeOp::CeilDiv:
      if (a == INT64_MIN) throw std::domain_error("a shape expression overflows");
      return -floorDivide(-a, b);
    case ShapeOp::Min: return std::min(a, b);
    case ShapeOp::Max: return std::max(a, b);
    default: return 0;
  }
}

bool constIs(const ShapeExpr& e, int64_t v) { return isConst(e) && e->value == v; }

ShapeExpr binary(ShapeOp op, const ShapeExpr& a, const ShapeExpr& b) {
  if (isConst(a) && isConst(b)) return constant(apply(op, a->value, b->value));
  return node(op, 0, a, b);
}

struct Range {
  int64_t lo, hi;
};

Range range(const ShapeExpr& e, const std::vector<int64_t>& lo, const std::vector<int64_t>& hi) {
  switch (e->op) {
    case ShapeOp::Const: return {e->value, e->value};
    case ShapeOp::Symbol: {
      auto i = static_cast<size_t>(e->value);
      return {lo.at(i), hi.at(i)};
    }
    default: break;
  }
  Range a = range(e->a, lo, hi), b = range(e->b, lo, hi);
  if (e->op == ShapeOp::Add) return {apply(ShapeOp::Add, a.lo, b.lo), apply(ShapeOp::Add, a.hi, b.hi)};
  if (e->op == ShapeOp::Sub) return {apply(ShapeOp::Sub, a.lo, b.hi), apply(ShapeOp::Sub, a.hi, b.lo)};
  if ((e->op == ShapeOp::FloorDiv || e->op == ShapeOp::CeilDiv) && b.lo <= 0 && b.hi >= 0) {
    throw std::domain_error("a shape expression may divide by zero");
  }
  int64_t c[4] = {apply(e->op, a.lo, b.lo), apply(e->op, a.lo, b.hi), apply(e->op, a.hi, b.lo), apply(e->op, a.hi, b.hi)};
  return {*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
}

// Binding strength for text: sums 1, products and divisions 2, atoms 3.
int strength(const ShapeExpr& e) {
  switch (e->op) {
    case ShapeOp::Add:
    case ShapeOp::Sub: return 1;
    case ShapeOp::Mul:
    case ShapeOp::FloorDiv:
    case ShapeOp::CeilDiv: return 2;
    default: return 3;
  }
}

}  // namespace

ShapeExpr constant(int64_t v) { return node(ShapeOp::Const, v); }
ShapeExpr symbol(int index) { return node(ShapeOp::Symbol, index); }

namespace {

// a + k with the constant offsets of a folded in: x + 2 - 3 is x - 1, x - 1 + 1 is x.
ShapeExpr offset(const ShapeExpr& a, int64_t k) {
  ShapeExpr base = a;
  int64_t total = k;
  if ((a->op == ShapeOp::Add || a->op == ShapeOp::Sub) && isConst(a->b) && a->b->value != INT64_MIN) {
    const int64_t own = a->op == ShapeOp::Add ? a->b->value : -a->b->value;
    if (!__builtin_add_overflow(own, k, &total)) base = a->a;
    else total = k;
  }
  if (total == 0) return base;
  if (total < 0 && total != INT64_MIN) return node(ShapeOp::Sub, 0, base, constant(-total));
  return node(ShapeOp::Add, 0, base, constant(total));
}

}  // namespace

ShapeExpr add(const ShapeExpr& a, const ShapeExpr& b) {
  if (constIs(a, 0)) return b;
  if (constIs(b, 0)) return a;
  if (isConst(b) && !isConst(a)) return offset(a, b->value);
  return binary(ShapeOp::Add, a, b);
}
ShapeExpr sub(const ShapeExpr& a, const ShapeExpr& b) {
  if (constIs(b, 0)) return a;
  if (same(a, b)) return constant(0);
  if (isConst(b) && !isConst(a) && b->value != INT64_MIN) return offset(a, -b->value);
  return binary(ShapeOp::Sub, a, b);
}
ShapeExpr mul(const ShapeExpr& a, const ShapeExpr& b) {
  if (constIs(a, 1)) return b;
  if (constIs(b, 1)) return a;
  if (constIs(a, 0) || constIs(b, 0)) return constant(0);
  return binary(ShapeOp::Mul, a, b);
}
ShapeExpr floorDiv(const ShapeExpr& a, const ShapeExpr& b) {
  if (constIs(b, 1)) return a;
  return binary(ShapeOp::FloorDiv, a, b);
}
ShapeExpr ceilDiv(const ShapeExpr& a, const ShapeExpr& b) {
  if (constIs(b, 1)) return a;
  return binary(ShapeOp::CeilDiv, a, b);
}
ShapeExpr min(const ShapeExpr& a, const ShapeExpr& b) { return same(a, b) ? a : binary(ShapeOp::Min, a, b); }
ShapeExpr max(const ShapeExpr& a, const ShapeExpr& b) { return same(a, b) ? a : binary(ShapeOp::Max, a, b); }

ShapeExpr product(const std::vector<ShapeExpr>& dims) {
  ShapeExpr p = constant(1);
  // constants gather at the end: N*H*W*3
  int64_t c = 1;
  for (const auto& d : dims) {
    if (isConst(d)) c = apply(ShapeOp::Mul, c, d->value);
    else p = mul(p, d);
  }
  return mul(p, constant(c));
}

bool isConst(const ShapeExpr& e) { return e->op == ShapeOp::Const; }

bool same(const ShapeExpr& a, const ShapeExpr& b) {
  if (a == b) return true;
  if (!a || !b || a->op != b->op || a->value != b->value) return false;
  if (a->op == ShapeOp::Const || a->op == ShapeOp::Symbol) return true;
  return same(a->a, b->a) && same(a->b, b->b);
}

int64_t evaluate(const ShapeExpr& e, const std::vector<int64_t>& symbols) {
  switch (e->op) {
    case ShapeOp::Const: return e->value;
    case ShapeOp::Symbol: return symbols.at(static_cast<size_t>(e->value));
    default: return apply(e->op, evaluate(e->a, symbols), evaluate(e->b, symbols));
  }
}

int64_t lowest(const ShapeExpr& e, const std::vector<int64_t>& lo, const std::vector<int64_t>& hi) {
  return range(e, lo, hi).lo;
}
int64_t highest(const ShapeExpr& e, const std::vector<int64_t>& lo, const std::vector<int64_t>& hi) {
  return range(e, lo, hi).hi;
}

std::string text(const ShapeExpr& e, const std::vector<std::string>& names) {
  switch (e->op) {
    case ShapeOp::Const: return std::to_string(e->value);
    case ShapeOp::Symbol: {
      auto i = static_cast<size_t>(e->value);
      return i < names.size() ? names[i] : "s" + std::to_string(i);
    }
    case ShapeOp::Min: return "min(" + text(e->a, names) + ", " + text(e->b, names) + ")";
    case ShapeOp::Max: return "max(" + text(e->a, names) + ", " + text(e->b, names) + ")";
    case ShapeOp::CeilDiv: return "ceil(" + text(e->a, names) + " / " + text(e->b, names) + ")";
    default: break;
  }
  const int s = strength(e);
  // Python's precedence and left-to-right grouping: a right operand of the same strength keeps its
  // parentheses unless both are sums or both products (a*(b//c) is not a*b//c)
  auto operand = [&](const ShapeExpr& x, bool right) {
    std::string t = text(x, names);
    const bool associative = x->op == e->op && (e->op == ShapeOp::Add || e->op == ShapeOp::Mul);
    const bool parens = strength(x) < 3 && (strength(x) < s || (right && strength(x) == s && !associative));
    return parens ? "(" + t + ")" : t;
  };
  const char* op = e->op == ShapeOp::Add ? " + " : e->op == ShapeOp::Sub ? " - " : e->op == ShapeOp::Mul ? "*" : "//";
  return operand(e->a, false) + op + operand(e->b, true);
}

namespace {

// Recursive descent over Python's precedence: sum := product (('+'|'-') product)*,
// product := atom (('*'|'//') atom)*, atom := integer | name | '(' sum ')' | min/max/ceil call.
class Parser {
 public:
  Parser(const std::string& text, std::vector<std::string>& names, bool addNames)
      : t_(text), names_(names), add_(addNames) {}
  ShapeExpr run() {
    ShapeExpr e = sum();
    skip();
    return e && i_ == t_.size() ? e : nullptr;
  }

 private:
  void skip() {
    while (i_ < t_.size() && t_[i_] == ' ') ++i_;
  }
  bool eat(const char* token) {
    skip();
    const size_t n = std::char_traits<char>::length(token);
    if (t_.compare(i_, n, token) != 0) return false;
    i_ += n;
    return true;
  }
  ShapeExpr sum() {
    ShapeExpr e = product();
    while (e) {
      if (eat("+")) e = binaryOrNull(add, e, product());
      else if (eat("-")) e = binaryOrNull(sub, e, product());
      else break;
    }
    return e;
  }
  ShapeExpr product() {
    ShapeExpr e = atom();
    while (e) {
      if (eat("//")) e = binaryOrNull(floorDiv, e, atom());
      else if (eat("*")) e = binaryOrNull(mul, e, atom());
      else break;
    }
    return e;
  }
  ShapeExpr atom() {
    skip();
    if (i_ >= t_.size()) return nullptr;
    if (eat("(")) {
      ShapeExpr e = sum();
      return eat(")") ? e : nullptr;
    }
    const char c = t_[i_];
    if (c >= '0' && c <= '9') {
      int64_t v = 0;
      while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, t_[i_++] - '0', &v)) return nullptr;
      }
      return constant(v);
    }
    if (!(c == '_' || std::isalpha(static_cast<unsigned char>(c)))) return nullptr;
    const size_t start = i_;
    while (i_ < t_.size() && (t_[i_] == '_' || std::isalnum(static_cast<unsigned char>(t_[i_])))) ++i_;
    const std::string name = t_.substr(start, i_ - start);
    if ((name == "min" || name == "max") && eat("(")) {
      ShapeExpr a = sum();
      if (!eat(",")) return nullptr;
      ShapeExpr b = sum();
      if (!eat(")")) return nullptr;
      return binaryOrNull(name == "min" ? min : max, a, b);
    }
    if (name == "ceil" && eat("(")) {
      ShapeExpr a = product();
      if (!eat("/")) return nullptr;
      ShapeExpr b = product();
      if (!eat(")")) return nullptr;
      return binaryOrNull(ceilDiv, a, b);
    }
    auto it = std::find(names_.begin(), names_.end(), name);
    if (it == names_.end()) {
      if (!add_) return nullptr;
      names_.push_back(name);
      it = names_.end() - 1;
    }
    return symbol(static_cast<int>(it - names_.begin()));
  }
  static ShapeExpr binaryOrNull(ShapeExpr (*make)(const ShapeExpr&, const ShapeExpr&), const ShapeExpr& a,
                                const ShapeExpr& b) {
    if (!a || !b) return nullptr;
    try {
      return make(a, b);
    } catch (const std::domain_error&) {  // constants that fold to a division by zero or overflow
      return nullptr;
    }
  }

  const std::string& t_;
  std::vector<std::string>& names_;
  bool add_;
  size_t i_ = 0;
};

}  // namespace

ShapeExpr parse(const std::string& text, std::vector<std::string>& names, bool addNames) {
  return Parser(text, names, addNames).run();
}

std::string compactText(const ShapeExpr& e, const std::vector<std::string>& names) {
  std::string t = text(e, names), out;
  for (char c : t)
    if (c != ' ') out += c;
  return out;
}

bool reads(const ShapeExpr& e, int index) {
  if (e->op == ShapeOp::Symbol) return index < 0 || e->value == index;
  if (e->op == ShapeOp::Const) return false;
  return reads(e->a, index) || reads(e->b, index);
}

}  // namespace pyasc::shape
