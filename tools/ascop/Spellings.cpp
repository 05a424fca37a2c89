// Alias names rendered the way they are written in a program.
#include "tools/ascop/Spellings.h"

#include "registry/DescriptorRegistration.h"

namespace pyasc::ascop {

namespace {

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::string spelling(const registry::NumpyAlias& alias) {
  const std::string customPrefix = registry::customCallName("");
  switch (alias.form) {
    case registry::AliasForm::Operator:
      return startsWith(alias.name, "unary ") ? "'" + alias.name.substr(6) + "a'" : "'a " + alias.name + " b'";
    case registry::AliasForm::Method: return "a." + alias.name + "()";
    case registry::AliasForm::Function: break;
  }
  if (startsWith(alias.name, customPrefix)) return alias.name.substr(customPrefix.size());
  return (startsWith(alias.name, "nn.") ? "pyasc." : "np.") + alias.name;
}

}  // namespace

std::string spellingsOf(const registry::OpRegistry& registry, const std::string& opName) {
  std::string s;
  for (const registry::NumpyAlias* alias : registry.aliases()) {
    if (alias->op == opName) s += (s.empty() ? "" : ", ") + spelling(*alias);
  }
  return s;
}

}  // namespace pyasc::ascop
