// What each graph value is while the graph is walked in order: an array in device memory, a
// compile-time scalar (a one-element constant or fill, until something reads it as an array) or a
// loop counter (affine in the plan's loop counters), and how many of its reads are still ahead.
// select-templates binds storages by it; fuse-elementwise walks the same way to form the same groups.
#pragma once

#include <cstdint>
#include <vector>

#include "sdk/graph/Graph.h"
#include "sdk/model/Model.h"

namespace pyasc::codegen {

class ValueClasses {
 public:
  enum class Class : uint8_t { None, Array, Scalar, Counter };

  // Graph inputs are arrays; constants of one element are scalars, larger ones arrays.
  explicit ValueClasses(const graph::Graph& g);

  const graph::Graph& graph() const { return g_; }
  Class of(graph::ValueId v) const { return at(v).cls; }
  // A scalar's value (kept after it is read as an array: its constant bytes).
  double scalar(graph::ValueId v) const { return at(v).scalar; }
  bool wasScalar(graph::ValueId v) const { return at(v).wasScalar; }
  const model::AffineScalar& affine(graph::ValueId v) const { return at(v).affine; }
  // Reads of `v` not yet walked (graph outputs and loop yields count).
  int readsAhead(graph::ValueId v) const { return reads_[static_cast<size_t>(v)]; }

  void setArray(graph::ValueId v) { at(v).cls = Class::Array; }
  void setScalar(graph::ValueId v, double value);
  void copy(graph::ValueId to, graph::ValueId from) { at(to) = at(from); }
  // `v` read as an array: a scalar becomes an array from here on.
  void readAsArray(graph::ValueId v);

  // Integer arithmetic on loop counters and constants stays affine and needs no kernel (slice
  // offsets such as 32 * i): true, with the result a counter, when `n` folds.
  bool foldAffine(const graph::Node& n);
  // A loop node starts: its carried inputs are read as arrays, the body's counter argument gets a
  // new plan loop counter (returned) and its carried arguments are arrays.
  uint32_t enterLoop(const graph::Node& n);
  // The loop's body is walked: its yields are read as arrays (and done), its results are arrays.
  void leaveLoop(const graph::Node& n);
  // The reads of a walked node are done.
  void readsDone(const graph::Node& n);

 private:
  struct Info {
    Class cls = Class::None;
    bool wasScalar = false;
    double scalar = 0;
    model::AffineScalar affine;
  };
  Info& at(graph::ValueId v) { return info_[static_cast<size_t>(v)]; }
  const Info& at(graph::ValueId v) const { return info_[static_cast<size_t>(v)]; }
  void countReads(const graph::Region& r);

  const graph::Graph& g_;
  std::vector<Info> info_;
  std::vector<int> reads_;
  uint32_t nextCounter_ = 0;
};

}  // namespace pyasc::codegen
