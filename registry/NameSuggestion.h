// "Did you mean" suggestions: the closest candidate by edit distance.
#pragma once

#include <string>
#include <vector>

namespace pyasc::registry {

// The candidate closest to `name` when it is near enough to be a likely typo, else "".
std::string closestName(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace pyasc::registry
