// Every validation error of a descriptor, with its position and exact message.
#include <cctype>

#include "tests/unit/registry/DescriptorTestSupport.h"

using namespace pyasc::registry::testing;

namespace {

// A valid YAML op (impl custom_relu.py exists next to it) with `extra` lines appended to its mapping.
std::string reluYaml(const std::string& extra, const std::string& input = "{name: x, format: [ND], type: [float16]}") {
  return "- op: CustomRelu\n  input_desc: [" + input + "]\n  output_desc: [{name: y, format: [ND], type: [float16]}]\n" +
         extra;
}

struct Case {
  const char* what;
  const char* file;
  std::string text;
  const char* expected;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.what; }

class DescriptorValidation : public ::testing::TestWithParam<Case> {};

TEST_P(DescriptorValidation, ReportsExactly) {
  const Case& c = GetParam();
  EXPECT_EQ(problemsOf(c.file, c.text), c.expected) << c.what;
}

INSTANTIATE_TEST_SUITE_P(
    Errors, DescriptorValidation,
    ::testing::Values(
        Case{"json syntax", "a.json", "[{\"op\": \"X\",}]",
             "1:13: not valid JSON: syntax error while parsing object key - unexpected '}'; expected string literal"},
        Case{"yaml syntax", "a.yaml", "- op: [X\n", "2:1: not valid YAML: end of sequence flow not found"},
        Case{"top level scalar", "a.yaml", "42\n",
             "1:1: the top level must be a list of ops or one op object, found an integer"},
        Case{"empty list", "a.json", "[]", "1:1: the file declares no ops"},
        Case{"entry not an object", "a.json", "[\"CustomRelu\"]", "1:2: op #1: an op must be an object, found a string"},
        Case{"missing op", "a.yaml", "- input_desc: []\n",
             "1:3: op #1: op: missing; every op needs its type name, e.g. \"op\": \"AddCustom\""},
        Case{"op not a name", "a.yaml", "- op: Add Custom\n",
             "1:7: op #1: op: 'Add Custom' is not an operator type name (letters, digits and '_')"},
        Case{"unknown field", "a.yaml", reluYaml("  tolerence: {float16: 1.0e-3}\n"),
             "4:3: op 'CustomRelu': tolerence: unknown field; did you mean 'tolerance'?"},
        Case{"unknown field far from any", "a.yaml", reluYaml("  author: me\n"),
             "4:3: op 'CustomRelu': author: unknown field (fields: op, input_desc, output_desc, attr, impl, "
             "python_name, shape_rule, tolerance, override, pattern)"},
        Case{"unknown tensor field", "a.yaml", reluYaml("", "{name: x, format: [ND], type: [float16], shape: [1]}"),
             "2:57: op 'CustomRelu': input_desc 'x': shape: unknown field (fields: name, param_type, format, type)"},
        Case{"format/type lengths", "a.yaml", reluYaml("", "{name: x, format: [ND, ND], type: [float16]}"),
             "2:34: op 'CustomRelu': input_desc 'x': format: 2 formats but 1 type; format and type pair one to one"},
        Case{"unknown dtype", "a.yaml", reluYaml("", "{name: x, format: [ND], type: [bfloat16]}"),
             "2:47: op 'CustomRelu': input_desc 'x': type: unknown type 'bfloat16'; did you mean 'float16'?"},
        Case{"unknown format", "a.yaml", reluYaml("", "{name: x, format: [NHCW], type: [float16]}"),
             "2:35: op 'CustomRelu': input_desc 'x': format: unknown format 'NHCW' (formats: ND, NCHW, NHWC, "
             "NC1HWC0, FRACTAL_Z, FRACTAL_NZ)"},
        Case{"bad param_type", "a.yaml", reluYaml("", "{name: x, param_type: always, format: [ND], type: [float16]}"),
             "2:38: op 'CustomRelu': input_desc 'x': param_type: 'always' is not required, optional or dynamic"},
        Case{"missing type", "a.yaml", reluYaml("", "{name: x, format: [ND]}"),
             "2:16: op 'CustomRelu': input_desc 'x': missing field 'type'; format and type list the supported "
             "combinations"},
        Case{"tensor name not an identifier", "a.yaml", reluYaml("", "{name: 1x, format: [ND], type: [float16]}"),
             "2:23: op 'CustomRelu': input_desc[0]: name: '1x' is not an identifier"},
        Case{"duplicate input", "a.yaml",
             reluYaml("  shape_rule: broadcast\n",
                      "{name: x, format: [ND], type: [float16]}, {name: x, format: [ND], type: [float16]}"),
             "2:58: op 'CustomRelu': input_desc 'x': name: duplicate input name 'x'"},
        Case{"output named like an input", "a.yaml",
             "- op: CustomRelu\n  input_desc: [{name: x, format: [ND], type: [float16]}]\n"
             "  output_desc: [{name: x, format: [ND], type: [float16]}]\n",
             "3:17: op 'CustomRelu': output_desc 'x': name: duplicate output name 'x'"},
        Case{"dynamic output", "a.yaml",
             "- op: CustomRelu\n  input_desc: [{name: x, format: [ND], type: [float16]}]\n"
             "  output_desc: [{name: y, param_type: dynamic, format: [ND], type: [float16]}]\n",
             "3:17: op 'CustomRelu': output_desc 'y': param_type: outputs cannot be dynamic; list each output"},
        Case{"type columns", "a.yaml", reluYaml("", "{name: x, format: [ND, ND], type: [float16, float32]}"),
             "3:17: op 'CustomRelu': output_desc 'y': type: 1 type but 'x' has 2; column i of every input and "
             "output is one supported combination"},
        Case{"duplicate op", "a.yaml", reluYaml("") + reluYaml(""),
             "4:7: op 'CustomRelu': op: 'CustomRelu' is already declared at line 1 of this file"},
        Case{"duplicate python_name", "a.yaml",
             reluYaml("") + "- op: CustomRelu2\n  python_name: custom_relu\n  input_desc: [{name: x, format: [ND], "
                            "type: [float16]}]\n  output_desc: [{name: y, format: [ND], type: [float16]}]\n",
             "4:7: op 'CustomRelu2': python_name: 'custom_relu' is already declared at line 1 of this file"},
        Case{"duplicate key", "a.json",
             "[{\"op\": \"CustomRelu\", \"op\": \"CustomRelu\", \"input_desc\": [{\"name\": \"x\", \"format\": [\"ND\"], "
             "\"type\": [\"float16\"]}], \"output_desc\": [{\"name\": \"y\", \"format\": [\"ND\"], \"type\": [\"float16\"]}]}]",
             "1:23: op 'CustomRelu': op: appears twice"},
        Case{"attr default int", "a.yaml", reluYaml("  attr: [{name: n, type: int, default_value: 1.5}]\n"),
             "4:46: op 'CustomRelu': attr 'n': default_value: 1.5 does not match type int"},
        Case{"attr default list element", "a.yaml",
             reluYaml("  attr: [{name: axes, type: list_int, default_value: [0, one]}]\n"),
             "4:58: op 'CustomRelu': attr 'axes': default_value: 'one' does not match type list_int"},
        Case{"attr default bool", "a.yaml", reluYaml("  attr: [{name: b, type: bool, default_value: 1}]\n"),
             "4:47: op 'CustomRelu': attr 'b': default_value: 1 does not match type bool"},
        Case{"attr unknown type", "a.yaml", reluYaml("  attr: [{name: n, type: integer}]\n"),
             "4:26: op 'CustomRelu': attr 'n': type: 'integer' is not an attribute type (types: int, float, bool, "
             "str, list_int, list_float, list_bool, list_str)"},
        Case{"attr dynamic", "a.yaml", reluYaml("  attr: [{name: n, param_type: dynamic, type: int}]\n"),
             "4:32: op 'CustomRelu': attr 'n': param_type: an attribute is required or optional, not dynamic"},
        Case{"duplicate attr", "a.yaml", reluYaml("  attr: [{name: n, type: int}, {name: n, type: int}]\n"),
             "4:39: op 'CustomRelu': attr 'n': name: duplicate attribute name 'n'"},
        Case{"shape_rule names no input", "a.yaml", reluYaml("  shape_rule: same_as:input\n"),
             "4:15: op 'CustomRelu': shape_rule: 'same_as:input' names no input"},
        Case{"shape_rule reduce without attr", "a.yaml", reluYaml("  shape_rule: reduce:axis\n"),
             "4:15: op 'CustomRelu': shape_rule: 'reduce:axis' needs an int or list_int attribute holding the axes"},
        Case{"shape_rule matmul with one input", "a.yaml", reluYaml("  shape_rule: matmul\n"),
             "4:15: op 'CustomRelu': shape_rule: 'matmul' needs two inputs"},
        Case{"shape_rule unknown", "a.yaml", reluYaml("  shape_rule: elementwise\n"),
             "4:15: op 'CustomRelu': shape_rule: 'elementwise' is not same_as:<input>, broadcast, reduce:<axes attr>, "
             "matmul, compute or a list of dimensions"},
        Case{"shape_rule bad dimension", "a.yaml", reluYaml("  shape_rule: [x.0, y.1]\n"),
             "4:21: op 'CustomRelu': shape_rule: 'y.1' is not a dimension: use an extent (16) or <input>.<axis> (x.0)"},
        Case{"shape_rule per-output count", "a.yaml", reluYaml("  shape_rule: [[1], [2]]\n"),
             "4:15: op 'CustomRelu': shape_rule: 2 shapes for 1 outputs"},
        Case{"no inputs, no rule", "a.yaml",
             "- op: Ones\n  impl: custom_relu.py\n  output_desc: [{name: y, format: [ND], type: [float16]}]\n",
             "1:3: op 'Ones': shape_rule: an op without inputs needs an explicit list of output dimensions"},
        Case{"impl missing", "a.yaml", reluYaml("  impl: relu_impl.py\n"),
             "4:9: op 'CustomRelu': impl: file 'relu_impl.py' not found (impl is relative to the descriptor's folder)"},
        Case{"default impl missing", "a.yaml", reluYaml("  python_name: my_relu\n"),
             "1:3: op 'CustomRelu': impl: file 'my_relu.py' not found (the default impl is <python_name>.py next "
             "to the descriptor)"},
        Case{"python_name not an identifier", "a.yaml", reluYaml("  python_name: 2relu\n  impl: custom_relu.py\n"),
             "4:16: op 'CustomRelu': python_name: '2relu' is not a Python identifier"},
        Case{"python_name a keyword", "a.yaml", reluYaml("  python_name: lambda\n  impl: custom_relu.py\n"),
             "4:16: op 'CustomRelu': python_name: 'lambda' is not a Python identifier"},
        Case{"empty output_desc", "a.yaml",
             "- op: CustomRelu\n  input_desc: [{name: x, format: [ND], type: [float16]}]\n  output_desc: []\n",
             "3:16: op 'CustomRelu': output_desc: an op needs at least one output"},
        Case{"missing output_desc", "a.yaml", "- op: CustomRelu\n  input_desc: [{name: x, format: [ND], type: [float16]}]\n",
             "1:3: op 'CustomRelu': output_desc: an op needs at least one output"},
        Case{"tolerance not a number", "a.yaml", reluYaml("  tolerance: {float16: loose}\n"),
             "4:24: op 'CustomRelu': tolerance: float16: 'loose' is not a non-negative number"},
        Case{"tolerance negative", "a.yaml", reluYaml("  tolerance: {float32: -1.0e-5}\n"),
             "4:24: op 'CustomRelu': tolerance: float32: -1.0e-5 is not a non-negative number"},
        Case{"tolerance not an object", "a.yaml", reluYaml("  tolerance: 1.0e-3\n"),
             "4:14: op 'CustomRelu': tolerance: expected an object like {float16: 2e-3, float32: 1e-5}, found 1.0e-3"},
        Case{"tolerance unknown dtype", "a.yaml", reluYaml("  tolerance: {flot16: 1.0e-3}\n"),
             "4:15: op 'CustomRelu': tolerance: unknown type 'flot16'; did you mean 'float16'?"},
        Case{"override not a bool", "a.yaml", reluYaml("  override: yes\n"),
             "4:13: op 'CustomRelu': override: expected true or false, found 'yes'"},
        Case{"unknown pattern", "a.yaml", reluYaml("  pattern: elementwize\n"),
             "4:12: op 'CustomRelu': pattern: 'elementwize' is not auto, elementwise, reduce, matmul, composite or compute; "
             "did you "
             "mean 'elementwise'?"},
        Case{"not a descriptor extension", "a.txt", "op: CustomRelu\n",
             "0:0: a descriptor is a .json, .yaml or .yml file, not '.txt'"}),
    [](const ::testing::TestParamInfo<Case>& info) {  // "format/type lengths" -> format_type_lengths
      std::string name = info.param.what;
      for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return name;
    });

}  // namespace
