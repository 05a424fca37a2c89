// ascop export --msopgen|--ini [-o FILE] DESCRIPTOR: msopgen's input JSON or the TBE op-info .ini.
#include <iostream>
#include <memory>

#include "registry/DescriptorExport.h"
#include "registry/DescriptorLoader.h"
#include "sdk/support/AtomicFile.h"
#include "tools/ascop/Command.h"

namespace pyasc::ascop {

namespace {

struct ExportOptions {
  bool msopgen = false;
  bool ini = false;
  std::string output;
  std::string descriptor;
};

int run(const ExportOptions& o) {
  std::vector<Diagnostic> errors;
  const std::vector<registry::OpDescriptor> ops = registry::loadDescriptorFile(o.descriptor, errors);
  if (!errors.empty()) {
    reportDescriptorErrors(errors);
    return 1;
  }
  const std::string text = o.msopgen ? registry::exportMsopgenJson(ops) : registry::exportTbeIni(ops);
  if (o.output.empty()) {
    std::cout << text;
    return 0;
  }
  try {
    writeFileAtomically(o.output, text);
  } catch (const CompileError& e) {
    return reportError(e);
  }
  return 0;
}

}  // namespace

std::function<int()> setupExport(CLI::App& app) {
  auto o = std::make_shared<ExportOptions>();
  CLI::Option* msopgen = app.add_flag("--msopgen", o->msopgen, "msopgen's input JSON");
  CLI::Option* ini = app.add_flag("--ini", o->ini, "TBE op-info .ini");
  msopgen->excludes(ini);
  app.add_option("-o,--output", o->output, "output file (default: standard output), written atomically");
  app.add_option("descriptor", o->descriptor, "descriptor file (.json, .yaml, .yml)")->required();
  return [o]() {
    if (!o->msopgen && !o->ini) return reportError("export needs --msopgen or --ini");
    return run(*o);
  };
}

}  // namespace pyasc::ascop
