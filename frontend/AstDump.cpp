// Indented text dump of the AST for --emit=ast, one node per line with its line:col.
#include "frontend/Ast.h"

namespace pyasc::frontend {

namespace {

const char* exprKindName(ExprKind k) {
  static const char* const names[] = {"Name",  "Int",     "Float", "Imaginary", "Bool",    "None",  "String",
                                      "Attribute", "Call", "Subscript", "Slice", "BinOp", "UnaryOp",
                                      "Compare", "BoolOp", "IfExp", "Tuple", "List", "Ellipsis", "Starred", "Lambda",
                                      "ListComp", "Error"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<size_t>(ExprKind::Error) + 1, "a name per ExprKind");
  return names[static_cast<int>(k)];
}

const char* stmtKindName(StmtKind k) {
  static const char* const names[] = {"Expr", "Assign", "AugAssign", "AnnAssign", "For",  "While", "If",
                                      "FunctionDef", "Return", "Import", "ImportFrom", "Pass", "Break", "Continue"};
  return names[static_cast<int>(k)];
}

std::string where(const SourceRange& r) {
  return " @" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.col) + "+" + std::to_string(r.length);
}

class AstDumper {
 public:
  std::string dump(const Module& m) {
    out_ = "Module \"" + m.file + "\"\n";
    for (const auto& s : m.body) stmt(*s, 1);
    return out_;
  }

 private:
  void line(int indent, const std::string& text) { out_ += std::string(static_cast<size_t>(indent) * 2, ' ') + text + "\n"; }

  void expr(const Expr* e, int indent, const std::string& role = "") {
    const std::string prefix = role.empty() ? "" : role + ": ";
    if (!e) {
      line(indent, prefix + "<none>");
      return;
    }
    std::string head = prefix + exprKindName(e->kind);
    switch (e->kind) {
      case ExprKind::Name:
      case ExprKind::Attribute:
      case ExprKind::BinOp:
      case ExprKind::UnaryOp:
      case ExprKind::BoolOp: head += " " + e->text; break;
      case ExprKind::Int:
      case ExprKind::Float:
      case ExprKind::Imaginary: head += " " + e->text; break;
      case ExprKind::Bool: head += e->intValue ? " True" : " False"; break;
      case ExprKind::String: head += " \"" + e->text + "\""; break;
      case ExprKind::Compare:
        for (const auto& op : e->ops) head += " " + op;
        break;
      default: break;
    }
    line(indent, head + where(e->range));
    for (const auto& c : e->children) expr(c.get(), indent + 1);
    for (const auto& k : e->keywords) expr(k.value.get(), indent + 1, "keyword " + k.name);
  }

  void stmt(const Stmt& s, int indent) {
    for (const auto& p : s.pragmas) {
      std::string text = "Pragma " + p.name;
      for (const auto& a : p.args) text += " " + a.first + (a.second.empty() ? "" : "=" + a.second);
      line(indent, text + where(p.range));
    }
    std::string head = stmtKindName(s.kind);
    if (!s.text.empty()) head += " " + s.text;
    line(indent, head + where(s.range));
    for (const auto& d : s.decorators) expr(d.get(), indent + 1, "decorator");
    for (const auto& p : s.params) {
      line(indent + 1, "Param " + p.name + where(p.range));
      if (p.annotation) expr(p.annotation.get(), indent + 2, "annotation");
      if (p.defaultValue) expr(p.defaultValue.get(), indent + 2, "default");
    }
    for (const auto& n : s.names) line(indent + 1, "Alias " + n.name + (n.alias.empty() ? "" : " as " + n.alias) + where(n.range));
    for (const auto& t : s.targets) expr(t.get(), indent + 1, "target");
    if (s.annotation) expr(s.annotation.get(), indent + 1, "annotation");
    if (s.value) expr(s.value.get(), indent + 1, "value");
    for (const auto& b : s.body) stmt(*b, indent + 1);
    if (!s.orelse.empty()) {
      line(indent, "Else");
      for (const auto& b : s.orelse) stmt(*b, indent + 1);
    }
  }

  std::string out_;
};

}  // namespace

std::string dumpModule(const Module& module) { return AstDumper().dump(module); }

}  // namespace pyasc::frontend
