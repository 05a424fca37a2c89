// Name suggestions by Levenshtein distance with a length-relative threshold; Python name rules.
#include "registry/NameSuggestion.h"

#include <algorithm>
#include <cctype>
#include <set>

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

bool isPythonIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool isPythonKeyword(const std::string& s) {
  static const std::set<std::string> keywords = {
      "False", "None",   "True",    "and",      "as",   "assert", "async",  "await", "break",
      "class", "continue", "def",   "del",      "elif", "else",   "except", "finally", "for",
      "from",  "global", "if",      "import",   "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",   "raise",   "return",   "try",  "while",  "with",   "yield"};
  return keywords.count(s) > 0;
}

}  // namespace pyasc::registry
