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
  int64_t maxWhileTrips = 1000000;
  std::string entry;
  std::vector<std::string> inputs;
  std::vector<std::string> consts;
  std::vector<std::string> outputs;  // pyasc check --output: script arrays compared besides its outputs
  std::string emit;  // ast | graph | program | asm: print instead of writing a model
  std::string dumpAfter;
  bool timePasses = false;
  std::string report;  // --report=vectorize: a remark per range loop
  std::string autoMixedPrecision;  // --auto-mixed-precision=O1|O2; "off" also ignores the pragma (pyasc check's float32 run)
};

void addCompileFlags(CLI::App& app, CompileFlags& flags);

// A custom operator a program may call: its Python name and its TBE-style definition file.
struct CustomOpSource {
  std::string pythonName;
  std::string implPath;
};

// "file:line:col: message", or the message alone when the diagnostic has no file.
std::string locatedLine(const Diagnostic& d);

// What stopped a compilation: the exception class the Python binding raises for it.
enum class CompileFailure { None, Syntax, Type, Memory, Value };

// The result of compileSource: what the command line prints, and the first error as one located line.
struct CompileOutcome {
  CompileFailure failure = CompileFailure::None;
  std::string printed;     // rendered diagnostics and "pyasc: error: ..." lines, as pyasc prints them
  std::string firstError;  // "file:line:col: message" (or the message) of the first error
  bool ok() const { return failure == CompileFailure::None; }
};

// Runs the frontend and the pipeline, printing nothing. With --emit=ast|graph the text goes to
// `emitted` and `result` is left empty. The custom operators of --custom-op-config are listed in
// `customOps` when it is not null.
CompileOutcome compileSource(const CompileFlags& flags, codegen::CompileResult& result, std::string& emitted,
                             std::vector<CustomOpSource>* customOps = nullptr);

// Runs the frontend and the pipeline. Diagnostics go to stderr; returns false on any error.
// With --emit=ast|graph the text goes to `emitted` and `result` is left empty. The custom
// operators of --custom-op-config are listed in `customOps` when it is not null.
bool compileProgram(const CompileFlags& flags, codegen::CompileResult& result, std::string& emitted,
                    std::vector<CustomOpSource>* customOps = nullptr);

}  // namespace pyasc::tool
