// The CPU backend: runs a model's graph on the host, compiled by Halide over LLVM.
//
// A region's nodes between graph loops form one Halide pipeline, compiled once: the values it
// reads from outside are image parameters, the values read after it are its outputs. A graph loop
// runs on the host, its body's pipelines once per iteration with the induction variable and the
// carried values bound as buffers.
#include "cpu/CpuBackend.h"

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <unordered_map>

#include "cpu/LowerNode.h"
#include "ops/Elementwise.h"
#include "registry/OpRegistry.h"
#include "sdk/graph/Parser.h"
#include "sdk/graph/Printer.h"
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

// One run of nodes of a region, compiled into one pipeline: JIT-compiled, or an ahead-of-time
// compiled shared object from the on-disk cache (its argv entry point).
struct Segment {
  std::vector<graph::ValueId> reads;    // values from outside, bound to `params` in order
  std::vector<graph::ValueId> results;  // values read after the segment
  std::vector<Halide::ImageParam> params;
  Halide::Pipeline pipeline;
  int (*cached)(void** args) = nullptr;
  bool compiled = false;
};

// The folder of compiled pipelines: $PYASC_CPU_CACHE ("off": none), else $XDG_CACHE_HOME/pyasc/cpu
// or ~/.cache/pyasc/cpu; empty when there is none.
std::string cacheFolder() {
  if (const char* dir = std::getenv("PYASC_CPU_CACHE")) return std::string(dir) == "off" ? "" : dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/pyasc/cpu";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/pyasc/cpu";
  return "";
}

// FNV-1a, 64 bits, as 16 hex digits: the cache key of a pipeline's text.
std::string hashText(const std::string& text) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

// The argv entry point of the cached shared object `path`, or null.
int (*loadCached(const std::string& path))(void**) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) return nullptr;
  return reinterpret_cast<int (*)(void**)>(dlsym(library, "pyasc_pipeline_argv"));
}

// Operators that read each element of an operand at most once per result element, at the same
// position or a moved one: a single-use producer of as many elements is computed inside them.
bool readsPointwise(const std::string& op) {
  static const std::set<std::string> movers = {"Reshape", "ExpandDims", "Squeeze", "Transpose", "Slice",
                                               "SliceUpdate", "Concat", "Stack", "Pad", "Gather"};
  return ops::isElementwiseOp(op) || movers.count(op) > 0;
}

// A function computed over its whole extent: the innermost dimension vectorised to the host's
// natural width and the work split over the cores (rows, or chunks of a long 1-d array), each only
// where the extent is at least as long as the split (a split beyond the extent would fail).
void scheduleRoot(Halide::Func f, const graph::TensorType& type, const Halide::Target& target) {
  f.compute_root();
  if (type.rank() == 0) return;
  const std::vector<int64_t> shape = staticExtents(type);
  const int lanes = std::max(1, target.natural_vector_size(halideType(type.dtype == DType::Bool ? DType::UInt8 : type.dtype)));
  int64_t elements = 1;
  for (int64_t e : shape) elements *= e;
  const Halide::Var inner = f.args()[0], outer = f.args().back();
  constexpr int kChunk = 1 << 13;
  if (type.rank() == 1) {
    if (elements >= 4 * kChunk) {
      Halide::Var chunk("chunk"), within("within");
      f.split(inner, chunk, within, kChunk, Halide::TailStrategy::GuardWithIf).parallel(chunk);
      f.vectorize(within, lanes, Halide::TailStrategy::GuardWithIf);
    } else if (elements >= lanes) {
      f.vectorize(inner, lanes, Halide::TailStrategy::GuardWithIf);
    }
    return;
  }
  if (shape.back() >= lanes) f.vectorize(inner, lanes, Halide::TailStrategy::GuardWithIf);
  if (elements >= kChunk && shape.front() >= 2) f.parallel(outer);
}

}  // namespace

struct GraphProgram::State {
  std::string file;
  graph::Graph graph;
  std::map<std::pair<const graph::Region*, size_t>, Segment> segments;  // by region and first node
  std::unordered_map<graph::ValueId, std::vector<const graph::Node*>> readers;  // loops count for their body's reads
  std::set<graph::ValueId> yielded;  // read by a yield or a graph output
  std::unordered_map<graph::ValueId, Halide::Buffer<>> values;
  // the storage of the top level's outputs while a run computes them into it
  std::unordered_map<graph::ValueId, std::vector<uint8_t>> outputStorage;
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
    // who reads each value inside the segment
    std::unordered_map<graph::ValueId, std::vector<const graph::Node*>> consumers;
    for (size_t k = begin; k < end; ++k) {
      for (graph::ValueId v : region.nodes[k].inputs) consumers[v].push_back(&region.nodes[k]);
    }
    const std::set<graph::ValueId> results(s.results.begin(), s.results.end());
    std::vector<Halide::Func> outputs;
    for (size_t k = begin; k < end; ++k) {
      const graph::Node& node = region.nodes[k];
      std::vector<Lowered> inputs;
      for (graph::ValueId v : node.inputs) inputs.push_back(lowered.at(v));
      std::vector<Lowered> lowered_ = lowerNode(graph, node, inputs);
      for (size_t o = 0; o < node.outputs.size(); ++o) lowered.emplace(node.outputs[o], lowered_[o]);
    }
    // a value read once, pointwise, by an operator of as many elements is computed where it is read
    // (elementwise chains fuse); every other value once over its extent
    for (size_t k = begin; k < end; ++k) {
      for (graph::ValueId v : region.nodes[k].outputs) {
        const std::vector<const graph::Node*>& readers = consumers[v];
        const graph::TensorType& t = graph.type(v);
        const bool inline_ = !results.count(v) && readers.size() == 1 && readsPointwise(readers[0]->op) &&
                             graph::elementCount(graph.type(readers[0]->outputs.at(0)).shape) == graph::elementCount(t.shape);
        if (!inline_) scheduleRoot(lowered.at(v).func, t, target);
      }
    }
    for (graph::ValueId v : s.results) outputs.push_back(lowered.at(v).func);
    s.pipeline = Halide::Pipeline(outputs);
    s.cached = fromCache(s, region, begin, end);
    if (!s.cached) s.pipeline.compile_jit(target);
    s.compiled = true;
    stats.compileMillis += millisSince(start);
    ++stats.pipelines;
  }

  // The pipeline of `s` from the on-disk cache, compiled ahead of time and linked into a shared
  // object there first when it is missing; null (the caller JIT-compiles) without a cache folder
  // or a C++ compiler to link with. The key covers the host target, Halide's version, and the
  // segment's reads, nodes and results as text.
  int (*fromCache(Segment& s, const graph::Region& region, size_t begin, size_t end))(void**) {
    const std::string folder = cacheFolder();
    if (folder.empty()) return nullptr;
    std::string text = "pyasc cpu 1\nhalide 14\n" + target.to_string() + "\n";
    for (graph::ValueId v : s.reads) text += "read " + graph.value(v).name + " " + graph.type(v).str() + "\n";
    graph::PrintOptions bare;
    bare.locations = false;
    for (size_t k = begin; k < end; ++k) text += graph::printNode(graph, region.nodes[k], 0, bare);
    for (graph::ValueId v : s.results) text += "result " + graph.value(v).name + "\n";
    const std::string path = folder + "/" + hashText(text) + ".so";
    namespace fs = std::filesystem;
    std::error_code ec;
    const bool hit = fs::exists(path, ec);
    if (!hit) {
      fs::create_directories(folder, ec);
      const std::string temp = path + ".tmp" + std::to_string(::getpid());
      std::vector<Halide::Argument> args(s.params.begin(), s.params.end());
      s.pipeline.compile_to_object(temp + ".o", args, "pyasc_pipeline", target);
      const char* cxx = std::getenv("CXX");
      const std::string link = std::string(cxx && *cxx ? cxx : "c++") + " -shared -Wl,-Bsymbolic -o '" + temp + "' '" +
                               temp + ".o' -lpthread -ldl > /dev/null 2>&1";
      const bool linked = std::system(link.c_str()) == 0;
      fs::remove(temp + ".o", ec);
      if (!linked) {
        fs::remove(temp, ec);
        return nullptr;
      }
      fs::rename(temp, path, ec);  // atomic: a concurrent run sees the whole object or none
    }
    int (*entry)(void**) = loadCached(path);
    if (entry && hit) ++stats.cachedPipelines;
    return entry;
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
    for (graph::ValueId v : s.results) {
      auto storage = outputStorage.find(v);
      if (storage == outputStorage.end()) {
        out.push_back(allocate(graph.type(v)));
      } else {  // a graph output: into the array run() returns
        const graph::TensorType& t = graph.type(v);
        out.emplace_back(halideType(t.dtype), storage->second.data(), halideSizes(staticExtents(t)));
      }
    }
    if (s.cached) {
      std::vector<void*> args;
      for (graph::ValueId v : s.reads) args.push_back(values.at(v).raw_buffer());
      for (Halide::Buffer<>& b : out) args.push_back(b.raw_buffer());
      if (int error = s.cached(args.data()); error != 0) {
        throw CompileError(SourceLocation{file}, "a cached CPU pipeline failed (Halide error " + std::to_string(error) +
                                                     "); remove " + cacheFolder() + " and run again");
      }
    } else {
      s.pipeline.realize(Halide::Realization(out), target);
    }
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
    Diagnostic first = diags.diagnostics().front();
    if (first.range.begin.file.empty()) first.range.begin.file = file;  // a node of graph text without loc()
    throw CompileError(first);
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
  // Halide's extents are 32-bit; a buffer of 2 GB or more needs its large-buffer addressing
  for (const graph::Value& v : p.state_->graph.values) {
    int64_t bytes = dtypeSize(v.type.dtype);
    for (const graph::Dim& d : v.type.shape) {
      if (d.extent > INT32_MAX) {
        throw CompileError(v.loc.file.empty() ? SourceLocation{file} : v.loc,
                           "the CPU backend takes extents up to 2^31 - 1; '" + v.name + "' is " + v.type.str());
      }
      bytes *= std::max<int64_t>(d.extent, 1);
    }
    if (bytes >= (int64_t{1} << 31)) p.state_->target = p.state_->target.with_feature(Halide::Target::LargeBuffers);
  }
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

std::vector<std::pair<std::string, NpyArray>> GraphProgram::run(const std::map<std::string, NpyView>& inputs,
                                                                CpuRunStats* stats) {
  State& s = *state_;
  const auto start = Clock::now();
  const double compiledBefore = s.stats.compileMillis;
  s.values.clear();
  s.outputStorage.clear();
  std::set<graph::ValueId> computed;  // values a top-level pipeline computes (loops' results are copied)
  for (const graph::Node& node : s.graph.body.nodes)
    if (!node.isLoop()) computed.insert(node.outputs.begin(), node.outputs.end());
  for (const graph::GraphOutput& o : s.graph.outputs) {
    const graph::TensorType& t = s.graph.type(o.value);
    const int64_t elements = graph::elementCount(t.shape);
    if (computed.count(o.value) && elements > 0) {
      s.outputStorage[o.value].resize(static_cast<size_t>(elements) * static_cast<size_t>(dtypeSize(t.dtype)));
    }
  }
  for (const graph::GraphInput& in : s.graph.inputs) {
    const graph::Value& v = s.graph.value(in.value);
    auto found = inputs.find(v.name);
    if (found == inputs.end()) throw CompileError(SourceLocation{s.file}, "input '" + v.name + "' has no value");
    const NpyView& a = found->second;
    if (a.dtype != v.type.dtype || a.shape != staticExtents(v.type)) {
      throw CompileError(SourceLocation{s.file}, "input '" + v.name + "' is " + dtypeName(a.dtype) + " of another shape than " + v.type.str());
    }
    // read in place: the pipelines never write their inputs
    s.values[in.value] = Halide::Buffer<>(halideType(v.type.dtype), const_cast<uint8_t*>(a.data), halideSizes(a.shape));
  }
  for (const graph::GraphConstant& c : s.graph.constants) {
    const graph::TensorType& t = s.graph.type(c.value);
    s.values[c.value] = Halide::Buffer<>(halideType(t.dtype), const_cast<uint8_t*>(c.bytes.data()), halideSizes(staticExtents(t)));
  }
  s.runRegion(s.graph.body);
  std::vector<std::pair<std::string, NpyArray>> result;
  for (const graph::GraphOutput& o : s.graph.outputs) {
    const graph::TensorType& t = s.graph.type(o.value);
    NpyArray a;
    a.dtype = t.dtype;
    a.shape = staticExtents(t);
    auto storage = s.outputStorage.find(o.value);
    if (storage != s.outputStorage.end() && !storage->second.empty()) {
      a.data = std::move(storage->second);  // computed in place; a second output of the value copies it
    } else {
      const Halide::Buffer<>& b = s.values.at(o.value);
      const uint8_t* data = static_cast<const uint8_t*>(b.data());
      a.data.assign(data, data + b.size_in_bytes());
    }
    result.emplace_back(o.name, std::move(a));
  }
  s.values.clear();  // the inputs' and outputs' memory belongs to the caller
  s.stats.runMillis = millisSince(start) - (s.stats.compileMillis - compiledBefore);
  if (stats) *stats = s.stats;
  return result;
}

}  // namespace pyasc::cpu
