// --input and --const spec parsing with the exact messages drivers print.
#include <gtest/gtest.h>

#include "frontend/FrontendOptions.h"

using namespace pyasc;
using namespace pyasc::frontend;

TEST(FrontendOptions, InputSpecs) {
  InputSpec spec;
  std::string error;
  ASSERT_TRUE(parseInputSpec("a:float16[64,N, 8]", spec, error)) << error;
  EXPECT_EQ(spec.name, "a");
  EXPECT_EQ(spec.dtype, DType::Float16);
  EXPECT_EQ(graph::shapeString(spec.shape), "[64,N,8]");
  ASSERT_TRUE(parseInputSpec("s:int32[]", spec, error)) << error;
  EXPECT_TRUE(spec.shape.empty());
  EXPECT_FALSE(parseInputSpec("a:float32", spec, error));
  EXPECT_EQ(error, "invalid --input 'a:float32': expected NAME:DTYPE[D0,D1,...], e.g. a:float32[64,128]");
  EXPECT_FALSE(parseInputSpec("a:flot32[2]", spec, error));
  EXPECT_EQ(error, "invalid --input 'a:flot32[2]': unknown dtype 'flot32'; did you mean 'float32'?");
  EXPECT_FALSE(parseInputSpec("1a:float32[2]", spec, error));
  EXPECT_EQ(error, "invalid --input '1a:float32[2]': '1a' is not a parameter name");
  EXPECT_FALSE(parseInputSpec("a:float32[2,x+1]", spec, error));
  EXPECT_EQ(error, "invalid --input 'a:float32[2,x+1]': dimension 'x+1' is not a non-negative integer or a name");
}

TEST(FrontendOptions, ConstSpecs) {
  ConstSpec spec;
  std::string error;
  ASSERT_TRUE(parseConstSpec("n=1024", spec, error));
  EXPECT_EQ(spec.kind, ConstSpec::Kind::Int);
  EXPECT_EQ(spec.intValue, 1024);
  ASSERT_TRUE(parseConstSpec("alpha=-0.5", spec, error));
  EXPECT_EQ(spec.kind, ConstSpec::Kind::Float);
  EXPECT_EQ(spec.floatValue, -0.5);
  ASSERT_TRUE(parseConstSpec("flag=True", spec, error));
  EXPECT_TRUE(spec.boolValue);
  EXPECT_FALSE(parseConstSpec("n", spec, error));
  EXPECT_EQ(error, "invalid --const 'n': expected NAME=VALUE, e.g. n=1024");
  EXPECT_FALSE(parseConstSpec("n=ten", spec, error));
  EXPECT_EQ(error, "invalid --const 'n=ten': VALUE must be an integer, a float, True or False");
}

TEST(FrontendOptions, ParseSpecsCollectsEveryError) {
  FrontendOptions options;
  auto errors = parseSpecs({"a:float32[2]", "b"}, {"n=3", "m"}, options);
  EXPECT_EQ(errors.size(), 2u);
  EXPECT_EQ(options.inputs.size(), 1u);
  EXPECT_EQ(options.consts.size(), 1u);
}
