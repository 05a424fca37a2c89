// The program select-templates builds and what every template builds it with: graph values bound
// to GM storages, new storages, launches, and the data movements several templates share.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "codegen/graph/Program.h"
#include "codegen/graph/SelectTemplates.h"
#include "codegen/graph/SymbolicShapes.h"
#include "codegen/graph/ValueClasses.h"
#include "sdk/graph/Graph.h"
#include "sdk/target/Target.h"
#include "sdk/te/Schedule.h"

namespace pyasc::codegen {

// The extents of `t`; a CompileError at `loc` for a dimension not known at compile time.
std::vector<int64_t> staticShape(const graph::TensorType& t, const SourceLocation& loc);
// Product of v[from..to), `to` clamped to the size.
int64_t product(const std::vector<int64_t>& v, size_t from = 0, size_t to = SIZE_MAX);
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t>& shape);

class Lowering {
 public:
  Lowering(const graph::Graph& g, const Target& t, const SelectOptions& o);

  const graph::Graph& graph;
  const Target& target;
  const SelectOptions& options;
  Program program;
  ValueClasses classes;  // what each graph value is at this point of the walk
  SymbolicShapes shapes;  // dynamic shapes: each value's extents over the symbols

  // ---- storages ----
  int addStorage(Storage s);
  void bind(graph::ValueId v, int storage);
  int boundStorage(graph::ValueId v) const { return storage_[static_cast<size_t>(v)]; }
  // The storage holding `v`: a compile-time scalar read as an array gets its constant bytes here.
  int storageOf(graph::ValueId v, const SourceLocation& loc);
  // As storageOf, for a template that moves `v` as data: a value computed from loop counters alone
  // (s[i, j] = k) is first written to a one-element storage by a kernel of its own.
  int dataStorageOf(graph::ValueId v, const graph::Node& n, std::vector<Step>& out);
  // A new intermediate storage for `v`, named after it, bound to it.
  int newIntermediate(graph::ValueId v);
  // A constant tensor of `shape` (at least one element) whose element i is element(i) (row-major);
  // a CompileError at `loc` when it would hold more than graph::kMaxConstantBytes.
  int constantStorage(const std::string& name, DType dtype, const std::vector<int64_t>& shape,
                      const std::function<double(int64_t)>& element, const SourceLocation& loc);

  // ---- launches ----
  // `prefix` numbered by the kernels generated so far ("reduce_3").
  std::string kernelName(const std::string& prefix) const;
  // A storage with dynamic dimensions needs a launch that takes its extents (a scalar with a shape
  // expression); any other is a CompileError at the storage's value.
  void launch(std::vector<Step>& out, KernelCode code, std::vector<int> storages,
              std::vector<model::AffineScalar> scalars = {});
  int cores(bool cube) const { return std::max(1, cube ? target.cubeCores : target.vectorCores); }
  // The schedule a custom operator's definition gave for the kernel computing `n` (its "schedule"
  // hint, parsed once), or null.
  const te::Schedule* explicitScheduleOf(const graph::Node& n);

  // ---- data movements several templates share ----
  // A new storage holding `src` (of `shape`) with its axes permuted by `perm`, named after `src`.
  int transposeInto(int src, DType t, const std::vector<int64_t>& shape, const std::vector<int64_t>& perm,
                    const graph::Node& n, std::vector<Step>& out);
  // A new storage `name` holding `src` (of shape `from`) broadcast to `to` by NumPy's rules.
  int broadcastStorage(int src, std::vector<int64_t> from, const std::vector<int64_t>& to, const std::string& name,
                       const graph::Node& user, std::vector<Step>& out);
  // `dst` = `src`, element for element (int32 into int64 sign-extends).
  void copyWhole(int src, int dst, const graph::Node& n, std::vector<Step>& out);
  // The storage a write into `base` may update in place, copying `base` first when it is still needed.
  int writableCopyOf(graph::ValueId base, graph::ValueId result, const graph::Node& n, std::vector<Step>& out);
  // Whether `v`'s storage may become another value's: an intermediate nothing reads after this use,
  // through `v` (read at most once more) or through a value sharing the storage (a view of it).
  bool takesOver(graph::ValueId v, const graph::Node& n);

 private:
  std::vector<int> storage_;  // per graph value, -1: none yet
  std::map<int, std::vector<graph::ValueId>> boundTo_;  // per storage, the values ever bound to it
  std::map<std::string, te::Schedule> explicitSchedules_;
};

// Kernel lowerings know only the source line: their errors are reported at the node.
template <typename Lower>
void locatedAt(const graph::Node& n, Lower lower) {
  try {
    lower();
  } catch (const CompileError& e) {
    if (!e.diagnostic().range.begin.file.empty() || !n.loc.valid()) throw;
    Diagnostic located = e.diagnostic();
    located.range.begin = n.loc;
    throw CompileError(located);
  }
}

}  // namespace pyasc::codegen
