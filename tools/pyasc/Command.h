// The pyasc subcommand table and the helpers every subcommand shares.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "sdk/support/Diagnostics.h"

namespace pyasc::tool {

// A subcommand: `setup` declares its options on `app` and returns the function that runs it.
struct Command {
  const char* name;
  const char* description;
  std::function<std::function<int()>(CLI::App& app)> setup;
};

const std::vector<Command>& commands();

std::function<int()> setupCompile(CLI::App& app);
std::function<int()> setupRun(CLI::App& app);
std::function<int()> setupInfo(CLI::App& app);
std::function<int()> setupDisasm(CLI::App& app);
std::function<int()> setupCheck(CLI::App& app);

// --backend=sim|cpu of run and check: the simulator (default) or the host through Halide.
void addBackendOption(CLI::App& app, std::string& backend);

// Parses --input-shape's "NAME=D0,D1,..." into `name` and `shape`; returns the error, or "".
std::string parseShapeSpec(const std::string& spec, std::string& name, std::vector<int64_t>& shape);

// Prints "pyasc: error: msg" (or the diagnostic with its location) to stderr; returns 1.
int reportError(const std::string& message);
int reportError(const CompileError& error, const DiagnosticEngine* sources = nullptr);

}  // namespace pyasc::tool
