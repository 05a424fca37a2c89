// compileToGraph end to end: outputs, recovery with several errors, strict dtypes, verification.
#include <gtest/gtest.h>

#include "frontend/Frontend.h"
#include "registry/OpRegistry.h"
#include "sdk/graph/Printer.h"
#include "sdk/graph/Verifier.h"

using namespace pyasc;
using namespace pyasc::graph;

namespace {

Graph compile(const std::string& text, frontend::FrontendOptions options, DiagnosticEngine& diags) {
  return frontend::compileToGraph("p.py", text, options, diags);
}

frontend::FrontendOptions entry(const std::string& name, std::vector<std::string> inputs) {
  frontend::FrontendOptions options;
  options.entry = name;
  EXPECT_TRUE(frontend::parseSpecs(inputs, {}, options).empty());
  return options;
}

frontend::FrontendOptions entryWithHalfInput() { return entry("f", {"x:float16[64]"}); }

}  // namespace

TEST(Frontend, ReturnsAndInPlaceParametersBecomeOutputs) {
  DiagnosticEngine diags;
  Graph g = compile("def f(a, b):\n    b[0] = 1.0\n    return a + 1, a * 2\n",
                    entry("f", {"a:float32[4]", "b:float32[2]"}), diags);
  ASSERT_FALSE(diags.hasErrors()) << diags.renderAll();
  ASSERT_EQ(g.outputs.size(), 3u);
  EXPECT_EQ(g.outputs[0].name, "out0");
  EXPECT_EQ(g.outputs[1].name, "out1");
  EXPECT_EQ(g.outputs[2].name, "b");
  registry::RegistryTypeChecker checker(registry::OpRegistry::builtin());
  EXPECT_TRUE(verifyGraph(g, diags, &checker)) << diags.renderAll();
}

TEST(Frontend, ReportsSeveralErrorsInOneRun) {
  DiagnosticEngine diags;
  compile("import numpy as np\na = np.ones(3, dtype=np.float32)\nb = a + np.ones(4, dtype=np.float32)\n"
          "c = np.sums(a)\nd = undefined + 1\ne = b + c\n",
          frontend::FrontendOptions{}, diags);
  EXPECT_EQ(diags.errorCount(), 3) << diags.renderAll();
}

TEST(Frontend, StrictDtypesRejectsWeakScalars) {
  DiagnosticEngine diags;
  frontend::FrontendOptions options = entry("f", {"a:float32[4]"});
  options.strictDtypes = true;
  compile("import numpy as np\ndef f(a):\n    return a * np.array(2, dtype=np.float32) + a\n", options, diags);
  EXPECT_FALSE(diags.hasErrors()) << diags.renderAll();
  compile("def f(a):\n    return a * 2\n", options, diags);
  ASSERT_EQ(diags.errorCount(), 1);
  EXPECT_EQ(diags.diagnostics().back().message,
            "TypeError: Cannot infer dtype for operation 'multiply' between 'Tensor[float32]' and 'int'");
}

TEST(Frontend, KeptLoopHasInductionVariableAndCarriedValue) {
  DiagnosticEngine diags;
  frontend::FrontendOptions options = entry("f", {"a:int32[12]"});
  options.vectorizeLoops = false;  // pyasc's O0 and O1
  Graph g = compile("def f(a):\n    for i in range(2, 10, 2):\n        a[i] += 1\n    return a\n", options, diags);
  ASSERT_FALSE(diags.hasErrors()) << diags.renderAll();
  ASSERT_EQ(g.body.nodes.size(), 1u);
  const Node& loop = g.body.nodes[0];
  ASSERT_TRUE(loop.isLoop());
  EXPECT_EQ(loop.intAttr("start"), 2);
  EXPECT_EQ(loop.intAttr("stop"), 10);
  EXPECT_EQ(loop.intAttr("step"), 2);
  ASSERT_EQ(loop.body().arguments.size(), 2u);
  EXPECT_EQ(g.value(loop.body().arguments[0]).name, "i");
  EXPECT_EQ(g.type(loop.body().arguments[0]).str(), "s32[]");
  EXPECT_EQ(g.outputs[0].value, loop.outputs[0]);
  EXPECT_EQ(g.outputs[1].name, "a");
}

TEST(Frontend, VectorizedLoopIsOneArrayUpdate) {
  DiagnosticEngine diags;
  Graph g = compile("def f(a):\n    for i in range(2, 10, 2):\n        a[i] += 1\n    return a\n",
                    entry("f", {"a:int32[12]"}), diags);
  ASSERT_FALSE(diags.hasErrors()) << diags.renderAll();
  for (const Node& n : g.body.nodes) EXPECT_FALSE(n.isLoop());
  ASSERT_FALSE(g.body.nodes.empty());
  const Node& update = g.body.nodes.back();
  EXPECT_EQ(update.op, "SliceUpdate");
  EXPECT_EQ(update.intListAttr("begin"), std::vector<int64_t>{2});
  EXPECT_EQ(update.intListAttr("step"), std::vector<int64_t>{2});
}

TEST(Frontend, AstDumpAndSyntaxErrors) {
  DiagnosticEngine diags;
  EXPECT_EQ(frontend::dumpAst("p.py", "x = 1\n", diags), "Module \"p.py\"\n  Assign @1:1+5\n    target: Name x @1:1+1\n"
                                                        "    value: Int 1 @1:5+1\n");
  EXPECT_EQ(frontend::dumpAst("p.py", "x = (1\n", diags), "");
  EXPECT_EQ(diags.renderAll(), "p.py:1:5: error: '(' was never closed\nx = (1\n    ^\n");
}

TEST(Frontend, CustomOperatorsAreCalledByTheirPythonName) {
  registry::OpRegistry withCustom = registry::OpRegistry::builtin();
  registry::OpEntry entry;
  entry.name = "CustomRelu";
  entry.category = registry::OpCategory::Elementwise;
  entry.inputs = {registry::OperandSpec{"x", registry::kFloatTypes, false}};
  entry.outputs = {registry::OperandSpec{"y", registry::kFloatTypes, false}};
  entry.infer = [](registry::InferContext& ctx) {
    ctx.outputs.push_back(ctx.inputs[0]);
    return true;
  };
  withCustom.add(entry);
  withCustom.addAlias(registry::NumpyAlias{"custom.custom_relu", registry::AliasForm::Function, "CustomRelu",
                                           {registry::NumpyParam{"x", registry::ParamKind::Tensor, "", {}, true, false}},
                                           {}, ""});
  frontend::FrontendOptions options = entryWithHalfInput();
  options.registry = &withCustom;
  DiagnosticEngine diags;
  Graph g = compile("def f(x):\n    return custom_relu(x) * 2\n", options, diags);
  ASSERT_FALSE(diags.hasErrors()) << diags.renderAll();
  EXPECT_EQ(g.body.nodes[0].op, "CustomRelu");
  compile("def f(x):\n    return custom_relu(x)\n", entryWithHalfInput(), diags);
  EXPECT_EQ(diags.diagnostics().back().message, "name 'custom_relu' is not defined");
}
