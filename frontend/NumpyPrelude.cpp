// The NumPy functions of frontend/numpy_prelude.py, parsed once.
#include "frontend/NumpyPrelude.h"

#include <map>

#include "frontend/Parser.h"

namespace pyasc::frontend {

namespace {

struct Prelude {
  std::string source;
  Module module;
  std::map<std::string, const Stmt*> functions;  // by NumPy name
};

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
      if (stmt->kind != StmtKind::FunctionDef || stmt->text.rfind('_', 0) == 0) continue;
      std::string name = stmt->text;
      if (name.rfind("linalg_", 0) == 0) name = "linalg." + name.substr(7);
      built.functions[name] = stmt.get();
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
  for (const auto& stmt : prelude().module.body) {
    if (stmt->kind == StmtKind::FunctionDef && stmt->text == name) return stmt.get();
  }
  return nullptr;
}

std::vector<std::string> numpyPreludeNames() {
  std::vector<std::string> names;
  for (const auto& entry : prelude().functions) names.push_back(entry.first);
  return names;
}

const std::string& numpyPreludeSource() { return prelude().source; }

}  // namespace pyasc::frontend
