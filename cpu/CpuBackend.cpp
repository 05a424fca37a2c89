// The CPU backend: runs a model's graph on the host, compiled by Halide over LLVM.
//
// A region's nodes between graph loops form one Halide pipeline, compiled once: the values it
// reads from outside are image parameters, the values read after it are its outputs. A graph loop
// runs on the host, its body's pipelines once per iteration with the induction variable and the
// carried values bound as buffers. A slice update in a loop body whose array nothing reads later
// is written in place: the pipeline computes the slice, the host copies it into the array (the
// array is copied once first when another value may hold it).
#include "cpu/CpuBackend.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <thread>
#include <unordered_map>

#include "cpu/LowerNode.h"
#include "cpu/ForwardIdentities.h"
#include "cpu/HostSort.h"
#include "cpu/SelectionGather.h"
#include "cpu/UnrollLoops.h"
#include "cpu/LowerScan.h"
#include "cpu/LowerSupport.h"
#include "cpu/SliceWrite.h"
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

// Buffers come from the arrays' storage (huge pages for large ones), for values between pipelines
// and for a pipeline's own intermediates alike: a fresh 4 KiB page per first write costs more than
// the arithmetic of a memory-bound pipeline.
void* storageOrNull(size_t bytes) noexcept {
  try {
    return allocateArrayStorage(bytes);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* pipelineMalloc(void*, size_t bytes) { return storageOrNull(bytes); }
void pipelineFree(void*, void* p) { releaseArrayStorage(p); }

// A buffer over `data` (nullptr: none yet) with a name of its own: an unnamed one takes a unique
// name, which costs more than the run of a small pipeline. The names are never seen: buffers are
// bound to a pipeline's parameters, never embedded in one.
Halide::Buffer<> bufferOver(DType dtype, void* data, const std::vector<int64_t>& shape) {
  static const std::string name = "array";
  return Halide::Buffer<>(halideType(dtype), data, halideSizes(shape), name);
}

Halide::Buffer<> allocate(const graph::TensorType& t) {
  Halide::Buffer<> b = bufferOver(t.dtype, nullptr, staticExtents(t));
  b.allocate(&allocateArrayStorage, &releaseArrayStorage);
  return b;
}

// One run of nodes of a region, compiled into one pipeline: JIT-compiled, or an ahead-of-time
// compiled shared object from the on-disk cache (its argv entry point).
struct Segment {
  std::vector<graph::ValueId> reads;    // values from outside, bound to `params` in order
  std::vector<graph::ValueId> results;  // values read after the segment
  // SliceUpdates written in place, in order: the pipeline's outputs after `results` are their slices
  // (computed into `slices` on every run: only the host's copy reads them)
  std::vector<const graph::Node*> inPlace;
  std::vector<Halide::Buffer<>> slices;
  // per update in place: where its slice goes, per NumPy axis (start, step), and the operands
  // holding the offsets of moving axes (axis, operand index)
  struct SliceWrite {
    std::vector<int64_t> start, step;
    std::vector<std::pair<size_t, size_t>> offsets;
  };
  std::vector<SliceWrite> writes;
  // results of elementwise operators computed into the buffer of the read they consume (when no
  // other value holds it), by result index
  std::map<size_t, graph::ValueId> overwrites;
  std::vector<Halide::ImageParam> params;
  Halide::Pipeline pipeline;
  int (*cached)(void** args) = nullptr;
  bool compiled = false;
  bool autoscheduled = false;  // scheduled by PYASC_CPU_SCHEDULER's autoscheduler (no overwrites)
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

// The code that lowers graphs: the file holding this backend (the executable or the Python module)
// by its canonical path, size and modification time; empty when it cannot be found, and then
// nothing is cached. A pipeline's graph text alone would let a rebuilt compiler, whose lowering of
// the same nodes changed, run pipelines an older one cached.
std::string loweringIdentity() {
  static const std::string identity = [] {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&hashText), &info) || !info.dli_fname) return std::string();
    // the main program's name is its argv[0], which may be a bare name found on PATH
    std::string file = info.dli_fname;
    if (file.find('/') == std::string::npos) file = "/proc/self/exe";
    std::error_code ec;
    const std::filesystem::path path = std::filesystem::canonical(file, ec);
    struct stat st {};
    if (ec || ::stat(path.c_str(), &st) != 0) return std::string();
    return path.string() + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec);
  }();
  return identity;
}

// The argv entry point of the cached shared object `path`, or null.
// The last error message of a cached pipeline on this thread: a cached object carries its own
// Halide runtime, whose default error handler prints and aborts; this one keeps the message.
thread_local std::string cachedError;
void keepCachedError(void*, const char* message) { cachedError = message ? message : ""; }

int (*loadCached(const std::string& path))(void**) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) return nullptr;
  using Handler = void (*)(void*, const char*);
  auto setHandler = reinterpret_cast<Handler (*)(Handler)>(dlsym(library, "halide_set_error_handler"));
  using Malloc = void* (*)(void*, size_t);
  using Free = void (*)(void*, void*);
  auto setMalloc = reinterpret_cast<Malloc (*)(Malloc)>(dlsym(library, "halide_set_custom_malloc"));
  auto setFree = reinterpret_cast<Free (*)(Free)>(dlsym(library, "halide_set_custom_free"));
  if (!setHandler || !setMalloc || !setFree) return nullptr;  // compiled without a runtime to ask: JIT instead
  setHandler(&keepCachedError);
  setMalloc(&pipelineMalloc);
  setFree(&pipelineFree);
  return reinterpret_cast<int (*)(void**)>(dlsym(library, "pyasc_pipeline_argv"));
}

// A Halide error message as one line.
std::string oneLine(std::string message) {
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  for (char& c : message) if (c == '\n') c = ' ';
  if (message.rfind("Error: ", 0) == 0) message = message.substr(7);
  return message;
}

// Operators that read one element of an operand per result element, at the same position or a
// moved one: a single-use producer of as many elements or more is computed inside them.
bool readsPointwise(const std::string& op) {
  static const std::set<std::string> movers = {"Reshape", "ExpandDims", "Squeeze", "Transpose", "Slice",
                                               "SliceUpdate", "Concat", "Stack", "Pad", "Gather"};
  return ops::isElementwiseOp(op) || movers.count(op) > 0;
}

// Data movement that reads each element of its operands at most once in all: a single-use
// producer is computed inside it whatever the element counts.
bool readsEachOnce(const std::string& op) {
  static const std::set<std::string> movers = {"Reshape", "ExpandDims", "Squeeze", "Transpose", "Slice", "Concat", "Stack", "Pad"};
  return movers.count(op) > 0;
}

// Reductions that read each element of their operand once in all: a single-use producer is
// computed inside them.
bool readsOnce(const std::string& op) {
  static const std::set<std::string> reductions = {"ReduceSum", "ReduceMean", "ReduceProd", "ReduceMax", "ReduceMin",
                                                   "ReduceAny", "ReduceAll"};
  return reductions.count(op) > 0;
}

// A table by value id (a graph's ids index its values): buffers, flags.
template <typename T>
struct ByValue {
  std::vector<T> slots;
  void reset(size_t n) { slots.assign(n, T()); }
  T& operator[](graph::ValueId v) { return slots.at(static_cast<size_t>(v)); }
  const T& at(graph::ValueId v) const { return slots.at(static_cast<size_t>(v)); }
};

// Values whose buffer no other value holds.
struct Flags : ByValue<char> {
  bool count(graph::ValueId v) const { return at(v) != 0; }
  void insert(graph::ValueId v) { (*this)[v] = 1; }
  void erase(graph::ValueId v) { (*this)[v] = 0; }
};

// A function computed over its whole extent: the innermost dimension vectorised to the host's
// natural width (unrolled when it holds 8 or fewer elements) and the work split over the cores (tasks of rows, or chunks of a long 1-d array),
// each only where the extent is at least as long as the split (a split beyond the extent would fail).
void scheduleRoot(const Lowered& value, const Halide::Target& target) {
  if (!autoscheduler().empty()) return;
  Halide::Func f = value.func;
  const graph::TensorType& type = value.type;
  f.compute_root();
  if (type.rank() == 0) return;
  const std::vector<int64_t> shape = staticExtents(type);
  const int lanes = std::max(1, target.natural_vector_size(halideType(type.dtype == DType::Bool ? DType::UInt8 : type.dtype)));
  int64_t elements = 1;
  for (int64_t e : shape) elements *= e;
  const Halide::Var inner = f.args()[0], outer = f.args().back();
  if (value.innerSplit >= lanes && shape.back() % value.innerSplit == 0 && shape.back() > value.innerSplit) {
    Halide::Var splits("splits"), within("within");
    f.split(inner, splits, within, static_cast<int>(value.innerSplit), Halide::TailStrategy::GuardWithIf)
        .vectorize(within, lanes, Halide::TailStrategy::GuardWithIf);
    if (type.rank() >= 2) parallelOver(f, outer, shape.front(), elements / std::max<int64_t>(shape.front(), 1));
    else parallelOver(f, splits, elements / value.innerSplit, value.innerSplit);
    return;
  }
  constexpr int kChunk = 1 << 13;
  if (type.rank() == 1) {
    if (elements >= 4 * kChunk) {
      Halide::Var chunk("chunk"), within("within"), lane("lane");
      splitIntoVectorBlocks(f, inner, chunk, within, lane, lanes, kChunk);
      f.vectorize(lane).parallel(chunk);
    } else if (elements >= lanes) {
      f.vectorize(inner, lanes, Halide::TailStrategy::GuardWithIf);
    }
    return;
  }
  if (shape.back() >= lanes) f.vectorize(inner, lanes, Halide::TailStrategy::GuardWithIf);
  else if (shape.back() <= 8) f.bound(inner, 0, static_cast<int>(shape.back())).unroll(inner);  // a few columns (pixels' channels, gathered lanes): no loop
  parallelOver(f, outer, shape.front(), elements / std::max<int64_t>(shape.front(), 1));
}

}  // namespace

constexpr size_t kRootsPerPipeline = 64;

struct GraphProgram::State {
  std::string file;
  graph::Graph graph;
  std::map<std::pair<const graph::Region*, size_t>, Segment> segments;  // by region and first node
  // per run of nodes without loops (by region and first node), the first node of each pipeline
  std::map<std::pair<const graph::Region*, size_t>, std::vector<size_t>> pipelineStarts;
  std::unordered_map<graph::ValueId, std::vector<const graph::Node*>> readers;  // loops count for their body's reads
  std::set<graph::ValueId> yielded;  // read by a yield or a graph output
  // where each value is defined: a region's argument or a node's output (inputs and constants: none)
  std::unordered_map<graph::ValueId, const graph::Region*> definer;
  // per region, the index of the last node using each value, itself or in its body (a yield or a
  // graph output uses it after the last node)
  std::unordered_map<const graph::Region*, std::unordered_map<graph::ValueId, size_t>> lastUse;
  std::unordered_map<const graph::Node*, std::set<graph::ValueId>> usedInBody;  // per loop, at any depth
  // values whose buffer no other value holds (written in place without a copy): results of a
  // pipeline, updates in place, carried arrays a loop took over
  Flags exclusive;
  std::vector<int64_t> start_;  // updateInPlace's slice start, kept between calls
  // runSegment's pipeline outputs and arguments, kept between calls (a small pipeline's run costs
  // less than allocating them)
  std::vector<Halide::Buffer<>> scratchOut;
  // the inputs' buffers (pointed at the caller's arrays by each run) and the constants', made once
  std::vector<Halide::Buffer<>> inputBuffers, constantBuffers;
  std::vector<void*> scratchArgs;
  ByValue<Halide::Buffer<>> values;
  // the storage of the top level's outputs while a run computes them into it
  std::unordered_map<graph::ValueId, ArrayBytes> outputStorage;
  // a graph output of a top-level loop: the carried value computed into its storage (the loop
  // takes it over, its updates in place land in the returned array)
  std::unordered_map<graph::ValueId, graph::ValueId> storageFor;
  // top-level loop slots whose input another value holds: copied into the output's storage on entry
  std::set<std::pair<const graph::Node*, size_t>> copiedOnEntry;
  Halide::Target target = hostTarget();
  CpuRunStats stats;

  // The storage run() gives the top level's outputs (computed into it, so that no copy follows),
  // the same on every run: a top-level loop's output is its carried value computed into the
  // output's storage when the loop takes it over, else copied there on entry.
  bool laidOut = false;
  std::vector<std::pair<graph::ValueId, size_t>> outputBytes;
  void layOutOutputs() {
    std::set<graph::ValueId> computed;  // values a top-level pipeline computes (loops' results are copied)
    for (const graph::Node& node : graph.body.nodes)
      if (!node.isLoop()) computed.insert(node.outputs.begin(), node.outputs.end());
    std::set<graph::ValueId> outputs;
    for (const graph::GraphOutput& o : graph.outputs) outputs.insert(o.value);
    auto bytes = [&](graph::ValueId v) {
      const graph::TensorType& t = graph.type(v);
      return static_cast<size_t>(graph::elementCount(t.shape)) * static_cast<size_t>(dtypeSize(t.dtype));
    };
    std::set<graph::ValueId> stored;
    auto store = [&](graph::ValueId v) {
      stored.insert(v);
      outputBytes.emplace_back(v, bytes(v));
    };
    for (graph::ValueId o : outputs)
      if (computed.count(o) && bytes(o) > 0) store(o);
    const graph::Region& top = graph.body;
    for (size_t k = 0; k < top.nodes.size(); ++k) {
      const graph::Node& loop = top.nodes[k];
      if (!loop.isLoop()) continue;
      for (size_t c = 0; c < loop.outputs.size(); ++c) {
        const graph::ValueId o = loop.outputs[c], u = loop.inputs.at(c);
        if (!outputs.count(o) || stored.count(o) || bytes(o) == 0) continue;
        if (computed.count(u) && !outputs.count(u) && !stored.count(u) && lastUse[&top].at(u) == k &&
            std::count(loop.inputs.begin(), loop.inputs.end(), u) == 1 && !usedInBody[&loop].count(u)) {
          store(u);
          storageFor[o] = u;
        } else {
          store(o);
          copiedOnEntry.insert({&loop, c});
        }
      }
    }
    laidOut = true;
  }

  // Who reads each value: a read inside a loop body is also a read by the enclosing loops inside
  // the value's region (so a value of an outer region that a loop reads is a result of the
  // segment defining it, and a value of the body read only there is not).
  void index(const graph::Region& region, std::vector<const graph::Node*>& enclosing) {
    std::unordered_map<graph::ValueId, size_t>& last = lastUse[&region];
    for (graph::ValueId a : region.arguments) definer[a] = &region;
    // the loops around this region inside the one defining v also read v
    auto enclosingReaders = [&](graph::ValueId v) {
      auto d = definer.find(v);
      for (size_t k = enclosing.size(); k-- > 0;) {
        if (d != definer.end() && &enclosing[k]->body() == d->second) break;
        readers[v].push_back(enclosing[k]);
      }
    };
    for (size_t k = 0; k < region.nodes.size(); ++k) {
      const graph::Node& node = region.nodes[k];
      for (graph::ValueId v : node.inputs) {
        readers[v].push_back(&node);
        enclosingReaders(v);
        last[v] = k;
      }
      for (graph::ValueId v : node.outputs) definer[v] = &region;
      for (const graph::Region& body : node.regions) {
        enclosing.push_back(&node);
        index(body, enclosing);
        enclosing.pop_back();
        usesIn(body, usedInBody[&node]);
      }
      for (graph::ValueId v : usedInBody[&node]) last[v] = k;
    }
    for (graph::ValueId y : region.yields) {
      yielded.insert(y);
      enclosingReaders(y);
      last[y] = region.nodes.size();
    }
  }

  // Every value `region` uses, at any depth.
  static void usesIn(const graph::Region& region, std::set<graph::ValueId>& used) {
    used.insert(region.yields.begin(), region.yields.end());
    for (const graph::Node& node : region.nodes) {
      used.insert(node.inputs.begin(), node.inputs.end());
      for (const graph::Region& body : node.regions) usesIn(body, used);
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
    if (&region != &graph.body) planInPlace(s, region, begin, end);
    return s;
  }

  // The SliceUpdates of a loop body's segment written in place: the array is defined in the body
  // and used by nothing after the update, and the result is read in the segment only as the array
  // of another update in place. Their arrays and offsets become results (the host needs them),
  // their own results are not computed by the pipeline.
  void planInPlace(Segment& s, const graph::Region& region, size_t begin, size_t end) {
    std::set<const graph::Node*> inPlace;
    for (size_t k = end; k-- > begin;) {
      const graph::Node& update = region.nodes[k];
      if (update.op != "SliceUpdate") continue;
      const graph::ValueId array = update.inputs.at(0), out = update.outputs.at(0);
      auto d = definer.find(array);
      bool ok = d != definer.end() && d->second == &region && lastUse[&region].at(array) == k &&
                std::count(update.inputs.begin(), update.inputs.end(), array) == 1;
      for (size_t j = k + 1; ok && j < end; ++j) {
        const graph::Node& reader = region.nodes[j];
        for (size_t i = 0; i < reader.inputs.size(); ++i) ok = ok && (reader.inputs[i] != out || (i == 0 && inPlace.count(&reader)));
      }
      if (ok) inPlace.insert(&update);
    }
    const std::set<graph::ValueId> reads(s.reads.begin(), s.reads.end());
    for (size_t k = begin; k < end; ++k) {
      const graph::Node& update = region.nodes[k];
      if (!inPlace.count(&update)) continue;
      s.inPlace.push_back(&update);
      Segment::SliceWrite w;
      const size_t rank = static_cast<size_t>(graph.type(update.inputs[0]).rank());
      w.start.assign(rank, 0);
      w.step.assign(rank, 1);
      const std::vector<int64_t> axes = update.intListAttr("axes"), starts = update.intListAttr("begin"),
                                 steps = update.intListAttr("step"), dynamic = update.intListAttr("dynamic_axes");
      for (size_t j = 0; j < axes.size(); ++j) {
        const size_t a = static_cast<size_t>(axes[j]);
        w.start[a] = starts[j];
        w.step[a] = steps[j];
        auto d = std::find(dynamic.begin(), dynamic.end(), axes[j]);
        if (d != dynamic.end()) w.offsets.emplace_back(a, 2 + static_cast<size_t>(d - dynamic.begin()));
      }
      s.writes.push_back(std::move(w));
      s.results.erase(std::remove(s.results.begin(), s.results.end(), update.outputs[0]), s.results.end());
      for (size_t i = 0; i < update.inputs.size(); ++i) {
        const graph::ValueId v = update.inputs[i];
        const bool chained = i == 0 && std::any_of(s.inPlace.begin(), s.inPlace.end(), [&](const graph::Node* u) { return u->outputs[0] == v; });
        if (i != 1 && !chained && !reads.count(v) && std::find(s.results.begin(), s.results.end(), v) == s.results.end()) s.results.push_back(v);
      }
    }
    // an elementwise result of the shape and dtype of a read of the body that nothing else reads
    // overwrites it (indexed in s.results as they stand once the updates above are planned)
    for (size_t k = begin; k < end; ++k) {
      const graph::Node& node = region.nodes[k];
      if (!ops::isElementwiseOp(node.op) || node.outputs.size() != 1) continue;
      auto result = std::find(s.results.begin(), s.results.end(), node.outputs[0]);
      if (result == s.results.end()) continue;
      for (graph::ValueId v : node.inputs) {
        auto d = definer.find(v);
        const std::vector<const graph::Node*>& r = readers[v];
        if (reads.count(v) && d != definer.end() && d->second == &region && !yielded.count(v) &&
            graph.type(v) == graph.type(node.outputs[0]) && r.size() == 1 && r[0] == &node) {
          s.overwrites[static_cast<size_t>(result - s.results.begin())] = v;
          break;
        }
      }
    }
  }

  // The pipeline of `s`, compiled; a pipeline the chosen autoscheduler cannot schedule (Adams2019
  // takes only constant offsets, not a loop's moving slices) gets the backend's own schedules.
  void compile(Segment& s, const graph::Region& region, size_t begin, size_t end) {
    const auto start = Clock::now();
    try {
      build(s, region, begin, end);
    } catch (const Halide::Error&) {
      if (autoscheduler().empty()) throw;
      ++stats.autoscheduleFallbacks;
      const HandSchedules hand;
      s.params.clear();
      build(s, region, begin, end);
    }
    s.cached = fromCache(s, region, begin, end);
    if (!s.cached) {
      s.pipeline.jit_handlers().custom_malloc = [](Halide::JITUserContext*, size_t bytes) { return storageOrNull(bytes); };
      s.pipeline.jit_handlers().custom_free = [](Halide::JITUserContext*, void* p) { releaseArrayStorage(p); };
      s.pipeline.compile_jit(target);
    }
    s.compiled = true;
    stats.compileMillis += millisSince(start);
    ++stats.pipelines;
  }

  // The pipeline of `s`: each node lowered, scheduled (by the backend, or the autoscheduler).
  void build(Segment& s, const graph::Region& region, size_t begin, size_t end) {
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
    // who reads each value inside the segment (each reader once)
    std::unordered_map<graph::ValueId, std::vector<const graph::Node*>> consumers;
    for (size_t k = begin; k < end; ++k) {
      for (graph::ValueId v : region.nodes[k].inputs) {
        std::vector<const graph::Node*>& c = consumers[v];
        if (c.empty() || c.back() != &region.nodes[k]) c.push_back(&region.nodes[k]);
      }
    }
    const std::set<graph::ValueId> results(s.results.begin(), s.results.end());
    std::vector<Halide::Func> outputs;
    const auto inPlace = [&](const graph::Node* n) { return std::find(s.inPlace.begin(), s.inPlace.end(), n) != s.inPlace.end(); };
    // a value read by one operator, pointwise and of as many elements or more, or by a reduction,
    // is computed where it is read (elementwise chains fuse, also into reductions); every other
    // value once over its extent
    auto inlined = [&](graph::ValueId v) {
      const std::vector<const graph::Node*>& readers = consumers[v];
      if (results.count(v) || readers.size() != 1 || !(readsPointwise(readers[0]->op) || readsOnce(readers[0]->op))) return false;
      if (!readsPointwise(readers[0]->op) || readsEachOnce(readers[0]->op)) return true;
      const graph::Node& reader = *readers[0];
      const int64_t read = inPlace(&reader) ? graph::elementCount(graph::knownShape(sliceUpdateExtents(reader, graph.type(reader.outputs[0]))))
                                            : graph::elementCount(graph.type(reader.outputs.at(0)).shape);
      return read <= graph::elementCount(graph.type(v).shape);  // each element computed at most once
    };
    std::vector<Lowered> slices;  // of the updates in place
    // the frontend's scans: each chain's last Concat is one sequential scan, its other nodes unused
    const std::map<const graph::Node*, ScanChain> scans =
        findScans(graph, region, begin, end, [&](graph::ValueId v, const std::set<const graph::Node*>& by) {
          if (results.count(v) || yielded.count(v)) return false;
          for (const graph::Node* r : readers[v]) if (!by.count(r)) return false;
          return true;
        });
    std::set<const graph::Node*> skipped;
    for (const auto& [last, chain] : scans) {
      for (const graph::Node* n : chain.nodes) if (n != last) skipped.insert(n);
    }
    for (size_t k = begin; k < end; ++k) {
      const graph::Node& node = region.nodes[k];
      if (skipped.count(&node)) continue;
      if (inPlace(&node)) {
        slices.push_back(sliceUpdateValue(graph, node, lowered.at(node.inputs.at(1))));
        continue;
      }
      auto scan = scans.find(&node);
      if (scan != scans.end()) {
        lowered.emplace(node.outputs[0], lowerScan(graph, node, scan->second, lowered.at(scan->second.start)));
        ++stats.scans;
        continue;
      }
      std::vector<Lowered> inputs;
      for (graph::ValueId v : node.inputs) inputs.push_back(lowered.at(v));
      if ((node.op == "Concat" || node.op == "Stack") && !inlined(node.outputs.at(0)) && autoscheduler().empty()) {
        lowered.emplace(node.outputs[0], joinPieces(graph, node, inputs));
        continue;
      }
      std::vector<Lowered> lowered_ = lowerNode(graph, node, inputs);
      for (size_t o = 0; o < node.outputs.size(); ++o) lowered.emplace(node.outputs[o], lowered_[o]);
    }
    for (size_t k = begin; k < end; ++k) {
      if (inPlace(&region.nodes[k]) || skipped.count(&region.nodes[k])) continue;
      for (graph::ValueId v : region.nodes[k].outputs) {
        if (!inlined(v)) scheduleRoot(lowered.at(v), target);
      }
    }
    for (graph::ValueId v : s.results) outputs.push_back(lowered.at(v).func);
    for (Lowered& slice : slices) {
      scheduleRoot(slice, target);
      outputs.push_back(slice.func);
    }
    s.pipeline = Halide::Pipeline(outputs);
    s.autoscheduled = !autoscheduler().empty();
    if (s.autoscheduled) autoschedule(s, slices);
  }

  // The pipeline of `s` scheduled by the chosen autoscheduler (its plugin loaded once), with the
  // extents of its inputs and outputs as estimates.
  void autoschedule(Segment& s, const std::vector<Lowered>& slices) {
    static const std::set<std::string> known = {"Adams2019", "Li2018", "Mullapudi2016"};
    const std::string name = autoscheduler();
    if (!known.count(name)) {
      throw CompileError(SourceLocation{file}, "PYASC_CPU_SCHEDULER is '" + name + "'; the autoschedulers are Adams2019, Li2018 and Mullapudi2016");
    }
    static std::set<std::string> loaded;
    if (loaded.insert(name).second) {
      std::string lower = name;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      Halide::load_plugin(std::string(PYASC_HALIDE_PLUGINS) + "/libautoschedule_" + lower + ".so");
    }
    auto region = [](const std::vector<int64_t>& numpyExtents) {
      Halide::Region r;
      for (auto e = numpyExtents.rbegin(); e != numpyExtents.rend(); ++e) r.emplace_back(0, static_cast<int32_t>(*e));
      return r;
    };
    for (size_t k = 0; k < s.reads.size(); ++k) s.params[k].set_estimates(region(staticExtents(graph.type(s.reads[k]))));
    for (size_t k = 0; k < s.results.size(); ++k) s.pipeline.outputs()[k].set_estimates(region(staticExtents(graph.type(s.results[k]))));
    for (size_t k = 0; k < slices.size(); ++k) {
      s.pipeline.outputs()[s.results.size() + k].set_estimates(region(extents(slices[k].type)));
    }
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    s.pipeline.auto_schedule(name, target, Halide::MachineParams(cores, 16u << 20, 40));
  }

  // The pipeline of `s` from the on-disk cache, compiled ahead of time and linked into a shared
  // object there first when it is missing; null (the caller JIT-compiles) without a cache folder
  // or a C++ compiler to link with. The key covers the host target, Halide's version, the build of
  // the code that lowers graphs, and the segment's reads, nodes and results as text.
  int (*fromCache(Segment& s, const graph::Region& region, size_t begin, size_t end))(void**) {
    const std::string folder = cacheFolder();
    if (folder.empty() || loweringIdentity().empty()) return nullptr;
    std::string text = "pyasc cpu 3\nhalide 14\n" + target.to_string() + "\nschedule " + autoscheduler() + "\n" +
                       "lowering " + loweringIdentity() + "\n";
    for (graph::ValueId v : s.reads) text += "read " + graph.value(v).name + " " + graph.type(v).str() + "\n";
    graph::PrintOptions bare;
    bare.locations = false;
    for (size_t k = begin; k < end; ++k) text += graph::printNode(graph, region.nodes[k], 0, bare);
    for (graph::ValueId v : s.results) text += "result " + graph.value(v).name + "\n";
    for (const graph::Node* u : s.inPlace) text += "in place " + graph.value(u->outputs[0]).name + "\n";
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
      if (s.results.empty() && s.inPlace.empty()) return;
      compile(s, region, begin, end);
    }
    if (s.results.empty() && s.inPlace.empty()) return;
    if (!s.cached)
      for (size_t k = 0; k < s.reads.size(); ++k) s.params[k].set(values.at(s.reads[k]));
    std::vector<Halide::Buffer<>>& out = scratchOut;  // emptied on leaving
    out.clear();
    for (size_t k = 0; k < s.results.size(); ++k) {
      auto overwrite = s.overwrites.find(k);
      if (overwrite != s.overwrites.end() && exclusive.count(overwrite->second) && !s.autoscheduled) {  // into the read's buffer
        out.push_back(values.at(overwrite->second));  // the same buffer: its owner stays its owner
        exclusive.erase(overwrite->second);
        ++stats.overwrites;
      } else {
        out.push_back(bufferFor(s.results[k]));
      }
    }
    for (size_t k = 0; k < s.inPlace.size(); ++k) {
      const graph::TensorType& t = graph.type(s.inPlace[k]->outputs[0]);
      if (s.slices.size() <= k) s.slices.emplace_back(halideType(t.dtype), halideSizes(sliceUpdateExtents(*s.inPlace[k], t)));
      out.push_back(s.slices[k]);
    }
    std::string failure;  // Halide's message when the pipeline fails
    if (s.cached) {
      std::vector<void*>& args = scratchArgs;
      args.clear();
      for (graph::ValueId v : s.reads) args.push_back(values[v].raw_buffer());
      for (Halide::Buffer<>& b : out) args.push_back(b.raw_buffer());
      cachedError.clear();
      if (int error = s.cached(args.data()); error != 0) failure = cachedError.empty() ? "Halide error " + std::to_string(error) : oneLine(cachedError);
    } else {
      try {
        s.pipeline.realize(Halide::Realization(out), target);
      } catch (const Halide::Error& e) {
        failure = oneLine(e.what());
      }
    }
    if (!failure.empty()) {
      // an autoscheduler's schedule that fails at run time (Adams2019 may write past an output's
      // end) gives way to the backend's schedules; a failure of those is an error
      if (s.autoscheduled) {
        ++stats.autoscheduleFallbacks;
        const HandSchedules hand;
        s = plan(region, begin, end);
        compile(s, region, begin, end);
        runSegment(region, begin, end);
        return;
      }
      throw CompileError(SourceLocation{file}, "the CPU pipeline of '" + graph.value(s.results.empty() ? s.inPlace[0]->outputs[0] : s.results[0]).name +
                                                   "' failed: " + failure);
    }
    for (size_t k = 0; k < s.results.size(); ++k) {
      values[s.results[k]] = out[k];
      exclusive.insert(s.results[k]);
    }
    for (size_t k = 0; k < s.inPlace.size(); ++k) updateInPlace(*s.inPlace[k], s.writes[k], out[s.results.size() + k]);
    out.clear();  // the buffers belong to the values now
  }

  // Writes the slice of `update` into its array (a copy of it first when another value may hold
  // it), which becomes the update's result.
  void updateInPlace(const graph::Node& update, const Segment::SliceWrite& write, const Halide::Buffer<>& slice) {
    const graph::ValueId array = update.inputs[0];
    Halide::Buffer<> target_ = values.at(array);
    ++stats.inPlaceUpdates;
    if (!exclusive.count(array)) {
      target_ = target_.copy();
      ++stats.arraysCopied;
    }
    exclusive.erase(array);
    start_ = write.start;
    for (const auto& [axis, operand] : write.offsets) start_[axis] += scalarValue(values.at(update.inputs.at(operand)));
    writeSlice(target_, slice, start_, write.step);
    values[update.outputs[0]] = target_;
    exclusive.insert(update.outputs[0]);
  }

  // Runs of nodes as pipelines between the loops and sorts, which the host runs.
  void runRegion(const graph::Region& region) {
    size_t begin = 0;
    for (size_t k = 0; k <= region.nodes.size(); ++k) {
      const bool host = k < region.nodes.size() && (region.nodes[k].isLoop() || region.nodes[k].op == kHostSortOp);
      if (k < region.nodes.size() && !host) continue;
      if (k > begin) runNodes(region, begin, k);
      if (k < region.nodes.size()) region.nodes[k].isLoop() ? runLoop(region, k) : runSort(region.nodes[k]);
      begin = k + 1;
    }
  }

  // A buffer to compute `v` into: a graph output's array run() returns, else a new one.
  Halide::Buffer<> bufferFor(graph::ValueId v) {
    const graph::TensorType& t = graph.type(v);
    auto storage = outputStorage.find(v);
    return storage == outputStorage.end() ? allocate(t) : bufferOver(t.dtype, storage->second.data(), staticExtents(t));
  }

  void runSort(const graph::Node& sort) {
    const graph::ValueId out = sort.outputs[0];
    Halide::Buffer<> into = bufferFor(out);
    sortRows(values.at(sort.inputs[0]), into, sort.boolAttr("indices"));
    values[out] = into;
    exclusive.insert(out);
  }

  // A run of nodes without loops, as pipelines of about kRootsPerPipeline functions computed over
  // their extent each (a value read by several operators or by one that does not read it
  // pointwise, as build() decides): Halide's lowering takes time superlinear in them (32 count
  // updates unrolled from a loop over zip, 1,888 nodes, took 71 s to compile as one pipeline).
  // Each cut falls where the fewest values cross it, between kRootsPerPipeline and twice as many
  // roots (every value crossing is a buffer of its own, written and read again), never before a
  // Concat or Stack (joined piece by piece where its operands are computed) nor inside a scan's
  // chain of slices (it runs as one sequential scan only within one pipeline).
  void runNodes(const graph::Region& region, size_t begin, size_t end) {
    std::vector<size_t>& starts = pipelineStarts[{&region, begin}];
    if (starts.empty()) starts = cutRun(region, begin, end);
    for (size_t k = 0; k < starts.size(); ++k) runSegment(region, starts[k], k + 1 < starts.size() ? starts[k + 1] : end);
  }

  std::vector<size_t> cutRun(const graph::Region& region, size_t begin, size_t end) {
    const std::unordered_map<graph::ValueId, size_t>& last = lastUse[&region];
    std::vector<size_t> starts{begin};
    size_t roots = 0, best = 0, bestCrossing = 0;
    size_t crossing = 0;  // values of this pipeline defined before node k and used at k or later
    std::map<size_t, size_t> expiring;  // by node index: values of this pipeline last used there
    std::vector<bool> inScan(end - begin, false);  // node k continues a scan's chain begun before it
    const auto chains = findScans(graph, region, begin, end, [&](graph::ValueId v, const std::set<const graph::Node*>& by) {
      if (yielded.count(v)) return false;
      for (const graph::Node* r : readers[v]) if (!by.count(r)) return false;
      return true;
    });
    for (const auto& entry : chains) {
      size_t first = end, last = begin;
      for (const graph::Node* n : entry.second.nodes) {
        first = std::min(first, static_cast<size_t>(n - region.nodes.data()));
        last = std::max(last, static_cast<size_t>(n - region.nodes.data()));
      }
      for (size_t k = first + 1; k <= last; ++k) inScan[k - begin] = true;
    }
    for (size_t k = begin; k < end; ++k) {
      const graph::Node& node = region.nodes[k];
      if (roots >= kRootsPerPipeline && !inScan[k - begin] && node.op != "Concat" && node.op != "Stack" && (best == 0 || crossing < bestCrossing)) {
        best = k;
        bestCrossing = crossing;
      }
      if (best != 0 && roots >= 2 * kRootsPerPipeline) {  // cut at the best place seen; count again from there
        starts.push_back(best);
        k = best - 1;
        roots = crossing = best = 0;
        expiring.clear();
        continue;
      }
      if (auto e = expiring.find(k); e != expiring.end()) {
        crossing -= e->second;
        expiring.erase(e);
      }
      for (graph::ValueId v : node.outputs) {
        const std::vector<const graph::Node*>& r = readers[v];
        if (r.size() != 1 || !(readsPointwise(r[0]->op) || readsOnce(r[0]->op))) ++roots;
        auto u = last.find(v);
        if (u == last.end() || u->second <= k) continue;  // not used after its own node
        ++crossing;
        ++expiring[u->second];
      }
    }
    return starts;
  }

  // A value appearing once in `list`, a buffer no other value holds, and defined in `region`.
  bool ownedOnce(graph::ValueId v, const std::vector<graph::ValueId>& list, const graph::Region& region) {
    auto d = definer.find(v);
    return exclusive.count(v) && std::count(list.begin(), list.end(), v) == 1 && d != definer.end() && d->second == &region;
  }

  void runLoop(const graph::Region& region, size_t index) {
    const graph::Node& loop = region.nodes[index];
    const graph::Region& body = loop.body();
    const int64_t start = loop.intAttr("start"), stop = loop.intAttr("stop"), step = loop.intAttr("step", 1);
    std::vector<Halide::Buffer<>> carried;
    // a carried array the loop takes over: nothing uses it after the loop, or inside it but as carried
    std::vector<bool> owned;
    for (graph::ValueId v : loop.inputs) {
      carried.push_back(values.at(v));
      owned.push_back(ownedOnce(v, loop.inputs, region) && lastUse[&region].at(v) == index && !usedInBody[&loop].count(v));
      const size_t c = carried.size() - 1;
      if (!owned[c] && copiedOnEntry.count({&loop, c})) {
        const graph::TensorType& t = graph.type(loop.outputs[c]);
        Halide::Buffer<> into = bufferOver(t.dtype, outputStorage.at(loop.outputs[c]).data(), staticExtents(t));
        into.copy_from(carried[c]);
        carried[c] = into;
        owned[c] = true;
        ++stats.arraysCopied;
      }
    }
    if (step == 0) throw CompileError(loop.loc, "loop step is 0");
    // the induction variable, rewritten per iteration (a fresh buffer each one when the body
    // carries it on: the next iteration must still see this one's value)
    const bool carriesInduction = std::count(body.yields.begin(), body.yields.end(), body.arguments.at(0)) > 0;
    Halide::Buffer<int32_t> induction = Halide::Buffer<int32_t>::make_scalar();
    // a while loop tests its condition, the last carried value, before each trip
    const bool isWhile = loop.isWhileLoop();
    auto holds = [&] { return carried.back().raw_buffer()->host[0] != 0; };
    for (int64_t i = start; isWhile ? holds() : step > 0 ? i < stop : i > stop; i += step) {
      if (isWhile && i == stop) {
        throw CompileError(SourceLocation{loop.loc.file, loop.loc.line, 0}, graph::whileTripLimitMessage(stop));
      }
      if (carriesInduction) induction = Halide::Buffer<int32_t>::make_scalar();
      induction() = static_cast<int32_t>(i);
      values[body.arguments.at(0)] = induction;
      for (size_t c = 0; c < carried.size(); ++c) {
        values[body.arguments.at(c + 1)] = carried[c];
        if (owned[c]) exclusive.insert(body.arguments[c + 1]);
        else exclusive.erase(body.arguments[c + 1]);
      }
      runRegion(body);
      for (size_t c = 0; c < carried.size(); ++c) {
        carried[c] = values.at(body.yields.at(c));
        owned[c] = ownedOnce(body.yields[c], body.yields, body);
      }
    }
    for (size_t c = 0; c < carried.size(); ++c) {
      values[loop.outputs.at(c)] = carried[c];
      if (owned[c]) exclusive.insert(loop.outputs[c]);
      else exclusive.erase(loop.outputs[c]);
    }
  }
};

GraphProgram::GraphProgram() : state_(std::make_unique<State>()) {}
GraphProgram::GraphProgram(GraphProgram&&) noexcept = default;
GraphProgram& GraphProgram::operator=(GraphProgram&&) noexcept = default;
GraphProgram::~GraphProgram() = default;

GraphProgram GraphProgram::fromText(const std::string& file, const std::string& graphText, int64_t unrolledTrips,
                                   const std::map<std::string, int64_t>& extents) {
  if (graphText.empty()) {
    throw CompileError(SourceLocation{file}, "the model has no graph section (written by a pyasc before format 1.1); "
                                             "compile it again to run it on the CPU backend");
  }
  GraphProgram p;
  p.state_->file = file;
  p.state_->graph = graph::parseGraph(file, graphText);
  std::vector<std::string> names;
  std::vector<int64_t> values;
  for (const auto& [name, value] : extents) {
    names.push_back(name);
    values.push_back(value);
  }
  for (auto& v : p.state_->graph.values) {
    for (auto& d : v.type.shape) {
      if (!d.isSymbolic()) continue;
      const ShapeExpr e = shape::parse(d.symbol, names, false);
      if (!e) throw CompileError(v.loc, "the extent " + d.symbol + " of '" + v.name + "' has no value");
      d = graph::Dim::known(shape::evaluate(e, values));
    }
  }
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
  p.state_->stats.identitiesForwarded = forwardIdentities(p.state_->graph);
  p.state_->stats.loopsUnrolled = unrollShortLoops(p.state_->graph, unrolledTrips);
  p.state_->stats.hostSorts = replaceRankSorts(p.state_->graph);
  p.state_->stats.gathers = replaceSelections(p.state_->graph);
  std::vector<const graph::Node*> enclosing;
  p.state_->index(p.state_->graph.body, enclosing);
  for (const auto& o : p.state_->graph.outputs) {
    p.state_->yielded.insert(o.value);
    p.state_->lastUse[&p.state_->graph.body][o.value] = p.state_->graph.body.nodes.size();
  }
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
  s.values.reset(s.graph.values.size());
  s.exclusive.reset(s.graph.values.size());
  s.stats.inPlaceUpdates = s.stats.arraysCopied = s.stats.overwrites = s.stats.outputsCopied = 0;
  if (!s.laidOut) s.layOutOutputs();
  // the outputs' storage (its entries stay from run to run)
  for (const auto& [value, bytes] : s.outputBytes) s.outputStorage[value].resize(bytes);
  if (s.inputBuffers.empty()) {  // made once: a run points the inputs' at the caller's arrays
    for (const graph::GraphInput& in : s.graph.inputs) {
      const graph::TensorType& t = s.graph.type(in.value);
      s.inputBuffers.push_back(bufferOver(t.dtype, nullptr, staticExtents(t)));
    }
    for (graph::GraphConstant& c : s.graph.constants) {
      const graph::TensorType& t = s.graph.type(c.value);
      s.constantBuffers.push_back(bufferOver(t.dtype, c.bytes.data(), staticExtents(t)));
    }
  }
  for (size_t k = 0; k < s.graph.inputs.size(); ++k) {
    const graph::Value& v = s.graph.value(s.graph.inputs[k].value);
    auto found = inputs.find(v.name);
    if (found == inputs.end()) throw CompileError(SourceLocation{s.file}, "input '" + v.name + "' has no value");
    const NpyView& a = found->second;
    bool same = a.dtype == v.type.dtype && a.shape.size() == v.type.shape.size();
    for (size_t d = 0; same && d < a.shape.size(); ++d) same = a.shape[d] == v.type.shape[d].extent;
    if (!same) {
      throw CompileError(SourceLocation{s.file}, "input '" + v.name + "' is " + dtypeName(a.dtype) + " of another shape than " + v.type.str());
    }
    // read in place: the pipelines never write their inputs
    s.inputBuffers[k].raw_buffer()->host = const_cast<uint8_t*>(a.data);
    s.values[s.graph.inputs[k].value] = s.inputBuffers[k];
  }
  for (size_t k = 0; k < s.graph.constants.size(); ++k) s.values[s.graph.constants[k].value] = s.constantBuffers[k];
  s.runRegion(s.graph.body);
  std::vector<std::pair<std::string, NpyArray>> result;
  for (const graph::GraphOutput& o : s.graph.outputs) {
    const graph::TensorType& t = s.graph.type(o.value);
    NpyArray a;
    a.dtype = t.dtype;
    a.shape = staticExtents(t);
    auto forwarded = s.storageFor.find(o.value);
    auto storage = s.outputStorage.find(forwarded == s.storageFor.end() ? o.value : forwarded->second);
    if (storage != s.outputStorage.end() && !storage->second.empty() && s.values.at(o.value).data() == storage->second.data()) {
      a.data = std::move(storage->second);  // computed in place; a second output of the value copies it
    } else {
      ++s.stats.outputsCopied;
      const Halide::Buffer<>& b = s.values.at(o.value);
      const uint8_t* data = static_cast<const uint8_t*>(b.data());
      a.data.assign(data, data + b.size_in_bytes());
    }
    result.emplace_back(o.name, std::move(a));
  }
  s.values.reset(0);  // the inputs' and outputs' memory belongs to the caller
  s.stats.runMillis = millisSince(start) - (s.stats.compileMillis - compiledBefore);
  if (stats) *stats = s.stats;
  return result;
}

}  // namespace pyasc::cpu
