// The CPU backend: runs a model's graph on the host, compiled by Halide over LLVM.
//
// A region's nodes between graph loops form one Halide pipeline, compiled once: the values it
// reads from outside are image parameters, the values read after it are its outputs. A graph loop
// runs on the host, its body's pipelines once per iteration with the induction variable and the
// carried values bound as buffers.
#include "cpu/CpuBackend.h"

#include <chrono>
#include <cstring>
#include <set>
#include <unordered_map>

#include "cpu/LowerNode.h"
#include "registry/OpRegistry.h"
#include "sdk/graph/Parser.h"
#include "sdk/graph/Verifier.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::cpu {

namespace {

using Clock = std::chrono::steady_clock;

double millisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::vector<int> halideSizes(const std::vector<int64_t>& shape) { return std::vector<int>(shape.rbegin(), shape.rend()); }

std::vector<int64_t> staticExtents(const graph::TensorType& t) {
  std::vector<int64_t> e;
  for (const auto& d : t.shape) e.push_back(d.extent);
  return e;
}

Halide::Buffer<> allocate(const graph::TensorType& t) { return Halide::Buffer<>(halideType(t.dtype), halideSizes(staticExtents(t))); }

// One run of nodes of a region, compiled into one pipeline.
struct Segment {
  std::vector<graph::ValueId> reads;    // values from outside, bound to `params` in order
  std::vector<graph::ValueId> results;  // values read after the segment
  std::vector<Halide::ImageParam> params;
  Halide::Pipeline pipeline;
  bool compiled = false;
};

// The pipeline's schedule: every node's function computed once over its whole extent (no
// recomputation), the innermost dimension vectorised and the outermost parallel where they are long
// enough (a split larger than the extent would fail).
void schedule(Halide::Func f, const graph::TensorType& type, const Halide::Target& target) {
  f.compute_root();
  if (type.rank() == 0) return;
  const std::vector<int64_t> shape = staticExtents(type);
  const int lanes = std::max(1, target.natural_vector_size(halideType(type.dtype == DType::Bool ? DType::UInt8 : type.dtype)));
  std::vector<Halide::VarOrRVar> dims;
  for (const auto& a : f.args()) dims.emplace_back(a);
  const int64_t inner = shape.back();
  if (inner >= lanes) f.vectorize(f.args()[0], lanes, Halide::TailStrategy::GuardWithIf);
  int64_t elements = 1;
  for (int64_t e : shape) elements *= e;
  if (elements >= (int64_t{1} << 16) && shape.front() >= 2 && type.rank() >= 2) f.parallel(f.args().back());
}

}  // namespace

struct GraphProgram::State {
  std::string file;
  graph::Graph graph;
  std::map<std::pair<const graph::Region*, size_t>, Segment> segments;  // by region and first node
  std::unordered_map<graph::ValueId, std::vector<const graph::Node*>> readers;  // loops count for their body's reads
  std::set<graph::ValueId> yielded;  // read by a yield or a graph output
  std::unordered_map<graph::ValueId, Halide::Buffer<>> values;
  Halide::Target target = hostTarget();
  CpuRunStats stats;

  // Who reads each value: a read inside a loop body is also a read by every enclosing loop (so a
  // value of an outer region that a loop reads is a result of the segment defining it).
  void index(const graph::Region& region, std::vector<const graph::Node*>& enclosing) {
    for (graph::ValueId y : region.yields) {
      yielded.insert(y);
      for (const graph::Node* loop : enclosing) readers[y].push_back(loop);
    }
    for (const graph::Node& node : region.nodes) {
      for (graph::ValueId v : node.inputs) {
        readers[v].push_back(&node);
        for (const graph::Node* loop : enclosing) readers[v].push_back(loop);
      }
      for (const graph::Region& body : node.regions) {
        enclosing.push_back(&node);
        index(body, enclosing);
        enclosing.pop_back();
      }
    }
  }

  // Nodes [begin, end) of `region`: what they read from outside and what is read after them.
  Segment plan(const graph::Region& region, size_t begin, size_t end) {
    Segment s;
    std::set<graph::ValueId> defined, read;
    std::set<const graph::Node*> inside;
    for (size_t k = begin; k < end; ++k) {
      const graph::Node& node = region.nodes[k];
      inside.insert(&node);
      for (graph::ValueId v : node.inputs)
        if (!defined.count(v) && read.insert(v).second) s.reads.push_back(v);
      for (graph::ValueId v : node.outputs) defined.insert(v);
    }
    for (size_t k = begin; k < end; ++k) {
      for (graph::ValueId v : region.nodes[k].outputs) {
        bool later = yielded.count(v) > 0;
        for (const graph::Node* reader : readers[v]) later = later || !inside.count(reader);
        if (later) s.results.push_back(v);
      }
    }
    return s;
  }

  void compile(Segment& s, const graph::Region& region, size_t begin, size_t end) {
    const auto start = Clock::now();
    std::unordered_map<graph::ValueId, Lowered> lowered;
    for (graph::ValueId v : s.reads) {
      const graph::TensorType& t = graph.type(v);
      Halide::ImageParam p(halideType(t.dtype), t.rank(), "in_" + std::to_string(v));
      s.params.push_back(p);
      Halide::Func f("read_" + std::to_string(v));
      std::vector<Halide::Var> vars;
      for (int k = 0; k < t.rank(); ++k) vars.emplace_back("d" + std::to_string(k));
      std::vector<Halide::Expr> args(vars.begin(), vars.end());
      f(vars) = p(args);
      lowered.emplace(v, Lowered{f, t});
    }
    std::vector<Halide::Func> outputs;
    for (size_t k = begin; k < end; ++k) {
      const graph::Node& node = region.nodes[k];
      std::vector<Lowered> inputs;
      for (graph::ValueId v : node.inputs) inputs.push_back(lowered.at(v));
      std::vector<Lowered> results = lowerNode(graph, node, inputs);
      for (size_t o = 0; o < node.outputs.size(); ++o) {
        schedule(results[o].func, results[o].type, target);
        lowered.emplace(node.outputs[o], results[o]);
      }
    }
    for (graph::ValueId v : s.results) outputs.push_back(lowered.at(v).func);
    s.pipeline = Halide::Pipeline(outputs);
    s.pipeline.compile_jit(target);
    s.compiled = true;
    stats.compileMillis += millisSince(start);
    ++stats.pipelines;
  }

  void runSegment(const graph::Region& region, size_t begin, size_t end) {
    Segment& s = segments[{&region, begin}];
    if (!s.compiled) {
      s = plan(region, begin, end);
      if (s.results.empty()) return;
      compile(s, region, begin, end);
    }
    if (s.results.empty()) return;
    for (size_t k = 0; k < s.reads.size(); ++k) s.params[k].set(values.at(s.reads[k]));
    std::vector<Halide::Buffer<>> out;
    for (graph::ValueId v : s.results) out.push_back(allocate(graph.type(v)));
    s.pipeline.realize(Halide::Realization(out), target);
    for (size_t k = 0; k < s.results.size(); ++k) values[s.results[k]] = out[k];
  }

  void runRegion(const graph::Region& region) {
    size_t begin = 0;
    for (size_t k = 0; k <= region.nodes.size(); ++k) {
      if (k < region.nodes.size() && !region.nodes[k].isLoop()) continue;
      if (k > begin) runSegment(region, begin, k);
      if (k < region.nodes.size()) runLoop(region.nodes[k]);
      begin = k + 1;
    }
  }

  void runLoop(const graph::Node& loop) {
    const graph::Region& body = loop.body();
    const int64_t start = loop.intAttr("start"), stop = loop.intAttr("stop"), step = loop.intAttr("step", 1);
    std::vector<Halide::Buffer<>> carried;
    for (graph::ValueId v : loop.inputs) carried.push_back(values.at(v));
    if (step == 0) throw CompileError(loop.loc, "loop step is 0");
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
      Halide::Buffer<int32_t> induction = Halide::Buffer<int32_t>::make_scalar();
      induction() = static_cast<int32_t>(i);
      values[body.arguments.at(0)] = induction;
      for (size_t c = 0; c < carried.size(); ++c) values[body.arguments.at(c + 1)] = carried[c];
      runRegion(body);
      for (size_t c = 0; c < carried.size(); ++c) carried[c] = values.at(body.yields.at(c));
    }
    for (size_t c = 0; c < carried.size(); ++c) values[loop.outputs.at(c)] = carried[c];
  }
};

GraphProgram::GraphProgram() : state_(std::make_unique<State>()) {}
GraphProgram::GraphProgram(GraphProgram&&) noexcept = default;
GraphProgram& GraphProgram::operator=(GraphProgram&&) noexcept = default;
GraphProgram::~GraphProgram() = default;

GraphProgram GraphProgram::fromText(const std::string& file, const std::string& graphText) {
  if (graphText.empty()) {
    throw CompileError(SourceLocation{file}, "the model has no graph section (written by a pyasc before format 1.1); "
                                             "compile it again to run it on the CPU backend");
  }
  GraphProgram p;
  p.state_->file = file;
  p.state_->graph = graph::parseGraph(file, graphText);
  const registry::OpRegistry& builtin = registry::OpRegistry::builtin();
  registry::RegistryTypeChecker checker(builtin);
  DiagnosticEngine diags;
  if (!graph::verifyGraph(p.state_->graph, diags, &checker)) {
    throw CompileError(diags.diagnostics().front());
  }
  // every operator is checked before anything runs
  std::function<void(const graph::Region&)> check = [&](const graph::Region& region) {
    for (const graph::Node& node : region.nodes) {
      if (node.isLoop()) {
        check(node.body());
      } else if (!lowersOnCpu(node.op)) {
        throw CompileError(node.loc, "the CPU backend does not lower " + node.op + " yet (docs/cpu-backend.md lists what it runs)");
      }
    }
  };
  check(p.state_->graph.body);
  std::vector<const graph::Node*> enclosing;
  p.state_->index(p.state_->graph.body, enclosing);
  for (const auto& o : p.state_->graph.outputs) p.state_->yielded.insert(o.value);
  return p;
}

std::vector<std::string> GraphProgram::inputNames() const {
  std::vector<std::string> names;
  for (const graph::GraphInput& in : state_->graph.inputs) names.push_back(state_->graph.value(in.value).name);
  return names;
}

std::vector<std::pair<std::string, NpyArray>> GraphProgram::run(const std::map<std::string, NpyArray>& inputs,
                                                                CpuRunStats* stats) {
  State& s = *state_;
  const auto start = Clock::now();
  const double compiledBefore = s.stats.compileMillis;
  s.values.clear();
  for (const graph::GraphInput& in : s.graph.inputs) {
    const graph::Value& v = s.graph.value(in.value);
    auto found = inputs.find(v.name);
    if (found == inputs.end()) throw CompileError(SourceLocation{s.file}, "input '" + v.name + "' has no value");
    const NpyArray& a = found->second;
    if (a.dtype != v.type.dtype || a.shape != staticExtents(v.type)) {
      throw CompileError(SourceLocation{s.file}, "input '" + v.name + "' is " + dtypeName(a.dtype) + " of another shape than " + v.type.str());
    }
    Halide::Buffer<> b = allocate(v.type);
    std::memcpy(b.data(), a.data.data(), a.data.size());
    s.values[in.value] = b;
  }
  for (const graph::GraphConstant& c : s.graph.constants) {
    Halide::Buffer<> b = allocate(s.graph.type(c.value));
    std::memcpy(b.data(), c.bytes.data(), std::min<size_t>(c.bytes.size(), b.size_in_bytes()));
    s.values[c.value] = b;
  }
  s.runRegion(s.graph.body);
  std::vector<std::pair<std::string, NpyArray>> result;
  for (const graph::GraphOutput& o : s.graph.outputs) {
    const graph::TensorType& t = s.graph.type(o.value);
    NpyArray a;
    a.dtype = t.dtype;
    a.shape = staticExtents(t);
    const Halide::Buffer<>& b = s.values.at(o.value);
    const uint8_t* data = static_cast<const uint8_t*>(b.data());
    a.data.assign(data, data + b.size_in_bytes());
    result.emplace_back(o.name, std::move(a));
  }
  s.stats.runMillis += millisSince(start) - (s.stats.compileMillis - compiledBefore);
  if (stats) *stats = s.stats;
  return result;
}

}  // namespace pyasc::cpu
