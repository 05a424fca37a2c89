// The compile options shared by `pyasc INPUT.py -o OUT.om` and `pyasc check`, and the compile itself.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "codegen/Pipeline.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::tool {

struct CompileFlags {
  std::string input;
  std::string target = "ascend310";
  std::string optLevel = "O2";
  bool memoryOpt = false;
  bool memoryReuse = false;
  bool defaultSchedules = false;
  std::vector<std::string> customOpConfigs;
  std::string dynamicDims;
  bool strictDtypes = false;
  std::string entry;
  std::vector<std::string> inputs;
  std::vector<std::string> consts;
  std::vector<std::string> outputs;  // pyasc check --output: script arrays compared besides its outputs
  std::string emit;  // ast | graph | program | asm: print instead of writing a model
  std::string dumpAfter;
  bool timePasses = false;
};

void addCompileFlags(CLI::App& app, CompileFlags& flags);

// A custom operator a program may call: its Python name and its TBE-style definition file.
struct CustomOpSource {
  std::string pythonName;
  std::string implPath;
};

// Runs the frontend and the pipeline. Diagnostics go to stderr; returns false on any error.
// With --emit=ast|graph the text goes to `emitted` and `result` is left empty. The custom
// operators of --custom-op-config are listed in `customOps` when it is not null.
bool compileProgram(const CompileFlags& flags, codegen::CompileResult& result, std::string& emitted,
                    std::vector<CustomOpSource>* customOps = nullptr);

}  // namespace pyasc::tool
