// A Python program as the Python harnesses take it: the text, with the `# e2e:` options line the
// e2e programs start with (--entry, --input, --const, --strict-dtypes) read as pyasc would.
#pragma once

#include <string>

#include "frontend/FrontendOptions.h"
#include "sdk/graph/Graph.h"

namespace pyasc::fuzz {

// Reads the options of `text`'s `# e2e:` lines into `options`; false when a spec is malformed
// (pyasc rejects those before compiling, with the message parseSpecs gives).
bool programOptions(const std::string& text, frontend::FrontendOptions& options);

// Whether every array of `g` has at most 2^16 elements. The code generator's time and memory grow
// with array sizes (tiles, constants, the model's bytes) without reaching other code, so python_model
// stops larger programs after the frontend, and the mutator prefers mutants that are not larger.
bool smallEnough(const graph::Graph& g);

}  // namespace pyasc::fuzz
