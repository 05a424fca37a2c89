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

// How the mutator uses a validity check (for the Python harnesses, what the frontend turns into a
// graph): Prefer tries two mutants and keeps the first valid one, or the last (invalid ones still
// exercise the frontend's errors); Require tries four and keeps the input as it is when none is valid
// (so that the executions of a harness started from valid seeds reach code generation).
enum class Validity { Prefer, Require };

// LLVMFuzzerCustomMutator for the Python harnesses; without `valid`, one mutant.
size_t mutatePython(uint8_t* data, size_t size, size_t maxSize, unsigned seed,
                    const std::function<bool(const std::string&)>& valid = {}, Validity mode = Validity::Prefer);

// What the Python harnesses' mutator keeps: text the frontend turns into a graph.
bool frontendAccepts(const std::string& source);

}  // namespace pyasc::fuzz
