// ascop new NAME [--template=KIND] [--dir=D]: D/NAME/ from templates/KIND, never overwriting a file.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "registry/NameSuggestion.h"
#include "registry/OpRegistry.h"
#include "sdk/support/AtomicFile.h"
#include "tools/ascop/Command.h"

namespace pyasc::ascop {

namespace {

namespace fs = std::filesystem;

struct NewOptions {
  std::string name;
  std::string templateKind = "elementwise";
  std::string dir = ".";
};

// custom_relu -> CustomRelu: the operator type name of the descriptor.
std::string camelCase(const std::string& name) {
  std::string s;
  bool upper = true;
  for (char c : name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    s += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return s;
}

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// PYASC_TEMPLATE_DIR when set (an installed SDK), else the source tree's templates/.
fs::path templateRoot() {
  const char* env = std::getenv("PYASC_TEMPLATE_DIR");
  return env ? fs::path(env) : fs::path(PYASC_SOURCE_DIR) / "templates";
}

int run(const NewOptions& o) {
  if (!registry::isPythonIdentifier(o.name) || camelCase(o.name).empty() || o.name.size() > 64) {
    return reportError("'" + o.name + "' is not a valid operator name: use up to 64 letters, digits and '_', "
                       "not starting with a digit");
  }
  if (registry::isPythonKeyword(o.name)) return reportError("'" + o.name + "' is a Python keyword; choose another name");
  if (registry::OpRegistry::builtin().find(camelCase(o.name))) {
    return reportError("'" + camelCase(o.name) + "' is a built-in operator; choose another name");
  }
  const fs::path source = templateRoot() / o.templateKind;
  std::vector<fs::path> templates;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(source, ec)) {
    if (entry.is_regular_file()) templates.push_back(entry.path());
  }
  if (ec || templates.empty()) return reportError("no templates in '" + source.string() + "'");
  std::sort(templates.begin(), templates.end());
  const fs::path target = fs::path(o.dir) / o.name;
  std::vector<fs::path> outputs;
  for (const auto& t : templates) {
    outputs.push_back(target / replaceAll(t.filename().string(), "NAME", o.name));
    if (fs::exists(outputs.back())) {
      return reportError("'" + outputs.back().lexically_normal().string() +
                         "' already exists; ascop new never overwrites files");
    }
  }
  try {
    fs::create_directories(target);
    for (size_t i = 0; i < templates.size(); ++i) {
      const std::vector<uint8_t> bytes = readFileBytes(templates[i].string());
      std::string text(bytes.begin(), bytes.end());
      text = replaceAll(replaceAll(replaceAll(text, "{{name}}", o.name), "{{Name}}", camelCase(o.name)),
                        "{{template}}", o.templateKind);
      writeFileAtomically(outputs[i].string(), text);
      std::cout << "created " << outputs[i].lexically_normal().string() << "\n";
    }
  } catch (const CompileError& e) {
    return reportError(e);
  } catch (const fs::filesystem_error& e) {
    return reportError(e.what());
  }
  std::cout << "next: cd " << target.lexically_normal().string() << " && ascop validate\n";
  return 0;
}

}  // namespace

std::function<int()> setupNew(CLI::App& app) {
  auto o = std::make_shared<NewOptions>();
  app.add_option("name", o->name, "operator name, a Python identifier (custom_relu)")->required();
  app.add_option("--template", o->templateKind, "what the operator computes")
      ->check(CLI::IsMember({"elementwise", "reduce", "matmul", "composite"}))
      ->capture_default_str();
  app.add_option("--dir", o->dir, "folder in which NAME/ is created")->capture_default_str();
  return [o]() { return run(*o); };
}

}  // namespace pyasc::ascop
