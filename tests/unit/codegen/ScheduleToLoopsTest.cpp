// schedule-to-loops: every loop primitive keeps what the definition computes (the loop nest,
// interpreted, equals the definition evaluated directly), and the nest has the shape asked for.
#include <gtest/gtest.h>

#include "codegen/loop/ScheduleToLoops.h"
#include "sdk/loop/LoopInterpreter.h"
#include "sdk/loop/LoopText.h"
#include "sdk/loop/LoopVerifier.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/target/Target.h"

using namespace pyasc;
using namespace pyasc::te;

namespace {

const Target& target910b() {
  static const Target t = loadTargetFile(std::string(PYASC_SOURCE_DIR) + "/targets/ascend910b.yaml");
  return t;
}

// out[i, j] = x[max(i - 1, 0), j] * 2 + x[i, min(j + 1, 6)] over x: f32[5, 7]
ComputeDef stencil() {
  ComputeDef d;
  d.name = "stencil";
  d.inputs = {{DType::Float32, {5, 7}}};
  d.vars = {{"i", 0, 5, false}, {"j", 0, 7, false}};
  ComputeExpr up = node(Op::Max, DType::Int32, {node(Op::Sub, DType::Int32, {var(0), intImm(1)}), intImm(0)});
  ComputeExpr right = node(Op::Min, DType::Int32, {node(Op::Add, DType::Int32, {var(1), intImm(1)}), intImm(6)});
  ComputeExpr a = node(Op::Mul, DType::Float32, {load(0, DType::Float32, {up, var(1)}), floatImm(2, DType::Float32)});
  d.body = node(Op::Add, DType::Float32, {a, load(0, DType::Float32, {var(0), right})});
  return d;
}

// out[i] = max over k in [1, 6) of x[i, k]
ComputeDef rowMax() {
  ComputeDef d;
  d.name = "row_max";
  d.inputs = {{DType::Float32, {3, 6}}};
  d.vars = {{"i", 0, 3, false}, {"k", 1, 5, true}};
  d.body = reduce("max", load(0, DType::Float32, {var(0), var(1)}), {1});
  return d;
}

std::vector<double> sample(int64_t n) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<double>((i * 37 + 11) % 23) - 9.5);
  return v;
}

Schedule parse(const std::string& text) { return parseSchedule(text, "test"); }

// Interprets the scheduled nest and compares with the definition evaluated directly.
void expectSameValues(const ComputeDef& d, const std::string& schedule) {
  SCOPED_TRACE(schedule);
  loop::Kernel k = codegen::scheduleToLoops(d, parse(schedule), target910b(), SourceLocation{});
  ASSERT_EQ(loop::verifyKernel(k), "") << loop::printKernel(k);
  std::vector<std::vector<double>> params;
  std::vector<std::vector<double>> inputs;
  for (const auto& in : d.inputs) {
    int64_t n = 1;
    for (int64_t e : in.shape) n *= e;
    inputs.push_back(sample(n));
    params.push_back(inputs.back());
  }
  std::vector<double> want = evaluateComputeDef(d, inputs);
  params.emplace_back(want.size(), 1e9);
  loop::interpretKernel(k, params);
  EXPECT_EQ(params.back(), want) << loop::printKernel(k);
}

TEST(ScheduleToLoops, EveryLoopPrimitiveKeepsTheValues) {
  for (const char* s : {"", "split j 3 -> j.o j.i", "split i 2 -> i.o i.i\nreorder j i.i", "fuse i j -> ij",
                        "tile i j 2 4 -> i.o j.o i.i j.i", "bind i 2", "bind i 8", "split j 4 -> j.o j.i\nvectorize j.i",
                        "fuse i j -> ij\nsplit ij 8 -> ij.o ij.i\nbind ij.o 3\nunroll ij.i", "split i0 2 -> a b\nbind a 4"}) {
    expectSameValues(stencil(), s);
  }
  for (const char* s : {"", "split k 2 -> k.o k.i", "reorder k i", "split k 2 -> k.o k.i\nreorder k.o i k.i", "bind i 2",
                        "split r0 3 -> k.o k.i\nvectorize i\nreorder k.o k.i i"}) {
    expectSameValues(rowMax(), s);
  }
}

TEST(ScheduleToLoops, SplitRunsTheLastTileOnItsOwn) {
  loop::Kernel k = codegen::scheduleToLoops(stencil(), parse("fuse i j -> ij\nsplit ij 8 -> o v\nbind o 5\nvectorize v"), target910b(),
                                            SourceLocation{});
  std::string text = loop::printKernel(k);
  // 35 elements in tiles of 8: four full tiles and one of 3, each a vectorized loop of constant extent;
  // the fused index, flattened again, is the tile's start plus the lane
  for (const char* line : {"  for o in #0:s32 extent #5:s32 cores {\n    if (lt:b8 o #4:s32) {\n",
                           "      for v in #0:s32 extent #8:s32 vectorized {\n        out[(add:s32 (mul:s32 o #8:s32) v)] = ",
                           "    } else {\n      for v.tail in #0:s32 extent #3:s32 vectorized {\n"
                           "        out[(add:s32 (mul:s32 o #8:s32) v.tail)] = "}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "\nnot in\n" << text;
  }
}

TEST(ScheduleToLoops, PrimitivesThatCannotApplySayWhy) {
  auto error = [](const ComputeDef& d, const char* s) {
    try {
      codegen::scheduleToLoops(d, parse(s), target910b(), SourceLocation{});
    } catch (const CompileError& e) {
      return e.diagnostic().message;
    }
    return std::string("no error");
  };
  EXPECT_EQ(error(stencil(), "vectorize i"), "vectorize: 'i' must be the innermost loop (reorder it first)");
  EXPECT_EQ(error(stencil(), "split j 9 -> a b"), "split: factor 9 exceeds the extent 7 of 'j'");
  EXPECT_EQ(error(stencil(), "split q 2 -> a b"), "split: no loop 'q' (loops: i, j)");
  EXPECT_EQ(error(stencil(), "fuse j i -> ji"), "fuse: 'j' must be the loop directly outside 'i'");
  EXPECT_EQ(error(rowMax(), "bind k 2"), "bind: a reduce axis cannot be spread over cores");
  EXPECT_EQ(error(rowMax(), "fuse i k -> ik"), "fuse: a reduce axis cannot be fused with an output axis");
}

}  // namespace
