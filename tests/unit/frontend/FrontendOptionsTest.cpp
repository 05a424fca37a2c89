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

// --dynamic-dims: positional ranges follow the symbols' first appearance, named ones their symbol;
// every mismatch has its message.
TEST(FrontendOptions, DynamicDims) {
  std::vector<InputSpec> inputs(2);
  std::string error;
  ASSERT_TRUE(parseInputSpec("x:float32[N,H,W,3]", inputs[0], error)) << error;
  ASSERT_TRUE(parseInputSpec("m:float32[N,H,W,1]", inputs[1], error)) << error;
  std::vector<DynamicDim> dims;
  ASSERT_TRUE(parseDynamicDims("1-4,224-256, 200-256", inputs, dims, error)) << error;
  ASSERT_EQ(dims.size(), 3u);
  EXPECT_EQ(dims[0].name, "N");
  EXPECT_EQ(dims[2].name, "W");
  EXPECT_EQ(dims[2].min, 200);
  EXPECT_EQ(dims[1].max, 256);
  ASSERT_TRUE(parseDynamicDims("W=8-9,N=1-2,H=3-3", inputs, dims, error)) << error;
  EXPECT_EQ(dims[0].max, 2);
  EXPECT_EQ(dims[2].min, 8);
  ASSERT_TRUE(parseDynamicDims("", inputs, dims, error));
  EXPECT_TRUE(dims.empty());
  auto fails = [&](const std::string& text) {
    EXPECT_FALSE(parseDynamicDims(text, inputs, dims, error)) << text;
    return error;
  };
  EXPECT_EQ(fails("1-4,224-256"), "--dynamic-dims='1-4,224-256': the symbolic dimension 'W' has no range (the inputs name N, H, W, in that order)");
  EXPECT_EQ(fails("1-4,2-3,4-5,6-7"), "--dynamic-dims='1-4,2-3,4-5,6-7': more ranges than the inputs' symbolic dimensions (N, H, W)");
  EXPECT_EQ(fails("1-4,2-,3-5"), "--dynamic-dims='1-4,2-,3-5': '2-' is not a range LO-HI (or NAME=LO-HI), e.g. 1-4");
  EXPECT_EQ(fails("0-4,2-3,3-5"), "--dynamic-dims='0-4,2-3,3-5': the range 0-4 must have 1 <= LO <= HI");
  EXPECT_EQ(fails("N=1-4,2-3,3-5"), "--dynamic-dims='N=1-4,2-3,3-5': give every range a name (N=1-4) or none");
  EXPECT_EQ(fails("C=1-4"), "--dynamic-dims='C=1-4': 'C' is not a symbolic dimension of an input (they are N, H, W)");
  EXPECT_EQ(fails("N=1-4,N=2-3,H=1-1,W=1-1"), "--dynamic-dims='N=1-4,N=2-3,H=1-1,W=1-1': 'N' has two ranges");
  std::vector<InputSpec> fixed(1);
  ASSERT_TRUE(parseInputSpec("x:float32[2,3]", fixed[0], error));
  EXPECT_FALSE(parseDynamicDims("1-4", fixed, dims, error));
  EXPECT_EQ(error, "--dynamic-dims='1-4': no input has a symbolic dimension to give a range; name the dynamic dimensions in "
                   "--input, e.g. --input=x:float32[N,H,W,3]");
}
