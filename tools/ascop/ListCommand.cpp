// ascop list [--custom-op-config=F]...: every operator with its category and how programs call it.
#include <cstdio>
#include <memory>

#include "registry/DescriptorRegistration.h"
#include "tools/ascop/Command.h"
#include "tools/ascop/Spellings.h"

namespace pyasc::ascop {

namespace {

struct ListOptions {
  std::vector<std::string> customOpConfigs;
};

int run(const ListOptions& o) {
  registry::OpRegistry registry = registry::OpRegistry::builtin();
  std::vector<registry::OpDescriptor> custom;
  if (!loadCustomOps(o.customOpConfigs, registry, custom)) return 1;
  std::printf("%-24s %-14s %s\n", "operator", "category", "called as");
  for (const auto& name : registry.opNames()) {
    const registry::OpEntry* entry = registry.find(name);
    const registry::OpDescriptor* d = registry::findDescriptor(custom, name);
    const std::string spelled = spellingsOf(registry, name);
    std::printf("%-24s %-14s %s%s\n", name.c_str(), registry::categoryName(entry->category),
                spelled.empty() ? "-" : spelled.c_str(),
                d ? ("  [custom: " + d->loc.file + (d->override ? ", overrides the built-in" : "") + "]").c_str() : "");
  }
  return 0;
}

}  // namespace

std::function<int()> setupList(CLI::App& app) {
  auto o = std::make_shared<ListOptions>();
  app.add_option("--custom-op-config", o->customOpConfigs, "custom-operator descriptor (repeatable)");
  return [o]() { return run(*o); };
}

}  // namespace pyasc::ascop
