// np.random inputs: replaying the graph's (seed, stream, offset) records with the legacy MT19937
// generator reproduces NumPy's values bit for bit, for interleaved rand/randn draws and reseeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "frontend/Frontend.h"
#include "sdk/support/Random.h"

using namespace pyasc;
using namespace pyasc::graph;

namespace {

const char* const kProgram =
    "import numpy as np\n"
    "np.random.seed(42)\n"
    "a = np.random.rand(3, 5)\n"
    "b = np.random.randn(7)\n"
    "c = np.random.random((2, 2))\n"
    "np.random.seed(7)\n"
    "d = np.random.randn(3)\n"
    "e = np.random.random_sample(4)\n"
    "out = a.sum() + b.sum() + c.sum() + d.sum() + e.sum()\n";

// The values NumPy draws for kProgram, in draw order, with full double precision.
std::vector<double> numpyValues() {
  std::string script = std::string(kProgram) +
                       "for v in (a, b, c, d, e):\n"
                       "    for x in v.ravel():\n"
                       "        print(repr(float(x)))\n";
  std::string command = "/usr/bin/python3 -c '" + script + "'";
  FILE* pipe = popen(command.c_str(), "r");
  std::vector<double> values;
  if (!pipe) return values;
  char line[64];
  while (std::fgets(line, sizeof line, pipe)) values.push_back(std::strtod(line, nullptr));
  pclose(pipe);
  return values;
}

}  // namespace

TEST(RandomStreams, ReplayingTheGraphRecordsMatchesNumPy) {
  DiagnosticEngine diags;
  Graph g = frontend::compileToGraph("rand.py", kProgram, frontend::FrontendOptions{}, diags);
  ASSERT_FALSE(diags.hasErrors()) << diags.renderAll();
  std::vector<const GraphInput*> inputs;
  for (const GraphInput& in : g.inputs) {
    if (in.role == InputRole::Random) inputs.push_back(&in);
  }
  ASSERT_EQ(inputs.size(), 5u);
  std::stable_sort(inputs.begin(), inputs.end(), [](const GraphInput* x, const GraphInput* y) {
    return std::make_pair(x->random.stream, x->random.offset) < std::make_pair(y->random.stream, y->random.offset);
  });
  std::vector<double> replayed;
  std::map<int, LegacyRandom> streams;
  for (const GraphInput* in : inputs) {
    ASSERT_TRUE(in->random.seeded);
    auto it = streams.find(in->random.stream);
    if (it == streams.end()) it = streams.emplace(in->random.stream, LegacyRandom(in->random.seed)).first;
    const int64_t count = elementCount(g.type(in->value).shape);
    for (int64_t i = 0; i < count; ++i) {
      replayed.push_back(in->random.distribution == RandomDistribution::Normal ? it->second.standardNormal()
                                                                                : it->second.randomSample());
    }
  }
  const std::vector<double> expected = numpyValues();
  ASSERT_EQ(expected.size(), replayed.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(replayed[i], expected[i]) << "value " << i;
}

TEST(RandomStreams, OffsetsCountValuesDrawnSinceTheSeed) {
  DiagnosticEngine diags;
  Graph g = frontend::compileToGraph("rand.py", kProgram, frontend::FrontendOptions{}, diags);
  ASSERT_FALSE(diags.hasErrors()) << diags.renderAll();
  std::vector<std::pair<int, int64_t>> records;
  for (const GraphInput& in : g.inputs) records.emplace_back(in.random.stream, in.random.offset);
  const std::vector<std::pair<int, int64_t>> expected = {{1, 0}, {1, 15}, {1, 22}, {2, 0}, {2, 3}};
  EXPECT_EQ(records, expected);
}
