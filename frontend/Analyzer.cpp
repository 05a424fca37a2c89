// Statements, scopes, control flow (kept and unrolled loops), pragmas, entry binding and outputs.
#include "frontend/Analyzer.h"

#include <algorithm>
#include <functional>

#include "frontend/NumpyPrelude.h"
#include "registry/NameSuggestion.h"
#include "registry/ShapeInference.h"

namespace pyasc::frontend {

using graph::TensorType;
using graph::ValueId;

namespace {
constexpr int kMaxUnrolledIterations = 4096;
// Unrolled loop bodies in a whole program, nested loops counting the product of their trips.
constexpr int64_t kMaxUnrolledBodies = int64_t{1} << 16;
const char* const kKnownPragmas = "auto_mixed_precision, parallelize";
}  // namespace

Analyzer::Analyzer(const FrontendOptions& options, DiagnosticEngine& diags, GraphBuilder& builder)
    : options_(options), diags_(diags), builder_(builder), registry_(builder.registry()) {
  for (const registry::NumpyAlias* alias : registry_.aliases()) {
    if (alias->form == registry::AliasForm::Function && !alias->op.empty() && !ufuncNames_.count(alias->op)) {
      ufuncNames_[alias->op] = alias->name;
    }
  }
}

// ---- diagnostics

void Analyzer::fail(const SourceRange& range, const std::string& message, std::vector<Diagnostic> notes) {
  throw CompileError(Diagnostic{Severity::Error, range, message, std::move(notes)});
}

Diagnostic Analyzer::note(const SourceRange& range, const std::string& message) {
  return Diagnostic{Severity::Note, range, message, {}};
}

void Analyzer::report(const Diagnostic& diag) {
  for (const Diagnostic& d : diags_.diagnostics()) {
    if (d.message == diag.message && d.range.begin.line == diag.range.begin.line &&
        d.range.begin.col == diag.range.begin.col && d.range.begin.file == diag.range.begin.file) {
      return;
    }
  }
  diags_.add(diag);
}

void Analyzer::warn(const SourceRange& range, const std::string& message) {
  diags_.warning(preludeSite_ ? *preludeSite_ : range, message);
}

// ---- scopes

SymValue* Analyzer::lookup(const std::string& name) {
  auto& local = frames_.back().locals;
  auto it = local.find(name);
  if (it != local.end()) return &it->second;
  if (frames_.back().prelude) {
    it = preludeGlobals_.find(name);
    if (it != preludeGlobals_.end()) return &it->second;
    if (name == "np") return &(preludeGlobals_[name] = SymValue::named(SymKind::Module, "numpy"));
    const Stmt* helper = numpyPreludeHelper(name);
    return helper ? &(preludeGlobals_[name] = functionValue(*helper)) : nullptr;
  }
  auto& global = frames_.front().locals;
  it = global.find(name);
  return it == global.end() ? nullptr : &it->second;
}

void Analyzer::bind(const std::string& name, SymValue value) {
  Frame& frame = frames_.back();
  if (!frame.locals.count(name)) frame.order.push_back(name);
  frame.locals[name] = std::move(value);
}

std::vector<std::string> Analyzer::visibleNames() const {
  std::vector<std::string> names;
  for (const auto& entry : frames_.back().locals) names.push_back(entry.first);
  if (frames_.size() > 1) {
    for (const auto& entry : frames_.front().locals) names.push_back(entry.first);
  }
  for (const char* b : {"range", "len", "int", "float", "bool", "abs", "min", "max", "print", "round"}) names.push_back(b);
  return names;
}

std::string Analyzer::nameOfStorage(const std::shared_ptr<ArrayStorage>& storage) const {
  for (auto frame = frames_.rbegin(); frame != frames_.rend(); ++frame) {
    for (const std::string& name : frame->order) {
      const SymValue& v = frame->locals.at(name);
      if (v.kind == SymKind::Tensor && v.storage == storage) return name;
    }
  }
  return "";
}

// ---- module

void Analyzer::run(const Module& module) {
  frames_.clear();
  frames_.emplace_back();
  for (const ConstSpec& c : options_.consts) {
    if (!options_.entry.empty()) continue;
    bind(c.name, c.kind == ConstSpec::Kind::Int     ? SymValue::ofInt(c.intValue)
                 : c.kind == ConstSpec::Kind::Float ? SymValue::ofFloat(c.floatValue)
                                                    : SymValue::ofBool(c.boolValue));
  }
  if (options_.entry.empty()) {
    for (const InputSpec& in : options_.inputs) {
      TensorType type{in.dtype, in.shape, graph::Layout::ND, true};
      ValueId id = builder_.addInput(in.name, type, in.shape.empty() ? graph::InputRole::Scalar : graph::InputRole::Array,
                                     {}, SourceRange{});
      bind(in.name, fresh(id, SourceRange{}));
    }
  }
  execBlock(module.body);
  if (options_.entry.empty()) {
    recordScriptOutputs();
  } else if (!diags_.hasErrors()) {
    runEntry(module);
  }
  if (!options_.entry.empty() && !options_.outputs.empty()) {
    report(Diagnostic{Severity::Error, SourceRange{SourceLocation{"--output", 0, 0}, 0},
                      "only for scripts: with --entry, the outputs are what '" + options_.entry + "' returns", {}});
  }
}

Analyzer::Flow Analyzer::execBlock(const std::vector<StmtPtr>& body) {
  for (const auto& stmt : body) {
    Flow flow = Flow::Normal;
    try {
      flow = execStmt(*stmt);
    } catch (const CompileError& e) {
      if (frames_.back().prelude) throw;  // callPrelude reports it at the program's call
      report(e.diagnostic());
      poisonTargets(*stmt);
    }
    if (flow != Flow::Normal) return flow;
  }
  return Flow::Normal;
}

void Analyzer::poisonTargets(const Stmt& stmt) {
  std::function<void(const Expr&)> poison = [&](const Expr& target) {
    if (target.kind == ExprKind::Name) bind(target.text, SymValue::poison());
    if (target.kind == ExprKind::Tuple || target.kind == ExprKind::List) {
      for (const auto& c : target.children) poison(*c);
    }
  };
  for (const auto& t : stmt.targets) poison(*t);
  if (stmt.kind == StmtKind::FunctionDef) bind(stmt.text, SymValue::poison());
}

void Analyzer::applyPragmas(const Stmt& stmt, int& pushedHints) {
  for (const Pragma& p : stmt.pragmas) {
    if (p.name == "parallelize") {
      // on a loop, loop vectorisation acts on it (runVectorized)
      if (stmt.kind != StmtKind::For) warn(p.range, "pragma 'parallelize' applies to for loops; it is ignored here");
      continue;
    }
    if (p.name == "auto_mixed_precision") {
      std::string mode = "O1";
      for (const auto& arg : p.args) {
        if (arg.first == "mode") mode = arg.second;
      }
      if (mode != "O1" && mode != "O2") {
        fail(p.range, "pragma 'auto_mixed_precision' needs mode=O1 or mode=O2, found '" + mode + "'");
      }
      if (stmt.kind == StmtKind::FunctionDef) {
        functionHints_.emplace_back(&stmt, std::vector<graph::NamedAttr>{{"amp_mode", mode}});
      } else {
        builder_.pushHint({"amp_mode", mode});
        ++pushedHints;
      }
      continue;
    }
    warn(p.range, "unknown pragma '" + p.name + "' is ignored; known pragmas: " + kKnownPragmas);
  }
}

Analyzer::Flow Analyzer::execStmt(const Stmt& stmt) {
  int pushedHints = 0;
  applyPragmas(stmt, pushedHints);
  struct HintGuard {
    GraphBuilder& builder;
    int& count;
    ~HintGuard() {
      for (int i = 0; i < count; ++i) builder.popHint();
    }
  } guard{builder_, pushedHints};
  switch (stmt.kind) {
    case StmtKind::Expr: {
      if (stmt.value->kind == ExprKind::String) return Flow::Normal;  // docstring
      eval(*stmt.value);
      return Flow::Normal;
    }
    case StmtKind::Assign: execAssign(stmt); return Flow::Normal;
    case StmtKind::AnnAssign:
      if (stmt.value) assignTo(*stmt.targets[0], eval(*stmt.value, rootName(*stmt.targets[0])));
      return Flow::Normal;
    case StmtKind::AugAssign: execAugAssign(stmt); return Flow::Normal;
    case StmtKind::If: return execIf(stmt);
    case StmtKind::For: return execFor(stmt);
    case StmtKind::While: return execWhile(stmt);
    case StmtKind::FunctionDef: {
      if (!stmt.decorators.empty()) {
        fail(stmt.decorators[0]->range,
             "decorators are not supported in pyasc programs; define custom operators in their own file and "
             "load them with --custom-op-config");
      }
      bind(stmt.text, functionValue(stmt));
      return Flow::Normal;
    }
    case StmtKind::Return:
      if (frames_.size() == 1) fail(stmt.range, "'return' outside function");
      if (keptLoopDepth_ > 0) {
        fail(stmt.range, "return inside a loop kept as a loop is not supported; return after the loop");
      }
      frames_.back().returnValue = stmt.value ? eval(*stmt.value) : SymValue::none();
      return Flow::Return;
    case StmtKind::Import:
    case StmtKind::ImportFrom: execImport(stmt); return Flow::Normal;
    case StmtKind::Pass: return Flow::Normal;
    case StmtKind::Break:
    case StmtKind::Continue:
      if (keptLoopDepth_ > 0) {
        fail(SourceRange{stmt.range.begin, stmt.kind == StmtKind::Break ? 5 : 8},
             std::string(stmt.kind == StmtKind::Break ? "break" : "continue") +
                 " is not supported in a loop kept as a loop; select results with np.where instead");
      }
      return stmt.kind == StmtKind::Break ? Flow::Break : Flow::Continue;
  }
  return Flow::Normal;
}

void Analyzer::execImport(const Stmt& stmt) {
  static const std::vector<std::string> modules = {"numpy", "numpy.random", "numpy.lib", "numpy.lib.stride_tricks", "pyasc",
                                                    "pyasc.nn", "math"};
  auto checkModule = [&](const std::string& name, const SourceRange& range) {
    if (std::find(modules.begin(), modules.end(), name) != modules.end()) return;
    if (name == "te" || name == "te_op" || name.rfind("te.", 0) == 0) {
      fail(range, "module '" + name + "' is for custom operator definitions; programs call custom operators by "
                  "name and load them with --custom-op-config");
    }
    fail(range, "module '" + name + "' is not supported; pyasc programs may import numpy, pyasc and math");
  };
  if (stmt.kind == StmtKind::Import) {
    for (const ImportName& n : stmt.names) {
      checkModule(n.name, n.range);
      if (!n.alias.empty()) {
        bind(n.alias, SymValue::named(SymKind::Module, n.name));
      } else {
        const std::string top = n.name.substr(0, n.name.find('.'));
        bind(top, SymValue::named(SymKind::Module, top));
      }
    }
    return;
  }
  checkModule(stmt.text, stmt.range);
  for (const ImportName& n : stmt.names) {
    bind(n.alias.empty() ? n.name : n.alias, moduleMember(stmt.text, n.name, n.range));
  }
}

void Analyzer::execAssign(const Stmt& stmt) {
  const std::string hint = stmt.targets.size() == 1 ? rootName(*stmt.targets[0]) : "";
  const bool plainName = stmt.targets.size() == 1 && stmt.targets[0]->kind == ExprKind::Name;
  SymValue value = eval(*stmt.value, plainName ? hint : "");
  for (const auto& target : stmt.targets) assignTo(*target, value);
}

void Analyzer::assignTo(const Expr& target, const SymValue& value) {
  switch (target.kind) {
    case ExprKind::Name: {
      SymValue bound = value;
      bound.range = target.range;
      bind(target.text, bound);
      return;
    }
    case ExprKind::Tuple:
    case ExprKind::List: {
      if (value.kind == SymKind::Poison) {
        for (const auto& c : target.children) assignTo(*c, value);
        return;
      }
      if (value.kind == SymKind::Tensor && !value.weak && !value.untyped &&
          builder_.type(arrayValue(value, target.range)).rank() > 0) {  // yy, xx = np.mgrid[...]: the rows
        assignTo(target, SymValue::tuple(iterationItems(value, target.range)));
        return;
      }
      if (value.kind != SymKind::Tuple) {
        fail(target.range, "cannot unpack " + describeKind(value) + " into " + std::to_string(target.children.size()) +
                               " names; unpack tuples and arrays only (e.g. m, n = a.shape)");
      }
      if (value.items.size() != target.children.size()) {
        fail(target.range, "cannot unpack " + std::to_string(value.items.size()) + " values into " +
                               std::to_string(target.children.size()) + " names");
      }
      for (size_t i = 0; i < value.items.size(); ++i) assignTo(*target.children[i], value.items[i]);
      return;
    }
    case ExprKind::Subscript: assignSubscript(target, value); return;
    case ExprKind::Attribute:
      if (target.text == "shape") fail(target.range, "assigning to .shape is not supported; write a = a.reshape(...)");
      fail(target.range, "assigning to an attribute is not supported; assign to a variable");
    default: fail(target.range, "cannot assign to this expression");
  }
}

void Analyzer::execAugAssign(const Stmt& stmt) {
  const Expr& target = *stmt.targets[0];
  if (target.kind == ExprKind::Subscript) {
    SymValue mask;
    if (booleanMask(*target.children[1], mask) && eval(*target.children[0]).kind != SymKind::Complex) {
      // a[mask] += v updates the selected elements: np.where(mask, a + v, a).
      Argument whole{eval(*target.children[0]), target.children[0]->range, target.children[0].get()};
      Argument rhs{eval(*stmt.value), stmt.value->range, stmt.value.get()};
      const SymValue updated = binaryOperator(stmt.text, whole, rhs, stmt.range, "");
      assignMasked(target, whole.value, mask, updated.kind == SymKind::Tensor ? selectionOf(updated, mask, stmt.range) : updated);
      return;
    }
    Argument current{evalSubscript(target, ""), target.range, &target};
    Argument rhs{eval(*stmt.value), stmt.value->range, stmt.value.get()};
    SymValue updated = binaryOperator(stmt.text, current, rhs, stmt.range, "");
    assignSubscript(target, updated);
    return;
  }
  if (target.kind != ExprKind::Name) fail(target.range, "augmented assignment needs a variable or a subscript");
  SymValue* current = lookup(target.text);
  if (!current) {
    fail(target.range, "name '" + target.text + "' is not defined");
  }
  SymValue before = *current;
  Argument rhs{eval(*stmt.value), stmt.value->range, stmt.value.get()};
  SymValue updated = binaryOperator(stmt.text, Argument{before, target.range, &target}, rhs, stmt.range, target.text);
  if (before.kind == SymKind::Tensor && !before.weak && updated.kind == SymKind::Tensor) {
    // NumPy updates arrays in place: the result is cast back (same_kind) and every alias sees it.
    const DType have = builder_.type(arrayValue(before, target.range)).dtype;
    const DType got = builder_.type(arrayValue(updated, stmt.range)).dtype;
    if (have != got && ((isInteger(have) || have == DType::Bool) && isFloat(got))) {
      const registry::NumpyAlias* alias = registry_.findAlias(stmt.text, registry::AliasForm::Operator);
      fail(stmt.range, std::string("Cannot cast ufunc '") + (alias ? ufuncName(alias->op) : stmt.text) + "' output from dtype('" + dtypeName(got) + "') to dtype('" + dtypeName(have) +
                           "') with casting rule 'same_kind'",
           {note(target.range, "'" + target.text + "' is " + typeName(before) +
                                   "; write " + target.text + " = " + target.text + " " + stmt.text +
                                   " ... to make a new array of the promoted dtype")});
    }
    writeArray(before, updated, stmt.range);
    return;
  }
  if (before.kind == SymKind::Tensor && !before.weak && updated.kind == SymKind::Complex) {
    const registry::NumpyAlias* alias = registry_.findAlias(stmt.text, registry::AliasForm::Operator);
    fail(stmt.range, std::string("Cannot cast ufunc '") + (alias ? ufuncName(alias->op) : stmt.text) +
                         "' output from a complex dtype to dtype('" + dtypeName(builder_.type(arrayValue(before, target.range)).dtype) +
                         "') with casting rule 'same_kind'",
         {note(target.range, "write " + target.text + " = " + target.text + " " + stmt.text + " ... to make a complex array")});
  }
  if (before.kind == SymKind::Complex && !isComplexConstant(before) && updated.kind == SymKind::Complex) {
    writeArray(before.items[0], updated.items[0], stmt.range);  // in place, plane by plane
    writeArray(before.items[1], updated.items[1], stmt.range);
    return;
  }
  SymValue rebound = updated;
  rebound.range = target.range;
  bind(target.text, rebound);
}

Analyzer::Flow Analyzer::execIf(const Stmt& stmt) {
  SymValue test = eval(*stmt.value);
  if (test.kind == SymKind::Poison) return Flow::Normal;
  if (test.kind == SymKind::Tensor && !test.untyped) return execIfOnData(stmt, test);
  return truthy(test, stmt.value->range) ? execBlock(stmt.body) : execBlock(stmt.orelse);
}

namespace {

// Whether two bindings of a name are the same value (a branch that did not rebind it).
bool sameBinding(const SymValue& a, const SymValue& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case SymKind::Tensor: return a.storage == b.storage && a.view == b.view;
    case SymKind::Int: return a.intValue == b.intValue;
    case SymKind::Bool: return a.boolValue == b.boolValue;
    case SymKind::Float: return a.floatValue == b.floatValue || (a.floatValue != a.floatValue && b.floatValue != b.floatValue);
    case SymKind::String: return a.text == b.text;
    case SymKind::Tuple:
      if (a.items.size() != b.items.size()) return false;
      for (size_t i = 0; i < a.items.size(); ++i) {
        if (!sameBinding(a.items[i], b.items[i])) return false;
      }
      return true;
    case SymKind::LoopIndex: return a.indexVar == b.indexVar && a.scale == b.scale && a.offset == b.offset;
    case SymKind::Complex: return sameBinding(a.items[0], b.items[0]) && sameBinding(a.items[1], b.items[1]);
    default: return a.function == b.function && a.text == b.text && a.dtype == b.dtype;
  }
}

}  // namespace

Analyzer::Flow Analyzer::execIfOnData(const Stmt& stmt, const SymValue& test) {
  const SourceRange& range = stmt.value->range;
  ValueId cond = arrayValue(test, range);
  if (graph::elementCount(builder_.type(cond).shape) != 1) {
    fail(range, "the truth value of an array with more than one element is ambiguous; use a.any() or a.all(), or "
                "np.where(cond, x, y) to select elementwise");
  }
  if (builder_.type(cond).rank() > 0) cond = builder_.addNode("Reshape", {cond}, {{"shape", std::vector<int64_t>{}}}, range);
  if (builder_.type(cond).dtype != DType::Bool) {
    cond = builder_.addNode("NotEqual", {cond, builder_.constant(builder_.type(cond).dtype, {0}, {}, range)}, {}, range);
  }
  // the arrays the branches may write: every storage a binding of any frame reaches
  std::map<std::shared_ptr<ArrayStorage>, ValueId> before;
  for (const Frame& f : frames_) {
    for (const auto& [name, binding] : f.locals) {
      for (const SymValue& v : binding.kind == SymKind::Complex ? binding.items : std::vector<SymValue>{binding}) {
        if (v.kind != SymKind::Tensor) continue;  // (a complex value's planes too)
        if (v.storage) before.emplace(v.storage, v.storage->current);
        if (v.view) before.emplace(v.view->root, v.view->root->current);
      }
    }
  }
  const auto locals = frames_.back().locals;
  const auto order = frames_.back().order;
  auto branch = [&](const std::vector<StmtPtr>& body, std::map<std::shared_ptr<ArrayStorage>, ValueId>& written) {
    frames_.back().locals = locals;
    frames_.back().order = order;
    for (auto& [storage, current] : before) {
      if (storage->current != current) {
        storage->current = current;
        ++storage->version;
      }
    }
    if (execBlock(body) != Flow::Normal) {
      fail(stmt.range, "return, break and continue are not supported in an if whose condition is array data; "
                       "compute both results and select with np.where");
    }
    for (const auto& [storage, current] : before) written[storage] = storage->current;
    return frames_.back().locals;
  };
  std::map<std::shared_ptr<ArrayStorage>, ValueId> thenWritten, elseWritten;
  const auto thenLocals = branch(stmt.body, thenWritten);
  const auto elseLocals = branch(stmt.orelse, elseWritten);
  const Argument condition{fresh(cond, range), range, nullptr};
  auto select = [&](const SymValue& a, const SymValue& b) {
    return applyOp("Where", {condition, Argument{a, stmt.range, nullptr}, Argument{b, stmt.range, nullptr}}, {}, stmt.range, "");
  };
  for (auto& [storage, current] : before) {
    const ValueId a = thenWritten[storage], b = elseWritten[storage];
    if (a == b) {
      if (storage->current != a) ++storage->version;
      storage->current = a;
      continue;
    }
    const ValueId merged = arrayValue(select(fresh(a, stmt.range), fresh(b, stmt.range)), stmt.range);
    storage->current = builder_.cast(merged, builder_.type(current).dtype, stmt.range);
    ++storage->version;
  }
  frames_.back().locals = locals;
  frames_.back().order = order;
  std::set<std::string> names;
  for (const auto& entry : thenLocals) names.insert(entry.first);
  for (const auto& entry : elseLocals) names.insert(entry.first);
  for (const std::string& name : names) {
    auto t = thenLocals.find(name), e = elseLocals.find(name);
    if (t != thenLocals.end() && e != elseLocals.end() && sameBinding(t->second, e->second)) {
      bind(name, t->second);
      continue;
    }
    auto numeric = [&](const SymValue& v) {
      return (v.kind == SymKind::Tensor && !v.untyped) || v.isScalarConstant() ||
             (v.kind == SymKind::Complex && v.items[0].kind != SymKind::Selection);
    };
    if (t == thenLocals.end() || e == elseLocals.end() || !numeric(t->second) || !numeric(e->second)) {
      SymValue unbound = SymValue::poison();
      unbound.text = "'" + name + "' differs between the branches of the if on array data at line " +
                     std::to_string(stmt.range.begin.line) + " in a way np.where cannot merge (bound in one branch only, "
                     "or not a number or an array)";
      bind(name, unbound);
      continue;
    }
    bind(name, select(t->second, e->second));
  }
  return Flow::Normal;
}

Analyzer::Flow Analyzer::execWhile(const Stmt& stmt) {
  for (int iteration = 0;; ++iteration) {
    SymValue test = eval(*stmt.value);
    if (test.kind == SymKind::Poison) return Flow::Normal;
    if (test.kind == SymKind::Tensor || test.kind == SymKind::LoopIndex) {  // the host decides the other trips
      buildKeptLoop(stmt, 0, options_.maxWhileTrips, 1, scanBody(stmt.body), "trip of the while loop", nullptr, &test);
      return Flow::Normal;
    }
    if (!truthy(test, stmt.value->range)) return Flow::Normal;
    if (iteration >= kMaxUnrolledIterations) {
      fail(stmt.range, "while loop did not finish within " + std::to_string(kMaxUnrolledIterations) +
                           " compile-time iterations");
    }
    countUnrolledBody(stmt);
    const Flow flow = execBlock(stmt.body);
    if (flow == Flow::Return) return flow;
    if (flow == Flow::Break) return Flow::Normal;
  }
}

Analyzer::Flow Analyzer::unrollOver(const Stmt& stmt, const std::vector<SymValue>& items) {
  for (const SymValue& item : items) {
    countUnrolledBody(stmt);
    const int errorsBefore = diags_.errorCount();
    assignTo(*stmt.targets[0], item);
    const Flow flow = execBlock(stmt.body);
    if (flow == Flow::Return) return flow;
    if (flow == Flow::Break) break;
    if (diags_.errorCount() > errorsBefore) break;  // the next iterations would repeat the errors
  }
  return Flow::Normal;
}

void Analyzer::countUnrolledBody(const Stmt& loop) {
  if (++unrolledBodies_ > kMaxUnrolledBodies) {
    fail(loop.range, "compile-time loops ran their bodies more than " + std::to_string(kMaxUnrolledBodies) +
                         " times in all (nested loops multiply their trips); keep the outer loop a loop by not "
                         "updating Python values in it");
  }
}

Analyzer::Flow Analyzer::execFor(const Stmt& stmt) {
  const Expr& iter = *stmt.value;
  const bool isRange = iter.kind == ExprKind::Call && iter.children[0]->kind == ExprKind::Name &&
                       iter.children[0]->text == "range" && lookup("range") == nullptr;
  if (runAsScatter(stmt) || runVectorized(stmt)) return Flow::Normal;
  if (!isRange) {
    SymValue seq = eval(iter);
    if (seq.kind == SymKind::Poison) return Flow::Normal;
    if (seq.kind == SymKind::Tuple) return unrollOver(stmt, seq.items);
    if (seq.kind == SymKind::Tensor) return iterateArray(stmt, seq);
    fail(iter.range, "for loops need range(...) or a tuple of compile-time values, found " + describeKind(seq));
  }
  if (!iter.keywords.empty()) fail(iter.keywords[0].range, "range() takes no keyword arguments");
  if (iter.children.size() < 2 || iter.children.size() > 4) {
    fail(iter.range, "range expected 1 to 3 arguments, got " + std::to_string(iter.children.size() - 1));
  }
  std::vector<int64_t> bounds;
  for (size_t i = 1; i < iter.children.size(); ++i) {
    const Expr& argExpr = *iter.children[i];
    SymValue arg = constantIndex(eval(argExpr));
    if (arg.kind == SymKind::Poison) return Flow::Normal;
    if (arg.kind == SymKind::Int || arg.kind == SymKind::Bool) {
      bounds.push_back(arg.kind == SymKind::Int ? arg.intValue : arg.boolValue);
      continue;
    }
    std::vector<Diagnostic> notes;
    std::string what = argExpr.kind == ExprKind::Name ? "'" + argExpr.text + "'" : "this bound";
    if (arg.kind == SymKind::Tensor && arg.weak) {
      notes.push_back(note(argExpr.range, what + " is a runtime scalar; make it compile-time with --const=" +
                                              (argExpr.kind == ExprKind::Name ? argExpr.text : std::string("NAME")) +
                                              "=VALUE"));
    } else if (arg.kind == SymKind::Tensor) {
      notes.push_back(note(argExpr.range, what + " is an array value; loop bounds come from shapes "
                                              "(a.shape[0]) or constants"));
    } else if (arg.kind == SymKind::LoopIndex) {
      notes.push_back(note(argExpr.range, "bounds that depend on an enclosing loop index need that loop unrolled, which "
                                          "pyasc does up to " + std::to_string(kMaxUnrolledIterations) + " trips; beyond, loop to "
                                          "the largest bound and mask the extra iterations, as in for j in range(n): t[i] += "
                                          "np.where(j < i, a[j], 0.0)"));
    } else if (arg.kind == SymKind::SymbolicDim) {
      notes.push_back(note(argExpr.range, "the extent " + arg.text + " is symbolic; give the input a fixed shape "
                                          "with --input"));
    }
    fail(argExpr.range, "loop bounds must be compile-time integers; range() argument " + std::to_string(i) + " is " +
                            describeKind(arg),
         notes);
  }
  int64_t start = 0, stop = 0, step = 1;
  if (bounds.size() == 1) {
    stop = bounds[0];
  } else {
    start = bounds[0];
    stop = bounds[1];
    if (bounds.size() == 3) step = bounds[2];
  }
  if (step == 0) fail(iter.children[3]->range, "range() arg 3 must not be zero");
  BodyScan scan = scanBody(stmt.body);
  if (stmt.targets[0]->kind != ExprKind::Name) {
    fail(stmt.targets[0]->range, "the target of a range loop must be a single name");
  }
  const int64_t trips = registry::sliceLength(start, stop, step);
  if (trips == 0) {
    skipZeroTripLoop(stmt, scan, stmt.targets[0]->text);
    return Flow::Normal;
  }
  const bool setsShapes = trips <= kMaxUnrolledIterations && indexSetsShapes(stmt.body, stmt.targets[0]->text);
  if (setsShapes || updatesCompileTimeValues(scan)) {
    if (trips > kMaxUnrolledIterations) {
      fail(stmt.range, "this loop updates compile-time values and would be unrolled " + std::to_string(trips) +
                           " times (limit " + std::to_string(kMaxUnrolledIterations) + ")");
    }
    std::vector<SymValue> items;
    for (int64_t k = 0; k < trips; ++k) items.push_back(SymValue::ofInt(start + k * step));
    return unrollOver(stmt, items);
  }
  buildKeptLoop(stmt, start, stop, step, scan, stmt.targets[0]->text);
  return Flow::Normal;
}

// As in Python, the body of a loop that makes no trip never runs (an index it would read out of
// bounds is no error); the index and the names first bound in the body stay unbound.
void Analyzer::skipZeroTripLoop(const Stmt& stmt, const BodyScan& scan, const std::string& indexName) {
  auto unbound = [&](const std::string& name) {
    if (lookup(name)) return;
    SymValue v = SymValue::poison();
    v.text = "name '" + name + "' is not defined: the loop at line " + std::to_string(stmt.range.begin.line) +
             " runs zero times";
    bind(name, v);
  };
  unbound(indexName);
  for (const std::string& name : scan.assigned) unbound(name);
}

namespace {

bool mentions(const Expr& e, const std::set<std::string>& names) {
  if (e.kind == ExprKind::Name && names.count(e.text)) return true;
  for (const auto& c : e.children) {
    if (c && mentions(*c, names)) return true;
  }
  for (const auto& k : e.keywords) {
    if (k.value && mentions(*k.value, names)) return true;
  }
  return false;
}

// A range() whose bounds, or a slice whose length, change with one of `names`.
bool shapeChangesWith(const Expr& e, const std::set<std::string>& names) {
  if (e.kind == ExprKind::Slice) {
    const bool lower = e.children[0] && mentions(*e.children[0], names);
    const bool upper = e.children[1] && mentions(*e.children[1], names);
    if (lower != upper) return true;
  }
  for (const auto& c : e.children) {
    if (c && shapeChangesWith(*c, names)) return true;
  }
  for (const auto& k : e.keywords) {
    if (k.value && shapeChangesWith(*k.value, names)) return true;
  }
  return false;
}

}  // namespace

// Textbook triangular loops (for j in range(i), L[i, :i] @ x[:i]) give each trip of the loop its own
// trip counts and slice lengths: the loop is unrolled so that its index is a compile-time integer.
// Names assigned from expressions of the index (k = i + 1) count as the index.
bool Analyzer::indexSetsShapes(const std::vector<StmtPtr>& body, const std::string& index) {
  std::set<std::string> derived{index};
  bool found = false;
  std::function<void(const Stmt&)> visit = [&](const Stmt& s) {
    if (found) return;
    if (s.kind == StmtKind::Assign && s.value && mentions(*s.value, derived)) {
      for (const auto& t : s.targets) {
        if (t->kind == ExprKind::Name) derived.insert(t->text);
      }
    }
    if (s.kind == StmtKind::For && s.value && s.value->kind == ExprKind::Call &&
        s.value->children[0]->kind == ExprKind::Name && s.value->children[0]->text == "range") {
      for (size_t i = 1; i < s.value->children.size(); ++i) found = found || mentions(*s.value->children[i], derived);
    }
    for (const auto& t : s.targets) found = found || shapeChangesWith(*t, derived);
    if (s.value) found = found || shapeChangesWith(*s.value, derived);
    for (const auto& b : s.body) visit(*b);
    for (const auto& b : s.orelse) visit(*b);
  };
  for (int pass = 0; pass < 2 && !found; ++pass) {  // the second pass sees names derived later in the body
    for (const auto& s : body) visit(*s);
  }
  return found;
}

// A body that updates compile-time Python values (counters, shape arithmetic) is compile-time work:
// it is unrolled. Loops over arrays are kept as loops.
bool Analyzer::updatesCompileTimeValues(const BodyScan& scan) {
  for (const std::string& name : scan.assigned) {
    const SymValue* v = lookup(name);
    if (v && (v->isScalarConstant() || isComplexConstant(*v) || v->kind == SymKind::Tuple || v->kind == SymKind::String)) {
      return true;
    }
  }
  return false;
}

Analyzer::Flow Analyzer::iterateArray(const Stmt& stmt, const SymValue& array) {
  const Expr& target = *stmt.targets[0];
  const SourceRange& range = stmt.value->range;
  if (target.kind != ExprKind::Name) {
    fail(target.range, "the target of a loop over an array must be a single name; index the row inside the loop");
  }
  const TensorType& type = builder_.type(arrayValue(array, range));
  if (type.rank() < 1) fail(range, "iteration over a 0-d array");
  if (!type.shape[0].isKnown()) {
    fail(range, "a loop over an array needs a known first dimension; give the input a fixed shape with --input");
  }
  // names no program can spell: the iterated array (unless it has a name) and the row index
  const std::string arrayName = stmt.value->kind == ExprKind::Name ? stmt.value->text : "iterated array";
  const std::string indexName = "index of " + target.text;
  if (stmt.value->kind != ExprKind::Name) bind(arrayName, array);
  auto name = [](const std::string& text, const SourceRange& where) {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::Name;
    e->text = text;
    e->range = where;
    return e;
  };
  Stmt prologue;  // target = array[index]
  prologue.kind = StmtKind::Assign;
  prologue.range = stmt.range;
  prologue.targets.push_back(name(target.text, target.range));
  prologue.value = std::make_unique<Expr>();
  prologue.value->kind = ExprKind::Subscript;
  prologue.value->range = range;
  prologue.value->children.push_back(name(arrayName, range));
  prologue.value->children.push_back(name(indexName, range));
  BodyScan scan = scanBody(stmt.body);
  if (std::find(scan.written.begin(), scan.written.end(), target.text) != scan.written.end()) {
    fail(target.range, "'" + target.text + "' is a row of the array the loop goes over; writing into it is not supported",
         {note(SourceRange{}, "loop over range(n) and assign through the array: a[i, ...] = ...")});
  }
  std::set<const Stmt*> visiting;
  scanStmt(prologue, scan, visiting);
  const int64_t rows = type.shape[0].extent;
  if (!updatesCompileTimeValues(scan)) {
    buildKeptLoop(stmt, 0, rows, 1, scan, indexName, &prologue);
    return Flow::Normal;
  }
  if (rows > kMaxUnrolledIterations) {
    fail(stmt.range, "this loop updates compile-time values and would be unrolled " + std::to_string(rows) +
                         " times (limit " + std::to_string(kMaxUnrolledIterations) + ")");
  }
  for (int64_t k = 0; k < rows; ++k) {
    countUnrolledBody(stmt);
    const int errorsBefore = diags_.errorCount();
    bind(indexName, SymValue::ofInt(k));
    execStmt(prologue);
    const Flow flow = execBlock(stmt.body);
    if (flow == Flow::Return) return flow;
    if (flow == Flow::Break) break;
    if (diags_.errorCount() > errorsBefore) break;  // the next rows would repeat the errors
  }
  return Flow::Normal;
}

std::map<std::string, SymValue> Analyzer::carryPythonNumbers(const Stmt& stmt, const BodyScan& scan) {
  std::map<std::string, SymValue> carried;
  for (const std::string& name : scan.assigned) {
    const SymValue* v = lookup(name);
    if (!v) continue;
    if (v->kind == SymKind::Tuple || v->kind == SymKind::String) {
      fail(stmt.range, "this while loop on array data updates '" + name + "', " +
                           (v->kind == SymKind::Tuple ? std::string("a list or tuple") : describeKind(*v)) +
                           "; its trips are decided at run time, so it can update arrays and numbers only",
           {note(stmt.value->range, "the condition depends on array data; grow no list in the loop: write rows of an "
                                    "array allocated before it with as many rows as the loop can need")});
    }
    if (isComplexConstant(*v)) {  // a Python complex: 0-d float64 planes
      SymValue re = fresh(builder_.constant(DType::Float64, {v->items[0].number()}, {}, v->range), v->range);
      SymValue im = fresh(builder_.constant(DType::Float64, {v->items[1].number()}, {}, v->range), v->range);
      re.weak = im.weak = registry::ScalarKind::Float;  // promotes as the Python complex it was
      carried[name] = *v;
      bind(name, complexOf(re, im, v->range));
      continue;
    }
    if (!v->isScalarConstant()) continue;
    const DType dtype = v->kind == SymKind::Int ? DType::Int64 : v->kind == SymKind::Float ? DType::Float64 : DType::Bool;
    SymValue number = fresh(builder_.constant(dtype, {v->number()}, {}, v->range), v->range);
    number.weak = v->kind == SymKind::Int ? registry::ScalarKind::Int
                  : v->kind == SymKind::Float ? registry::ScalarKind::Float : registry::ScalarKind::Bool;
    carried[name] = *v;
    bind(name, number);
  }
  return carried;
}

ValueId Analyzer::whileCondition(const SymValue& test, const SourceRange& range) {
  if (test.kind != SymKind::Tensor && test.kind != SymKind::LoopIndex && !test.isScalarConstant()) {
    fail(range, "a while condition on array data must be an array or a number, found " + describeKind(test));
  }
  ValueId value = tensorOf(test, DType::Bool, range);
  const TensorType& type = builder_.type(value);
  if (!graph::isStaticShape(type.shape) || graph::elementCount(type.shape) != 1) {
    fail(range, "the truth value of an array with more than one element is ambiguous (this one is " + type.str() +
                    "); use a.any() or a.all()");
  }
  if (type.rank() != 0) value = builder_.addNode("Reshape", {value}, {{"shape", std::vector<int64_t>{}}}, range);
  return builder_.cast(value, DType::Bool, range);
}

void Analyzer::buildKeptLoop(const Stmt& stmt, int64_t start, int64_t stop, int64_t step, const BodyScan& scan,
                             const std::string& indexName, const Stmt* prologue, const SymValue* whileTest) {
  const int64_t trips = registry::sliceLength(start, stop, step);
  const SourceRange& indexRange = stmt.targets.empty() ? stmt.range : stmt.targets[0]->range;
  const std::map<std::string, SymValue> pythonNumbers = whileTest ? carryPythonNumbers(stmt, scan)
                                                                    : std::map<std::string, SymValue>{};
  std::set<std::string> boundBefore;
  for (const std::string& name : scan.assigned) {  // (a name an earlier kept loop left without a value is not)
    const SymValue* v = lookup(name);
    if (v && v->kind != SymKind::Poison) boundBefore.insert(name);
  }
  // Carried state: arrays written in place (through any name) and array names rebound. A name both
  // written in place and rebound (Z = step(Z), where step writes Z) is carried as a name when no other
  // name reaches its array: each trip starts from the name's value, whichever array that is.
  auto contains = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  // an enclosing loop's index the body rebinds (j = i before it, j = j + 1 in it): an int64 number
  for (const std::string& name : scan.assigned) {
    const SymValue* v = lookup(name);
    if (name == indexName || !v || v->kind != SymKind::LoopIndex || !contains(scan.rebound, name)) continue;
    SymValue number = fresh(builder_.cast(indexValue(*v, v->range), DType::Int64, v->range), v->range);
    number.weak = registry::ScalarKind::Int;
    bind(name, number);
  }
  // Why the array `name` refers to is reachable otherwise ("" when it is not).
  auto sharedWith = [&](const std::string& name) -> std::string {
    const SymValue* v = lookup(name);
    if (!v || v->kind != SymKind::Tensor) return "";
    const std::shared_ptr<ArrayStorage> root = v->view ? v->view->root : v->storage;
    for (const Frame& frame : frames_) {
      for (const auto& [other, w] : frame.locals) {
        if (other != name && w.kind == SymKind::Tensor && (w.view ? w.view->root : w.storage) == root) {
          return "its array is also '" + other + "'";
        }
      }
    }
    return v->view ? "it is a view of another array" : "";
  };
  std::set<std::string> carriedByName;
  for (const std::string& name : scan.written) {
    if (contains(scan.rebound, name) && sharedWith(name).empty()) carriedByName.insert(name);
  }
  std::vector<std::shared_ptr<ArrayStorage>> carriedStorage;
  std::vector<std::string> carriedNames;
  std::vector<int> carriedPlanes;  // per carried name: -1 the whole value, 0 and 1 a complex value's planes
  for (const std::string& name : scan.written) {
    const SymValue* v = lookup(name);
    if (v && v->kind == SymKind::Complex && !isComplexConstant(*v)) {  // both planes
      for (const SymValue& plane : v->items) {
        std::shared_ptr<ArrayStorage> root = plane.view ? plane.view->root : plane.storage;
        if (root && std::find(carriedStorage.begin(), carriedStorage.end(), root) == carriedStorage.end()) {
          carriedStorage.push_back(root);
        }
      }
      continue;
    }
    if (!v || v->kind != SymKind::Tensor || v->weak || carriedByName.count(name)) continue;
    std::shared_ptr<ArrayStorage> root = v->view ? v->view->root : v->storage;
    if (root && std::find(carriedStorage.begin(), carriedStorage.end(), root) == carriedStorage.end()) {
      carriedStorage.push_back(root);
    }
  }
  for (const std::string& name : scan.assigned) {
    const SymValue* v = lookup(name);
    if (v && v->kind == SymKind::Complex && !isComplexConstant(*v) && contains(scan.rebound, name)) {
      if (contains(scan.written, name)) {
        fail(stmt.range, "the complex array '" + name + "' is both updated in place and reassigned in this loop, which "
                         "pyasc keeps as a loop; use one form (" + name + "[...] = ... or " + name + " = ...)");
      }
      for (int plane : {0, 1}) {  // carried as its two planes
        carriedNames.push_back(name);
        carriedPlanes.push_back(plane);
      }
      continue;
    }
    if (!v || v->kind != SymKind::Tensor) continue;
    const bool inPlace = contains(scan.written, name) && !v->weak && !carriedByName.count(name);
    const bool rebound = contains(scan.rebound, name);
    if (inPlace && rebound) {
      fail(stmt.range, "'" + name + "' is both updated in place and reassigned in this loop, which pyasc keeps as a "
                       "loop, and " + sharedWith(name) + "; use one form (" + name + "[...] = ... or " + name + " = ...)");
    }
    if (!inPlace) {
      carriedNames.push_back(name);
      carriedPlanes.push_back(-1);
    }
  }
  // A carried name's value (or plane) now; a real value's imaginary plane is zeros.
  auto slotValue = [&](size_t i) -> SymValue {
    const SymValue* v = lookup(carriedNames[i]);
    if (!v || carriedPlanes[i] < 0) return v ? *v : SymValue::poison();
    if (v->kind != SymKind::Complex) {
      fail(stmt.range, "'" + carriedNames[i] + "' is a complex array before this loop and " + describeKind(*v) +
                           " at the end of its body; a loop kept as a loop carries it with one dtype (make it "
                           "complex in the body too)");
    }
    return v->items[static_cast<size_t>(carriedPlanes[i])];
  };
  // Binds the carried names to `values` (one per carried name; a complex name's two planes in turn).
  auto bindCarried = [&](const std::vector<ValueId>& values) {
    for (size_t i = 0; i < carriedNames.size(); ++i) {
      const SymValue* before = lookup(carriedNames[i]);
      SymValue rebound = fresh(values[i], before->range);
      if (carriedPlanes[i] < 0) {
        rebound.weak = before->weak;
        bind(carriedNames[i], rebound);
      } else if (carriedPlanes[i] == 1) {
        bind(carriedNames[i], complexOf(fresh(values[i - 1], before->range), rebound, before->range));
      }
    }
  };
  // Every array reachable before the loop, to catch updates the scan could not see.
  std::vector<std::pair<std::shared_ptr<ArrayStorage>, ValueId>> snapshot;
  for (const Frame& frame : frames_) {
    for (const auto& entry : frame.locals) {
      if (entry.second.kind == SymKind::Tensor && entry.second.storage) {
        snapshot.emplace_back(entry.second.storage, entry.second.storage->current);
      }
    }
  }

  std::vector<ValueId> initial;
  for (const auto& s : carriedStorage) initial.push_back(s->current);
  for (size_t i = 0; i < carriedNames.size(); ++i) initial.push_back(arrayValue(slotValue(i), stmt.range));
  const ValueId firstTest = whileTest ? whileCondition(*whileTest, stmt.value->range) : ValueId{};

  builder_.openRegion();
  std::vector<ValueId> arguments;
  const ValueId index = builder_.newValue(indexName, TensorType{DType::Int32, {}, graph::Layout::ND, true}, indexRange);
  arguments.push_back(index);
  std::vector<std::string> storageNames;
  for (const auto& s : carriedStorage) {
    const std::string name = nameOfStorage(s);
    storageNames.push_back(name.empty() ? builder_.graph().value(s->current).name : name);
  }
  for (size_t i = 0; i < carriedStorage.size(); ++i) {
    const ValueId arg = builder_.newValue(storageNames[i], builder_.type(initial[i]), stmt.range);
    arguments.push_back(arg);
    carriedStorage[i]->current = arg;
    ++carriedStorage[i]->version;
  }
  std::vector<ValueId> nameArguments;
  for (size_t i = 0; i < carriedNames.size(); ++i) {
    const ValueId init = initial[carriedStorage.size() + i];
    nameArguments.push_back(builder_.newValue(carriedNames[i], builder_.type(init), stmt.range));
    arguments.push_back(nameArguments.back());
  }
  bindCarried(nameArguments);
  const SymValue* previousIndex = lookup(indexName);
  const std::optional<SymValue> indexBefore = previousIndex ? std::optional<SymValue>(*previousIndex) : std::nullopt;
  SymValue indexValue = SymValue::make(SymKind::LoopIndex);
  indexValue.indexVar = index;
  indexValue.text = indexName;
  indexValue.minIndex = trips > 0 ? std::min(start, start + (trips - 1) * step) : start;
  indexValue.maxIndex = trips > 0 ? std::max(start, start + (trips - 1) * step) : start;
  indexValue.range = indexRange;
  bind(indexName, indexValue);

  ++keptLoopDepth_;
  try {
    if (prologue) execStmt(*prologue);
    execBlock(stmt.body);
  } catch (...) {
    --keptLoopDepth_;
    builder_.closeRegion();
    throw;
  }
  --keptLoopDepth_;

  std::vector<ValueId> yields;
  for (const auto& s : carriedStorage) yields.push_back(s->current);
  for (size_t i = 0; i < carriedNames.size(); ++i) {  // (a number or a loop index the body binds: as the carried dtype)
    const SymValue v = slotValue(i);
    const DType carried = builder_.type(initial[yields.size()]).dtype;
    if (v.isScalarConstant() || v.kind == SymKind::LoopIndex) {
      yields.push_back(builder_.cast(tensorOf(v, carried, stmt.range), carried, stmt.range));
      continue;
    }
    if (v.kind != SymKind::Tensor) {
      fail(stmt.range, "'" + carriedNames[i] + "' is an array before this loop and " + describeKind(v) +
                           " at the end of its body; a loop kept as a loop carries arrays and numbers only");
    }
    yields.push_back(arrayValue(v, stmt.range));
  }
  // Arrays first bound in the body keep their last trip's value after the loop, as in Python: loop
  // outputs whose first value, never read, is a fill of their type (views excepted: their array
  // changes after the loop).
  std::vector<std::string> lastTripNames;
  for (const std::string& name : scan.assigned) {
    const SymValue* v = lookup(name);
    if (whileTest || trips == 0 || boundBefore.count(name) || !v || v->kind != SymKind::Tensor || v->untyped || v->view) {
      continue;
    }
    const ValueId last = arrayValue(*v, stmt.range);
    if (!graph::isStaticShape(builder_.type(last).shape)) continue;
    lastTripNames.push_back(name);
    yields.push_back(last);
  }
  if (whileTest) yields.push_back(whileCondition(eval(*stmt.value), stmt.value->range));  // the next trip's
  graph::Region body = builder_.closeRegion();
  for (const std::string& name : lastTripNames) {
    const TensorType type = builder_.type(yields[initial.size()]);
    std::vector<int64_t> shape;
    for (const graph::Dim& d : type.shape) shape.push_back(d.extent);
    initial.push_back(builder_.addNode("Fill", {}, {{"shape", shape}, {"value", 0.0}, {"dtype", std::string(dtypeName(type.dtype))}},
                                       stmt.range));
    arguments.push_back(builder_.newValue(name, type, stmt.range));
  }
  std::vector<std::string> slotNames = storageNames;
  for (size_t i = 0; i < carriedNames.size(); ++i) {
    slotNames.push_back(carriedPlanes[i] < 0 ? carriedNames[i] : carriedNames[i] + (carriedPlanes[i] ? ".imag" : ".real"));
  }
  slotNames.insert(slotNames.end(), lastTripNames.begin(), lastTripNames.end());
  if (whileTest) {
    initial.push_back(firstTest);
    arguments.push_back(builder_.newValue("while condition", builder_.type(firstTest), stmt.value->range));
    slotNames.push_back("while condition");
  }
  for (size_t i = 0; i < yields.size(); ++i) {
    const TensorType& before = builder_.type(initial[i]);
    const TensorType& after = builder_.type(yields[i]);
    if (before != after) {
      const std::string& name = slotNames[i];
      if (auto number = pythonNumbers.find(name); number != pythonNumbers.end()) {
        fail(stmt.range, "'" + name + "' is " + describeKind(number->second) + " before this while loop on array data and " +
                             after.str() + " inside it; the loop carries it with one dtype",
             {note(number->second.range, isFloat(after.dtype) && number->second.kind != SymKind::Float
                                             ? "start it as a float (" + name + " = 0.0)"
                                                              : "give it the loop's dtype before the loop (" + name +
                                                                    " = np." + dtypeName(after.dtype) + "(...))")});
      }
      fail(stmt.range, "'" + name + "' changes from " + before.str() + " to " + after.str() +
                           " inside the loop; arrays updated by a loop must keep their dtype and shape",
           {note(stmt.range, "pyasc keeps range loops as loops; cast the new value (.astype) or allocate the "
                             "array with its final dtype and shape before the loop")});
    }
  }
  body.arguments = arguments;
  body.yields = yields;

  graph::Node loop;
  loop.op = graph::kLoopOp;
  loop.inputs = initial;
  loop.attrs = {{"start", start}, {"stop", stop}, {"step", step}};
  if (whileTest) loop.attrs.push_back({"while", true});
  for (const Pragma& p : stmt.pragmas) {
    if (p.name != "parallelize") continue;
    int64_t factor = 0;
    for (const auto& arg : p.args) {
      if (arg.first == "factor") factor = std::atoll(arg.second.c_str());
    }
    if (factor <= 0) fail(p.range, "pragma 'parallelize' needs factor=N with N > 0");
    loop.attrs.push_back({"parallel_factor", factor});
  }
  loop.loc = stmt.range.begin;
  loop.regions.push_back(std::move(body));
  for (size_t i = 0; i < initial.size(); ++i) loop.outputs.push_back(builder_.newValue(slotNames[i], builder_.type(initial[i]), stmt.range));
  const std::vector<ValueId> outputs = loop.outputs;
  builder_.appendNode(std::move(loop));

  for (size_t i = 0; i < carriedStorage.size(); ++i) {
    carriedStorage[i]->current = outputs[i];
    ++carriedStorage[i]->version;
  }
  bindCarried(std::vector<ValueId>(outputs.begin() + static_cast<std::ptrdiff_t>(carriedStorage.size()),
                                   outputs.begin() + static_cast<std::ptrdiff_t>(carriedStorage.size() + carriedNames.size())));
  for (size_t i = 0; i < lastTripNames.size(); ++i) {
    const SymValue* inBody = lookup(lastTripNames[i]);
    SymValue after = fresh(outputs[carriedStorage.size() + carriedNames.size() + i], inBody->range);
    after.weak = inBody->weak;
    bind(lastTripNames[i], after);
  }
  for (const auto& entry : snapshot) {
    const bool carried = std::find(carriedStorage.begin(), carriedStorage.end(), entry.first) != carriedStorage.end();
    if (!carried && entry.first->current != entry.second) {
      fail(stmt.range, "an array is updated inside this loop through a name pyasc cannot follow; update it "
                       "directly (a[...] = ...) in the loop body");
    }
  }
  // Other names first assigned in the body have no value after a loop kept as a loop.
  for (const std::string& name : scan.assigned) {
    SymValue* v = lookup(name);
    if (!v || boundBefore.count(name) || contains(lastTripNames, name)) continue;
    if (v->kind == SymKind::LoopIndex && v->indexVar == index && trips > 0) {  // k = 2 * i + 1: its last value
      bind(name, SymValue::ofInt(v->scale * (start + (trips - 1) * step) + v->offset));
      continue;
    }
    if (v->kind == SymKind::Tensor || v->kind == SymKind::LoopIndex || v->kind == SymKind::Complex) {
      SymValue gone = SymValue::poison();
      gone.text = whileTest ? "'" + name + "' is assigned inside the while loop on array data at line " +
                                  std::to_string(stmt.range.begin.line) + ", whose trips are decided at run time, so it "
                                  "has no value after it; assign it before the loop"
                  : trips == 0 ? "name '" + name + "' is not defined: the loop at line " +
                                   std::to_string(stmt.range.begin.line) + " that assigns it runs zero times"
                             : "'" + name + "' is assigned inside the loop at line " + std::to_string(stmt.range.begin.line) +
                                   ", which pyasc keeps as a loop, so it has no value after it; assign it before the loop";
      bind(name, gone);
    }
  }
  // As in Python, the index keeps its last value, or its earlier binding after zero iterations (a
  // while loop's trip counter is no Python name).
  if (whileTest) {
    bind(indexName, SymValue::poison());
  } else if (trips > 0) {
    bind(indexName, SymValue::ofInt(start + (trips - 1) * step));
  } else if (indexBefore) {
    bind(indexName, *indexBefore);
  } else {
    SymValue unbound = SymValue::poison();
    unbound.text = "name '" + indexName + "' is not defined: the loop at line " + std::to_string(stmt.range.begin.line) +
                   " runs zero times";
    bind(indexName, unbound);
  }
}

// ---- body scan

std::string Analyzer::rootName(const Expr& expr) {
  if (expr.kind == ExprKind::Name) return expr.text;
  if (expr.kind == ExprKind::Subscript) return rootName(*expr.children[0]);
  if (expr.kind == ExprKind::Attribute && (expr.text == "real" || expr.text == "imag")) return rootName(*expr.children[0]);
  return "";
}

Analyzer::BodyScan Analyzer::scanBody(const std::vector<StmtPtr>& body) {
  BodyScan scan;
  std::set<const Stmt*> visiting;
  for (const auto& s : body) scanStmt(*s, scan, visiting);
  return scan;
}

namespace {
void addUnique(std::vector<std::string>& list, const std::string& name) {
  if (!name.empty() && std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}
}  // namespace

void Analyzer::BodyScan::markWritten(std::string name) {
  for (size_t hops = 0; hops <= views.size() && !name.empty(); ++hops) {
    addUnique(written, name);
    auto it = views.find(name);
    if (it == views.end()) break;
    name = it->second;
  }
}

void Analyzer::scanStmt(const Stmt& stmt, BodyScan& scan, std::set<const Stmt*>& visiting) {
  std::function<void(const Expr&)> target = [&](const Expr& t) {
    if (t.kind == ExprKind::Name) {
      addUnique(scan.assigned, t.text);
      if (stmt.kind != StmtKind::AugAssign) addUnique(scan.rebound, t.text);
    }
    if (t.kind == ExprKind::Subscript) {
      scan.markWritten(rootName(t));
      scanExpr(t, scan, visiting);
    }
    if (t.kind == ExprKind::Tuple || t.kind == ExprKind::List) {
      for (const auto& c : t.children) target(*c);
    }
  };
  switch (stmt.kind) {
    case StmtKind::Assign:
    case StmtKind::AnnAssign:
      for (const auto& t : stmt.targets) target(*t);
      if (stmt.targets.size() == 1 && stmt.targets[0]->kind == ExprKind::Name && stmt.value &&
          (stmt.value->kind == ExprKind::Subscript || stmt.value->kind == ExprKind::Name)) {
        if (readsElement(*stmt.value)) {
          scan.elements.insert(stmt.targets[0]->text);
        } else {
          scan.views[stmt.targets[0]->text] = rootName(*stmt.value);
          scan.elements.erase(stmt.targets[0]->text);
        }
      }
      break;
    case StmtKind::AugAssign:
      target(*stmt.targets[0]);
      if (stmt.targets[0]->kind == ExprKind::Name && scan.elements.count(stmt.targets[0]->text)) {
        addUnique(scan.rebound, stmt.targets[0]->text);  // w -= x on a scalar makes a new w
        break;
      }
      scan.markWritten(rootName(*stmt.targets[0]));
      break;
    case StmtKind::For: target(*stmt.targets[0]); break;
    case StmtKind::FunctionDef: addUnique(scan.assigned, stmt.text); break;
    case StmtKind::Import:
    case StmtKind::ImportFrom:
      for (const auto& n : stmt.names) addUnique(scan.assigned, n.alias.empty() ? n.name : n.alias);
      break;
    default: break;
  }
  if (stmt.kind == StmtKind::Expr && stmt.value && stmt.value->kind == ExprKind::Call) {  // xs.append(v)
    const Expr& callee = *stmt.value->children[0];
    if (callee.kind == ExprKind::Attribute && (callee.text == "append" || callee.text == "extend") &&
        callee.children[0]->kind == ExprKind::Name) {
      addUnique(scan.assigned, callee.children[0]->text);
    }
  }
  if (stmt.value) scanExpr(*stmt.value, scan, visiting);
  for (const auto& s : stmt.body) scanStmt(*s, scan, visiting);
  for (const auto& s : stmt.orelse) scanStmt(*s, scan, visiting);
}

bool Analyzer::readsElement(const Expr& value) {
  if (value.kind != ExprKind::Subscript || value.children[0]->kind != ExprKind::Name) return false;
  const SymValue* base = lookup(value.children[0]->text);
  if (!base || base->kind != SymKind::Tensor || base->untyped || base->weak) return false;
  const graph::TensorType& type = builder_.type(arrayValue(*base, value.range));
  const std::vector<const Expr*> items = indexItems(*value.children[1]);
  if (!type.ranked || static_cast<int>(items.size()) != type.rank()) return false;
  for (const Expr* item : items) {
    if (item->kind == ExprKind::Int) continue;
    if (item->kind == ExprKind::BinOp || item->kind == ExprKind::UnaryOp) continue;  // i + 1, -1: integers or errors
    if (item->kind != ExprKind::Name) return false;
    const SymValue* v = lookup(item->text);
    if (!v || !(v->kind == SymKind::Int || v->kind == SymKind::LoopIndex)) return false;
  }
  return true;
}

void Analyzer::scanExpr(const Expr& expr, BodyScan& scan, std::set<const Stmt*>& visiting) {
  if (expr.kind == ExprKind::Call && expr.children[0]->kind == ExprKind::Name) {
    const SymValue* callee = lookup(expr.children[0]->text);
    if (callee && callee->kind == SymKind::Function) {
      const std::vector<std::string> params = writtenParams(*callee->function, visiting);
      const auto& declared = callee->function->params;
      for (size_t i = 1; i < expr.children.size(); ++i) {
        if (i - 1 < declared.size() &&
            std::find(params.begin(), params.end(), declared[i - 1].name) != params.end()) {
          scan.markWritten(rootName(*expr.children[i]));
        }
      }
      for (const auto& k : expr.keywords) {
        if (std::find(params.begin(), params.end(), k.name) != params.end()) scan.markWritten(rootName(*k.value));
      }
    }
  }
  for (const auto& c : expr.children) {
    if (c) scanExpr(*c, scan, visiting);
  }
  for (const auto& k : expr.keywords) scanExpr(*k.value, scan, visiting);
}

std::vector<std::string> Analyzer::writtenParams(const Stmt& function, std::set<const Stmt*>& visiting) {
  if (!visiting.insert(&function).second) return {};
  BodyScan inner;
  for (const auto& s : function.body) scanStmt(*s, inner, visiting);
  visiting.erase(&function);
  std::vector<std::string> params;
  for (const Param& p : function.params) {
    if (std::find(inner.written.begin(), inner.written.end(), p.name) != inner.written.end()) params.push_back(p.name);
  }
  return params;
}

// ---- entry and outputs

SymValue Analyzer::parameterFromAnnotation(const Param& param, const Expr& annotation) {
  SymValue ann = eval(annotation);
  if (ann.kind == SymKind::Poison) return ann;
  if (ann.kind == SymKind::Builtin && (ann.text == "int" || ann.text == "float" || ann.text == "bool")) {
    const registry::ScalarKind kind = ann.text == "int"   ? registry::ScalarKind::Int
                                      : ann.text == "float" ? registry::ScalarKind::Float
                                                            : registry::ScalarKind::Bool;
    const DType dtype = kind == registry::ScalarKind::Int ? DType::Int32
                        : kind == registry::ScalarKind::Float ? DType::Float32
                                                              : DType::Bool;
    ValueId id = builder_.addInput(param.name, TensorType{dtype, {}, graph::Layout::ND, true}, graph::InputRole::Scalar,
                                   {}, param.range);
    SymValue v = fresh(id, param.range);
    v.weak = kind;
    return v;
  }
  if (ann.kind == SymKind::TensorType && ann.text.empty()) {
    fail(annotation.range, "Tensor needs a dtype: Tensor[float32] or Tensor[float32, 64, 128]");
  }
  if (ann.kind == SymKind::TensorType) {
    TensorType type{ann.dtype, {}, graph::Layout::ND, !ann.items.empty()};
    for (const SymValue& dim : ann.items) {
      if (dim.kind == SymKind::Int) type.shape.push_back(graph::Dim::known(dim.intValue));
      if (dim.kind == SymKind::String || dim.kind == SymKind::SymbolicDim) type.shape.push_back(graph::Dim::symbolic(dim.text));
    }
    ValueId id = builder_.addInput(param.name, type, graph::InputRole::Array, {}, param.range);
    return fresh(id, param.range);
  }
  fail(annotation.range, "unsupported parameter annotation; use Tensor[float32], Tensor[float32, 64, 128], int, "
                         "float or bool");
}

SymValue Analyzer::bindParameter(const Param& param) {
  for (const ConstSpec& c : options_.consts) {
    if (c.name != param.name) continue;
    return c.kind == ConstSpec::Kind::Int ? SymValue::ofInt(c.intValue)
           : c.kind == ConstSpec::Kind::Float ? SymValue::ofFloat(c.floatValue)
                                              : SymValue::ofBool(c.boolValue);
  }
  for (const InputSpec& in : options_.inputs) {
    if (in.name != param.name) continue;
    if (param.annotation) {
      const SymValue declared = eval(*param.annotation);
      const TensorType given{in.dtype, in.shape, graph::Layout::ND, true};
      bool conflict = declared.kind == SymKind::TensorType && !declared.text.empty() && declared.dtype != in.dtype;
      if (declared.kind == SymKind::TensorType && !declared.items.empty()) {
        conflict |= declared.items.size() != in.shape.size();
        for (size_t i = 0; !conflict && i < declared.items.size(); ++i) {
          conflict |= declared.items[i].kind == SymKind::Int && in.shape[i] != graph::Dim::known(declared.items[i].intValue);
        }
      }
      if (conflict) {
        fail(param.annotation->range, "--input=" + in.text + " gives " + given.str() +
                                          ", which contradicts the annotation of '" + param.name + "'");
      }
    }
    ValueId id = builder_.addInput(param.name, TensorType{in.dtype, in.shape, graph::Layout::ND, true},
                                   in.shape.empty() ? graph::InputRole::Scalar : graph::InputRole::Array, {}, param.range);
    return fresh(id, param.range);
  }
  if (param.annotation) return parameterFromAnnotation(param, *param.annotation);
  if (param.defaultValue) return eval(*param.defaultValue);
  SymValue untyped = SymValue::make(SymKind::Tensor);
  untyped.untyped = true;
  untyped.paramName = param.name;
  untyped.range = param.range;
  return untyped;
}

void Analyzer::runEntry(const Module& module) {
  const SymValue* entry = lookup(options_.entry);
  const SourceRange fileOnly{SourceLocation{module.file, 0, 0}, 1};
  if (!entry || entry->kind != SymKind::Function) {
    std::vector<std::string> functions;
    for (const auto& entryName : frames_.front().locals) {
      if (entryName.second.kind == SymKind::Function) functions.push_back(entryName.first);
    }
    const std::string guess = registry::closestName(options_.entry, functions);
    std::string message = "entry function '" + options_.entry + "' is not defined in " + module.file;
    if (!guess.empty()) message += "; did you mean '" + guess + "'?";
    diags_.error(fileOnly, message);
    return;
  }
  const Stmt& function = *entry->function;
  for (const InputSpec& in : options_.inputs) {
    const bool known = std::any_of(function.params.begin(), function.params.end(),
                                   [&](const Param& p) { return p.name == in.name; });
    if (!known) {
      diags_.error(fileOnly, "--input=" + in.text + " names '" + in.name + "', but function '" + function.text +
                                 "' has no parameter '" + in.name + "'");
    }
  }
  for (const ConstSpec& c : options_.consts) {
    const bool known = std::any_of(function.params.begin(), function.params.end(),
                                   [&](const Param& p) { return p.name == c.name; });
    if (!known) {
      diags_.error(fileOnly, "--const=" + c.text + " names '" + c.name + "', but function '" + function.text +
                                 "' has no parameter '" + c.name + "'");
    }
  }
  if (diags_.hasErrors()) return;
  CallArgs args;
  args.range = function.range;
  args.calleeText = function.text;
  std::vector<std::pair<std::string, SymValue>> params;
  try {
    for (const Param& p : function.params) {
      SymValue v = bindParameter(p);
      params.emplace_back(p.name, v);
      Argument a;
      a.value = v;
      a.range = p.range;
      args.positional.push_back(a);
    }
  } catch (const CompileError& e) {
    report(e.diagnostic());
    return;
  }
  SymValue result;
  try {
    result = callFunction(function, args);
  } catch (const CompileError& e) {
    report(e.diagnostic());
    return;
  }
  if (function.annotation && result.kind == SymKind::Tensor && !result.untyped) {
    const SymValue declared = eval(*function.annotation);
    const DType got = builder_.type(arrayValue(result, function.range)).dtype;
    if (declared.kind == SymKind::TensorType && !declared.text.empty() &&
        builder_.deviceDType(declared.dtype, function.annotation->range) != got) {
      warn(function.annotation->range, "'" + function.text + "' is annotated to return Tensor[" +
                                           dtypeName(declared.dtype) + "] but returns Tensor[" + dtypeName(got) + "]");
    }
  }
  std::vector<SymValue> returned;
  if (result.kind == SymKind::Tuple) {
    returned = result.items;
  } else if (result.kind != SymKind::None) {
    returned.push_back(result);
  }
  for (size_t i = 0; i < returned.size(); ++i) {
    const SymValue& v = returned[i];
    if (v.kind == SymKind::Poison) continue;
    try {
      if (v.kind == SymKind::Selection) {
        fail(v.range, "'" + function.text + "' returns a boolean-mask selection, whose length depends on the data, "
                      "but a model's outputs have static shapes; return its count or a reduction of it, or keep the "
                      "shape with np.where(mask, a, 0)");
      }
      if (v.demotedFloat64) builder_.deviceDType(DType::Float64, v.range);
      if (v.kind == SymKind::Complex) {
        builder_.addOutput("out" + std::to_string(i), complexPairs(v, function.range));
        continue;
      }
      const ValueId id = tensorOf(v, v.kind == SymKind::Float ? DType::Float32 : DType::Int32, function.range);
      builder_.addOutput("out" + std::to_string(i), id);
    } catch (const CompileError& e) {
      report(e.diagnostic());
    }
  }
  for (const auto& p : params) {
    const SymValue& v = p.second;
    if (v.kind != SymKind::Tensor || v.untyped || !v.storage) continue;
    const graph::GraphInput* in = builder_.graph().findInput(v.storage->current);
    if (!in) builder_.addOutput(p.first, v.storage->current);
  }
}

void Analyzer::recordScriptOutputs() {
  const graph::Graph& g = builder_.graph();
  std::vector<bool> used(g.values.size(), false);
  std::function<void(const graph::Region&)> mark = [&](const graph::Region& region) {
    for (const auto& node : region.nodes) {
      if (node.outputs.size() == 1 && lastIterationReads_.count(node.outputs[0])) continue;
      for (ValueId in : node.inputs) used[static_cast<size_t>(in)] = true;
      for (const auto& r : node.regions) {
        mark(r);
        for (ValueId y : r.yields) used[static_cast<size_t>(y)] = true;
      }
    }
  };
  mark(g.body);
  std::vector<ValueId> emitted;
  const Frame& module = frames_.front();
  for (const std::string& name : module.order) {
    const SymValue& v = module.locals.at(name);
    if (v.kind == SymKind::Selection) {
      warn(v.range, "'" + name + "' is not an output: it is a boolean-mask selection, whose length depends on the data");
    }
    if (v.kind == SymKind::Complex && !isComplexConstant(v) && v.items[0].kind == SymKind::Tensor) {
      // a complex array: (real, imaginary) pairs, unless a later line reads either plane
      const ValueId re = arrayValue(v.items[0], v.range), im = arrayValue(v.items[1], v.range);
      const bool asked = std::find(options_.outputs.begin(), options_.outputs.end(), name) != options_.outputs.end();
      if (!asked && (used[static_cast<size_t>(re)] || used[static_cast<size_t>(im)])) continue;
      builder_.addOutput(name, complexPairs(v, v.range));
      continue;
    }
    if (v.kind != SymKind::Tensor || v.untyped || v.weak) continue;
    ValueId id;
    try {
      id = arrayValue(v, v.range);
    } catch (const CompileError& e) {
      report(e.diagnostic());
      continue;
    }
    const graph::GraphInput* input = g.findInput(id);
    const bool asked = std::find(options_.outputs.begin(), options_.outputs.end(), name) != options_.outputs.end();
    if (!asked && (used[static_cast<size_t>(id)] || (input && input->role != graph::InputRole::Random))) continue;
    if (v.demotedFloat64) builder_.deviceDType(DType::Float64, v.range);
    if (!asked && std::find(emitted.begin(), emitted.end(), id) != emitted.end()) continue;  // an alias
    emitted.push_back(id);
    builder_.addOutput(name, id);
  }
  for (const std::string& name : options_.outputs) {  // --output names that are no top-level array
    auto it = module.locals.find(name);
    if (it != module.locals.end() && ((it->second.kind == SymKind::Tensor && !it->second.untyped && !it->second.weak) ||
                                      (it->second.kind == SymKind::Complex && !isComplexConstant(it->second))))
      continue;
    std::string arrays;
    for (const std::string& n : module.order) {
      const SymValue& v = module.locals.at(n);
      if (v.kind == SymKind::Tensor && !v.untyped && !v.weak) arrays += (arrays.empty() ? "" : ", ") + n;
    }
    report(Diagnostic{Severity::Error, SourceRange{SourceLocation{"--output", 0, 0}, 0},
                      "'" + name + "' is not a top-level array of the script (" +
                          (arrays.empty() ? std::string("it has none") : "its arrays: " + arrays) + ")", {}});
  }
}

}  // namespace pyasc::frontend
