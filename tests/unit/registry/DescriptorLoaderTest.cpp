// Loading descriptors: JSON and YAML give the same ops, defaults, typing of scalars, source positions.
#include "registry/DescriptorExport.h"
#include "tests/unit/registry/DescriptorTestSupport.h"

using namespace pyasc;
using namespace pyasc::registry;
using namespace pyasc::registry::testing;

namespace {

const char* const kRelu = R"([{"op": "CustomRelu",
  "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"], "type": ["float16"]}],
  "output_desc": [{"name": "y", "param_type": "required", "format": ["ND"], "type": ["float16"]}]}])";

std::string summaries(const std::vector<OpDescriptor>& ops) {
  std::string s;
  for (const auto& d : ops) s += descriptorSummary(d);
  return s;
}

TEST(DescriptorLoader, JsonAndYamlGiveIdenticalDescriptors) {
  const auto fromJson = parseValid("ops.json", readInput("ops.json"));
  const auto fromYaml = parseValid("ops.yaml", readInput("ops.yaml"));
  ASSERT_EQ(fromJson.size(), 3u);
  EXPECT_EQ(summaries(fromJson), summaries(fromYaml));
  EXPECT_EQ(exportMsopgenJson(fromJson), exportMsopgenJson(fromYaml));
  EXPECT_EQ(exportTbeIni(fromJson), exportTbeIni(fromYaml));
  for (size_t i = 0; i < fromJson.size(); ++i) EXPECT_EQ(fromJson[i].implPath, fromYaml[i].implPath);
}

TEST(DescriptorLoader, ReadsEveryField) {
  const auto ops = parseValid("ops.yaml", readInput("ops.yaml"));
  ASSERT_EQ(ops.size(), 3u);
  const OpDescriptor& leaky = ops[0];
  EXPECT_EQ(leaky.op, "LeakyScale");
  EXPECT_EQ(leaky.pythonName, "leaky_scale");
  EXPECT_EQ(leaky.implPath, inputPath("leaky_scale.py"));
  EXPECT_EQ(leaky.pattern, OpPattern::Composite);
  EXPECT_EQ(leaky.shapeRule.text(), "same_as:x");
  ASSERT_EQ(leaky.inputs[0].formats.size(), 3u);
  EXPECT_EQ(leaky.inputs[0].formats[2], graph::Layout::NCHW);
  EXPECT_EQ(leaky.inputs[0].types[1], DType::Float32);
  EXPECT_EQ(leaky.attrs[0].type, AttrType::Float);
  EXPECT_EQ(attrValueText(*leaky.attrs[0].defaultValue), "0.1");
  EXPECT_FALSE(leaky.attrs[1].defaultValue.has_value());
  EXPECT_EQ(leaky.tolerance.at(DType::Float16), 2e-3);
  EXPECT_EQ(leaky.tolerance.at(DType::Float32), 1e-5);  // the default fills what the descriptor leaves out
  EXPECT_EQ(leaky.loc.line, 2);
  EXPECT_EQ(leaky.loc.col, 7);

  const OpDescriptor& rowSum = ops[1];
  EXPECT_EQ(rowSum.pattern, OpPattern::Reduce);  // from the shape rule
  EXPECT_EQ(rowSum.shapeRule.kind, ShapeRuleKind::Reduce);
  EXPECT_EQ(rowSum.shapeRule.operand, "axes");
  EXPECT_EQ(rowSum.inputs[0].types[1], DType::Float32);  // "float" is float32
  EXPECT_EQ(attrValueText(*rowSum.attrs[0].defaultValue), "[-1]");
  EXPECT_EQ(attrValueText(*rowSum.attrs[2].defaultValue), "\"fast\"");

  const OpDescriptor& sumAll = ops[2];
  EXPECT_EQ(sumAll.inputs[1].paramType, ParamType::Dynamic);
  EXPECT_EQ(sumAll.shapeRule.kind, ShapeRuleKind::Broadcast);
  EXPECT_FALSE(sumAll.override);
}

TEST(DescriptorLoader, AcceptsOneOpObject) {
  const std::string one = std::string(kRelu).substr(1, std::string(kRelu).size() - 2);
  const auto ops = parseValid("one.json", one);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].pythonName, "custom_relu");
  EXPECT_EQ(ops[0].impl, "custom_relu.py");
  EXPECT_EQ(ops[0].shapeRule.text(), "same_as:x");
  EXPECT_EQ(ops[0].pattern, OpPattern::Elementwise);
  EXPECT_EQ(parseValid("one.yaml", "op: CustomRelu\ninput_desc: [{name: x, format: ND, type: float16}]\n"
                                   "output_desc: [{name: y, format: ND, type: float16}]\n").size(),
            1u);
}

TEST(DescriptorLoader, JsonPositionsComeFromByteOffsets) {
  const auto ops = parseValid("relu.json", kRelu);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].loc.line, 1);
  EXPECT_EQ(ops[0].loc.col, 9);
  EXPECT_EQ(ops[0].inputs[0].loc.line, 2);
  EXPECT_EQ(ops[0].inputs[0].loc.col, 18);
}

TEST(DescriptorLoader, YamlQuotedScalarsStayStrings) {
  EXPECT_EQ(problemsOf("q.yaml", "op: CustomRelu\ninput_desc: [{name: x, format: [ND], type: [float16]}]\n"
                                 "output_desc: [{name: y, format: [ND], type: [float16]}]\n"
                                 "attr: [{name: n, type: int, default_value: \"3\"}]\n"),
            "4:44: op 'CustomRelu': attr 'n': default_value: '3' does not match type int");
  const auto ops = parseValid("q.yaml", "op: CustomRelu\ninput_desc: [{name: x, format: [ND], type: [float16]}]\n"
                                        "output_desc: [{name: y, format: [ND], type: [float16]}]\n"
                                        "attr: [{name: n, type: int, default_value: 3}, "
                                        "{name: s, type: str, default_value: '3'}, {name: f, type: float, default_value: 2}]\n");
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(attrValueText(*ops[0].attrs[0].defaultValue), "3");
  EXPECT_EQ(attrValueText(*ops[0].attrs[1].defaultValue), "\"3\"");
  EXPECT_EQ(attrValueText(*ops[0].attrs[2].defaultValue), "2.0");
}

TEST(DescriptorLoader, SnakeCaseFollowsTbeFileNames) {
  EXPECT_EQ(snakeCaseName("AddCustom"), "add_custom");
  EXPECT_EQ(snakeCaseName("CustomRelu"), "custom_relu");
  EXPECT_EQ(snakeCaseName("Conv2D"), "conv2d");
  EXPECT_EQ(snakeCaseName("MatMulV2"), "mat_mul_v2");
  EXPECT_EQ(snakeCaseName("ReLUGrad"), "re_lu_grad");
  EXPECT_EQ(snakeCaseName("relu"), "relu");
}

TEST(DescriptorLoader, MissingFileIsOneError) {
  std::vector<Diagnostic> errors;
  EXPECT_TRUE(loadDescriptorFile(inputPath("nowhere.json"), errors).empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("No such file or directory"), std::string::npos);
}

}  // namespace
