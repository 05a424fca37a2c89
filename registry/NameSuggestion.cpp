// Levenshtein distance with a length-relative threshold.
#include "registry/NameSuggestion.h"

#include <algorithm>
#include "sdk/support/EditDistance.h"

namespace pyasc::registry {

std::string closestName(const std::string& name, const std::vector<std::string>& candidates) {
  const size_t threshold = std::max<size_t>(1, name.size() / 3);  // about one typo per three characters
  std::string best;
  size_t bestDistance = threshold + 1;
  for (const auto& c : candidates) {
    const size_t d = editDistance(name, c);
    if (d < bestDistance || (d == bestDistance && c < best)) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

}  // namespace pyasc::registry
