// Names: "did you mean" suggestions (the closest candidate by edit distance) and Python's rules
// for identifiers.
#pragma once

#include <string>
#include <vector>

namespace pyasc::registry {

// The candidate closest to `name` when it is near enough to be a likely typo, else "".
std::string closestName(const std::string& name, const std::vector<std::string>& candidates);

// Letters, digits and '_', not starting with a digit (ASCII, as operator names are).
bool isPythonIdentifier(const std::string& s);
bool isPythonKeyword(const std::string& s);

}  // namespace pyasc::registry
