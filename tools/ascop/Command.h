// The ascop subcommand table and the helpers the subcommands share.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "registry/OpDescriptor.h"
#include "registry/OpRegistry.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::ascop {

// A subcommand: `setup` declares its options on `app` and returns the function that runs it.
struct Command {
  const char* name;
  const char* description;
  std::function<std::function<int()>(CLI::App& app)> setup;
};

const std::vector<Command>& commands();

std::function<int()> setupNew(CLI::App& app);
std::function<int()> setupValidate(CLI::App& app);
std::function<int()> setupList(CLI::App& app);
std::function<int()> setupInfo(CLI::App& app);
std::function<int()> setupExport(CLI::App& app);
std::function<int()> setupTest(CLI::App& app);
std::function<int()> setupBench(CLI::App& app);
std::function<int()> setupReport(CLI::App& app);

// Prints "ascop: error: msg" to stderr; returns 1.
int reportError(const std::string& message);
// `text` as one word of a POSIX shell command (single-quoted).
std::string shellQuoted(const std::string& text);
// The same for a failed read or write: "ascop: error: path: cannot write: <errno text>".
int reportError(const CompileError& error);
// Prints each descriptor error as one line "file:line:col: error: ..." to stderr.
void reportDescriptorErrors(const std::vector<Diagnostic>& errors);

// The built-in registry plus every op of the --custom-op-config files; false after reporting errors.
bool loadCustomOps(const std::vector<std::string>& files, registry::OpRegistry& registry,
                   std::vector<registry::OpDescriptor>& descriptors);

}  // namespace pyasc::ascop
