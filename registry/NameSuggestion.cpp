// Levenshtein distance with a length-relative threshold.
#include "registry/NameSuggestion.h"

#include <algorithm>

namespace pyasc::registry {

namespace {
size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}
}  // namespace

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
