// The NumPy functions of frontend/numpy_prelude.py, parsed once.
#include "frontend/NumpyPrelude.h"

#include <map>

#include "frontend/Parser.h"
#include "sdk/graph/Graph.h"

namespace pyasc::frontend {

namespace {

struct Prelude {
  std::string source;
  Module module;
  std::map<std::string, const Stmt*> functions;  // by NumPy name
  std::map<std::string, const Stmt*> helpers;    // every function, by Python name
};

// The NumPy name of a prelude function: linalg_NAME is linalg.NAME, random_NAME random.NAME.
std::string numpyName(const std::string& python) {
  for (const char* module : {"linalg", "random"}) {
    const std::string prefix = std::string(module) + "_";
    if (python.rfind(prefix, 0) == 0) return std::string(module) + "." + python.substr(prefix.size());
  }
  return python;
}

const Prelude& prelude() {
  static const Prelude p = [] {
    Prelude built;
    built.source =
#include "frontend/NumpyPrelude.inc"
        ;
    DiagnosticEngine diags;
    diags.addSource("numpy_prelude.py", built.source);
    built.module = parseModule("numpy_prelude.py", built.source, diags);
    if (diags.hasErrors()) {
      diags.renderAll();
      throw std::logic_error("frontend/numpy_prelude.py does not parse");
    }
    for (const auto& stmt : built.module.body) {
      if (stmt->kind != StmtKind::FunctionDef) continue;
      built.helpers[stmt->text] = stmt.get();
      if (stmt->text.rfind('_', 0) == 0) continue;
      built.functions[numpyName(stmt->text)] = stmt.get();
    }
    return built;
  }();
  return p;
}

}  // namespace

const Stmt* numpyPreludeFunction(const std::string& name) {
  const auto& functions = prelude().functions;
  auto it = functions.find(name);
  return it == functions.end() ? nullptr : it->second;
}

const Stmt* numpyPreludeHelper(const std::string& name) {
  const auto& helpers = prelude().helpers;
  auto it = helpers.find(name);
  return it == helpers.end() ? nullptr : it->second;
}

std::vector<std::string> numpyPreludeNames() {
  std::vector<std::string> names;
  for (const auto& entry : prelude().functions) names.push_back(entry.first);
  return names;
}

const std::string& numpyPreludeSource() { return prelude().source; }

namespace {

std::string defaultText(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Int: return std::to_string(e.intValue);
    case ExprKind::Float: return graph::formatFloat(e.floatValue, DType::Float64);
    case ExprKind::String: return "'" + e.text + "'";
    case ExprKind::Bool: return e.intValue ? "True" : "False";
    case ExprKind::Name: return e.text;
    case ExprKind::None: return "None";
    default: return "...";
  }
}

}  // namespace

std::string numpyPreludeMarkdown() {
  std::string s = "\n## Functions written in Python (`frontend/numpy_prelude.py`)\n\n"
                  "These compile as helper functions of the program, from NumPy's own operations; their nodes, "
                  "warnings and errors are located at the call.\n\n| spelling | parameters | notes |\n|---|---|---|\n";
  for (const auto& stmt : prelude().module.body) {
    if (stmt->kind != StmtKind::FunctionDef || stmt->text.rfind('_', 0) == 0) continue;
    std::string name = numpyName(stmt->text);
    std::string params;
    for (const Param& p : stmt->params) {
      params += (params.empty() ? "" : ", ") + p.name + (p.defaultValue ? "=" + defaultText(*p.defaultValue) : "");
    }
    std::string note;
    if (!stmt->body.empty() && stmt->body[0]->kind == StmtKind::Expr && stmt->body[0]->value->kind == ExprKind::String) {
      note = stmt->body[0]->value->text;
    }
    s += "| `np." + name + "` | " + params + " | " + note + " |\n";
  }
  return s;
}

}  // namespace pyasc::frontend
