// ascop info NAME [--custom-op-config=F]...: the registry's description of one operator, plus its descriptor.
#include <iostream>
#include <memory>

#include "registry/DescriptorRegistration.h"
#include "registry/NameSuggestion.h"
#include "tools/ascop/Command.h"
#include "tools/ascop/Spellings.h"

namespace pyasc::ascop {

namespace {

struct InfoOptions {
  std::string name;
  std::vector<std::string> customOpConfigs;
};

// NAME as an operator ("ReduceSum"), a custom python_name ("custom_relu") or a NumPy function ("sum").
std::string resolveOp(const registry::OpRegistry& registry, const std::string& name) {
  if (registry.find(name)) return name;
  for (const std::string& alias : {registry::customCallName(name), name}) {
    const registry::NumpyAlias* a = registry.findAlias(alias, registry::AliasForm::Function);
    if (a && !a->op.empty()) return a->op;
  }
  return "";
}

int run(const InfoOptions& o) {
  registry::OpRegistry registry = registry::OpRegistry::builtin();
  std::vector<registry::OpDescriptor> custom;
  if (!loadCustomOps(o.customOpConfigs, registry, custom)) return 1;
  const std::string op = resolveOp(registry, o.name);
  if (op.empty()) {
    const std::string guess = registry::closestName(o.name, registry.opNames());
    return reportError("no operator '" + o.name + "'" + (guess.empty() ? "" : "; did you mean '" + guess + "'?") +
                       (o.customOpConfigs.empty() ? " (custom operators need --custom-op-config=FILE)" : ""));
  }
  // describe() spells every function alias np.NAME; the spelling line is replaced by the real ones.
  std::string text = registry.describe(op);
  const size_t spelled = text.find("  spelled ");
  if (spelled != std::string::npos) text.erase(spelled);
  std::cout << text << "  called as " << spellingsOf(registry, op) << "\n";
  if (const registry::OpDescriptor* d = registry::findDescriptor(custom, op)) {
    std::cout << "descriptor " << d->loc.str() << "\n" << registry::descriptorSummary(*d);
  }
  return 0;
}

}  // namespace

std::function<int()> setupInfo(CLI::App& app) {
  auto o = std::make_shared<InfoOptions>();
  app.add_option("name", o->name, "operator (ReduceSum), NumPy function (sum) or custom python_name")->required();
  app.add_option("--custom-op-config", o->customOpConfigs, "custom-operator descriptor (repeatable)");
  return [o]() { return run(*o); };
}

}  // namespace pyasc::ascop
