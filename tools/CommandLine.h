// Command-line parsing every tool shares: one exit status per outcome (docs/cli.md, "Exit status").
#pragma once

#include <CLI/CLI.hpp>

namespace pyasc::tool {

// Exit statuses: 0 success; 1 an error in what was given (source, model, descriptor, data, a
// comparison that fails); 2 a command line the tool cannot use (unknown option, missing argument).
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

}  // namespace pyasc::tool

// CLI11_PARSE with the usage status: --help and --version exit 0, any other parse error 2.
#define PYASC_PARSE(app, argc, argv)                                   \
  try {                                                                \
    (app).parse((argc), (argv));                                       \
  } catch (const CLI::ParseError& parseError) {                        \
    return (app).exit(parseError) == 0 ? 0 : pyasc::tool::kExitUsage; \
  }
