// Loop vectorisation: a nest of range loops over array elements runs as array operations when an exact dependence test proves the array form computes what the iterations do.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "frontend/Analyzer.h"
#include "registry/OpRegistry.h"
#include "registry/ShapeInference.h"

namespace pyasc::frontend {

using graph::ValueId;

// An integer index expression: sum of coef[k] * index k, plus constant, plus scale times the index
// of an enclosing kept loop (symbol), which runs over [symbolMin, symbolMax].
struct LinearIndex {
  std::vector<int64_t> coef;
  int64_t constant = 0;
  ValueId symbol = graph::kNoValue;
  int64_t scale = 0, symbolMin = 0, symbolMax = 0;

  int usedVars() const {
    return static_cast<int>(std::count_if(coef.begin(), coef.end(), [](int64_t c) { return c != 0; }));
  }
  int var() const {  // the one index used, or -1
    for (size_t k = 0; k < coef.size(); ++k)
      if (coef[k] != 0) return static_cast<int>(k);
    return -1;
  }
};

namespace {

// Names the rewrite binds while it runs; '$' keeps them apart from every Python name.
const char* const kNumpy = "$np";

// The most iteration pairs the dependence test compares before it gives up.
constexpr int64_t kMaxTestedIterations = int64_t{1} << 26;

ExprPtr makeExpr(ExprKind kind, const SourceRange& range, std::string text = "") {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->range = range;
  e->text = std::move(text);
  return e;
}

ExprPtr makeInt(int64_t v, const SourceRange& range) {
  ExprPtr e = makeExpr(ExprKind::Int, range);
  e->intValue = v;
  return e;
}

ExprPtr makeBinary(const std::string& op, ExprPtr a, ExprPtr b, const SourceRange& range) {
  ExprPtr e = makeExpr(ExprKind::BinOp, range, op);
  e->children.push_back(std::move(a));
  e->children.push_back(std::move(b));
  return e;
}

// np.NAME(args...) through the rewrite's own name for NumPy.
ExprPtr makeNumpyCall(const std::string& name, std::vector<ExprPtr> args, const SourceRange& range) {
  ExprPtr callee = makeExpr(ExprKind::Attribute, range, name);
  callee->children.push_back(makeExpr(ExprKind::Name, range, kNumpy));
  ExprPtr call = makeExpr(ExprKind::Call, range);
  call->children.push_back(std::move(callee));
  for (auto& a : args) call->children.push_back(std::move(a));
  return call;
}

// Python's binding strength of an operator expression (higher binds tighter).
int precedence(const Expr& e) {
  static const std::map<std::string, int> binary = {{"|", 1}, {"^", 2}, {"&", 3}, {"<<", 4}, {">>", 4}, {"+", 5}, {"-", 5},
                                                    {"*", 6}, {"/", 6}, {"//", 6}, {"%", 6}, {"@", 6}, {"**", 8}};
  switch (e.kind) {
    case ExprKind::IfExp: return -2;
    case ExprKind::BoolOp: return -1;
    case ExprKind::Compare: return 0;
    case ExprKind::BinOp: return binary.count(e.text) ? binary.at(e.text) : 5;
    case ExprKind::UnaryOp: return e.text == "not" ? -1 : 7;
    default: return 9;
  }
}

std::string spell(const Expr& e);

// `child` spelled as an operand of `parent`, in parentheses where Python needs them.
std::string operand(const Expr& parent, const Expr& child, bool right) {
  const int p = precedence(parent), c = precedence(child);
  const bool power = parent.kind == ExprKind::BinOp && parent.text == "**";
  const bool wrap = c < p || (c == p && parent.kind == ExprKind::BinOp && (power ? !right : right));
  return wrap ? "(" + spell(child) + ")" : spell(child);
}

// The source spelling of the expressions the vectoriser accepts, for its messages.
std::string spell(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Name: return e.text;
    case ExprKind::Int: return std::to_string(e.intValue);
    case ExprKind::Float: {
      std::string s = std::to_string(e.floatValue);
      while (s.size() > 1 && s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
      return s;
    }
    case ExprKind::Bool: return e.intValue ? "True" : "False";
    case ExprKind::Attribute: return spell(*e.children[0]) + "." + e.text;
    case ExprKind::UnaryOp: return e.text + (e.text == "not" ? " " : "") + operand(e, *e.children[0], true);
    case ExprKind::BinOp: return operand(e, *e.children[0], false) + " " + e.text + " " + operand(e, *e.children[1], true);
    case ExprKind::Compare: {
      std::string s = spell(*e.children[0]);
      for (size_t i = 0; i < e.ops.size(); ++i) s += " " + e.ops[i] + " " + spell(*e.children[i + 1]);
      return s;
    }
    case ExprKind::Subscript: return spell(*e.children[0]) + "[" + spell(*e.children[1]) + "]";
    case ExprKind::Tuple: {
      std::string s;
      for (const auto& c : e.children) s += (s.empty() ? "" : ", ") + spell(*c);
      return s;
    }
    case ExprKind::Slice: {
      std::string s = e.children[0] ? spell(*e.children[0]) : "";
      s += ":" + (e.children[1] ? spell(*e.children[1]) : "");
      if (e.children[2]) s += ":" + spell(*e.children[2]);
      return s;
    }
    case ExprKind::Call: {
      std::string s = spell(*e.children[0]) + "(";
      for (size_t i = 1; i < e.children.size(); ++i) s += (i > 1 ? ", " : "") + spell(*e.children[i]);
      return s + ")";
    }
    case ExprKind::IfExp:
      return spell(*e.children[0]) + " if " + spell(*e.children[1]) + " else " + spell(*e.children[2]);
    default: return "...";
  }
}

std::string quoted(const Expr& e) { return "'" + spell(e) + "'"; }


}  // namespace

// One range loop of the nest: its index takes start + n * step for n in [0, trips).
struct VectorLoop {
  std::string name;
  int64_t start = 0, step = 1, trips = 0;
  int64_t at(int64_t n) const { return start + n * step; }
  int64_t last() const { return at(trips - 1); }
};

// A subscript of an array by one affine index per axis, read or written by statement `stmt`.
struct VectorAccess {
  const Expr* expr = nullptr;
  std::shared_ptr<ArrayStorage> storage;
  std::vector<LinearIndex> items;
  std::vector<int64_t> shape;
  DType dtype = DType::Float32;
  int stmt = 0;
  bool write = false;
  std::vector<int> varsInItemOrder() const {
    std::vector<int> vars;
    for (const LinearIndex& a : items)
      if (a.var() >= 0) vars.push_back(a.var());
    return vars;
  }
};

// One statement of the innermost body, in the array form.
struct VectorStmt {
  enum class Kind { Temp, Store, Reduce, Scan } kind = Kind::Temp;
  const Stmt* stmt = nullptr;
  const Expr* target = nullptr;  // a Name (Temp, scalar Reduce) or a subscript
  ExprPtr value;                 // the per-iteration value: for a Reduce or Scan, the term E combined
  std::string combine;           // Reduce: + - * max min; Scan: + *
  int write = -1;                // the Store's, array Reduce's or Scan's target access
  std::vector<int> missing;      // array Reduce: the indices the target does not use
  ExprPtr previous;              // Scan: the element before the first one written
  bool augmented = false;        // a reduction into a name written s += E (in place), not s = s + E
  bool mayBeFloat = true;        // a store's value may be a float (a scan into integers would truncate it)
};

struct VectorPlan {
  std::vector<VectorLoop> vars;
  std::vector<VectorStmt> stmts;
  std::vector<VectorAccess> accesses;
  std::map<const Expr*, int> readAt;        // a read subscript of a statement's value -> its access
  std::map<std::string, LinearIndex> affineTemps;  // k = 2 * i + 1: names bound to index expressions
  std::set<std::string> assigned;           // names the innermost body binds
  std::vector<std::pair<std::shared_ptr<ArrayStorage>, const Expr*>> wholeReads;  // 0-d arrays read by name
  std::vector<std::string> temps;           // names bound in the body, in order
  std::string reason;                       // why the loop is not vectorised
  std::vector<Diagnostic> notes;
  bool dependence = false;                  // the reason is a dependence between iterations
};

namespace {

// Whether e reads `name` anywhere.
bool reads(const Expr& e, const std::string& name) {
  if (e.kind == ExprKind::Name && e.text == name) return true;
  if (e.kind == ExprKind::Attribute) return reads(*e.children[0], name);
  return std::any_of(e.children.begin(), e.children.end(), [&](const ExprPtr& c) { return c && reads(*c, name); });
}

// Whether two expressions are the same tree (names, numbers, operators, subscripts).
bool sameExpr(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || a.text != b.text || a.intValue != b.intValue || a.floatValue != b.floatValue || a.ops != b.ops ||
      a.children.size() != b.children.size() || !a.keywords.empty() || !b.keywords.empty()) {
    return false;
  }
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (!a.children[i] != !b.children[i]) return false;
    if (a.children[i] && !sameExpr(*a.children[i], *b.children[i])) return false;
  }
  return true;
}

std::string iterationText(const std::vector<VectorLoop>& vars, const std::vector<int64_t>& n) {
  std::string s;
  for (size_t k = 0; k < vars.size(); ++k) {
    s += (s.empty() ? "" : ", ") + vars[k].name + " = " + std::to_string(vars[k].at(n[k]));
  }
  return s;
}

}  // namespace

std::optional<LinearIndex> Analyzer::affineIndex(const Expr& e, VectorPlan& plan) {
  const size_t n = plan.vars.size();
  LinearIndex out;
  out.coef.assign(n, 0);
  switch (e.kind) {
    case ExprKind::Int: out.constant = e.intValue; return out;
    case ExprKind::Name: {
      for (size_t k = 0; k < n; ++k) {
        if (plan.vars[k].name == e.text) {
          out.coef[k] = 1;
          return out;
        }
      }
      if (plan.affineTemps.count(e.text)) return plan.affineTemps.at(e.text);
      if (std::find(plan.temps.begin(), plan.temps.end(), e.text) != plan.temps.end()) return std::nullopt;
      const SymValue* v = lookup(e.text);
      if (!v) return std::nullopt;
      if (v->kind == SymKind::Int) {
        out.constant = v->intValue;
        return out;
      }
      if (v->kind == SymKind::LoopIndex) {
        out.symbol = v->indexVar;
        out.scale = v->scale;
        out.constant = v->offset;
        out.symbolMin = v->minIndex;
        out.symbolMax = v->maxIndex;
        return out;
      }
      return std::nullopt;
    }
    case ExprKind::UnaryOp: {
      if (e.text != "-" && e.text != "+") return std::nullopt;
      std::optional<LinearIndex> a = affineIndex(*e.children[0], plan);
      if (!a || e.text == "+") return a;
      for (auto& c : a->coef) c = -c;
      a->constant = -a->constant;
      a->scale = -a->scale;
      return a;
    }
    case ExprKind::BinOp: {
      std::optional<LinearIndex> a = affineIndex(*e.children[0], plan), b = affineIndex(*e.children[1], plan);
      if (!a || !b) return std::nullopt;
      if (e.text == "+" || e.text == "-") {
        const int64_t sign = e.text == "+" ? 1 : -1;
        if (a->symbol != graph::kNoValue && b->symbol != graph::kNoValue) return std::nullopt;
        for (size_t k = 0; k < n; ++k) a->coef[k] += sign * b->coef[k];
        a->constant += sign * b->constant;
        if (b->symbol != graph::kNoValue) {
          a->symbol = b->symbol;
          a->scale = sign * b->scale;
          a->symbolMin = b->symbolMin;
          a->symbolMax = b->symbolMax;
        }
        return a;
      }
      if (e.text == "*") {
        auto constantOf = [](const LinearIndex& x) {
          return x.usedVars() == 0 && x.symbol == graph::kNoValue ? std::optional<int64_t>(x.constant) : std::nullopt;
        };
        std::optional<int64_t> c = constantOf(*b);
        LinearIndex x = *a;
        if (!c) {
          c = constantOf(*a);
          x = *b;
        }
        if (!c) return std::nullopt;
        for (auto& k : x.coef) k *= *c;
        x.constant *= *c;
        x.scale *= *c;
        return x;
      }
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

// Records the subscript `e` (of a name by one affine index per axis) as an access of statement
// `stmt`; false with the plan's reason set when it is not one.
bool Analyzer::recordAccess(const Expr& e, int stmt, bool write, VectorPlan& plan) {
  auto refuse = [&](const std::string& why) {
    plan.reason = why;
    plan.notes = {note(e.range, "here")};
    return false;
  };
  const Expr& base = *e.children[0];
  if (base.kind != ExprKind::Name) return refuse(quoted(e) + " subscripts an expression, not a named array");
  const SymValue* array = lookup(base.text);
  const bool bodyName = std::find(plan.temps.begin(), plan.temps.end(), base.text) != plan.temps.end();
  if (bodyName || !array || array->kind != SymKind::Tensor || array->weak || array->untyped) {
    return refuse(quoted(e) + ": '" + base.text + "' is not an array of known dtype bound before the loop");
  }
  if (array->view || !array->copyOfView.empty()) return refuse(quoted(e) + ": '" + base.text + "' is a view of another array");
  const graph::TensorType type = builder_.type(arrayValue(*array, base.range));
  if (!graph::isStaticShape(type.shape)) return refuse(quoted(e) + ": '" + base.text + "' has a symbolic shape");
  const std::vector<const Expr*> items = indexItems(*e.children[1]);
  if (static_cast<int>(items.size()) != type.rank()) {
    return refuse(quoted(e) + " selects " + (static_cast<int>(items.size()) < type.rank() ? "a part" : "past the axes") +
                  " of '" + base.text + "' (" + std::to_string(type.rank()) + " axes), not one element");
  }
  for (const Expr* item : items) {
    for (const std::string& name : plan.assigned) {
      if (reads(*item, name) && std::find(plan.temps.begin(), plan.temps.end(), name) == plan.temps.end()) {
        plan.dependence = true;
        return refuse(quoted(e) + " is indexed by '" + name + "', which carries a value from one iteration to the next");
      }
    }
  }
  VectorAccess access;
  access.expr = &e;
  access.storage = array->storage;
  access.stmt = stmt;
  access.write = write;
  access.dtype = type.dtype;
  std::set<int> used;
  for (size_t d = 0; d < items.size(); ++d) {
    const int64_t extent = type.shape[d].extent;
    access.shape.push_back(extent);
    std::optional<LinearIndex> a = affineIndex(*items[d], plan);
    if (!a) return refuse(quoted(e) + ": the index " + quoted(*items[d]) + " is not an integer linear in the loop indices");
    if (a->usedVars() > 1) return refuse(quoted(e) + ": the index " + quoted(*items[d]) + " combines two loop indices");
    const int var = a->var();
    if (var >= 0 && a->symbol != graph::kNoValue) {
      return refuse(quoted(e) + ": the index " + quoted(*items[d]) + " mixes '" + plan.vars[static_cast<size_t>(var)].name +
                    "' with the index of an enclosing loop");
    }
    if (var >= 0 && !used.insert(var).second) {
      return refuse(quoted(e) + " walks a diagonal: '" + plan.vars[static_cast<size_t>(var)].name + "' indexes two axes");
    }
    // the index's values over the loop (and over the enclosing loop's index)
    int64_t lo = a->constant, hi = a->constant;
    if (var >= 0) {
      const VectorLoop& v = plan.vars[static_cast<size_t>(var)];
      const int64_t first = a->coef[static_cast<size_t>(var)] * v.at(0), last = a->coef[static_cast<size_t>(var)] * v.last();
      lo += std::min(first, last);
      hi += std::max(first, last);
    }
    if (a->symbol != graph::kNoValue) {
      lo += std::min(a->scale * a->symbolMin, a->scale * a->symbolMax);
      hi += std::max(a->scale * a->symbolMin, a->scale * a->symbolMax);
    }
    if (lo < 0) return refuse(quoted(e) + ": the index " + quoted(*items[d]) + " reaches " + std::to_string(lo) + ", and a negative index wraps");
    if (hi >= extent) {
      return refuse(quoted(e) + ": the index " + quoted(*items[d]) + " reaches " + std::to_string(hi) + ", past the end of axis " +
                    std::to_string(d) + " (size " + std::to_string(extent) + ")");
    }
    access.items.push_back(*a);
  }
  if (write) {
    for (size_t k = 0; k < plan.vars.size(); ++k) {
      if (!used.count(static_cast<int>(k))) {
        return refuse(quoted(e) + " is written by every iteration of '" + plan.vars[k].name + "'; only the last write would remain");
      }
    }
  }
  plan.accesses.push_back(std::move(access));
  return true;
}

// Checks that `e` is a per-iteration elementwise expression and records its reads.
bool Analyzer::scanValue(const Expr& e, int stmt, const std::set<std::string>& defined,
                         const std::set<std::string>& assigned, VectorPlan& plan) {
  auto refuse = [&](const std::string& why, const Expr& where) {
    plan.reason = why;
    plan.notes = {note(where.range, "here")};
    return false;
  };
  static const std::set<std::string> binary = {"+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"};
  switch (e.kind) {
    case ExprKind::Int:
    case ExprKind::Float:
    case ExprKind::Bool: return true;
    case ExprKind::Name: {
      if (std::any_of(plan.vars.begin(), plan.vars.end(), [&](const VectorLoop& v) { return v.name == e.text; })) return true;
      if (defined.count(e.text)) return true;
      if (assigned.count(e.text)) {
        plan.dependence = true;
        return refuse("'" + e.text + "' carries a value from one iteration to the next", e);
      }
      const SymValue* v = lookup(e.text);
      if (!v) return refuse("'" + e.text + "' is not defined before the loop", e);
      if (v->isScalarConstant() || v->kind == SymKind::LoopIndex) return true;
      if (v->kind == SymKind::Tensor && !v->untyped) {
        if (v->weak || builder_.type(arrayValue(*v, e.range)).rank() == 0) {
          if (v->storage) plan.wholeReads.push_back({v->storage, &e});  // checked against the loop's writes
          return true;
        }
        return refuse("the body uses the whole array '" + e.text + "', not one element of it per iteration", e);
      }
      return refuse("'" + e.text + "' is " + describeKind(*v) + ", not a number", e);
    }
    case ExprKind::UnaryOp:
      if (e.text == "not") return refuse("'not' of a value (write it with ~ on booleans, or np.logical_not)", e);
      return scanValue(*e.children[0], stmt, defined, assigned, plan);
    case ExprKind::BinOp:
      if (!binary.count(e.text)) return refuse("the operator '" + e.text + "'", e);
      return scanValue(*e.children[0], stmt, defined, assigned, plan) &&
             scanValue(*e.children[1], stmt, defined, assigned, plan);
    case ExprKind::Compare:
      if (e.ops.size() != 1) return refuse("a chained comparison", e);
      return scanValue(*e.children[0], stmt, defined, assigned, plan) &&
             scanValue(*e.children[1], stmt, defined, assigned, plan);
    case ExprKind::IfExp:
      return scanValue(*e.children[0], stmt, defined, assigned, plan) &&
             scanValue(*e.children[1], stmt, defined, assigned, plan) &&
             scanValue(*e.children[2], stmt, defined, assigned, plan);
    case ExprKind::Subscript: {
      if (!recordAccess(e, stmt, false, plan)) return false;
      plan.readAt[&e] = static_cast<int>(plan.accesses.size()) - 1;
      return true;
    }
    case ExprKind::Call: {
      const Expr& callee = *e.children[0];
      if (!e.keywords.empty()) return refuse("a call with keyword arguments", e);
      bool elementwise = false;
      if (callee.kind == ExprKind::Name && callee.text == "abs" && !lookup("abs")) elementwise = true;
      if (callee.kind == ExprKind::Attribute && callee.children[0]->kind == ExprKind::Name) {
        const SymValue* module = lookup(callee.children[0]->text);
        std::string name;
        if (module && module->kind == SymKind::Module && module->text == "numpy") name = callee.text;
        if (module && module->kind == SymKind::Module && module->text == "math" && mathOnRuntimeScalars().count(callee.text)) {
          name = callee.text;
        }
        const registry::NumpyAlias* alias = name.empty() ? nullptr : registry_.findAlias(name, registry::AliasForm::Function);
        const registry::OpEntry* op = alias && !alias->op.empty() ? registry_.find(alias->op) : nullptr;
        elementwise = op && (op->category == registry::OpCategory::Elementwise || op->category == registry::OpCategory::Broadcast) &&
                      std::all_of(alias->params.begin(), alias->params.end(),
                                  [](const registry::NumpyParam& p) { return p.kind == registry::ParamKind::Tensor || !p.required; }) &&
                      e.children.size() - 1 <= alias->params.size();
      }
      if (!elementwise) return refuse("the call " + quoted(callee) + " is not an elementwise NumPy or math function", e);
      for (size_t i = 1; i < e.children.size(); ++i) {
        if (!scanValue(*e.children[i], stmt, defined, assigned, plan)) return false;
      }
      return true;
    }
    default: return refuse("the expression " + quoted(e), e);
  }
}

// The loops of a perfect nest, the body's statements in their array form and the accesses they
// make; false with the plan's reason when the nest cannot run as array operations.
bool Analyzer::planVectorized(const Stmt& loop, VectorPlan& plan) {
  auto refuse = [&](const std::string& why, const SourceRange& where) {
    plan.reason = why;
    plan.notes = {note(where, "here")};
    return false;
  };
  // Names the innermost body binds: an inner loop's bounds must not read them (Python evaluates
  // them again at every trip of the outer loops), and neither may an index before the body binds it.
  const Stmt* innermost = &loop;
  while (innermost->body.size() == 1 && innermost->body[0]->kind == StmtKind::For) innermost = innermost->body[0].get();
  // The body's statements, an `if` of assignments if-converted: its condition bound once to a name
  // of the rewrite, then each assignment T = V of a branch as T = V if c else T (T = T if c else V
  // in the else branch), which the array form computes with np.where.
  std::vector<const Stmt*> body;
  for (const auto& sp : innermost->body) {
    if (sp->kind != StmtKind::If) {
      body.push_back(sp.get());
      continue;
    }
    const Stmt& branch = *sp;
    auto assignmentsOnly = [](const std::vector<StmtPtr>& stmts) {
      return std::all_of(stmts.begin(), stmts.end(), [](const StmtPtr& b) {
        return b->kind == StmtKind::Pass || ((b->kind == StmtKind::Assign || b->kind == StmtKind::AugAssign) &&
                                             b->targets.size() == 1 && b->pragmas.empty());
      });
    };
    if (!assignmentsOnly(branch.body) || !assignmentsOnly(branch.orelse)) {
      return refuse("an if in its body has a statement other than an assignment (elif included)", branch.range);
    }
    const std::string condition = "$c" + std::to_string(synthesized_.size());
    auto cond = std::make_unique<Stmt>();
    cond->kind = StmtKind::Assign;
    cond->range = branch.range;
    cond->targets.push_back(makeExpr(ExprKind::Name, branch.value->range, condition));
    cond->value = cloneExpr(*branch.value);
    synthesized_.push_back(std::move(cond));
    body.push_back(synthesized_.back().get());
    for (int side = 0; side < 2; ++side) {
      for (const auto& b : side == 0 ? branch.body : branch.orelse) {
        if (b->kind == StmtKind::Pass) continue;
        const Expr& target = *b->targets[0];
        ExprPtr value = b->kind == StmtKind::AugAssign ? makeBinary(b->text, cloneExpr(target), cloneExpr(*b->value), b->range)
                                                       : cloneExpr(*b->value);
        ExprPtr chosen = makeExpr(ExprKind::IfExp, b->value->range);
        ExprPtr kept = cloneExpr(target);
        chosen->children.push_back(side == 0 ? std::move(value) : std::move(kept));
        chosen->children.push_back(makeExpr(ExprKind::Name, branch.value->range, condition));
        chosen->children.push_back(side == 0 ? cloneExpr(target) : std::move(value));
        auto assign = std::make_unique<Stmt>();
        assign->kind = StmtKind::Assign;
        assign->range = b->range;
        assign->targets.push_back(cloneExpr(target));
        assign->value = std::move(chosen);
        synthesized_.push_back(std::move(assign));
        body.push_back(synthesized_.back().get());
      }
    }
  }
  for (const Stmt* s : body) {
    if ((s->kind == StmtKind::Assign || s->kind == StmtKind::AugAssign) && s->targets.size() == 1 &&
        s->targets[0]->kind == ExprKind::Name) {
      plan.assigned.insert(s->targets[0]->text);
    }
  }
  const Stmt* level = &loop;
  while (true) {
    const Expr& iter = *level->value;
    const bool isRange = iter.kind == ExprKind::Call && iter.children[0]->kind == ExprKind::Name &&
                         iter.children[0]->text == "range" && lookup("range") == nullptr && iter.keywords.empty() &&
                         iter.children.size() >= 2 && iter.children.size() <= 4;
    if (!isRange) return refuse("it does not loop over range(...)", iter.range);
    if (level->targets[0]->kind != ExprKind::Name) return refuse("its target is not one name", level->targets[0]->range);
    if (!level->orelse.empty()) return refuse("it has an else clause", level->range);
    std::vector<int64_t> bounds;
    for (size_t i = 1; i < iter.children.size(); ++i) {
      for (const VectorLoop& v : plan.vars) {
        if (reads(*iter.children[i], v.name)) return refuse("the bounds of the loop over '" + level->targets[0]->text +
                                                                "' depend on '" + v.name + "'", iter.children[i]->range);
      }
      for (const std::string& name : plan.assigned) {
        if (level != &loop && reads(*iter.children[i], name)) {
          return refuse("the bounds of the loop over '" + level->targets[0]->text + "' read '" + name +
                            "', which the body assigns", iter.children[i]->range);
        }
      }
      const SymValue b = constantIndex(eval(*iter.children[i]));
      if (b.kind != SymKind::Int) return refuse("its bounds are not compile-time integers", iter.children[i]->range);
      bounds.push_back(b.intValue);
    }
    VectorLoop var;
    var.name = level->targets[0]->text;
    const int64_t stop = bounds.size() == 1 ? bounds[0] : bounds[1];
    if (bounds.size() > 1) var.start = bounds[0];
    if (bounds.size() == 3) var.step = bounds[2];
    if (var.step == 0) return false;  // the loop reports range()'s error
    var.trips = registry::sliceLength(var.start, stop, var.step);
    if (var.trips < 1) return refuse("the loop over '" + var.name + "' makes no trip", iter.range);
    for (const VectorLoop& v : plan.vars)
      if (v.name == var.name) return refuse("two loops of the nest have the index '" + var.name + "'", level->range);
    plan.vars.push_back(var);
    if (level->body.size() == 1 && level->body[0]->kind == StmtKind::For) {
      level = level->body[0].get();
      continue;
    }
    break;
  }
  int64_t iterations = 1;
  for (const VectorLoop& v : plan.vars) iterations = v.trips > kMaxTestedIterations / iterations ? kMaxTestedIterations + 1 : iterations * v.trips;
  if (iterations > kMaxTestedIterations) {
    return refuse("its iterations are more than the dependence test compares (" + std::to_string(kMaxTestedIterations) + ")",
                  loop.range);
  }

  const std::set<std::string>& assigned = plan.assigned;
  // Whether a term may have a float value (conservatively): what a reduction or scan into an
  // integer target would truncate at every step where the array form truncates once.
  std::function<bool(const Expr&)> mayBeFloat = [&](const Expr& x) -> bool {
    switch (x.kind) {
      case ExprKind::Int:
      case ExprKind::Bool:
      case ExprKind::Compare: return false;
      case ExprKind::Name: {
        if (std::any_of(plan.vars.begin(), plan.vars.end(), [&](const VectorLoop& v) { return v.name == x.text; }) ||
            plan.affineTemps.count(x.text)) {
          return false;
        }
        if (std::find(plan.temps.begin(), plan.temps.end(), x.text) != plan.temps.end()) return true;
        const SymValue* v = lookup(x.text);
        if (!v) return true;
        if (v->kind == SymKind::Int || v->kind == SymKind::Bool || v->kind == SymKind::LoopIndex) return false;
        return v->kind != SymKind::Tensor || v->untyped || isFloat(builder_.type(arrayValue(*v, x.range)).dtype);
      }
      case ExprKind::Subscript: {
        const SymValue* v = x.children[0]->kind == ExprKind::Name ? lookup(x.children[0]->text) : nullptr;
        return !v || v->kind != SymKind::Tensor || isFloat(builder_.type(arrayValue(*v, x.range)).dtype);
      }
      case ExprKind::UnaryOp: return mayBeFloat(*x.children[0]);
      case ExprKind::BinOp:
        if (x.text == "/" || (x.text == "**" && x.children[1]->kind != ExprKind::Int)) return true;
        return mayBeFloat(*x.children[0]) || mayBeFloat(*x.children[1]);
      case ExprKind::IfExp: return mayBeFloat(*x.children[0]) || mayBeFloat(*x.children[2]);
      default: return true;
    }
  };
  // The dtype a reduction or scan accumulates into: the target array's, or the number's before the loop.
  auto targetDType = [&](const Expr& target) -> std::optional<DType> {
    const SymValue* v = lookup(target.kind == ExprKind::Name ? target.text : target.children[0]->text);
    if (!v) return std::nullopt;
    if (v->kind == SymKind::Int) return DType::Int64;
    if (v->kind == SymKind::Bool) return DType::Bool;
    if (v->kind == SymKind::Float) return DType::Float64;
    if (v->kind != SymKind::Tensor || v->untyped) return std::nullopt;
    return builder_.type(arrayValue(*v, target.range)).dtype;
  };
  // Refuses a reduction or scan whose array form would round or truncate differently.
  auto accumulates = [&](const Expr& target, const std::string& combine, const Expr& term, bool array) {
    const std::optional<DType> t = targetDType(target);
    if (t == DType::Float16) {
      return refuse("float16 sums into " + quoted(target) + " round at every step, and the array form sums in another order",
                    target.range);
    }
    if (t && !isFloat(*t) && combine == "*") {
      return refuse("the integer product into " + quoted(target) + " has no array form the vector unit computes", target.range);
    }
    if (array && t && !isFloat(*t) && mayBeFloat(term)) {
      return refuse("the integer array " + quoted(target) + " is truncated at every step, and the array form would "
                    "truncate once", target.range);
    }
    return true;
  };
  for (const VectorLoop& v : plan.vars) {
    if (assigned.count(v.name)) return refuse("the body assigns the loop index '" + v.name + "'", level->range);
  }
  std::set<std::string> defined;
  std::set<std::string> reduced;  // names a reduction updates
  int index = 0;
  for (const Stmt* sp : body) {
    const Stmt& s = *sp;
    if (s.kind == StmtKind::Pass) continue;
    if (!s.pragmas.empty()) return refuse("a statement of its body has a pragma", s.range);
    if ((s.kind != StmtKind::Assign && s.kind != StmtKind::AugAssign) || s.targets.size() != 1) {
      return refuse("its body has a statement other than an assignment", s.range);
    }
    const Expr& target = *s.targets[0];
    if (target.kind != ExprKind::Name && target.kind != ExprKind::Subscript) {
      return refuse("the assignment to " + quoted(target) + " unpacks", target.range);
    }
    VectorStmt vs;
    vs.stmt = &s;
    vs.target = &target;
    // the value the statement stores: an augmented assignment of one element is target = target op value
    vs.value = s.kind == StmtKind::AugAssign ? makeBinary(s.text, cloneExpr(target), cloneExpr(*s.value), s.range)
                                             : cloneExpr(*s.value);
    // A reduction: target = target op E (op + - *), E op target (+ *), max/min(target, E), where E does not read the
    // target's name; for a name, one that carries its value across iterations.
    const std::string targetName = target.kind == ExprKind::Name ? target.text : target.children[0]->text;
    std::optional<std::pair<std::string, const Expr*>> reduction;
    const Expr& v = *vs.value;
    if (v.kind == ExprKind::BinOp && (v.text == "+" || v.text == "-" || v.text == "*")) {
      if (sameExpr(*v.children[0], target) && !reads(*v.children[1], targetName)) reduction = {{v.text, v.children[1].get()}};
      else if (v.text != "-" && sameExpr(*v.children[1], target) && !reads(*v.children[0], targetName)) {
        reduction = {{v.text, v.children[0].get()}};
      }
    }
    if (v.kind == ExprKind::Call && v.children.size() == 3 && v.keywords.empty()) {
      const Expr& callee = *v.children[0];
      std::string fn;
      if (callee.kind == ExprKind::Name && (callee.text == "max" || callee.text == "min") && !lookup(callee.text)) fn = callee.text;
      if (callee.kind == ExprKind::Attribute && (callee.text == "maximum" || callee.text == "minimum") &&
          callee.children[0]->kind == ExprKind::Name) {
        const SymValue* m = lookup(callee.children[0]->text);
        if (m && m->kind == SymKind::Module && m->text == "numpy") fn = callee.text == "maximum" ? "max" : "min";
      }
      for (int k = 0; !fn.empty() && k < 2 && !reduction; ++k) {
        if (sameExpr(*v.children[1 + k], target) && !reads(*v.children[2 - k], targetName)) reduction = {{fn, v.children[2 - k].get()}};
      }
    }

    if (target.kind == ExprKind::Name) {
      const bool carried = assigned.count(target.text) && !defined.count(target.text) && reads(v, target.text);
      if (carried) {
        if (!reduction) {
          plan.dependence = true;
          return refuse("'" + target.text + "' carries a value from one iteration to the next, other than by a sum, "
                        "product, maximum or minimum", s.range);
        }
        for (const Stmt* other : body) {
          const bool assigns = other->targets.size() == 1 && other->targets[0]->kind == ExprKind::Name &&
                               other->targets[0]->text == target.text;
          if (other != &s && other->value && (assigns || reads(*other->value, target.text) ||
                                                    (other->targets.size() == 1 && other->targets[0]->kind != ExprKind::Name &&
                                                     reads(*other->targets[0], target.text)))) {
            plan.dependence = true;
            return refuse("the reduction into '" + target.text + "' is also used by another statement", other->range);
          }
        }
        const SymValue* before = lookup(target.text);
        if (!before) return refuse("'" + target.text + "' is not defined before the loop", target.range);
        if (before->kind != SymKind::Tensor && !before->isScalarConstant()) {
          return refuse("'" + target.text + "' is " + describeKind(*before) + ", not a number", target.range);
        }
        if (before->kind == SymKind::Tensor &&
            (before->untyped || (!before->weak && builder_.type(arrayValue(*before, target.range)).rank() != 0))) {
          return refuse("the body combines whole arrays into '" + target.text + "'", target.range);
        }
        if (!accumulates(target, reduction->first, *reduction->second, false)) return false;
        ExprPtr term = cloneExpr(*reduction->second);
        const size_t accessesBefore = plan.accesses.size();
        if (!scanValue(*term, index, defined, assigned, plan)) return false;
        if (before->isScalarConstant() && plan.accesses.size() == accessesBefore) {
          // a compile-time count (n += 1, total += i * i): the loop is compile-time work
          bool arrayData = false;
          std::function<void(const Expr&)> visit = [&](const Expr& x) {
            if (x.kind == ExprKind::Name) {
              const SymValue* w = lookup(x.text);
              if ((w && w->kind == SymKind::Tensor) || defined.count(x.text)) arrayData = true;
            }
            for (const auto& c : x.children)
              if (c) visit(*c);
          };
          visit(*term);
          if (!arrayData) return refuse("it updates the compile-time value '" + target.text + "'", s.range);
        }
        vs.kind = VectorStmt::Kind::Reduce;
        vs.combine = reduction->first;
        vs.augmented = s.kind == StmtKind::AugAssign;
        vs.value = std::move(term);
        reduced.insert(target.text);
        plan.stmts.push_back(std::move(vs));
        ++index;
        continue;
      }
      if (reduced.count(target.text)) return refuse("the reduction into '" + target.text + "' is also assigned", s.range);
      if (!scanValue(v, index, defined, assigned, plan)) return false;
      vs.kind = VectorStmt::Kind::Temp;
      // an index expression (k = 2 * i + 1) also indexes arrays
      std::optional<LinearIndex> a = s.kind == StmtKind::Assign ? affineIndex(v, plan) : std::nullopt;
      if (a && a->usedVars() > 0) {
        plan.affineTemps[target.text] = *a;
      } else {
        plan.affineTemps.erase(target.text);
      }
      defined.insert(target.text);
      if (std::find(plan.temps.begin(), plan.temps.end(), target.text) == plan.temps.end()) plan.temps.push_back(target.text);
      plan.stmts.push_back(std::move(vs));
      ++index;
      continue;
    }

    // A subscript target: a store of one element per iteration, or a reduction into the elements
    // the indices it uses select (c[i] += a[i, j] * b[j]); scans are found after the test.
    std::set<int> usedVars;
    for (const Expr* item : indexItems(*target.children[1])) {
      std::optional<LinearIndex> a = affineIndex(*item, plan);
      if (a && a->var() >= 0) usedVars.insert(a->var());
    }
    for (size_t k = 0; k < plan.vars.size(); ++k)
      if (!usedVars.count(static_cast<int>(k))) vs.missing.push_back(static_cast<int>(k));
    if (!vs.missing.empty() && !reduction) {
      recordAccess(target, index, true, plan);  // sets the reason: every iteration writes the element
      return false;
    }
    if (!vs.missing.empty()) {
      if (!accumulates(target, reduction->first, *reduction->second, true)) return false;
      ExprPtr term = cloneExpr(*reduction->second);
      if (!scanValue(*term, index, defined, assigned, plan)) return false;
      vs.kind = VectorStmt::Kind::Reduce;
      vs.combine = reduction->first;
      vs.value = std::move(term);
      if (!recordAccess(target, index, false, plan)) return false;
      plan.accesses.back().write = true;  // without the rule that a write uses every index
    } else {
      if (!scanValue(v, index, defined, assigned, plan)) return false;
      vs.kind = VectorStmt::Kind::Store;
      vs.mayBeFloat = mayBeFloat(v);
      if (!recordAccess(target, index, true, plan)) return false;
    }
    vs.write = static_cast<int>(plan.accesses.size()) - 1;
    plan.stmts.push_back(std::move(vs));
    ++index;
  }
  if (plan.stmts.empty()) return refuse("its body does nothing", level->range);
  for (const auto& [storage, where] : plan.wholeReads) {
    for (const VectorAccess& a : plan.accesses) {
      if (a.write && a.storage == storage) {
        plan.dependence = true;
        return refuse("'" + where->text + "' is read whole and written by the loop", where->range);
      }
    }
  }
  return true;
}

// The exact dependence test: every pair of accesses to one array, one of them a write, must touch
// a common element in the same order in the array form (statement by statement, all reads of a
// statement before its write) as in the iterations.
bool Analyzer::checkDependences(VectorPlan& plan) {
  const std::vector<VectorLoop>& vars = plan.vars;
  const size_t n = vars.size();
  // the target of a reduction into array elements (c[i] += ..., sums over the other indices)
  auto reductionTarget = [&](const VectorAccess& a) {
    return a.write && plan.stmts[static_cast<size_t>(a.stmt)].kind == VectorStmt::Kind::Reduce;
  };
  int64_t work = 0;
  for (size_t w = 0; w < plan.accesses.size(); ++w) {
    const VectorAccess& W = plan.accesses[w];
    if (!W.write) continue;
    for (size_t y = 0; y < plan.accesses.size(); ++y) {
      const VectorAccess& Y = plan.accesses[y];
      if (y == w || Y.storage != W.storage) continue;
      if (reductionTarget(W) || reductionTarget(Y)) {
        // a reduction combines into its elements in another order: nothing else may touch them
        const VectorAccess& target = reductionTarget(W) ? W : Y;
        const VectorAccess& other = reductionTarget(W) ? Y : W;
        plan.dependence = true;
        plan.reason = quoted(*other.expr) + " and the reduction into " + quoted(*target.expr) + " use the same array";
        plan.notes = {note(other.expr->range, "here")};
        return false;
      }
      if (Y.write && Y.stmt == W.stmt) continue;
      for (size_t d = 0; d < W.items.size(); ++d) {
        if (W.items[d].symbol != Y.items[d].symbol || W.items[d].scale != Y.items[d].scale) {
          plan.reason = quoted(*Y.expr) + " and " + quoted(*W.expr) + " index axis " + std::to_string(d) +
                        " by different values of an enclosing loop";
          plan.notes = {note(Y.expr->range, "here")};
          return false;
        }
      }
      const int phaseY = Y.write ? 1 : 0;
      const bool vectorWFirst = std::make_pair(W.stmt, 1) < std::make_pair(Y.stmt, phaseY);
      // Y's iterations over the indices it uses; the others at their first (last) value make Y as
      // early (late) as it can be.
      std::vector<int> yVars = Y.varsInItemOrder();
      std::vector<int64_t> J(n, 0), I(n, 0);
      for (size_t k = 0; k < n; ++k) J[k] = vectorWFirst ? 0 : vars[k].trips - 1;
      int64_t count = 1;
      for (int k : yVars) count *= vars[static_cast<size_t>(k)].trips;
      work += count;
      if (work > kMaxTestedIterations) {
        plan.reason = "its accesses need more comparisons than the dependence test makes (" +
                      std::to_string(kMaxTestedIterations) + ")";
        plan.notes.clear();
        return false;
      }
      for (int k : yVars) J[static_cast<size_t>(k)] = 0;
      for (int64_t it = 0; it < count; ++it) {
        if (it > 0) {  // next J over yVars (the last varies fastest)
          for (int p = static_cast<int>(yVars.size()) - 1; p >= 0; --p) {
            int64_t& j = J[static_cast<size_t>(yVars[static_cast<size_t>(p)])];
            if (++j < vars[static_cast<size_t>(yVars[static_cast<size_t>(p)])].trips) break;
            j = 0;
          }
        }
        // the iteration I of W that writes Y's element, if any
        bool hit = true;
        for (size_t d = 0; d < W.items.size() && hit; ++d) {
          const LinearIndex& ya = Y.items[d];
          int64_t e = ya.constant;
          if (ya.var() >= 0) e += ya.coef[static_cast<size_t>(ya.var())] * vars[static_cast<size_t>(ya.var())].at(J[static_cast<size_t>(ya.var())]);
          const LinearIndex& wa = W.items[d];
          const int k = wa.var();
          if (k < 0) {
            hit = e == wa.constant;
            continue;
          }
          const int64_t c = wa.coef[static_cast<size_t>(k)], x = e - wa.constant;
          if (x % c != 0) {
            hit = false;
            continue;
          }
          const VectorLoop& v = vars[static_cast<size_t>(k)];
          const int64_t offset = x / c - v.start;
          if (offset % v.step != 0 || offset / v.step < 0 || offset / v.step >= v.trips) {
            hit = false;
            continue;
          }
          I[static_cast<size_t>(k)] = offset / v.step;
        }
        if (!hit) continue;
        const bool sequentialWFirst = std::make_tuple(I, W.stmt, 1) < std::make_tuple(J, Y.stmt, phaseY);
        if (sequentialWFirst == vectorWFirst) continue;
        plan.dependence = true;
        const std::string yAt = quoted(*Y.expr) + " at " + iterationText(vars, J);
        const std::string wAt = quoted(*W.expr) + " at " + iterationText(vars, I);
        if (!Y.write && sequentialWFirst) {
          plan.reason = yAt + " reads what " + wAt + " wrote, an earlier iteration";
        } else if (!Y.write) {
          plan.reason = yAt + " reads an element before " + wAt + " overwrites it, a later iteration";
        } else {
          plan.reason = yAt + " and " + wAt + " write the same element";
        }
        plan.notes = {note(Y.expr->range, "read here"), note(W.expr->range, "written here")};
        if (Y.write) plan.notes[0].message = "written here";
        return false;
      }
    }
  }
  return true;
}

// A scan a[i] = a[i - 1] op E (op + or *) of a one-loop nest whose only dependence it is: the
// array form is a[first:] = a[first - 1] op cumsum(E) (cumprod for *).
bool Analyzer::planScan(VectorPlan& plan) {
  if (plan.vars.size() != 1) return false;
  const VectorLoop& var = plan.vars[0];
  for (VectorStmt& vs : plan.stmts) {
    if (vs.kind != VectorStmt::Kind::Store) continue;
    const Expr& v = *vs.value;
    if (v.kind != ExprKind::BinOp || (v.text != "+" && v.text != "*")) continue;
    const VectorAccess& W = plan.accesses[static_cast<size_t>(vs.write)];
    // float16 rounds at every step; integers truncate a float term at every step
    if (W.dtype == DType::Float16 || (!isFloat(W.dtype) && (vs.mayBeFloat || v.text == "*"))) continue;
    // the operand reading the element the previous iteration wrote
    for (int side = 0; side < 2; ++side) {
      const Expr& prev = *v.children[static_cast<size_t>(side)];
      if (!plan.readAt.count(&prev)) continue;
      const VectorAccess& R = plan.accesses[static_cast<size_t>(plan.readAt.at(&prev))];
      if (R.storage != W.storage) continue;
      bool previous = true;
      for (size_t d = 0; d < W.items.size(); ++d) {
        LinearIndex shifted = W.items[d];
        if (shifted.var() == 0) shifted.constant -= shifted.coef[0] * var.step;
        previous = previous && shifted.coef == R.items[d].coef && shifted.constant == R.items[d].constant &&
                   shifted.symbol == R.items[d].symbol;
      }
      if (!previous) continue;
      // every other access to the array is the statement's read of the element it writes
      bool alone = true;
      for (size_t a = 0; a < plan.accesses.size(); ++a) {
        const VectorAccess& x = plan.accesses[a];
        if (x.storage != W.storage || static_cast<int>(a) == vs.write || x.expr == &prev) continue;
        bool sameElement = x.stmt == W.stmt;
        for (size_t d = 0; d < W.items.size(); ++d) {
          sameElement = sameElement && x.items[d].coef == W.items[d].coef && x.items[d].constant == W.items[d].constant &&
                        x.items[d].symbol == W.items[d].symbol;
        }
        alone = alone && sameElement;
      }
      if (!alone) continue;
      // the element before the first one written
      ExprPtr before = makeExpr(ExprKind::Subscript, prev.range);
      before->children.push_back(cloneExpr(*prev.children[0]));
      ExprPtr index = makeExpr(ExprKind::Tuple, prev.range);
      for (size_t d = 0; d < R.items.size(); ++d) {
        const LinearIndex& a = R.items[d];
        const int64_t at = a.constant + (a.var() == 0 ? a.coef[0] * var.at(0) : 0);
        if (at < 0 || at >= R.shape[d] || a.symbol != graph::kNoValue) return false;  // would wrap, or is out of bounds
        index->children.push_back(makeInt(at, prev.range));
      }
      before->children.push_back(std::move(index));
      vs.kind = VectorStmt::Kind::Scan;
      vs.combine = v.text;
      vs.previous = std::move(before);
      // the read of the previous element is now the scan itself; the term keeps its nodes (and reads)
      plan.accesses[static_cast<size_t>(plan.readAt.at(&prev))].storage = nullptr;
      plan.readAt.erase(&prev);
      ExprPtr term = std::move(vs.value->children[static_cast<size_t>(1 - side)]);
      vs.value = std::move(term);
      return true;
    }
  }
  return false;
}

// The subscript of `access` that selects, for every iteration at once, the elements it touches:
// a strided slice per axis a loop index walks, the index itself elsewhere.
ExprPtr Analyzer::arraySubscript(const VectorAccess& access, const VectorPlan& plan, int number, std::vector<std::string>& hidden) {
  const Expr& e = *access.expr;
  ExprPtr sub = makeExpr(ExprKind::Subscript, e.range);
  sub->children.push_back(cloneExpr(*e.children[0]));
  ExprPtr index = makeExpr(ExprKind::Tuple, e.children[1]->range);
  for (size_t d = 0; d < access.items.size(); ++d) {
    const LinearIndex& a = access.items[d];
    const SourceRange& range = e.children[1]->range;
    const int k = a.var();
    if (k >= 0) {
      const VectorLoop& v = plan.vars[static_cast<size_t>(k)];
      const int64_t c = a.coef[static_cast<size_t>(k)];
      const int64_t begin = c * v.at(0) + a.constant, stride = c * v.step;
      const int64_t end = begin + (v.trips - 1) * stride + (stride > 0 ? 1 : -1);
      ExprPtr slice = makeExpr(ExprKind::Slice, range);
      slice->children.push_back(makeInt(begin, range));
      slice->children.push_back(end < 0 ? nullptr : makeInt(end, range));
      slice->children.push_back(makeInt(stride, range));
      index->children.push_back(std::move(slice));
    } else if (a.symbol != graph::kNoValue) {
      // the enclosing loop's index, as the value it stands for
      SymValue idx = SymValue::make(SymKind::LoopIndex);
      idx.indexVar = a.symbol;
      idx.scale = a.scale;
      idx.offset = a.constant;
      idx.minIndex = a.symbolMin;
      idx.maxIndex = a.symbolMax;
      const std::string name = "$s" + std::to_string(number) + "_" + std::to_string(d);
      bind(name, idx);
      hidden.push_back(name);
      index->children.push_back(makeExpr(ExprKind::Name, range, name));
    } else {
      index->children.push_back(makeInt(a.constant, range));
    }
  }
  sub->children.push_back(std::move(index));
  return sub;
}

bool Analyzer::runVectorized(const Stmt& loop) {
  const Pragma* pragma = nullptr;
  for (const Pragma& p : loop.pragmas)
    if (p.name == "parallelize") pragma = &p;
  if (!pragma && !options_.vectorizeLoops) return false;
  if (pragma) {
    int64_t factor = 0;
    for (const auto& arg : pragma->args)
      if (arg.first == "factor") factor = std::atoll(arg.second.c_str());
    if (factor <= 0) fail(pragma->range, "pragma 'parallelize' needs factor=N with N > 0");
  }
  VectorPlan plan;
  bool ok = planVectorized(loop, plan);
  if (ok && !checkDependences(plan)) {
    const std::string reason = plan.reason;
    const std::vector<Diagnostic> notes = plan.notes;
    ok = plan.dependence && planScan(plan);
    if (ok) {
      plan.dependence = false;
      ok = checkDependences(plan);
    } else {
      plan.reason = reason;
      plan.notes = notes;
    }
  }
  auto remark = [&](const std::string& message, std::vector<Diagnostic> notes) {
    if (options_.reportVectorize) report(Diagnostic{Severity::Remark, loop.range, message, std::move(notes)});
  };
  if (!ok) {
    if (plan.reason.empty()) return false;
    if (pragma && plan.dependence) {
      fail(pragma->range, "pragma 'parallelize': the iterations of this loop depend on each other: " + plan.reason, plan.notes);
    }
    if (pragma) {
      warn(pragma->range, "pragma 'parallelize' has no effect: this loop cannot run as array operations: " + plan.reason);
    }
    remark("loop not vectorised: " + plan.reason, plan.notes);
    return false;
  }

  // The rewrite's names: NumPy, the loop indices' values, each read's elements, each statement's value.
  struct Hidden {
    Analyzer& analyzer;
    std::vector<std::string> names;
    ~Hidden() {
      Frame& frame = analyzer.frames_.back();
      for (const std::string& name : names) {
        frame.locals.erase(name);
        frame.order.erase(std::remove(frame.order.begin(), frame.order.end(), name), frame.order.end());
      }
    }
  } hidden{*this, {}};
  auto bindHidden = [&](const std::string& name, SymValue value) {
    bind(name, std::move(value));
    hidden.names.push_back(name);
  };
  bindHidden(kNumpy, SymValue::named(SymKind::Module, "numpy"));
  const size_t n = plan.vars.size();
  std::vector<int64_t> full;
  for (const VectorLoop& v : plan.vars) full.push_back(v.trips);
  // `x` with its axes (one per index in `vars`, in that order) moved to nest order, and an axis of
  // 1 for every index it does not use.
  auto toNestOrder = [&](ValueId x, const std::vector<int>& vars, const SourceRange& range) {
    std::vector<int64_t> perm(vars.size());
    for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(i);
    std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) { return vars[static_cast<size_t>(a)] < vars[static_cast<size_t>(b)]; });
    if (!std::is_sorted(vars.begin(), vars.end())) x = builder_.addNode("Transpose", {x}, {{"perm", perm}}, range);
    std::vector<int64_t> shape(n, 1);
    for (int k : vars) shape[static_cast<size_t>(k)] = plan.vars[static_cast<size_t>(k)].trips;
    if (vars.size() != n) x = builder_.addNode("Reshape", {x}, {{"shape", shape}}, range);
    return x;
  };
  // the inverse: a value in nest order (axes of the indices in `vars`) moved to the order of `vars`
  auto toItemOrder = [&](const SymValue& value, const std::vector<int>& vars, const SourceRange& range) -> SymValue {
    if (value.kind != SymKind::Tensor || std::is_sorted(vars.begin(), vars.end())) return value;
    const ValueId x = arrayValue(value, range);
    if (builder_.type(x).rank() != static_cast<int>(vars.size())) return value;
    std::vector<int> sorted = vars;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int64_t> perm;
    for (int k : vars) perm.push_back(std::find(sorted.begin(), sorted.end(), k) - sorted.begin());
    return fresh(builder_.addNode("Transpose", {x}, {{"perm", perm}}, range), range);
  };
  std::set<size_t> indexBound;  // loop indices bound to their values
  // A read's elements go by the read's spelling, which the messages then show.
  auto readName = [&](int access) { return spell(*plan.accesses[static_cast<size_t>(access)].expr); };
  std::function<ExprPtr(const Expr&)> rewrite = [&](const Expr& e) -> ExprPtr {
    if (plan.readAt.count(&e)) return makeExpr(ExprKind::Name, e.range, readName(plan.readAt.at(&e)));
    if (e.kind == ExprKind::Name) {
      for (size_t k = 0; k < n; ++k) {
        if (plan.vars[k].name != e.text || indexBound.count(k)) continue;
        // the index's values over the nest, under its own name: a weak int, as the Python int it is
        const VectorLoop& v = plan.vars[k];
        std::vector<ExprPtr> args;
        args.push_back(makeInt(v.start, e.range));
        args.push_back(makeInt(v.start + v.trips * v.step, e.range));
        args.push_back(makeInt(v.step, e.range));
        const ValueId iota = arrayValue(eval(*makeNumpyCall("arange", std::move(args), e.range)), e.range);
        SymValue values = fresh(toNestOrder(iota, {static_cast<int>(k)}, e.range), e.range);
        values.weak = registry::ScalarKind::Int;
        bind(v.name, values);
        indexBound.insert(k);
      }
    }
    if (e.kind == ExprKind::Attribute && e.children[0]->kind == ExprKind::Name) {
      const SymValue* m = lookup(e.children[0]->text);
      if (m && m->kind == SymKind::Module && m->text == "math" && mathOnRuntimeScalars().count(e.text)) {
        ExprPtr callee = makeExpr(ExprKind::Attribute, e.range, e.text);
        callee->children.push_back(makeExpr(ExprKind::Name, e.range, kNumpy));
        return callee;
      }
    }
    if (e.kind == ExprKind::IfExp) {  // x if c else y: np.where(c, x, y)
      std::vector<ExprPtr> args;
      args.push_back(rewrite(*e.children[1]));
      args.push_back(rewrite(*e.children[0]));
      args.push_back(rewrite(*e.children[2]));
      return makeNumpyCall("where", std::move(args), e.range);
    }
    ExprPtr copy = makeExpr(e.kind, e.range, e.text);
    copy->intValue = e.intValue;
    copy->floatValue = e.floatValue;
    copy->ops = e.ops;
    copy->parenthesized = e.parenthesized;
    for (const auto& c : e.children) copy->children.push_back(c ? rewrite(*c) : nullptr);
    return copy;
  };
  auto run = [&](StmtKind kind, ExprPtr target, ExprPtr value, const SourceRange& range, const std::string& op = "") {
    auto s = std::make_unique<Stmt>();
    s->kind = kind;
    s->range = range;
    s->text = op;
    s->targets.push_back(std::move(target));
    s->value = std::move(value);
    synthesized_.push_back(std::move(s));
    execStmt(*synthesized_.back());
  };
  auto name = [&](const std::string& text, const SourceRange& range) { return makeExpr(ExprKind::Name, range, text); };
  // a statement's value over every iteration, as a tensor of the nest's shape
  auto broadcastFull = [&](const std::string& valueName, const SourceRange& range) {
    const SymValue* v = lookup(valueName);
    if (v && v->kind == SymKind::Tensor && !v->weak) {
      const graph::Shape& shape = builder_.type(arrayValue(*v, range)).shape;
      if (static_cast<int>(shape.size()) == static_cast<int>(n) &&
          std::equal(shape.begin(), shape.end(), full.begin(), [](const graph::Dim& d, int64_t t) { return d.extent == t; })) {
        return name(valueName, range);
      }
    }
    ExprPtr shape = makeExpr(ExprKind::Tuple, range);
    for (int64_t t : full) shape->children.push_back(makeInt(t, range));
    std::vector<ExprPtr> args;
    args.push_back(name(valueName, range));
    args.push_back(std::move(shape));
    return makeNumpyCall("broadcast_to", std::move(args), range);
  };

  for (size_t si = 0; si < plan.stmts.size(); ++si) {
    VectorStmt& vs = plan.stmts[si];
    const SourceRange& range = vs.stmt->range;
    // this statement's reads, before its write
    for (size_t a = 0; a < plan.accesses.size(); ++a) {
      const VectorAccess& access = plan.accesses[a];
      if (access.stmt != static_cast<int>(si) || access.write || !access.storage) continue;
      const ValueId x = arrayValue(eval(*arraySubscript(access, plan, static_cast<int>(a), hidden.names)), access.expr->range);
      bindHidden(readName(static_cast<int>(a)), fresh(toNestOrder(x, access.varsInItemOrder(), access.expr->range), access.expr->range));
    }
    ExprPtr value = rewrite(*vs.value);
    if (vs.kind == VectorStmt::Kind::Temp) {
      run(StmtKind::Assign, name(vs.target->text, vs.target->range), std::move(value), range);
      continue;
    }
    // as the messages show it (in parentheses when it is a name, which stays the program's)
    const std::string valueName = vs.value->kind == ExprKind::Name ? "(" + spell(*vs.value) + ")" : spell(*vs.value);
    bindHidden(valueName, eval(*value));
    const VectorAccess* write = vs.write >= 0 ? &plan.accesses[static_cast<size_t>(vs.write)] : nullptr;
    auto writeTarget = [&] { return arraySubscript(*write, plan, vs.write, hidden.names); };
    if (vs.kind == VectorStmt::Kind::Store) {
      bindHidden(valueName, toItemOrder(*lookup(valueName), write->varsInItemOrder(), range));
      run(StmtKind::Assign, writeTarget(), name(valueName, range), range);
      continue;
    }
    // the value over every iteration: a float target's scan runs in the target's dtype (as each
    // step computes in it), and small integers reduce in int32 (sums and products wrap the same)
    auto overIterations = [&](bool scan) {
      SymValue b = eval(*broadcastFull(valueName, range));
      const DType t = builder_.type(arrayValue(b, range)).dtype;
      if (scan && isFloat(write->dtype) && t != write->dtype) b = fresh(builder_.cast(arrayValue(b, range), write->dtype, range), range);
      if (!scan && (t == DType::Int8 || t == DType::UInt8 || t == DType::Int16)) {
        b = fresh(builder_.cast(arrayValue(b, range), DType::Int32, range), range);
      }
      b.weak.reset();
      bindHidden(valueName, b);
      return name(valueName, range);
    };
    if (vs.kind == VectorStmt::Kind::Scan) {
      std::vector<ExprPtr> args;
      args.push_back(overIterations(true));
      ExprPtr scanned = makeNumpyCall(vs.combine == "+" ? "cumsum" : "cumprod", std::move(args), range);
      run(StmtKind::Assign, writeTarget(), makeBinary(vs.combine, std::move(vs.previous), std::move(scanned), range), range);
      continue;
    }
    // a reduction: over every index (a name), or over the indices the target does not use
    const std::string reducer = vs.combine == "max" ? "max" : vs.combine == "min" ? "min" : vs.combine == "*" ? "prod" : "sum";
    std::vector<ExprPtr> args;
    args.push_back(overIterations(false));
    ExprPtr reduced = makeNumpyCall(reducer, std::move(args), range);
    if (write) {
      ExprPtr axes = makeExpr(ExprKind::Tuple, range);
      for (int k : vs.missing) axes->children.push_back(makeInt(k, range));
      Keyword axis{"axis", std::move(axes), range};
      reduced->keywords.push_back(std::move(axis));
    }
    const std::string reducedName = "np." + reducer + "(" + valueName + ")";
    bindHidden(reducedName, eval(*reduced));
    if (write) bindHidden(reducedName, toItemOrder(*lookup(reducedName), write->varsInItemOrder(), range));
    ExprPtr target = write ? writeTarget() : name(vs.target->text, vs.target->range);
    ExprPtr current = write ? writeTarget() : name(vs.target->text, vs.target->range);
    if (vs.combine == "max" || vs.combine == "min") {
      std::vector<ExprPtr> pair;
      pair.push_back(std::move(current));
      pair.push_back(name(reducedName, range));
      run(StmtKind::Assign, std::move(target), makeNumpyCall(vs.combine == "max" ? "maximum" : "minimum", std::move(pair), range), range);
    } else if (write) {
      run(StmtKind::Assign, std::move(target), makeBinary(vs.combine, std::move(current), name(reducedName, range), range), range);
    } else if (vs.augmented) {  // s += E: in place when s is an array, as each iteration's update is
      run(StmtKind::AugAssign, std::move(target), name(reducedName, range), range, vs.combine);
    } else {  // s = s + E: a new value each iteration
      run(StmtKind::Assign, std::move(target), makeBinary(vs.combine, std::move(current), name(reducedName, range), range), range);
    }
  }

  // Python's names after the loop: the indices' and the body's last values (an if's condition is
  // the rewrite's own name, gone with the others).
  for (const std::string& t : plan.temps) {
    if (t[0] == '$') {
      hidden.names.push_back(t);
      continue;
    }
    if (plan.affineTemps.count(t)) {
      const LinearIndex& a = plan.affineTemps.at(t);
      int64_t last = a.constant;
      for (size_t k = 0; k < n; ++k) last += a.coef[k] * plan.vars[k].last();
      if (a.symbol == graph::kNoValue) {
        bind(t, SymValue::ofInt(last));
        continue;
      }
    }
    const SymValue* v = lookup(t);
    if (!v || v->kind != SymKind::Tensor || v->weak || builder_.type(arrayValue(*v, loop.range)).rank() != static_cast<int>(n)) continue;
    ExprPtr sub = makeExpr(ExprKind::Subscript, loop.range);
    sub->children.push_back(name(t, loop.range));
    ExprPtr index = makeExpr(ExprKind::Tuple, loop.range);
    for (size_t k = 0; k < n; ++k) index->children.push_back(makeInt(-1, loop.range));
    sub->children.push_back(std::move(index));
    const size_t before = builder_.nodeCount();
    run(StmtKind::Assign, name(t, loop.range), std::move(sub), loop.range);
    for (ValueId r : builder_.resultsSince(before)) lastIterationReads_.insert(r);
  }
  for (const VectorLoop& v : plan.vars) bind(v.name, SymValue::ofInt(v.last()));

  std::string what = n == 1 ? std::to_string(full[0]) + " iterations of '" + plan.vars[0].name + "'" : "";
  if (n > 1) {
    std::string sizes, names;
    for (size_t k = 0; k < n; ++k) {
      sizes += (k ? " x " : "") + std::to_string(full[k]);
      names += (k ? ", " : "") + plan.vars[k].name;
    }
    what = sizes + " iterations of " + names;
  }
  std::vector<std::string> kinds;
  for (const VectorStmt& vs : plan.stmts) {
    if (vs.kind == VectorStmt::Kind::Reduce) kinds.push_back("a reduction into " + quoted(*vs.target));
    if (vs.kind == VectorStmt::Kind::Scan) kinds.push_back(std::string("a scan (np.") + (vs.combine == "+" ? "cumsum" : "cumprod") + ") of " + quoted(*vs.target));
  }
  std::string extra;
  for (size_t i = 0; i < kinds.size(); ++i) extra += (i ? ", " : "; with ") + kinds[i];
  remark("loop vectorised: " + what + " run as array operations" + extra, {});
  return true;
}

}  // namespace pyasc::frontend
