// NumPy functions the frontend writes in the Python it compiles (np.tril, np.cov, np.linalg.solve...).
#pragma once

#include <string>
#include <vector>

#include "frontend/Ast.h"

namespace pyasc::frontend {

// The definition of np.NAME ("tril", "linalg.solve"), or null. Its body runs as a helper function
// would, with `np` bound to NumPy whatever the program imported; the nodes it makes, its warnings
// and its errors are located at the call.
const Stmt* numpyPreludeFunction(const std::string& name);
// Any function of the prelude by its Python name (private helpers included), or null: the names a
// prelude function's body sees besides its locals and `np`.
const Stmt* numpyPreludeHelper(const std::string& name);

// The prelude's functions by their NumPy names, and its source.
std::vector<std::string> numpyPreludeNames();
const std::string& numpyPreludeSource();
// The section of docs/numpy-support.md that lists them: spelling, parameters and docstring.
std::string numpyPreludeMarkdown();

}  // namespace pyasc::frontend
