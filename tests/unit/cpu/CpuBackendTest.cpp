// The CPU backend on graph text: results, loops, in-place outputs, and its errors, exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "cpu/CpuBackend.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::cpu {
namespace {

NpyArray floats(const std::vector<int64_t>& shape, const std::vector<float>& values) {
  NpyArray a;
  a.dtype = DType::Float32;
  a.shape = shape;
  a.data.resize(values.size() * 4);
  std::memcpy(a.data.data(), values.data(), a.data.size());
  return a;
}

std::vector<float> valuesOf(const NpyArray& a) {
  std::vector<float> v(a.data.size() / 4);
  std::memcpy(v.data(), a.data.data(), a.data.size());
  return v;
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const CompileError& e) {
    const Diagnostic& d = e.diagnostic();
    return d.range.begin.str() + ": " + d.message;
  }
  return "";
}

TEST(CpuBackend, RunsElementwiseAndReductions) {
  GraphProgram p = GraphProgram::fromText("g.graph", R"(graph {
  input %a : f32[2,3]
  const %two : f32[] = [2.0]
  %b = Mul(%a, %two) : f32[2,3]
  %s = ReduceSum(%b) {axes = [1], keepdims = false} : f32[2]
  output b = %b
  output s = %s
}
)");
  NpyArray a = floats({2, 3}, {1, 2, 3, 4, 5, 6});
  auto out = p.run({{"a", NpyView::of(a)}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].first, "b");
  EXPECT_EQ(valuesOf(out[0].second), (std::vector<float>{2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(out[1].second.shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(valuesOf(out[1].second), (std::vector<float>{12, 30}));
}

TEST(CpuBackend, RunsGraphLoopsOnTheHost) {
  GraphProgram p = GraphProgram::fromText("g.graph", R"(graph {
  input %a : f32[4]
  %acc = Loop(%a) {start = 0, stop = 3, step = 1} : f32[4] (%i : s32[], %x : f32[4]) {
    %y = Add(%x, %a) : f32[4]
    yield %y
  }
  output out0 = %acc
}
)", 0);  // (loops on the host: none unrolled)
  NpyArray a = floats({4}, {1, 2, 3, 4});
  CpuRunStats stats;
  auto out = p.run({{"a", NpyView::of(a)}}, &stats);
  EXPECT_EQ(valuesOf(out[0].second), (std::vector<float>{4, 8, 12, 16}));  // a + 3a
  EXPECT_EQ(stats.pipelines, 1);  // the body, compiled once for its three iterations
  EXPECT_EQ(stats.arraysCopied, 1);  // a (the caller's) into the returned array, on entry
  EXPECT_EQ(stats.overwrites, 3);     // then each y into x's buffer
  EXPECT_EQ(stats.outputsCopied, 0);
  auto again = p.run({{"a", NpyView::of(a)}}, &stats);
  EXPECT_EQ(valuesOf(again[0].second), valuesOf(out[0].second));
}

// A loop's carried array computed into the array the run returns, updated there in place.
TEST(CpuBackend, ComputesLoopOutputsWhereTheyAreReturned) {
  GraphProgram p = GraphProgram::fromText("g.graph", R"(graph {
  input %a : f32[4]
  const %twos : f32[1] = [2.0]
  %start = Mul(%a, %a) : f32[4]
  %out = Loop(%start) {start = 0, stop = 4, step = 2} : f32[4] (%i : s32[], %x : f32[4]) {
    %y = SliceUpdate(%x, %twos, %i) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = [0]} : f32[4]
    yield %y
  }
  output out = %out
}
)", 0);  // (loops on the host: none unrolled)
  NpyArray a = floats({4}, {1, 2, 3, 4});
  CpuRunStats stats;
  auto out = p.run({{"a", NpyView::of(a)}}, &stats);
  EXPECT_EQ(valuesOf(out[0].second), (std::vector<float>{2, 4, 2, 16}));
  EXPECT_EQ(stats.inPlaceUpdates, 2);
  EXPECT_EQ(stats.arraysCopied, 0);
  EXPECT_EQ(stats.outputsCopied, 0);
}

// A slice update in a loop body writes into its array; the array is copied first only when another
// value may hold it: a graph input, a value read after the loop, one value carried twice.
TEST(CpuBackend, UpdatesSlicesInPlace) {
  GraphProgram p = GraphProgram::fromText("g.graph", R"(graph {
  input %a : f32[4]
  const %two : f32[] = [2.0]
  const %twos : f32[1] = [2.0]
  %z = Fill() {shape = [4], value = 0.0, dtype = "float32"} : f32[4]
  %fresh = Loop(%z) {start = 0, stop = 4, step = 1} : f32[4] (%i : s32[], %x : f32[4]) {
    %e = Slice(%a, %i) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = [0]} : f32[1]
    %d = Mul(%e, %two) : f32[1]
    %y = SliceUpdate(%x, %d, %i) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = [0]} : f32[4]
    yield %y
  }
  %input, %twice = Loop(%a, %a) {start = 0, stop = 2, step = 1} : f32[4], f32[4] (%j : s32[], %x1 : f32[4], %w : f32[4]) {
    %y1 = SliceUpdate(%x1, %twos, %j) {axes = [0], begin = [1], end = [2], step = [1], dynamic_axes = [0]} : f32[4]
    yield %y1, %w
  }
  %later = Loop(%z) {start = 3, stop = -1, step = -2} : f32[4] (%k : s32[], %x2 : f32[4]) {
    %y2 = SliceUpdate(%x2, %twos, %k) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = [0]} : f32[4]
    yield %y2
  }
  output fresh = %fresh
  output input = %input
  output twice = %twice
  output later = %later
  output z = %z
}
)", 0);  // (loops on the host: none unrolled)
  NpyArray a = floats({4}, {1, 2, 3, 4});
  CpuRunStats stats;
  auto out = p.run({{"a", NpyView::of(a)}}, &stats);
  EXPECT_EQ(valuesOf(out[0].second), (std::vector<float>{2, 4, 6, 8}));
  EXPECT_EQ(valuesOf(out[1].second), (std::vector<float>{1, 2, 2, 4}));  // a[1:3] = 2, a untouched
  EXPECT_EQ(valuesOf(out[2].second), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(valuesOf(out[3].second), (std::vector<float>{0, 2, 0, 2}));  // at 3, then 1
  EXPECT_EQ(valuesOf(out[4].second), (std::vector<float>{0, 0, 0, 0}));  // z, read after its loops
  EXPECT_EQ(valuesOf(a), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(stats.inPlaceUpdates, 8);
  EXPECT_EQ(stats.outputsCopied, 0);
  // each loop's output is returned: a carried input another value holds (z is returned too, a is
  // the caller's) is copied into it on entry, once per slot
  EXPECT_EQ(stats.arraysCopied, 4);
}

// The frontend's scan (passes of shifted slices, Hillis-Steele) runs as one sequential scan; a
// chain whose pass is read elsewhere is computed pass by pass, to the same values.
TEST(CpuBackend, RunsScanChains) {
  auto scanOf5 = [](bool passReadElsewhere) {
    return std::string(R"(graph {
  input %a : f32[5]
  %hi = Slice(%a) {axes = [0], begin = [1], end = [5], step = [1], dynamic_axes = []} : f32[4]
  %lo = Slice(%a) {axes = [0], begin = [0], end = [4], step = [1], dynamic_axes = []} : f32[4]
  %add = Add(%hi, %lo) : f32[4]
  %head = Slice(%a) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = []} : f32[1]
  %pass1 = Concat(%head, %add) {axis = 0} : f32[5]
  %hi_1 = Slice(%pass1) {axes = [0], begin = [2], end = [5], step = [1], dynamic_axes = []} : f32[3]
  %lo_1 = Slice(%pass1) {axes = [0], begin = [0], end = [3], step = [1], dynamic_axes = []} : f32[3]
  %add_1 = Add(%hi_1, %lo_1) : f32[3]
  %head_1 = Slice(%pass1) {axes = [0], begin = [0], end = [2], step = [1], dynamic_axes = []} : f32[2]
  %pass2 = Concat(%head_1, %add_1) {axis = 0} : f32[5]
  %hi_2 = Slice(%pass2) {axes = [0], begin = [4], end = [5], step = [1], dynamic_axes = []} : f32[1]
  %lo_2 = Slice(%pass2) {axes = [0], begin = [0], end = [1], step = [1], dynamic_axes = []} : f32[1]
  %add_2 = Add(%hi_2, %lo_2) : f32[1]
  %head_2 = Slice(%pass2) {axes = [0], begin = [0], end = [4], step = [1], dynamic_axes = []} : f32[4]
  %sum = Concat(%head_2, %add_2) {axis = 0} : f32[5]
  output sum = %sum
)") + (passReadElsewhere ? "  output pass1 = %pass1\n}\n" : "}\n");
  };
  NpyArray a = floats({5}, {1, 2, 3, 4, 5});
  CpuRunStats stats;
  GraphProgram whole = GraphProgram::fromText("g.graph", scanOf5(false));
  EXPECT_EQ(valuesOf(whole.run({{"a", NpyView::of(a)}}, &stats)[0].second), (std::vector<float>{1, 3, 6, 10, 15}));
  EXPECT_EQ(stats.scans, 1);
  GraphProgram passes = GraphProgram::fromText("g.graph", scanOf5(true));
  auto out = passes.run({{"a", NpyView::of(a)}}, &stats);
  EXPECT_EQ(stats.scans, 0);
  EXPECT_EQ(valuesOf(out[0].second), (std::vector<float>{1, 3, 6, 10, 15}));
  EXPECT_EQ(valuesOf(out[1].second), (std::vector<float>{1, 3, 5, 7, 9}));
}

// PYASC_CPU_SCHEDULER picks a Halide autoscheduler; a pipeline it cannot schedule (Adams2019 and a
// slice moving with the loop) gets the backend's schedules, and an unknown name is an error.
TEST(CpuBackend, UsesTheChosenAutoscheduler) {
  const std::string text = R"(graph {
  input %a : f32[8]
  const %two : f32[] = [2.0]
  %z = Fill() {shape = [8], value = 0.0, dtype = "float32"} : f32[8]
  %out = Loop(%z) {start = 0, stop = 8, step = 4} : f32[8] (%i : s32[], %x : f32[8]) {
    %e = Slice(%a, %i) {axes = [0], begin = [0], end = [4], step = [1], dynamic_axes = [0]} : f32[4]
    %d = Mul(%e, %two) : f32[4]
    %y = SliceUpdate(%x, %d, %i) {axes = [0], begin = [0], end = [4], step = [1], dynamic_axes = [0]} : f32[8]
    yield %y
  }
  output out = %out
}
)";
  NpyArray a = floats({8}, {1, 2, 3, 4, 5, 6, 7, 8});
  CpuRunStats stats;
  setenv("PYASC_CPU_SCHEDULER", "Adams2019", 1);
  GraphProgram p = GraphProgram::fromText("g.graph", text, 0);  // (the loop on the host: not unrolled)
  auto out = p.run({{"a", NpyView::of(a)}}, &stats);
  EXPECT_EQ(valuesOf(out[0].second), (std::vector<float>{2, 4, 6, 8, 10, 12, 14, 16}));
  EXPECT_EQ(stats.autoscheduleFallbacks, 1);  // the body; the Fill is Adams2019's
  EXPECT_EQ(stats.pipelines, 2);
  setenv("PYASC_CPU_SCHEDULER", "Greedy", 1);
  GraphProgram q = GraphProgram::fromText("g.graph", text);
  EXPECT_EQ(errorOf([&] { q.run({{"a", NpyView::of(a)}}); }),
            "g.graph: PYASC_CPU_SCHEDULER is 'Greedy'; the autoschedulers are Adams2019, Li2018 and Mullapudi2016");
  unsetenv("PYASC_CPU_SCHEDULER");
}

// A body that carries its induction variable on: each iteration sees the previous one's value.
TEST(CpuBackend, CarriesTheInductionVariable) {
  GraphProgram p = GraphProgram::fromText("g.graph", R"(graph {
  const %zero : s32[] = [0]
  %last, %before = Loop(%zero, %zero) {start = 0, stop = 3, step = 1} : s32[], s32[] (%i : s32[], %l : s32[], %b : s32[]) {
    yield %i, %l
  }
  output last = %last
  output before = %before
}
)", 0);  // (loops on the host: none unrolled)
  auto out = p.run({});
  int32_t last = 0, before = 0;
  std::memcpy(&last, out[0].second.data.data(), 4);
  std::memcpy(&before, out[1].second.data.data(), 4);
  EXPECT_EQ(last, 2);
  EXPECT_EQ(before, 1);
}

TEST(CpuBackend, NamesWhatItCannotRun) {
  EXPECT_EQ(errorOf([] { GraphProgram::fromText("m.om", ""); }),
            "m.om: the model has no graph section (written by a pyasc before format 1.1); compile it again to run it "
            "on the CPU backend");
  EXPECT_EQ(errorOf([] { GraphProgram::fromText("m.om", "graph {\n  input %a : f32[4]\n  %b = Frobnicate(%a) : f32[4]\n}\n"); }),
            "m.om: unknown operator 'Frobnicate'");
}

TEST(CpuBackend, ChecksItsInputs) {
  GraphProgram p = GraphProgram::fromText("m.om", "graph {\n  input %a : f32[4]\n  output out0 = %a\n}\n");
  EXPECT_EQ(errorOf([&] { p.run({}); }), "m.om: input 'a' has no value");
  NpyArray wrong = floats({3}, {1, 2, 3});
  EXPECT_EQ(errorOf([&] { p.run({{"a", NpyView::of(wrong)}}); }), "m.om: input 'a' is float32 of another shape than f32[4]");
}

// A long run of nodes (a loop unrolled by the frontend) compiles as several pipelines, cut where
// few values cross (one here: the array each step passes on), and computes what one would.
TEST(CpuBackend, SplitsLongRunsIntoPipelines) {
  const int steps = 150;  // each: x * 0.5 + max(x); x, read twice, is computed over its extent
  std::string text = "graph {\n  input %a : f32[3]\n  const %half : f32[] = [0.5]\n";
  std::string x = "%a";
  for (int k = 0; k < steps; ++k) {
    const std::string n = std::to_string(k);
    text += "  %m" + n + " = ReduceMax(" + x + ") {keepdims = false} : f32[]\n";
    text += "  %h" + n + " = Mul(" + x + ", %half) : f32[3]\n";
    text += "  %x" + n + " = Add(%h" + n + ", %m" + n + ") : f32[3]\n";
    x = "%x" + n;
  }
  text += "  output out0 = " + x + "\n}\n";
  GraphProgram p = GraphProgram::fromText("g.graph", text);
  NpyArray a = floats({3}, {0.25f, -3.0f, 1.5f});
  CpuRunStats stats;
  auto out = p.run({{"a", NpyView::of(a)}}, &stats);
  std::vector<float> want = {0.25f, -3.0f, 1.5f};
  for (int k = 0; k < steps; ++k) {
    const float m = std::max(want[0], std::max(want[1], want[2]));
    for (float& v : want) v = v * 0.5f + m;
  }
  EXPECT_EQ(valuesOf(out[0].second), want);
  EXPECT_GE(stats.pipelines, 2);
  EXPECT_LE(stats.pipelines, 8);
}

// The first place a cut may fall (64 roots) is inside a cumsum's chain of passes, and the places
// after it carry more values across: the chain still runs whole, as one sequential scan.
TEST(CpuBackend, NeverCutsInsideAScan) {
  const int n = 16, before = 62, after = 70;
  std::string text = "graph {\n  input %a : f32[16]\n  const %half : f32[] = [0.5]\n";
  std::string x = "%a";
  auto step = [&](const std::string& n_) {  // x * 0.5 + max(x): x, read twice, is one root
    text += "  %m" + n_ + " = ReduceMax(" + x + ") {keepdims = false} : f32[]\n";
    text += "  %h" + n_ + " = Mul(" + x + ", %half) : f32[16]\n";
    text += "  %x" + n_ + " = Add(%h" + n_ + ", %m" + n_ + ") : f32[16]\n";
    x = "%x" + n_;
  };
  for (int k = 0; k < before; ++k) step(std::to_string(k));
  for (int shift = 1; shift < n; shift *= 2) {  // the frontend's cumsum: Hillis-Steele passes
    const std::string s = std::to_string(shift), rest = std::to_string(n - shift), p = "%p" + s;
    text += "  " + p + "a = Slice(" + x + ") {axes = [0], begin = [" + s + "], end = [16], step = [1], dynamic_axes = []} : f32[" + rest + "]\n";
    text += "  " + p + "b = Slice(" + x + ") {axes = [0], begin = [0], end = [" + rest + "], step = [1], dynamic_axes = []} : f32[" + rest + "]\n";
    text += "  " + p + "c = Add(" + p + "a, " + p + "b) : f32[" + rest + "]\n";
    text += "  " + p + "d = Slice(" + x + ") {axes = [0], begin = [0], end = [" + s + "], step = [1], dynamic_axes = []} : f32[" + s + "]\n";
    text += "  " + p + " = Concat(" + p + "d, " + p + "c) {axis = 0} : f32[16]\n";
    x = p;
  }
  std::string kept;  // one value per later step, all read at the end: more values cross each place
  for (int k = before; k < before + after; ++k) {
    step(std::to_string(k));
    text += "  %k" + std::to_string(k) + " = Add(" + x + ", %half) : f32[16]\n";
  }
  std::string sum = "%k" + std::to_string(before);
  for (int k = before + 1; k < before + after; ++k) {
    text += "  %s" + std::to_string(k) + " = Add(" + sum + ", %k" + std::to_string(k) + ") : f32[16]\n";
    sum = "%s" + std::to_string(k);
  }
  text += "  output out0 = " + sum + "\n}\n";
  GraphProgram p = GraphProgram::fromText("g.graph", text);
  std::vector<float> a(n);
  for (int i = 0; i < n; ++i) a[i] = static_cast<float>((i * 7) % 5) - 1.5f;
  CpuRunStats stats;
  auto out = p.run({{"a", NpyView::of(floats({n}, a))}}, &stats);
  std::vector<double> want(a.begin(), a.end());
  auto ref = [&] {
    const double m = *std::max_element(want.begin(), want.end());
    for (double& v : want) v = v * 0.5 + m;
  };
  for (int k = 0; k < before; ++k) ref();
  for (int i = 1; i < n; ++i) want[i] += want[i - 1];
  std::vector<double> total(n, 0.0);
  for (int k = 0; k < after; ++k) {
    ref();
    for (int i = 0; i < n; ++i) total[i] += want[i] + 0.5;
  }
  const std::vector<float> got = valuesOf(out[0].second);
  for (int i = 0; i < n; ++i) EXPECT_NEAR(got[i], total[i], 1e-5 * std::abs(total[i])) << i;
  EXPECT_EQ(stats.scans, 1);
  EXPECT_GE(stats.pipelines, 2);
}

// np.sort and np.argsort(kind="stable") as the frontend writes them (callSort in
// frontend/Calls.cpp: every pair of a row compared) for x of f32[2,5], its nodes named with `p`.
std::string rankSort(const std::string& p, bool indices) {
  const std::string s3 = " : b8[2,5,5]\n", f3 = " : f32[2,5,5]\n";
  std::string t;
  auto line = [&](const std::string& name, const std::string& rest) { t += "  %" + p + name + " = " + rest; };
  line("e0", "ExpandDims(%a) {axes = [2]} : f32[2,5,1]\n");
  line("xi", "BroadcastTo(%" + p + "e0) {shape = [2, 5, 5]}" + f3);
  line("e1", "ExpandDims(%a) {axes = [1]} : f32[2,1,5]\n");
  line("xj", "BroadcastTo(%" + p + "e1) {shape = [2, 5, 5]}" + f3);
  line("index", "Range() {start = 0.0, stop = 5.0, step = 1.0, dtype = \"int32\"} : s32[5]\n");
  line("e2", "ExpandDims(%" + p + "index) {axes = [0]} : s32[1,5]\n");
  line("b2", "BroadcastTo(%" + p + "e2) {shape = [2, 5, 5]} : s32[2,5,5]\n");
  line("e3", "ExpandDims(%" + p + "index) {axes = [1]} : s32[5,1]\n");
  line("b3", "BroadcastTo(%" + p + "e3) {shape = [2, 5, 5]} : s32[2,5,5]\n");
  line("earlier", "Less(%" + p + "b2, %" + p + "b3)" + s3);
  line("nanI", "IsNan(%" + p + "xi)" + s3);
  line("nanJ", "IsNan(%" + p + "xj)" + s3);
  line("less", "Less(%" + p + "xj, %" + p + "xi)" + s3);
  line("notNanJ", "LogicalNot(%" + p + "nanJ)" + s3);
  line("nanFirst", "LogicalAnd(%" + p + "nanI, %" + p + "notNanJ)" + s3);
  line("smaller", "LogicalOr(%" + p + "less, %" + p + "nanFirst)" + s3);
  line("equal", "Equal(%" + p + "xj, %" + p + "xi)" + s3);
  line("bothNan", "LogicalAnd(%" + p + "nanI, %" + p + "nanJ)" + s3);
  line("same", "LogicalOr(%" + p + "equal, %" + p + "bothNan)" + s3);
  line("tie", "LogicalAnd(%" + p + "same, %" + p + "earlier)" + s3);
  line("before", "LogicalOr(%" + p + "smaller, %" + p + "tie)" + s3);
  line("counted", "Cast(%" + p + "before) {dtype = \"float32\"}" + f3);
  line("ranks", "ReduceSum(%" + p + "counted) {axes = [2], keepdims = false} : f32[2,5]\n");
  line("position", "Cast(%" + p + "index) {dtype = \"float32\"} : f32[5]\n");
  line("e4", "ExpandDims(%" + p + "ranks) {axes = [2]} : f32[2,5,1]\n");
  line("e5", "ExpandDims(%" + p + "position) {axes = [0]} : f32[1,5]\n");
  line("lands", "Equal(%" + p + "e4, %" + p + "e5)" + s3);
  if (indices) {
    line("own", "ExpandDims(%" + p + "index) {axes = [1]} : s32[5,1]\n");
    line("where", "Where(%" + p + "lands, %" + p + "own, %zero) : s32[2,5,5]\n");
    line("sorted", "ReduceSum(%" + p + "where) {axes = [1], keepdims = false} : s64[2,5]\n");
  } else {
    line("where", "Where(%" + p + "lands, %" + p + "xi, %lowest)" + f3);
    line("sorted", "ReduceMax(%" + p + "where) {axes = [1], keepdims = false} : f32[2,5]\n");
  }
  return t;
}

// Both run as one host sort each; the rank counts, also returned, are still computed; a
// construction with one comparison changed is not a sort and runs as written.
TEST(CpuBackend, RunsTheFrontendsRankSortsAsHostSorts) {
  const std::string sorts = "graph {\n  input %a : f32[2,5]\n  const %lowest : f32[] = [-inf]\n  const %zero : s32[] = [0]\n" +
                            rankSort("v_", false) + rankSort("i_", true) + "  output out0 = %v_sorted\n  output out1 = %i_sorted\n";
  const float nan = std::nanf("");
  NpyArray a = floats({2, 5}, {3, nan, 1, 3, -0.5f, 0, -0.0f, 2, -INFINITY, 7});  // (-0.0 ranks with 0.0)
  auto indicesOf = [](const NpyArray& x) {
    std::vector<int64_t> v(x.data.size() / 8);
    std::memcpy(v.data(), x.data.data(), x.data.size());
    return v;
  };
  const std::vector<int64_t> order = {4, 2, 0, 3, 1, 3, 0, 1, 2, 4};
  CpuRunStats stats;
  auto out = GraphProgram::fromText("g.graph", sorts + "}\n").run({{"a", NpyView::of(a)}}, &stats);
  EXPECT_EQ(stats.hostSorts, 2);
  const std::vector<float> sorted = valuesOf(out[0].second);
  EXPECT_EQ(std::vector<float>(sorted.begin(), sorted.begin() + 4), (std::vector<float>{-0.5f, 1, 3, 3}));
  EXPECT_TRUE(std::isnan(sorted[4]));
  EXPECT_EQ(std::vector<float>(sorted.begin() + 5, sorted.end()), (std::vector<float>{-INFINITY, 0, 0, 2, 7}));
  EXPECT_EQ(indicesOf(out[1].second), order);
  out = GraphProgram::fromText("g.graph", sorts + "  output ranks = %v_ranks\n}\n").run({{"a", NpyView::of(a)}}, &stats);
  EXPECT_EQ(stats.hostSorts, 2);
  EXPECT_EQ(indicesOf(out[1].second), order);
  EXPECT_EQ(valuesOf(out[2].second), (std::vector<float>{2, 4, 1, 3, 0, 1, 2, 3, 0, 4}));  // the ranks
  std::string changed = sorts;  // np.sort's xj <= xi instead of xj < xi: not a sort (argsort still is)
  const std::string less = "%v_less = Less(";
  changed.replace(changed.find(less), less.size(), "%v_less = LessEqual(");
  out = GraphProgram::fromText("g.graph", changed + "}\n").run({{"a", NpyView::of(a)}}, &stats);
  EXPECT_EQ(stats.hostSorts, 1);
  EXPECT_EQ(indicesOf(out[1].second), order);
}

// Indexing by integer arrays as the frontend writes it (asc-fe: every index compared with every
// position, the match kept by a maximum): m[rows, np.arange(7)], a 3-d index, np.eye(3)[rows % 3]
// (rows of a table) and an int32 table (the fill its smallest element) run as gathers.
TEST(CpuBackend, RunsTheFrontendsSelectionsAsGathers) {
  const std::string text = R"GRAPH(graph {
  input %m : f32[6,7]
  input %rows : s32[7]
  input %k : s32[5]
  const %cst : s32[] = [0]
  const %cst_1 : s32[] = [6]
  const %cst_2 : s32[] = [7]
  const %cst_3 : f32[] = [-inf]
  const %cst_4 : s64[2,2] = [0, 5, -1, 2]
  const %cst_5 : s64[2] = [1, 6]
  const %cst_6 : f32[3,3] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
  const %cst_7 : s32[] = [3]
  const %cst_8 : s32[] = [5]
  %range = Range() {start = 0.0, stop = 7.0, step = 1.0, dtype = "int64"} : s64[7]
  %less = Less(%rows, %cst) : b8[7]
  %add = Add(%rows, %cst_1) : s32[7]
  %where = Where(%less, %add, %rows) : s32[7]
  %mul = Mul(%where, %cst_2) : s32[7]
  %cast = Cast(%range) {dtype = "int32"} : s32[7]
  %less_1 = Less(%cast, %cst) : b8[7]
  %add_1 = Add(%cast, %cst_2) : s32[7]
  %where_1 = Where(%less_1, %add_1, %cast) : s32[7]
  %add_2 = Add(%mul, %where_1) : s32[7]
  %reshape = Reshape(%m) {shape = [42]} : f32[42]
  %reshape_1 = Reshape(%reshape) {shape = [1, 42]} : f32[1,42]
  %range_1 = Range() {start = 0.0, stop = 42.0, step = 1.0, dtype = "int32"} : s32[42]
  %reshape_2 = Reshape(%range_1) {shape = [1, 42]} : s32[1,42]
  %expanddims = ExpandDims(%add_2) {axes = [1]} : s32[7,1]
  %equal = Equal(%expanddims, %reshape_2) : b8[7,42]
  %where_2 = Where(%equal, %reshape_1, %cst_3) : f32[7,42]
  %reducemax = ReduceMax(%where_2) {axes = [1], keepdims = false} : f32[7]
  %expanddims_1 = ExpandDims(%cst_4) {axes = [2]} : s64[2,2,1]
  %expanddims_2 = ExpandDims(%cst_5) {axes = [0, 1]} : s64[1,1,2]
  %cast_1 = Cast(%expanddims_1) {dtype = "int32"} : s32[2,2,1]
  %less_2 = Less(%cast_1, %cst) : b8[2,2,1]
  %add_3 = Add(%cast_1, %cst_1) : s32[2,2,1]
  %where_3 = Where(%less_2, %add_3, %cast_1) : s32[2,2,1]
  %mul_1 = Mul(%where_3, %cst_2) : s32[2,2,1]
  %cast_2 = Cast(%expanddims_2) {dtype = "int32"} : s32[1,1,2]
  %less_3 = Less(%cast_2, %cst) : b8[1,1,2]
  %add_4 = Add(%cast_2, %cst_2) : s32[1,1,2]
  %where_4 = Where(%less_3, %add_4, %cast_2) : s32[1,1,2]
  %add_5 = Add(%mul_1, %where_4) : s32[2,2,2]
  %reshape_3 = Reshape(%m) {shape = [42]} : f32[42]
  %reshape_4 = Reshape(%reshape_3) {shape = [1, 1, 1, 42]} : f32[1,1,1,42]
  %range_2 = Range() {start = 0.0, stop = 42.0, step = 1.0, dtype = "int32"} : s32[42]
  %reshape_5 = Reshape(%range_2) {shape = [1, 1, 1, 42]} : s32[1,1,1,42]
  %expanddims_3 = ExpandDims(%add_5) {axes = [3]} : s32[2,2,2,1]
  %equal_1 = Equal(%expanddims_3, %reshape_5) : b8[2,2,2,42]
  %where_5 = Where(%equal_1, %reshape_4, %cst_3) : f32[2,2,2,42]
  %reducemax_1 = ReduceMax(%where_5) {axes = [3], keepdims = false} : f32[2,2,2]
  %mod = Mod(%rows, %cst_7) : s32[7]
  %less_4 = Less(%mod, %cst) : b8[7]
  %add_6 = Add(%mod, %cst_7) : s32[7]
  %where_6 = Where(%less_4, %add_6, %mod) : s32[7]
  %reshape_6 = Reshape(%cst_6) {shape = [3, 3]} : f32[3,3]
  %reshape_7 = Reshape(%reshape_6) {shape = [1, 3, 3]} : f32[1,3,3]
  %range_3 = Range() {start = 0.0, stop = 3.0, step = 1.0, dtype = "int32"} : s32[3]
  %reshape_8 = Reshape(%range_3) {shape = [1, 3]} : s32[1,3]
  %expanddims_4 = ExpandDims(%where_6) {axes = [1]} : s32[7,1]
  %equal_2 = Equal(%expanddims_4, %reshape_8) : b8[7,3]
  %expanddims_5 = ExpandDims(%equal_2) {axes = [2]} : b8[7,3,1]
  %where_7 = Where(%expanddims_5, %reshape_7, %cst_3) : f32[7,3,3]
  %reducemax_2 = ReduceMax(%where_7) {axes = [1], keepdims = false} : f32[7,3]
  %mod_1 = Mod(%rows, %cst_8) : s32[7]
  %less_5 = Less(%mod_1, %cst) : b8[7]
  %add_7 = Add(%mod_1, %cst_8) : s32[7]
  %where_8 = Where(%less_5, %add_7, %mod_1) : s32[7]
  %reshape_9 = Reshape(%k) {shape = [5]} : s32[5]
  %reshape_10 = Reshape(%reshape_9) {shape = [1, 5]} : s32[1,5]
  %range_4 = Range() {start = 0.0, stop = 5.0, step = 1.0, dtype = "int32"} : s32[5]
  %reshape_11 = Reshape(%range_4) {shape = [1, 5]} : s32[1,5]
  %expanddims_6 = ExpandDims(%where_8) {axes = [1]} : s32[7,1]
  %equal_3 = Equal(%expanddims_6, %reshape_11) : b8[7,5]
  %reducemin = ReduceMin(%reshape_10) {keepdims = false} : s32[]
  %where_9 = Where(%equal_3, %reshape_10, %reducemin) : s32[7,5]
  %reducemax_3 = ReduceMax(%where_9) {axes = [1], keepdims = false} : s32[7]
  output out0 = %reducemax
  output out1 = %reducemax_1
  output out2 = %reducemax_2
  output out3 = %reducemax_3
})GRAPH";
  std::vector<float> m(42);
  for (int k = 0; k < 42; ++k) m[k] = static_cast<float>(k);
  NpyArray table = floats({6, 7}, m);
  auto ints = [](const std::vector<int32_t>& v) {
    NpyArray a;
    a.dtype = DType::Int32;
    a.shape = {static_cast<int64_t>(v.size())};
    a.data.resize(v.size() * 4);
    std::memcpy(a.data.data(), v.data(), a.data.size());
    return a;
  };
  NpyArray rows = ints({5, 0, 3, -1, 2, 1, 4}), k = ints({10, -20, 30, -40, 50});
  CpuRunStats stats;
  auto out = GraphProgram::fromText("g.graph", text).run({{"m", NpyView::of(table)}, {"rows", NpyView::of(rows)}, {"k", NpyView::of(k)}}, &stats);
  EXPECT_EQ(stats.gathers, 4);
  EXPECT_EQ(valuesOf(out[0].second), (std::vector<float>{35, 1, 23, 38, 18, 12, 34}));
  EXPECT_EQ(valuesOf(out[1].second), (std::vector<float>{1, 6, 36, 41, 36, 41, 15, 20}));
  EXPECT_EQ(valuesOf(out[2].second), (std::vector<float>{0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0}));
  std::vector<int32_t> picked(7);
  std::memcpy(picked.data(), out[3].second.data.data(), 28);
  EXPECT_EQ(picked, (std::vector<int32_t>{10, 10, -40, 50, 30, -20, 50}));
}

// A loop of three trips holding a loop of two is unrolled (inner first: the outer body's copies
// read the inner trips' values), a loop of 20 trips runs on the host; the results are the same.
TEST(CpuBackend, UnrollsShortLoops) {
  GraphProgram p = GraphProgram::fromText("g.graph", R"(graph {
  input %a : f32[4]
  const %zero : s32[] = [0]
  const %half : f32[] = [0.5]
  %x, %n = Loop(%a, %zero) {start = 1, stop = 4, step = 1} : f32[4], s32[] (%i : s32[], %v : f32[4], %c : s32[]) {
    %y = Loop(%v) {start = 0, stop = 2, step = 1} : f32[4] (%j : s32[], %w : f32[4]) {
      %w2 = Mul(%w, %half) : f32[4]
      yield %w2
    }
    %fi = Cast(%i) {dtype = "float32"} : f32[]
    %z = Add(%y, %fi) : f32[4]
    %c2 = Add(%c, %i) : s32[]
    yield %z, %c2
  }
  %long = Loop(%x) {start = 0, stop = 20, step = 1} : f32[4] (%k : s32[], %u : f32[4]) {
    %u2 = Mul(%u, %half) : f32[4]
    yield %u2
  }
  output x = %x
  output n = %n
  output long = %long
}
)");
  NpyArray a = floats({4}, {1, -2, 8, 0.5f});
  CpuRunStats stats;
  auto out = p.run({{"a", NpyView::of(a)}}, &stats);
  std::vector<float> x = {1, -2, 8, 0.5f}, longer(4);
  for (int i = 1; i < 4; ++i)
    for (float& v : x) v = v * 0.25f + static_cast<float>(i);
  for (size_t k = 0; k < 4; ++k) longer[k] = x[k] * std::pow(0.5f, 20.0f);
  EXPECT_EQ(stats.loopsUnrolled, 2);
  EXPECT_EQ(valuesOf(out[0].second), x);
  int32_t n = 0;
  std::memcpy(&n, out[1].second.data.data(), 4);
  EXPECT_EQ(n, 6);
  EXPECT_EQ(valuesOf(out[2].second), longer);
}

// A Transpose by the identity permutation and a Reshape to the same shape are read through (no
// copies); one returned as an output stays.
TEST(CpuBackend, ForwardsIdentityNodes) {
  GraphProgram p = GraphProgram::fromText("g.graph", R"(graph {
  input %a : f32[2,3]
  %t = Transpose(%a) {perm = [0, 1]} : f32[2,3]
  %r = Reshape(%t) {shape = [2, 3]} : f32[2,3]
  %n = Neg(%r) : f32[2,3]
  %kept = Transpose(%n) {perm = [0, 1]} : f32[2,3]
  %flat = Reshape(%kept) {shape = [6]} : f32[6]
  output kept = %kept
  output flat = %flat
}
)");
  NpyArray a = floats({2, 3}, {1, -2, 3, -4, 5, -6});
  CpuRunStats stats;
  auto out = p.run({{"a", NpyView::of(a)}}, &stats);
  EXPECT_EQ(stats.identitiesForwarded, 2);
  EXPECT_EQ(valuesOf(out[0].second), (std::vector<float>{-1, 2, -3, 4, -5, 6}));
  EXPECT_EQ(valuesOf(out[1].second), (std::vector<float>{-1, 2, -3, 4, -5, 6}));
}

}  // namespace
}  // namespace pyasc::cpu
