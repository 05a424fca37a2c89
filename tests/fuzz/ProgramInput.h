// A Python program as the Python harnesses take it: the text, with the `# e2e:` options line the
// e2e programs start with (--entry, --input, --const, --strict-dtypes) read as pyasc would.
#pragma once

#include <string>

#include "frontend/FrontendOptions.h"

namespace pyasc::fuzz {

// Reads the options of `text`'s `# e2e:` lines into `options`; false when a spec is malformed
// (pyasc rejects those before compiling, with the message parseSpecs gives).
bool programOptions(const std::string& text, frontend::FrontendOptions& options);

}  // namespace pyasc::fuzz
