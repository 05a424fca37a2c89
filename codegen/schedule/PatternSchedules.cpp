// Trace writing and replay for the elementwise, reduce and matmul templates.
#include "codegen/schedule/PatternSchedules.h"

#include <algorithm>
#include <utility>
#include <set>

namespace pyasc::codegen {

namespace {

ScheduleStep step(Primitive p, std::vector<std::string> names, std::vector<int64_t> numbers = {}, std::string scope = "",
                  std::vector<std::string> results = {}) {
  ScheduleStep s;
  s.primitive = p;
  s.names = std::move(names);
  s.numbers = std::move(numbers);
  s.scope = std::move(scope);
  s.results = std::move(results);
  return s;
}

[[noreturn]] void stepError(const ScheduleStep& s, const std::string& message) {
  throw CompileError(s.loc, std::string(te::primitiveName(s.primitive)) + ": " + message);
}

// Checks every step against what the template accepts: its primitives, its axes (an axis a split
// or tile created counts), and the memory scopes of its caches.
void checkSteps(const Schedule& trace, const char* pattern, const std::set<Primitive>& primitives,
                std::set<std::string> axes, const std::set<std::string>& scopes) {
  std::string accepted;
  for (Primitive p : primitives) accepted += (accepted.empty() ? "" : ", ") + std::string(te::primitiveName(p));
  for (const auto& s : trace.steps) {
    if (!primitives.count(s.primitive)) stepError(s, std::string("the ") + pattern + " template takes " + accepted);
    bool namesTensor = s.primitive == Primitive::CacheRead || s.primitive == Primitive::CacheWrite;
    if (!namesTensor) {
      for (const auto& a : s.names) {
        if (!axes.count(a)) {
          std::string known;
          for (const auto& k : axes) known += (known.empty() ? "" : ", ") + k;
          stepError(s, "no axis '" + a + "' in the " + pattern + " template (" + known + ")");
        }
      }
    }
    if (namesTensor && !scopes.count(s.scope)) {
      std::string known;
      for (const auto& k : scopes) known += (known.empty() ? "" : ", ") + k;
      stepError(s, "scope '" + s.scope + "' is not one of " + known + " for the " + pattern + " template");
    }
    if (s.primitive == Primitive::Tensorize && s.scope != "mmad") stepError(s, "the only intrinsic is mmad");
    for (const auto& r : s.results) axes.insert(r);
  }
}

// The one step of `p` in the trace, or null; two are an error.
const ScheduleStep* single(const Schedule& trace, Primitive p) {
  auto found = trace.find(p);
  if (found.size() > 1) stepError(*found[1], "given twice");
  return found.empty() ? nullptr : found[0];
}

// bind's count is a bound: a smaller input runs on as many cores as it has tiles
int atMost(int cores, int64_t tiles) { return static_cast<int>(std::min<int64_t>(cores, std::max<int64_t>(1, tiles))); }

SourceLocation placeOf(const Schedule& trace) {
  for (const auto& s : trace.steps)
    if (s.loc.valid()) return s.loc;
  return SourceLocation{};
}

}  // namespace

Schedule elementwiseTrace(const ElementwiseCompute& c, const ElementwiseSchedule& s) {
  Schedule t;
  for (size_t i = 0; i < c.inputs.size(); ++i)
    if (!c.inputs[i].inRegister) t.steps.push_back(step(Primitive::CacheRead, {"in" + std::to_string(i)}, {}, "UB"));
  for (size_t o = 0; o < c.outputs.size(); ++o) t.steps.push_back(step(Primitive::CacheWrite, {"out" + std::to_string(o)}, {}, "UB"));
  t.steps.push_back(step(Primitive::Split, {"i0"}, {s.tileElems}, "", {"i0.o", "i0.i"}));
  t.steps.push_back(step(Primitive::Bind, {"i0.o"}, {s.blockDim}));
  t.steps.push_back(step(Primitive::DoubleBuffer, {}, {s.bufferSets}));
  t.steps.push_back(step(Primitive::Vectorize, {"i0.i"}));
  return t;
}

ElementwiseSchedule replayElementwise(const Schedule& trace, const ElementwiseCompute& c, const ElementwiseSchedule& fallback,
                                      const Target& target, int maxCores) {
  checkSteps(trace, "elementwise",
             {Primitive::Split, Primitive::Bind, Primitive::DoubleBuffer, Primitive::Vectorize, Primitive::CacheRead,
              Primitive::CacheWrite},
             {"i0"}, {"UB"});
  int64_t tile = fallback.tileElems;
  int blockDim = fallback.blockDim, sets = fallback.bufferSets;
  if (const ScheduleStep* s = single(trace, Primitive::Split)) tile = s->numbers[0];
  if (const ScheduleStep* s = single(trace, Primitive::Bind)) blockDim = static_cast<int>(s->numbers[0]);
  if (const ScheduleStep* s = single(trace, Primitive::DoubleBuffer)) sets = static_cast<int>(s->numbers[0]);
  return elementwiseSchedule(c, target, tile, sets, atMost(blockDim, tile > 0 ? c.count / tile : 1), maxCores,
                             placeOf(trace));
}

// Row templates (reduce, softmax): rows i0 split into tiles of whole rows r0, two buffer sets.
Schedule rowTrace(int64_t rowsPerTile, int blockDim) {
  Schedule t;
  t.steps.push_back(step(Primitive::CacheRead, {"in0"}, {}, "UB"));
  t.steps.push_back(step(Primitive::Split, {"i0"}, {rowsPerTile}, "", {"i0.o", "i0.i"}));
  t.steps.push_back(step(Primitive::Bind, {"i0.o"}, {blockDim}));
  t.steps.push_back(step(Primitive::DoubleBuffer, {}, {2}));
  t.steps.push_back(step(Primitive::Vectorize, {"r0"}));
  return t;
}

// A row template's rows per tile and cores from a trace (the fallback's where it says nothing).
std::pair<int64_t, int> replayRows(const Schedule& trace, const char* pattern, int64_t rows, int blockDim) {
  checkSteps(trace, pattern,
             {Primitive::Split, Primitive::Bind, Primitive::DoubleBuffer, Primitive::Vectorize, Primitive::CacheRead,
              Primitive::CacheWrite},
             {"i0", "r0"}, {"UB"});
  if (const ScheduleStep* s = single(trace, Primitive::Split)) {
    if (s->names[0] != "i0") stepError(*s, std::string("the ") + pattern + " template tiles the rows i0 (r0 stays whole)");
    rows = s->numbers[0];
  }
  if (const ScheduleStep* s = single(trace, Primitive::Bind)) blockDim = static_cast<int>(s->numbers[0]);
  if (const ScheduleStep* s = single(trace, Primitive::DoubleBuffer); s && s->numbers[0] != 2) {
    stepError(*s, std::string("the ") + pattern + " template keeps two buffer sets");
  }
  return {rows, blockDim};
}

Schedule reduceTrace(const ReduceCompute&, const ReduceSchedule& s) { return rowTrace(s.unitsPerTile, s.blockDim); }

ReduceSchedule replayReduce(const Schedule& trace, const ReduceCompute& c, const ReduceSchedule& fallback,
                            const Target& target, int maxCores) {
  auto [units, blockDim] = replayRows(trace, "reduce", fallback.unitsPerTile, fallback.blockDim);
  return reduceSchedule(c, target, units, atMost(blockDim, units > 0 ? c.outer / units : 1), maxCores, placeOf(trace));
}

Schedule softmaxTrace(const SoftmaxCompute&, const SoftmaxSchedule& s) { return rowTrace(s.rowsPerTile, s.blockDim); }

SoftmaxSchedule replaySoftmax(const Schedule& trace, const SoftmaxCompute& c, const SoftmaxSchedule& fallback,
                              const Target& target, int maxCores) {
  auto [rows, blockDim] = replayRows(trace, "softmax", fallback.rowsPerTile, fallback.blockDim);
  return softmaxSchedule(c, target, rows, atMost(blockDim, rows > 0 ? c.rows / rows : 1), maxCores, placeOf(trace));
}

Schedule conv2dTrace(const Conv2dCompute&, const Conv2dSchedule& s) {
  Schedule t;
  if (s.engine == Conv2dEngine::Cube) {
    t.steps.push_back(step(Primitive::CacheRead, {"x"}, {}, "L1"));
    t.steps.push_back(step(Primitive::CacheRead, {"w"}, {}, "L1"));
    t.steps.push_back(step(Primitive::CacheRead, {"x"}, {}, "L0A"));
    t.steps.push_back(step(Primitive::CacheRead, {"w"}, {}, "L0B"));
    t.steps.push_back(step(Primitive::CacheWrite, {"y"}, {}, "L0C"));
    t.steps.push_back(step(Primitive::Tile, {"i0", "i1"}, {s.tm, s.tn}, "", {"i0.o", "i1.o", "i0.i", "i1.i"}));
    t.steps.push_back(step(Primitive::Split, {"r0"}, {s.tc}, "", {"r0.o", "r0.i"}));
    t.steps.push_back(step(Primitive::Bind, {"i0.o"}, {s.blockDim}));
    t.steps.push_back(step(Primitive::DoubleBuffer, {}, {s.l0cBuffers}));
    t.steps.push_back(step(Primitive::Tensorize, {"i0.i"}, {}, "mmad"));
  } else {
    t.steps.push_back(step(Primitive::CacheRead, {"x"}, {}, "UB"));
    t.steps.push_back(step(Primitive::Split, {"i0"}, {s.outRows}, "", {"i0.o", "i0.i"}));
    t.steps.push_back(step(Primitive::Bind, {"i0.o"}, {s.blockDim}));
    t.steps.push_back(step(Primitive::DoubleBuffer, {}, {2}));
    t.steps.push_back(step(Primitive::Vectorize, {"i1"}));
  }
  return t;
}

Schedule matmulTrace(const MatmulCompute&, const MatmulSchedule& s) {
  Schedule t;
  t.steps.push_back(step(Primitive::CacheRead, {"a"}, {}, "L1"));
  t.steps.push_back(step(Primitive::CacheRead, {"a"}, {}, "L0A"));
  t.steps.push_back(step(Primitive::CacheRead, {"b"}, {}, "L1"));
  t.steps.push_back(step(Primitive::CacheRead, {"b"}, {}, "L0B"));
  t.steps.push_back(step(Primitive::CacheWrite, {"c"}, {}, "L0C"));
  t.steps.push_back(step(Primitive::Tile, {"i0", "i1"}, {s.tm, s.tn}, "", {"i0.o", "i1.o", "i0.i", "i1.i"}));
  t.steps.push_back(step(Primitive::Split, {"r0"}, {s.tk}, "", {"r0.o", "r0.i"}));
  t.steps.push_back(step(Primitive::Bind, {"i0.o"}, {s.blockDim}));
  t.steps.push_back(step(Primitive::DoubleBuffer, {}, {s.l0cBuffers}));
  t.steps.push_back(step(Primitive::Tensorize, {"i0.i"}, {}, "mmad"));
  return t;
}

MatmulSchedule replayMatmul(const Schedule& trace, const MatmulCompute& c, const MatmulSchedule& fallback,
                            const Target& target, int maxCores) {
  checkSteps(trace, "matmul",
             {Primitive::Tile, Primitive::Split, Primitive::Bind, Primitive::DoubleBuffer, Primitive::Tensorize,
              Primitive::CacheRead, Primitive::CacheWrite},
             {"i0", "i1", "r0"}, {"L1", "L0A", "L0B", "L0C"});
  int64_t tm = fallback.tm, tn = fallback.tn, tk = fallback.tk;
  int blockDim = fallback.blockDim;
  if (const ScheduleStep* s = single(trace, Primitive::Tile)) {
    if (s->names[0] != "i0" || s->names[1] != "i1") stepError(*s, "the matmul template tiles i0 (rows) and i1 (columns)");
    tm = s->numbers[0];
    tn = s->numbers[1];
  }
  if (const ScheduleStep* s = single(trace, Primitive::Split)) {
    if (s->names[0] != "r0") stepError(*s, "the matmul template splits the contraction r0 (rows and columns are tiled)");
    tk = s->numbers[0];
  }
  if (const ScheduleStep* s = single(trace, Primitive::Bind)) blockDim = static_cast<int>(s->numbers[0]);
  int64_t tiles = tm > 0 && tn > 0 ? ((c.m + tm - 1) / tm) * ((c.n + tn - 1) / tn) * c.batch : 1;
  MatmulSchedule r = matmulSchedule(c, target, tm, tn, tk, atMost(blockDim, tiles), maxCores, placeOf(trace));
  if (const ScheduleStep* s = single(trace, Primitive::DoubleBuffer)) {
    if (s->numbers[0] < 1 || s->numbers[0] > r.l0cBuffers) {
      stepError(*s, std::to_string(s->numbers[0]) + " L0C buffers: this tile allows 1 to " + std::to_string(r.l0cBuffers));
    }
    r.l0cBuffers = static_cast<int>(s->numbers[0]);
  }
  return r;
}

}  // namespace pyasc::codegen
