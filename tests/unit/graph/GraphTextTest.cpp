// Graph IR: printing, parsing back exactly, and verifier errors.
#include <gtest/gtest.h>

#include "sdk/graph/Graph.h"
#include "sdk/graph/Parser.h"
#include "sdk/graph/Printer.h"
#include "sdk/graph/Verifier.h"

using namespace pyasc;
using namespace pyasc::graph;

namespace {

const char* const kLoopGraph =
    "graph {\n"
    "  input %data : f32[1024] loc(\"in.py\":1:1)\n"
    "  input %n : s32[] scalar\n"
    "  input %r : f64[4,N] random(rand, seed = 7, stream = 1, offset = 16)\n"
    "  input %g : f64[4] random(randn, unseeded, stream = 0, offset = 0)\n"
    "  const %two : f32[] = [2.0]\n"
    "  const %idx : s32[3] = [1, -2, 3]\n"
    "  %d = Loop(%data) {start = 0, stop = 1024, step = 128} : f32[1024] (%i : s32[], %acc : f32[1024]) {\n"
    "    %s = Slice(%acc, %i) {begin = [0], end = [128], step = [1], dynamic_axes = [0]} : f32[128]\n"
    "    %m = Mul(%s, %two) : f32[128] loc(\"in.py\":4:13)\n"
    "    %u = SliceUpdate(%acc, %m, %i) {begin = [0], end = [128], step = [1], dynamic_axes = [0]} : f32[1024]\n"
    "    yield %u\n"
    "  } loc(\"in.py\":3:1)\n"
    "  %a, %b = Split(%d) {axis = 0, sections = 2, scale = 0.5, name = \"x\\\"y\", flag = false} : f32[512], "
    "f32[512]@NCHW\n"
    "  output out0 = %a\n"
    "  output data = %d\n"
    "}\n";

}  // namespace

TEST(GraphText, RoundTripsExactly) {
  Graph g = parseGraph("t.graph", kLoopGraph);
  EXPECT_EQ(printGraph(g), kLoopGraph);
  DiagnosticEngine diags;
  EXPECT_TRUE(verifyGraph(g, diags)) << diags.renderAll();
}

TEST(GraphText, FloatsKeepEveryBit) {
  Graph g;
  ValueId c = g.addValue("c", TensorType{DType::Float32, knownShape({3}), Layout::ND});
  g.constants.push_back(GraphConstant{c, encodeConstant(DType::Float32, {0.1f, 1e-30f, -3.0})});
  std::string text = printGraph(g);
  EXPECT_EQ(text, "graph {\n  const %c : f32[3] = [0.1, 1e-30, -3.0]\n}\n");
  EXPECT_EQ(parseGraph("t", text).constants[0].bytes, g.constants[0].bytes);
}

TEST(GraphText, UniqueNames) {
  Graph g;
  TensorType t{DType::Float32, {}, Layout::ND};
  EXPECT_EQ(g.value(g.addValue("x", t)).name, "x");
  EXPECT_EQ(g.value(g.addValue("x", t)).name, "x_1");
  EXPECT_EQ(g.value(g.addValue("x", t)).name, "x_2");
}

TEST(GraphText, ParseErrorsPointAtTheToken) {
  try {
    parseGraph("bad.graph", "graph {\n  %a = Add(%b, %b) : f32[2]\n}\n");
    FAIL() << "expected an error";
  } catch (const CompileError& e) {
    EXPECT_STREQ(e.what(), "bad.graph:2:12: error: use of undefined value '%b'");
  }
  try {
    parseGraph("bad.graph", "graph {\n  input %a : q32[2]\n}\n");
    FAIL() << "expected an error";
  } catch (const CompileError& e) {
    EXPECT_STREQ(e.what(), "bad.graph:2:14: error: unknown element type 'q32'");
  }
}

TEST(GraphVerifier, RejectsUseOutsideTheLoopBody) {
  Graph g = parseGraph("t",
                       "graph {\n"
                       "  input %x : f32[4]\n"
                       "  %y = Loop(%x) {start = 0, stop = 2, step = 1} : f32[4] (%i : s32[], %c : f32[4]) {\n"
                       "    %z = Neg(%c) : f32[4]\n"
                       "    yield %z\n"
                       "  }\n"
                       "  %w = Add(%z, %y) : f32[4]\n"
                       "}\n");
  DiagnosticEngine diags;
  EXPECT_FALSE(verifyGraph(g, diags));
  EXPECT_EQ(diags.renderAll(), "error: Add uses '%z' where its definition does not dominate\n");
}

TEST(GraphVerifier, RejectsLoopTypeChange) {
  Graph g = parseGraph("t",
                       "graph {\n"
                       "  input %x : f32[4]\n"
                       "  %y = Loop(%x) {start = 0, stop = 2, step = 1} : f32[4] (%i : s32[], %c : f32[4]) {\n"
                       "    %z = Cast(%c) {dtype = \"float16\"} : f16[4]\n"
                       "    yield %z\n"
                       "  }\n"
                       "}\n");
  DiagnosticEngine diags;
  EXPECT_FALSE(verifyGraph(g, diags));
  EXPECT_EQ(diags.renderAll(), "error: Loop carried value 0 changes type: f32[4] in, f16[4] yielded\n");
}
