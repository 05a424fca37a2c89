// The harnesses' shared statistics, printed at exit.
#include "tests/fuzz/Harness.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

namespace pyasc::fuzz {

namespace {

struct Counts {
  std::string harness;
  std::vector<std::pair<std::string, uint64_t>> stages;  // in first-seen order
};

Counts& counts() {
  static Counts* c = new Counts;  // never destroyed: read by the exit handler
  return *c;
}

void printCounts() {
  const Counts& c = counts();
  if (c.harness.empty() || c.stages.empty()) return;
  std::fprintf(stderr, "%s:", c.harness.c_str());
  for (size_t i = 0; i < c.stages.size(); ++i) {
    const uint64_t total = c.stages.front().second;
    std::fprintf(stderr, "%s %llu %s", i ? "," : "", static_cast<unsigned long long>(c.stages[i].second),
                 c.stages[i].first.c_str());
    if (i) std::fprintf(stderr, " (%.1f%%)", total ? 100.0 * c.stages[i].second / total : 0.0);
  }
  std::fprintf(stderr, "\n");
}

}  // namespace

std::string sourceDir() { return PYASC_SOURCE_DIR; }

void countStage(const char* harness, const char* stage) {
  Counts& c = counts();
  if (c.harness.empty()) {
    c.harness = harness;
    std::atexit(printCounts);
  }
  for (auto& [name, n] : c.stages) {
    if (name == stage) {
      ++n;
      return;
    }
  }
  c.stages.emplace_back(stage, 1);
}

}  // namespace pyasc::fuzz
