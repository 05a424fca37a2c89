// docs/numpy-support.md starts with what the registry and the NumPy prelude generate (asc-fe
// --print-numpy-support) and must agree with it; the sections after it are written by hand.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "frontend/NumpyPrelude.h"
#include "registry/OpRegistry.h"

TEST(NumpySupportDoc, MatchesTheRegistry) {
  std::ifstream in(std::string(PYASC_SOURCE_DIR) + "/docs/numpy-support.md");
  ASSERT_TRUE(in) << "docs/numpy-support.md is missing";
  std::stringstream text;
  text << in.rdbuf();
  const std::string generated =
      pyasc::registry::OpRegistry::builtin().numpySupportMarkdown() + pyasc::frontend::numpyPreludeMarkdown();
  const std::string doc = text.str();
  EXPECT_EQ(doc.substr(0, generated.size()), generated)
      << "regenerate its first part: asc-fe --print-numpy-support, up to the section '## Accuracy of the math functions'";
  EXPECT_EQ(doc.compare(generated.size(), 4, "\n## "), 0) << "after the generated part comes a section";
}
