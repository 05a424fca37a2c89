// Levenshtein distance, the measure behind every "did you mean" suggestion.
#pragma once

#include <cstddef>
#include <string>

namespace pyasc {

size_t editDistance(const std::string& a, const std::string& b);

}  // namespace pyasc
