// The Python harnesses' structure-aware mutator: edits that keep a program mostly well formed (a
// number, a NumPy function, an operator, a name, a dtype or a shape replaced; a line duplicated,
// dropped, swapped or added) so that most mutants reach the analyser and the code generator; one
// mutation in eight is libFuzzer's byte-level one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace pyasc::fuzz {

// One mutation of `text` chosen by `seed` (deterministic).
std::string mutatePythonText(const std::string& text, unsigned seed);

// LLVMFuzzerCustomMutator for the Python harnesses. With `valid`, up to two mutants are tried and the
// first it accepts is kept (the Python harnesses accept what the frontend turns into a graph, so
// that most executions reach code generation); the last is kept when it accepts none.
size_t mutatePython(uint8_t* data, size_t size, size_t maxSize, unsigned seed,
                    const std::function<bool(const std::string&)>& valid = {});

// What the Python harnesses' mutator keeps: text the frontend turns into a graph.
bool frontendAccepts(const std::string& source);

}  // namespace pyasc::fuzz
