// Schedules as primitive traces: every template's choice prints, parses back and replays to the same
// schedule; hand-written traces change it; what a template cannot apply is reported at the step.
#include "codegen/schedule/PatternSchedules.h"

#include <gtest/gtest.h>

#include "tests/unit/codegen/KernelTestSupport.h"

using namespace pyasc;
using namespace pyasc::codegen;

namespace {

ElementwiseCompute addCompute(int64_t count, DType t) {
  ElementwiseCompute c;
  c.name = "add";
  c.inputs = {{t, false}, {t, false}};
  c.outputs = {te::binary(te::Prim::VAdd, te::placeholder(0, t), te::placeholder(1, t))};
  c.count = count;
  return c;
}

ReduceCompute rowSum(int64_t rows, int64_t cols) {
  ReduceCompute r;
  r.name = "rows";
  r.dtype = DType::Float32;
  r.outer = rows;
  r.reduce = cols;
  return r;
}

MatmulCompute product(int64_t m, int64_t k, int64_t n) {
  MatmulCompute c;
  c.name = "mm";
  c.inType = c.outType = DType::Float16;
  c.m = m;
  c.k = k;
  c.n = n;
  return c;
}

te::Schedule reparsed(const te::Schedule& s) { return te::parseSchedule(s.str(), "trace"); }

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const CompileError& e) {
    return e.diagnostic().message;
  }
  return "";
}

TEST(ScheduleTrace, ElementwiseChoicesReplayToThemselves) {
  Target t = pyasc::testing::testTarget("ascend910b");
  for (int64_t count : {int64_t{1}, int64_t{1000}, int64_t{1} << 20, int64_t{16} << 20}) {
    ElementwiseCompute c = addCompute(count, DType::Float16);
    ElementwiseSchedule s = scheduleElementwise(c, t, true, t.vectorCores);
    te::Schedule trace = elementwiseTrace(c, s);
    EXPECT_EQ(reparsed(trace).str(), trace.str());
    ElementwiseSchedule back = replayElementwise(reparsed(trace), c, ElementwiseSchedule{}, t, t.vectorCores);
    EXPECT_EQ(back.str(), s.str()) << trace.str();
  }
}

TEST(ScheduleTrace, ReduceAndMatmulChoicesReplayToThemselves) {
  Target t = pyasc::testing::testTarget("ascend910b");
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{1, 17}, {4096, 1024}, {300, 4000}}) {
    ReduceCompute r = rowSum(rows, cols);
    ReduceSchedule s = scheduleReduce(r, t, t.vectorCores);
    ReduceSchedule back = replayReduce(reparsed(reduceTrace(r, s)), r, ReduceSchedule{}, t, t.vectorCores);
    EXPECT_EQ(back.str(), s.str());
  }
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{1, 17}, {4096, 4096}, {64, 300}}) {
    SoftmaxCompute sm;
    sm.name = "softmax";
    sm.dtype = DType::Float32;
    sm.rows = rows;
    sm.cols = cols;
    SoftmaxSchedule s = scheduleSoftmax(sm, t, t.vectorCores);
    SoftmaxSchedule back = replaySoftmax(reparsed(softmaxTrace(sm, s)), sm, SoftmaxSchedule{}, t, t.vectorCores);
    EXPECT_EQ(back.str(), s.str());
  }
  for (auto [m, k, n] : {std::tuple<int64_t, int64_t, int64_t>{16, 16, 16}, {2048, 2048, 2048}, {17, 33, 130}}) {
    MatmulCompute c = product(m, k, n);
    MatmulSchedule s = scheduleMatmul(c, t, t.cubeCores);
    MatmulSchedule back = replayMatmul(reparsed(matmulTrace(c, s)), c, MatmulSchedule{}, t, t.cubeCores);
    EXPECT_EQ(back.str(), s.str());
  }
}

TEST(ScheduleTrace, HandWrittenStepsChangeTheSchedule) {
  Target t = pyasc::testing::testTarget("ascend910b");
  ElementwiseCompute c = addCompute(1 << 20, DType::Float32);
  ElementwiseSchedule solver = scheduleElementwise(c, t, true, t.vectorCores);
  te::Schedule mine = te::parseSchedule("split i0 1024 -> i0.o i0.i\nbind i0.o 7\ndouble_buffer 3\n", "mine");
  ElementwiseSchedule s = replayElementwise(mine, c, solver, t, t.vectorCores);
  EXPECT_EQ(s.tileElems, 1024);
  EXPECT_EQ(s.blockDim, 7);
  EXPECT_EQ(s.bufferSets, 3);
  // an omitted primitive keeps the solver's choice; bind is capped by the tiles there are
  ElementwiseSchedule few = replayElementwise(te::parseSchedule("bind i0 40\n", "mine"), addCompute(512, DType::Float32),
                                              solver, t, t.vectorCores);
  EXPECT_EQ(few.blockDim, (512 + few.tileElems - 1) / few.tileElems);
  EXPECT_LT(few.blockDim, 40);

  MatmulCompute mm = product(512, 512, 512);
  MatmulSchedule m = replayMatmul(te::parseSchedule("tile i0 i1 64 128 -> i0.o i1.o i0.i i1.i\nsplit r0 32 -> r0.o r0.i\n", "mine"),
                                  mm, scheduleMatmul(mm, t, t.cubeCores), t, t.cubeCores);
  EXPECT_EQ(m.tm, 64);
  EXPECT_EQ(m.tn, 128);
  EXPECT_EQ(m.tk, 32);
}

TEST(ScheduleTrace, TemplatesReportWhatTheyCannotApply) {
  Target t = pyasc::testing::testTarget("ascend910b");
  ElementwiseCompute c = addCompute(1 << 20, DType::Float32);
  ElementwiseSchedule solver = scheduleElementwise(c, t, true, t.vectorCores);
  auto replay = [&](const std::string& text) {
    return errorOf([&] { replayElementwise(te::parseSchedule(text, "mine"), c, solver, t, t.vectorCores); });
  };
  EXPECT_EQ(replay("tensorize i0 mmad\n"),
            "tensorize: the elementwise template takes split, cache_read, cache_write, double_buffer, vectorize, bind");
  EXPECT_EQ(replay("split j 256 -> j.o j.i\n"), "split: no axis 'j' in the elementwise template (i0)");
  EXPECT_EQ(replay("cache_read in0 L1\n"), "cache_read: scope 'L1' is not one of UB for the elementwise template");
  EXPECT_EQ(replay("split i0 100 -> i0.o i0.i\n"),
            "elementwise kernel 'add': a tile of 100 elements is not a positive multiple of 256");
  EXPECT_EQ(replay("split i0 65536 -> i0.o i0.i\n"),
            "elementwise kernel 'add': 16 UB tiles of 262144 bytes need 4194304 bytes, but UB holds 196608 bytes");
  MatmulCompute mm = product(512, 512, 512);
  EXPECT_EQ(errorOf([&] {
              replayMatmul(te::parseSchedule("tile i0 i1 512 512 -> i0.o i1.o i0.i i1.i\n", "mine"), mm,
                           scheduleMatmul(mm, t, t.cubeCores), t, t.cubeCores);
            }),
            "matmul 'mm': tile 512x512x" + std::to_string(scheduleMatmul(mm, t, t.cubeCores).tk) +
                ": L0A holds 65536 bytes; the tile needs 262144");
  EXPECT_EQ(errorOf([] { te::parseSchedule("split i0 -> a b\n", "bad.txt"); }),
            "schedule: split takes 2 operand(s) in 'split i0 -> a b'");
  EXPECT_EQ(errorOf([] { te::parseSchedule("parallel i0\n", "bad.txt"); }),
            "schedule: unknown primitive 'parallel' (split, tile, reorder, fuse, compute_at, compute_inline, cache_read, cache_write, "
            "double_buffer, vectorize, tensorize, bind, unroll) in 'parallel i0'");
}

}  // namespace
