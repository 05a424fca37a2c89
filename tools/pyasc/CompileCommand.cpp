// pyasc INPUT.py -o OUTPUT.om: compile a program into a model file.
#include <iostream>
#include <memory>

#include "sdk/model/ModelWriter.h"
#include "tools/pyasc/Command.h"
#include "tools/pyasc/CompileFlags.h"

namespace pyasc::tool {

namespace {
struct CompileCommandOptions {
  CompileFlags flags;
  std::string output;
};
}  // namespace

std::function<int()> setupCompile(CLI::App& app) {
  auto o = std::make_shared<CompileCommandOptions>();
  addCompileFlags(app, o->flags);
  app.add_option("-o,--output", o->output, "model file to write (.om)");
  return [o]() -> int {
    if (o->output.empty() && o->flags.emit.empty()) return reportError("no output file: pass -o OUTPUT.om (or --emit=graph)");
    codegen::CompileResult result;
    std::string emitted;
    if (!compileProgram(o->flags, result, emitted)) return 1;
    if (!o->flags.emit.empty()) {
      std::cout << emitted;
      return 0;
    }
    try {
      model::writeModel(o->output, result.model);
    } catch (const CompileError& e) {
      return reportError(e);
    }
    return 0;
  };
}

}  // namespace pyasc::tool
