// Random te.compute definitions under random schedules (fixed seed): every schedule the stages accept
// lowers, runs on the simulator with the sanitizer, and gives the definition's values (integers bit
// for bit, floats within the rounding of float32 arithmetic); enough of them apply, and every loop
// primitive appears in enough applied ones.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "codegen/loop/LowerCompute.h"
#include "sdk/support/Diagnostics.h"
#include "sim/Simulator.h"

using namespace pyasc;
using namespace pyasc::te;

namespace {

const Target& bundled910b() {
  static const Target t = loadTargetFile(std::string(PYASC_SOURCE_DIR) + "/targets/ascend910b.yaml");
  return t;
}

// A random definition: rank 1 to 3, small extents; the body a small tree of +, -, *, max, min over
// loads of one or two inputs at the output's indices, shifted and clamped, and constants; sometimes a
// sum or max over a reduce axis of the last input dimension, sometimes followed by an epilogue.
// float32 or int32.
ComputeDef randomDef(std::mt19937& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  ComputeDef d;
  d.name = "random";
  int rank = 1 + pick(3);
  DType t = pick(3) == 0 ? DType::Int32 : DType::Float32;
  std::vector<int64_t> shape;
  for (int a = 0; a < rank; ++a) {
    int64_t e = a + 1 == rank ? 8 * (1 + pick(12)) + pick(2) * pick(7) : 1 + pick(9);
    shape.push_back(e);
    d.vars.push_back(IterVar{"i" + std::to_string(a), 0, e, false});
  }
  bool reduction = pick(4) == 0;
  int64_t reduceExtent = 2 + pick(6);
  std::vector<int64_t> inShape = shape;
  if (reduction) {
    inShape.push_back(reduceExtent);
    d.vars.push_back(IterVar{"r0", 0, reduceExtent, true});
  }
  int inputs = 1 + pick(2);
  for (int i = 0; i < inputs; ++i) d.inputs.push_back(ComputeInput{t, inShape});
  auto index = [&](int a) -> ComputeExpr {  // axis a, maybe shifted and clamped into range
    ComputeExpr v = var(a);
    if (pick(3) != 0 || reduction) return v;
    int64_t shift = pick(2) ? 1 : -1;
    ComputeExpr moved = node(Op::Add, DType::Int32, {v, intImm(shift)});
    return shift > 0 ? node(Op::Min, DType::Int32, {moved, intImm(shape[static_cast<size_t>(a)] - 1)})
                     : node(Op::Max, DType::Int32, {moved, intImm(0)});
  };
  auto leaf = [&]() -> ComputeExpr {
    if (pick(5) == 0) return t == DType::Int32 ? intImm(pick(7) - 3, t) : floatImm(0.25 * (pick(9) - 4), t);
    std::vector<ComputeExpr> idx;
    for (int a = 0; a < rank; ++a) idx.push_back(index(a));
    if (reduction) idx.push_back(var(rank));
    return load(pick(inputs), t, idx);
  };
  std::function<ComputeExpr(int)> tree = [&](int depth) -> ComputeExpr {
    if (depth == 0 || pick(3) == 0) return leaf();
    static const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Max, Op::Min};
    return node(ops[pick(5)], t, {tree(depth - 1), tree(depth - 1)});
  };
  ComputeExpr body = tree(2);
  if (body->op == Op::Int || body->op == Op::Float) body = node(Op::Add, t, {body, leaf()});
  bool hasLoad = false;
  std::function<void(const ComputeExpr&)> scan = [&](const ComputeExpr& e) {
    hasLoad = hasLoad || e->op == Op::Load;
    for (const auto& a : e->args) scan(a);
  };
  scan(body);
  if (!hasLoad) body = node(Op::Add, t, {body, leaf()});
  d.body = reduction ? reduce(pick(2) ? "sum" : "max", body, {rank}) : body;
  if (reduction && pick(2) == 0) {  // an epilogue after the reduction
    ComputeExpr c = t == DType::Int32 ? intImm(pick(5) - 2, t) : floatImm(0.5 * (pick(5) - 2), t);
    d.body = node(pick(2) ? Op::Mul : Op::Add, t, {d.body, c});
  }
  return d;
}

// Two te.computes: `producer` (a random definition) and a consumer over the same axes reading it at
// its element or next to it (clamped), as its input `inputs.size()` (the reference reads it so).
struct Staged {
  ComputeDef producer, consumer;
};
Staged randomStaged(std::mt19937& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  Staged st;
  st.producer = randomDef(rng);
  st.producer.name = "producer";
  ComputeDef& c = st.consumer;
  c.name = "random";
  c.inputs = st.producer.inputs;
  c.inputs.push_back(ComputeInput{st.producer.dtype(), st.producer.shape()});
  const int rank = st.producer.rank();
  for (int a = 0; a < rank; ++a) c.vars.push_back(IterVar{"i" + std::to_string(a), 0, st.producer.vars[static_cast<size_t>(a)].extent, false});
  const DType t = st.producer.dtype();
  const int slot = static_cast<int>(st.producer.inputs.size());
  auto read = [&](bool shifted) {
    std::vector<ComputeExpr> idx;
    for (int a = 0; a < rank; ++a) idx.push_back(var(a));
    if (shifted) {  // the next element along the last axis, clamped
      int64_t last = c.vars[static_cast<size_t>(rank - 1)].extent - 1;
      idx.back() = node(Op::Min, DType::Int32, {node(Op::Add, DType::Int32, {var(rank - 1), intImm(1)}), intImm(last)});
    }
    return load(slot, t, idx);
  };
  ComputeExpr scale = t == DType::Int32 ? intImm(2, t) : floatImm(0.5, t);
  c.body = node(Op::Mul, t, {read(false), scale});
  if (!reductionOf(st.producer.body) && pick(2) == 0) c.body = node(Op::Add, t, {c.body, read(pick(2) == 0)});
  return st;
}

void addStep(Schedule& s, Primitive p, std::vector<std::string> names, std::vector<int64_t> numbers, std::string scope = "",
             std::vector<std::string> results = {}) {
  s.steps.push_back(ScheduleStep{p, std::move(names), std::move(numbers), std::move(scope), std::move(results), {}});
}

// A matrix product of float32 matrices, B stored K×N or N×K (transposed).
ComputeDef randomContraction(std::mt19937& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  int64_t m = 1 + pick(80), n = 1 + pick(80), k = 1 + pick(100);
  bool transB = pick(2) == 0;
  ComputeDef d;
  d.name = "random";
  d.inputs = {ComputeInput{DType::Float32, {m, k}}, ComputeInput{DType::Float32, transB ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}}};
  d.vars = {IterVar{"i", 0, m, false}, IterVar{"j", 0, n, false}, IterVar{"r", 0, k, true}};
  ComputeExpr b = transB ? load(1, DType::Float32, {var(1), var(2)}) : load(1, DType::Float32, {var(2), var(1)});
  d.body = reduce("sum", node(Op::Mul, DType::Float32, {load(0, DType::Float32, {var(0), var(2)}), b}), {2});
  return d;
}

// A schedule of a contraction tensorized to mmad: maybe tiles of the output and a split of the
// contraction ordered outside the tile, the tile's rows/columns loop tensorized, cores, double
// buffering of the contraction's chunks, caches naming the cube's buffers.
Schedule randomCubeSchedule(std::mt19937& rng, const ComputeDef& d) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  auto upTo = [](int64_t f, int64_t extent) { return std::min(f, extent); };
  Schedule s;
  const bool tiled = pick(3) != 0, split = pick(3) != 0;
  if (tiled) {
    addStep(s, Primitive::Tile, {"i0", "i1"}, {upTo(16 * (1 + pick(4)), d.vars[0].extent), upTo(16 * (1 + pick(4)), d.vars[1].extent)}, "",
            {"i0.o", "i1.o", "i0.i", "i1.i"});
  }
  if (split) addStep(s, Primitive::Split, {"r0"}, {upTo(8 * (1 + pick(8)), d.vars[2].extent)}, "", {"r0.o", "r0.i"});
  if (tiled && split) addStep(s, Primitive::Reorder, {"i0.o", "i1.o", "r0.o", "i0.i", "i1.i", "r0.i"}, {});
  if (!tiled && split) addStep(s, Primitive::Reorder, {"r0.o", "i0", "i1", "r0.i"}, {});
  addStep(s, Primitive::Tensorize, {tiled ? "i0.i" : "i0"}, {}, "mmad");
  if (tiled && pick(2) == 0) addStep(s, Primitive::Bind, {"i0.o"}, {1 + pick(4)});
  if (split && pick(2) == 0) addStep(s, Primitive::DoubleBuffer, {}, {2});
  if (pick(3) == 0) addStep(s, Primitive::CacheRead, {"a"}, {}, pick(2) ? "L1" : "L0A");
  if (pick(3) == 0) addStep(s, Primitive::CacheWrite, {"c"}, {}, "L0C");
  return s;
}

// The loops as the schedule has shaped them so far (names as schedule-to-loops gives them).
struct LoopShape {
  std::string name;
  int64_t extent;
  bool reduce;
};

// A random schedule: a few loop transformations, then (mostly) bind, vectorize the innermost loop,
// double_buffer, cache_read/cache_write to UB. Arguments may not fit: such sequences are rejected.
Schedule randomSchedule(std::mt19937& rng, const ComputeDef& d) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::vector<LoopShape> loops;
  for (const auto& v : d.vars) loops.push_back({v.name, v.extent, v.reduce});
  Schedule s;
  // mostly a divisor of the extent (a split with a remainder cannot be split or fused again)
  auto factorOf = [&](int64_t extent) {
    std::vector<int64_t> divisors;
    for (int64_t f = 1; f <= extent; ++f) {
      if (extent % f == 0) divisors.push_back(f);
    }
    if (pick(4) != 0) return divisors[static_cast<size_t>(pick(static_cast<int>(divisors.size())))];
    return std::max<int64_t>(1, std::min<int64_t>(extent, 1 + pick(static_cast<int>(extent))));
  };
  int steps = 1 + pick(4);
  for (int k = 0; k < steps; ++k) {
    size_t at = static_cast<size_t>(pick(static_cast<int>(loops.size())));
    switch (pick(6)) {
      case 0: {  // split
        LoopShape l = loops[at];
        int64_t f = factorOf(l.extent);
        addStep(s, Primitive::Split, {l.name}, {f}, "", {l.name + ".o", l.name + ".i"});
        loops[at] = {l.name + ".i", f, l.reduce};
        loops.insert(loops.begin() + static_cast<long>(at), LoopShape{l.name + ".o", (l.extent + f - 1) / f, l.reduce});
        break;
      }
      case 1: {  // fuse two adjacent loops of the same kind
        std::vector<size_t> pairs;
        for (size_t i = 0; i + 1 < loops.size(); ++i) {
          if (loops[i].reduce == loops[i + 1].reduce) pairs.push_back(i);
        }
        if (pairs.empty()) break;
        at = pairs[static_cast<size_t>(pick(static_cast<int>(pairs.size())))];
        LoopShape a = loops[at], b = loops[at + 1];
        addStep(s, Primitive::Fuse, {a.name, b.name}, {}, "", {a.name + "." + b.name});
        loops[at] = {a.name + "." + b.name, a.extent * b.extent, a.reduce};
        loops.erase(loops.begin() + static_cast<long>(at) + 1);
        break;
      }
      case 2: {  // reorder two loops
        size_t other = static_cast<size_t>(pick(static_cast<int>(loops.size())));
        if (other == at) break;
        addStep(s, Primitive::Reorder, {loops[at].name, loops[other].name}, {});
        if (at > other) std::swap(loops[at], loops[other]);  // the named order fills the sorted places
        break;
      }
      case 4: {  // reorder the two innermost loops
        if (loops.size() < 2) break;
        size_t n = loops.size();
        addStep(s, Primitive::Reorder, {loops[n - 1].name, loops[n - 2].name}, {});
        std::swap(loops[n - 1], loops[n - 2]);
        break;
      }
      case 3: {  // tile two adjacent loops
        if (at + 1 >= loops.size()) break;
        LoopShape a = loops[at], b = loops[at + 1];
        int64_t fa = factorOf(a.extent), fb = factorOf(b.extent);
        addStep(s, Primitive::Tile, {a.name, b.name}, {fa, fb}, "", {a.name + ".o", b.name + ".o", a.name + ".i", b.name + ".i"});
        loops[at] = {a.name + ".o", (a.extent + fa - 1) / fa, a.reduce};
        loops[at + 1] = {b.name + ".o", (b.extent + fb - 1) / fb, b.reduce};
        loops.insert(loops.begin() + static_cast<long>(at) + 2, LoopShape{a.name + ".i", fa, a.reduce});
        loops.insert(loops.begin() + static_cast<long>(at) + 3, LoopShape{b.name + ".i", fb, b.reduce});
        break;
      }
      default: break;
    }
  }
  bool bind = pick(5) < 3 && loops.size() > 1 && !loops[0].reduce;
  bool vectorized = pick(25) != 0;
  bool buffered = vectorized && loops.size() > 1 && pick(2) == 0;
  // unroll a loop that is neither bound, vectorized nor double-buffered
  std::vector<size_t> unrollable;
  for (size_t i = bind ? 1 : 0; i + (buffered ? 2 : 1) < loops.size(); ++i) unrollable.push_back(i);
  if (!unrollable.empty() && pick(2) == 0) addStep(s, Primitive::Unroll, {loops[unrollable[static_cast<size_t>(pick(static_cast<int>(unrollable.size())))]].name}, {});
  if (bind) {
    int64_t cores = 1 + pick(8);
    addStep(s, Primitive::Bind, {loops[0].name}, {cores});
    if (cores < loops[0].extent) {  // core c runs c, c + cores, ...: a cores loop and a serial one
      LoopShape l = loops[0];
      loops[0] = {l.name + ".s", (l.extent + cores - 1) / cores, false};
      loops.insert(loops.begin(), LoopShape{l.name + ".c", cores, false});
    }
  }
  if (vectorized) addStep(s, Primitive::Vectorize, {loops.back().name}, {});
  if (buffered && loops[loops.size() - 2].name.find(".c") == std::string::npos) addStep(s, Primitive::DoubleBuffer, {}, {2});
  if (pick(4) == 0) addStep(s, Primitive::CacheRead, {"x"}, {}, "UB");
  if (pick(4) == 0) addStep(s, Primitive::CacheWrite, {"y"}, {}, "UB");
  return s;
}

// Runs the kernel on the simulator (sanitizer on): inputs as given, the output as computed.
std::vector<double> simulate(const codegen::KernelCode& code, const ComputeDef& d, const std::vector<std::vector<double>>& inputs) {
  DType t = d.dtype();
  int es = dtypeSize(t);
  auto padded = [](uint64_t n) { return (n + 511) / 512 * 512; };
  std::vector<uint64_t> sizes;
  for (const auto& in : inputs) sizes.push_back(in.size() * static_cast<uint64_t>(es));
  int64_t outCount = 1;
  for (int64_t e : d.shape()) outCount *= e;
  sizes.push_back(static_cast<uint64_t>(outCount * es));
  uint64_t total = 0;
  for (uint64_t sz : sizes) total += padded(sz);
  sim::Device device(bundled910b(), total);
  std::vector<uint64_t> args;
  uint64_t at = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    args.push_back(at);
    device.addRegion({at, sizes[i], "arg" + std::to_string(i), i + 1 == sizes.size()});
    if (i < inputs.size()) {
      for (size_t k = 0; k < inputs[i].size(); ++k) {
        if (t == DType::Int32) {
          int32_t v = static_cast<int32_t>(inputs[i][k]);
          std::memcpy(device.gm() + at + k * 4, &v, 4);
        } else {
          float v = static_cast<float>(inputs[i][k]);
          std::memcpy(device.gm() + at + k * 4, &v, 4);
        }
      }
    }
    at += padded(sizes[i]);
  }
  sim::LaunchOptions o;
  o.blockDim = code.blockDim;
  o.args = args;
  o.sanitize = true;
  device.launch(sim::Kernel{code.name, code.program, code.sourceLines}, o);
  std::vector<double> out(static_cast<size_t>(outCount));
  for (int64_t k = 0; k < outCount; ++k) {
    const uint8_t* p = device.gm() + args.back() + k * 4;
    if (t == DType::Int32) {
      int32_t v;
      std::memcpy(&v, p, 4);
      out[static_cast<size_t>(k)] = v;
    } else {
      float v;
      std::memcpy(&v, p, 4);
      out[static_cast<size_t>(k)] = v;
    }
  }
  return out;
}

TEST(ComputeProperty, RandomSchedulesKeepTheValues) {
  std::mt19937 rng(20261201);
  const int kPairs = 500;
  int applied = 0;
  std::map<Primitive, int> appliedWith;
  std::map<std::string, int> rejections;
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  for (int pair = 0; pair < kPairs; ++pair) {
    // two in five pairs are two te.computes: the producer inlined (compute_inline) or computed
    // inside the consumer's loops (compute_at)
    const int kind = pick(6);  // 0: inline, 1: attach, 2: a contraction tensorized, else one te.compute
    ComputeDef d, reference, stagedProducer;
    if (kind == 2) {
      d = randomContraction(rng);
      reference = d;
    } else if (kind < 2) {
      Staged st = randomStaged(rng);
      stagedProducer = st.producer;
      reference = st.consumer;
      d = st.consumer;
      const int slot = static_cast<int>(st.producer.inputs.size());
      if (kind == 0) {
        std::vector<int> same;
        for (int i = 0; i < slot; ++i) same.push_back(i);
        ASSERT_EQ(inlineInto(d, slot, st.producer, same), "");
      } else {
        d.attached.push_back(st.producer);  // read as tensor inputs.size(): the slot's number
      }
      d.inputs.pop_back();
      ASSERT_EQ(verifyComputeDef(d), "") << d.str();
    } else {
      d = randomDef(rng);
      reference = d;
    }
    Schedule s = kind == 2 ? randomCubeSchedule(rng, d) : randomSchedule(rng, d);
    if (kind == 1) {  // attached at one of the consumer's axes (followed through the steps after it)
      ScheduleStep at;
      at.primitive = Primitive::ComputeAt;
      at.names = {"producer", "i" + std::to_string(pick(d.rank()))};
      s.steps.insert(s.steps.begin(), at);
    }
    SCOPED_TRACE("pair " + std::to_string(pair) + ": " + d.str() + "\n" + s.str());
    codegen::KernelCode code;
    try {
      code = codegen::lowerCompute(d, &s, bundled910b(), 0, SourceLocation{"random", 1, 1});
    } catch (const CompileError& e) {
      std::string m = e.diagnostic().message;
      ++rejections[m.substr(0, 90)];
      continue;
    }
    ++applied;
    std::set<Primitive> used;
    for (const auto& step : s.steps) used.insert(step.primitive);
    if (kind == 0) used.insert(Primitive::ComputeInline);
    for (Primitive p : used) ++appliedWith[p];
    std::vector<std::vector<double>> inputs;  // from a stream of their own: the pairs stay the same
    std::mt19937 values(static_cast<unsigned>(pair));
    std::uniform_int_distribution<int> small(-6, 6);
    for (const auto& in : d.inputs) {  // the producer's result is the reference's last input
      int64_t n = 1;
      for (int64_t e : in.shape) n *= e;
      std::vector<double> v(static_cast<size_t>(n));
      for (auto& x : v) x = d.dtype() == DType::Int32 ? small(values) : small(values) * 0.375 + 0.0625;
      inputs.push_back(v);
    }
    std::vector<double> want;
    if (kind < 2) {  // the producer's result, then the consumer reading it
      std::vector<std::vector<double>> withProducer = inputs;
      withProducer.push_back(evaluateComputeDef(stagedProducer, inputs));
      want = evaluateComputeDef(reference, withProducer);
    } else {
      want = evaluateComputeDef(d, inputs);
    }
    std::vector<double> got;
    try {
      got = simulate(code, d, inputs);
    } catch (const std::exception& e) {
      FAIL() << e.what();
    }
    ASSERT_EQ(got.size(), want.size());
    for (size_t k = 0; k < want.size(); ++k) {
      if (d.dtype() == DType::Int32) {
        ASSERT_EQ(got[k], want[k]) << "element " << k;
      } else {
        ASSERT_NEAR(got[k], want[k], 1e-5 * std::max(1.0, std::fabs(want[k]))) << "element " << k;
      }
    }
  }
  std::string why;
  for (const auto& [m, n] : rejections) why += "  " + std::to_string(n) + " × " + m + "\n";
  EXPECT_GE(applied, 400) << "rejected:\n" << why;
  for (Primitive p : {Primitive::Split, Primitive::Tile, Primitive::Fuse, Primitive::Reorder, Primitive::Bind,
                      Primitive::Unroll, Primitive::Vectorize, Primitive::DoubleBuffer, Primitive::CacheRead,
                      Primitive::CacheWrite, Primitive::ComputeAt, Primitive::ComputeInline, Primitive::Tensorize}) {
    EXPECT_GE(appliedWith[p], 50) << primitiveName(p) << " applied in " << appliedWith[p] << " sequences";
  }
  RecordProperty("applied", applied);
  std::cout << applied << " of " << kPairs << " schedules applied;";
  for (const auto& [p, n] : appliedWith) std::cout << " " << primitiveName(p) << " " << n;
  std::cout << "\n";
}

}  // namespace
