// Registering descriptors: entries, call spellings, inference from shape rules and type columns, clashes.
#include "registry/DescriptorRegistration.h"
#include "tests/unit/registry/DescriptorTestSupport.h"

using namespace pyasc;
using namespace pyasc::registry;
using namespace pyasc::registry::testing;
using graph::TensorType;

namespace {

// An op with `inputs` (YAML flow entries) and one output `y`, registered into a copy of the built-ins.
class Registered {
 public:
  Registered(const std::string& yaml) : registry_(OpRegistry::builtin()) {
    descriptors_ = parseValid("custom.yaml", yaml);
    std::vector<Diagnostic> errors;
    registerDescriptors(descriptors_, registry_, errors);
    for (const auto& e : errors) ADD_FAILURE() << descriptorErrorLine(e);
  }

  // The inferred output types as text, or the inference error.
  std::string infer(const std::string& op, const std::vector<TensorType>& inputs,
                    const std::vector<graph::NamedAttr>& attrs = {}) const {
    graph::Node node;
    node.op = op;
    node.attrs = attrs;
    node.inputs.resize(inputs.size());
    std::string error = registry_.completeAttrs(node);
    if (!error.empty()) return error;
    std::vector<TensorType> outputs;
    if (!registry_.infer(node, inputs, outputs, error)) return error;
    std::string s;
    for (const auto& t : outputs) s += (s.empty() ? "" : " ") + t.str();
    return s;
  }

  const OpRegistry& registry() const { return registry_; }
  const std::vector<OpDescriptor>& descriptors() const { return descriptors_; }

 private:
  OpRegistry registry_;
  std::vector<OpDescriptor> descriptors_;
};

TensorType tensor(DType dtype, std::vector<int64_t> shape) { return TensorType{dtype, graph::knownShape(shape)}; }

const char* const kHeader = "- op: Custom\n  python_name: custom_relu\n";

TEST(DescriptorRegistration, AddsEntryAndCallSpelling) {
  const Registered r(readInput("ops.yaml"));
  const OpEntry* entry = r.registry().find("LeakyScale");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->category, OpCategory::Elementwise);
  EXPECT_EQ(dtypeSetString(entry->inputs[0].dtypes), "float16|float32");
  ASSERT_EQ(entry->attrs.size(), 2u);
  EXPECT_EQ(entry->attrs[1].name, "scale");
  EXPECT_FALSE(entry->attrs[1].defaultValue.has_value());
  EXPECT_EQ(r.registry().find("RowSum")->category, OpCategory::Reduce);
  EXPECT_TRUE(r.registry().find("SumAll")->inputs[1].variadic);

  const NumpyAlias* alias = r.registry().findAlias(customCallName("row_sum"), AliasForm::Function);
  ASSERT_NE(alias, nullptr);
  EXPECT_EQ(alias->op, "RowSum");
  ASSERT_EQ(alias->params.size(), 4u);
  EXPECT_EQ(alias->params[1].kind, ParamKind::Axes);
  EXPECT_FALSE(alias->params[1].required);
  EXPECT_EQ(alias->params[3].kind, ParamKind::String);
  EXPECT_EQ(findDescriptor(r.descriptors(), "RowSum")->implPath, inputPath("leaky_scale.py"));
  EXPECT_EQ(findDescriptor(r.descriptors(), "Add"), nullptr);
}

TEST(DescriptorRegistration, TypeColumnsGiveOutputDTypes) {
  const Registered r(readInput("ops.yaml"));
  EXPECT_EQ(r.infer("RowSum", {tensor(DType::Float16, {4, 8})}), "f32[4]");
  EXPECT_EQ(r.infer("LeakyScale", {tensor(DType::Float32, {3, 5})}, {{"scale", 2.0}}), "f32[3,5]");
  EXPECT_EQ(r.infer("LeakyScale", {tensor(DType::Int32, {3})}, {{"scale", 2.0}}),
            "LeakyScale operand 'x' must be float16|float32, found int32");
  EXPECT_EQ(r.infer("LeakyScale", {tensor(DType::Float16, {3})}), "LeakyScale needs the attribute 'scale'");
}

TEST(DescriptorRegistration, NoMatchingColumnNamesTheCombinations) {
  const Registered r(std::string(kHeader) +
                     "  shape_rule: broadcast\n"
                     "  input_desc: [{name: a, format: [ND, ND], type: [float16, float32]},\n"
                     "               {name: b, format: [ND, ND], type: [float16, float32]}]\n"
                     "  output_desc: [{name: y, format: [ND, ND], type: [float16, float32]}]\n");
  EXPECT_EQ(r.infer("Custom", {tensor(DType::Float16, {2, 1}), tensor(DType::Float16, {3})}), "f16[2,3]");
  EXPECT_EQ(r.infer("Custom", {tensor(DType::Float16, {2}), tensor(DType::Float32, {2})}),
            "Custom supports the input types (float16, float16), (float32, float32), found (float16, float32)");
  EXPECT_EQ(r.infer("Custom", {tensor(DType::Float32, {2}), tensor(DType::Float32, {3})}),
            "operands could not be broadcast together with shapes (2,) (3,)");
}

TEST(DescriptorRegistration, ReduceRuleReadsTheAxesAttribute) {
  const Registered r(readInput("ops.yaml"));
  const auto x = tensor(DType::Float32, {4, 8, 16});
  EXPECT_EQ(r.infer("RowSum", {x}), "f32[4,8]");
  EXPECT_EQ(r.infer("RowSum", {x}, {{"axes", std::vector<int64_t>{0, 2}}}), "f32[8]");
  EXPECT_EQ(r.infer("RowSum", {x}, {{"axes", std::vector<int64_t>{1}}, {"keepdims", true}}), "f32[4,1,16]");
  EXPECT_EQ(r.infer("RowSum", {x}, {{"axes", std::vector<int64_t>{3}}}),
            "axis 3 is out of bounds for array of dimension 3");
}

TEST(DescriptorRegistration, MatmulRule) {
  const Registered r(std::string(kHeader) +
                     "  shape_rule: matmul\n"
                     "  input_desc: [{name: a, format: [ND], type: [float16]}, {name: b, format: [ND], type: [float16]}]\n"
                     "  output_desc: [{name: c, format: [ND], type: [float32]}]\n");
  EXPECT_EQ(r.infer("Custom", {tensor(DType::Float16, {17, 33}), tensor(DType::Float16, {33, 130})}), "f32[17,130]");
  EXPECT_EQ(r.infer("Custom", {tensor(DType::Float16, {4, 2, 3}), tensor(DType::Float16, {3, 5})}), "f32[4,2,5]");
  EXPECT_EQ(r.infer("Custom", {tensor(DType::Float16, {2, 3}), tensor(DType::Float16, {4, 5})}),
            "Custom: inner dimensions differ: (2, 3) @ (4, 5)");
  EXPECT_EQ(r.registry().find("Custom")->category, OpCategory::Cube);
}

TEST(DescriptorRegistration, ExplicitRule) {
  const Registered r(std::string(kHeader) +
                     "  shape_rule: [[x.0, 16], [x.-1]]\n"
                     "  input_desc: [{name: x, format: [ND], type: [int8]}]\n"
                     "  output_desc: [{name: y, format: [ND], type: [int32]}, {name: z, format: [ND], type: [int8]}]\n");
  EXPECT_EQ(r.infer("Custom", {tensor(DType::Int8, {5, 7})}), "s32[5,16] s8[7]");
  EXPECT_EQ(r.infer("Custom", {tensor(DType::Int8, {})}),
            "Custom shape_rule x.0: axis 0 is out of bounds for array of dimension 0");
}

TEST(DescriptorRegistration, ClashWithBuiltinNeedsOverride) {
  const std::string body = "  input_desc: [{name: x, format: [ND], type: [float16]}]\n"
                           "  output_desc: [{name: y, format: [ND], type: [float16]}]\n";
  std::vector<Diagnostic> errors;
  OpRegistry registry = OpRegistry::builtin();
  EXPECT_FALSE(registerDescriptors(parseValid("c.yaml", "- op: Relu\n  impl: custom_relu.py\n" + body), registry, errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message,
            "op 'Relu': op: clashes with the built-in operator 'Relu'; rename the op or set \"override\": true to "
            "replace it");
  EXPECT_EQ(registry.find("Relu")->summary, OpRegistry::builtin().find("Relu")->summary);

  errors.clear();
  EXPECT_TRUE(registerDescriptors(parseValid("c.yaml", "- op: Relu\n  impl: custom_relu.py\n  override: true\n" + body),
                                  registry, errors));
  EXPECT_EQ(registry.find("Relu")->summary, "custom operator defined in custom_relu.py, called relu(...)");
  EXPECT_EQ(registry.find("Relu")->inputs[0].dtypes, dtypeBit(DType::Float16));
}

TEST(DescriptorRegistration, SecondDescriptorOfTheSameOpIsAnError) {
  const std::string relu = "- op: CustomRelu\n  input_desc: [{name: x, format: [ND], type: [float16]}]\n"
                           "  output_desc: [{name: y, format: [ND], type: [float16]}]\n";
  OpRegistry registry = OpRegistry::builtin();
  std::vector<Diagnostic> errors;
  EXPECT_TRUE(registerDescriptors(parseValid("a.yaml", relu), registry, errors));
  EXPECT_FALSE(registerDescriptors(parseValid("b.yaml", relu), registry, errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message, "op 'CustomRelu': op: already registered by another descriptor");
  EXPECT_FALSE(registerDescriptors(parseValid("c.yaml", "- op: OtherRelu\n  python_name: custom_relu\n" + relu.substr(17)),
                                   registry, errors));
  EXPECT_EQ(errors.back().message,
            "op 'OtherRelu': python_name: 'custom_relu' is already the name of op 'CustomRelu'");
}

TEST(DescriptorRegistration, ListFloatAttributesCannotBeRegistered) {
  OpRegistry registry = OpRegistry::builtin();
  std::vector<Diagnostic> errors;
  EXPECT_FALSE(registerDescriptors(
      parseValid("a.yaml", "- op: CustomRelu\n  input_desc: [{name: x, format: [ND], type: [float16]}]\n"
                           "  output_desc: [{name: y, format: [ND], type: [float16]}]\n"
                           "  attr: [{name: w, type: list_float, default_value: [0.5]}]\n"),
      registry, errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].range.begin.line, 4);
  EXPECT_EQ(registry.find("CustomRelu"), nullptr);
}

}  // namespace
