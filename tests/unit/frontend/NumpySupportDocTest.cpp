// docs/numpy-support.md is generated from the registry (asc-fe --print-numpy-support) and must agree.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "registry/OpRegistry.h"

TEST(NumpySupportDoc, MatchesTheRegistry) {
  std::ifstream in(std::string(PYASC_SOURCE_DIR) + "/docs/numpy-support.md");
  ASSERT_TRUE(in) << "docs/numpy-support.md is missing";
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), pyasc::registry::OpRegistry::builtin().numpySupportMarkdown())
      << "regenerate it: asc-fe --print-numpy-support > docs/numpy-support.md";
}
