// Evaluates a TBE-style definition's body symbolically: tensors become TE expressions, Python
// numbers and attributes stay scalars, te.lang.cce calls map onto TE primitives.
#include "frontend/TbeDefinition.h"

#include <map>

#include "frontend/Parser.h"

namespace pyasc::frontend {

namespace {

using te::ExprPtr;
using te::Prim;

// A value of the definition: a tensor expression, or a compile-time number.
struct TbeValue {
  ExprPtr tensor;
  double number = 0;
};

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

class Evaluator {
 public:
  Evaluator(DType dtype, const SourceLocation& fallback) : dtype_(dtype), fallback_(fallback) {}

  std::map<std::string, TbeValue> env;

  ExprPtr run(const Stmt& fn) {
    for (const auto& s : fn.body) {
      switch (s->kind) {
        case StmtKind::Assign:
          if (s->targets.size() != 1 || s->targets[0]->kind != ExprKind::Name) {
            fail(s->range, "only assignments to one name are supported in an operator definition");
          }
          env[s->targets[0]->text] = eval(*s->value);
          break;
        case StmtKind::Return: {
          if (!s->value) fail(s->range, "an operator definition must return its result");
          return tensor(eval(*s->value), s->value->range);
        }
        case StmtKind::Expr:  // a docstring
        case StmtKind::Pass:
          break;
        default:
          fail(s->range, "only assignments and a return are supported in an operator definition");
      }
    }
    fail(fn.range, "operator definition '" + fn.text + "' has no return");
  }

 private:
  [[noreturn]] void fail(const SourceRange& range, const std::string& message) const {
    Diagnostic d;
    d.range = range.begin.valid() ? range : SourceRange{fallback_, 1};
    d.message = message;
    throw CompileError(d);
  }

  ExprPtr constant(double v) const { return te::constant(v, dtype_); }

  ExprPtr tensor(const TbeValue& v, const SourceRange& range) const { return v.tensor ? v.tensor : constant(v.number); }

  TbeValue eval(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Name: {
        auto it = env.find(e.text);
        if (it == env.end()) fail(e.range, "name '" + e.text + "' is not defined in the operator definition");
        return it->second;
      }
      case ExprKind::Int: return TbeValue{nullptr, static_cast<double>(e.intValue)};
      case ExprKind::Float: return TbeValue{nullptr, e.floatValue};
      case ExprKind::UnaryOp: {
        TbeValue v = eval(*e.children[0]);
        if (e.text == "+") return v;
        if (e.text != "-") fail(e.range, "operator '" + e.text + "' is not supported in an operator definition");
        return v.tensor ? TbeValue{te::withScalar(Prim::VMuls, v.tensor, -1)} : TbeValue{nullptr, -v.number};
      }
      case ExprKind::BinOp: return binary(e.text, eval(*e.children[0]), eval(*e.children[1]), e.range);
      case ExprKind::Call: return call(e);
      default: fail(e.range, "this expression is not supported in an operator definition; use te.lang.cce calls");
    }
  }

  TbeValue binary(const std::string& op, const TbeValue& a, const TbeValue& b, const SourceRange& range) {
    if (!a.tensor && !b.tensor) {
      if (op == "+") return TbeValue{nullptr, a.number + b.number};
      if (op == "-") return TbeValue{nullptr, a.number - b.number};
      if (op == "*") return TbeValue{nullptr, a.number * b.number};
      if (op == "/") return TbeValue{nullptr, a.number / b.number};
      fail(range, "operator '" + op + "' is not supported in an operator definition");
    }
    static const std::map<std::string, Prim> prims = {{"+", Prim::VAdd}, {"-", Prim::VSub}, {"*", Prim::VMul}, {"/", Prim::VDiv}};
    auto it = prims.find(op);
    if (it == prims.end()) fail(range, "operator '" + op + "' is not supported in an operator definition");
    return TbeValue{te::binary(it->second, tensor(a, range), tensor(b, range))};
  }

  TbeValue call(const Expr& e) {
    std::string name = dottedName(*e.children[0]);
    const std::string prefix = "te.lang.cce.";
    if (name.rfind(prefix, 0) != 0) {
      fail(e.range, "'" + (name.empty() ? std::string("this call") : name) +
                        "' is not supported in an operator definition; use te.lang.cce functions");
    }
    std::string fn = name.substr(prefix.size());
    std::vector<TbeValue> args;
    for (size_t i = 1; i < e.children.size(); ++i) args.push_back(eval(*e.children[i]));
    auto arity = [&](size_t n) {
      if (args.size() != n) {
        fail(e.range, name + " takes " + std::to_string(n) + " argument(s), got " + std::to_string(args.size()));
      }
    };
    static const std::map<std::string, Prim> binaryFns = {{"vadd", Prim::VAdd}, {"vsub", Prim::VSub}, {"vmul", Prim::VMul},
                                                          {"vdiv", Prim::VDiv}, {"vmax", Prim::VMax}, {"vmin", Prim::VMin}};
    static const std::map<std::string, Prim> scalarFns = {{"vadds", Prim::VAdds}, {"vmuls", Prim::VMuls},
                                                          {"vmaxs", Prim::VMaxs}, {"vmins", Prim::VMins},
                                                          {"vlrelu", Prim::VLRelu}};
    static const std::map<std::string, Prim> unaryFns = {{"vexp", Prim::VExp}, {"vlog", Prim::VLog}, {"vabs", Prim::VAbs},
                                                         {"vrec", Prim::VRec}, {"vsqrt", Prim::VSqrt},
                                                         {"vrsqrt", Prim::VRsqrt}, {"vrelu", Prim::VRelu}};
    if (auto it = binaryFns.find(fn); it != binaryFns.end()) {
      arity(2);
      return TbeValue{te::binary(it->second, tensor(args[0], e.range), tensor(args[1], e.range))};
    }
    if (auto it = scalarFns.find(fn); it != scalarFns.end()) {
      arity(2);
      if (!args[0].tensor || args[1].tensor) fail(e.range, name + " takes a tensor and a number");
      return TbeValue{te::withScalar(it->second, args[0].tensor, args[1].number)};
    }
    if (auto it = unaryFns.find(fn); it != unaryFns.end()) {
      arity(1);
      return TbeValue{te::unary(it->second, tensor(args[0], e.range))};
    }
    fail(e.range, name + " is not supported in custom operator definitions yet (supported: vadd vsub vmul vdiv vmax "
                         "vmin vadds vmuls vmaxs vmins vlrelu vexp vlog vabs vrec vsqrt vrsqrt vrelu)");
  }

  DType dtype_;
  SourceLocation fallback_;
};

// Binds the definition's parameters: inputs first, then attributes by name.
void bindParams(Evaluator& ev, const Stmt& fn, const registry::OpDescriptor& d, const std::vector<ExprPtr>& inputs,
                const graph::Node* node) {
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const Param& p = fn.params[i];
    if (i < inputs.size()) {
      ev.env[p.name] = TbeValue{inputs[i]};
      continue;
    }
    double value = 0;
    if (node && node->hasAttr(p.name)) {
      const graph::Attribute* a = node->attr(p.name);
      if (const auto* f = std::get_if<double>(a)) value = *f;
      if (const auto* n = std::get_if<int64_t>(a)) value = static_cast<double>(*n);
      if (const auto* b = std::get_if<bool>(a)) value = *b ? 1 : 0;
    } else if (p.defaultValue && p.defaultValue->kind == ExprKind::Float) {
      value = p.defaultValue->floatValue;
    } else if (p.defaultValue && p.defaultValue->kind == ExprKind::Int) {
      value = static_cast<double>(p.defaultValue->intValue);
    }
    ev.env[p.name] = TbeValue{nullptr, value};
  }
}

}  // namespace

std::shared_ptr<const registry::TeComputeImplementation> parseTbeDefinition(const std::string& file,
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
  SourceLocation where{file, fn->range.begin.line, fn->range.begin.col};
  registry::TeComputeImplementation::Build build = [module, fn, d, where](const std::vector<te::ExprPtr>& inputs,
                                                                         const graph::Node& node, DType dtype) {
    Evaluator ev(dtype, where);
    bindParams(ev, *fn, d, inputs, &node);
    return ev.run(*fn);
  };
  // evaluate once now, so that an unsupported construct is reported at compile time with its place
  try {
    std::vector<te::ExprPtr> probes;
    for (size_t i = 0; i < d.inputs.size(); ++i) probes.push_back(te::placeholder(static_cast<int>(i), DType::Float32));
    Evaluator ev(DType::Float32, where);
    bindParams(ev, *fn, d, probes, nullptr);
    ev.run(*fn);
  } catch (const CompileError& e) {
    diags.add(e.diagnostic());
    return nullptr;
  }
  return std::make_shared<registry::TeComputeImplementation>(std::move(build));
}

}  // namespace pyasc::frontend
