// The frontend's rank sorts found in a graph and run as one host sort per row.
#include "cpu/HostSort.h"

#include <hwy/contrib/sort/vqsort.h>

#include "cpu/GraphRewrite.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

namespace pyasc::cpu {
namespace {

using graph::Node;
using graph::ValueId;

// The construction of callSort (frontend/Calls.cpp) read backwards from its last reduction, for
// x of rank r sorted along its last axis (extent n) over [..., i, j] pairs (rank R = r + 1):
//   xi = BroadcastTo(ExpandDims(x, [r])), xj = BroadcastTo(ExpandDims(x, [r - 1])),
//   index = Range(0, n, 1), earlier = Less(spread(index, [0]), spread(index, [1])),
//   before = (xj < xi or (isnan(xi) and not isnan(xj))) or ((xj == xi or (isnan(xi) and isnan(xj))) and earlier),
//   ranks = ReduceSum(Cast(before), [r]), lands = Equal(ExpandDims(ranks, [r]), ExpandDims(Cast(index), [0])),
//   sort: ReduceMax(Where(lands, xi, lowest), [r - 1]); argsort: ReduceSum(Where(lands, ExpandDims(index, [1]), 0), [r - 1]).
class Match {
 public:
  Match(const Definitions& definitions, const graph::Graph& graph) : definitions_(definitions), graph_(graph) {}

  // x and whether the indices are sorted, when `last` ends a complete construction
  std::optional<std::pair<ValueId, bool>> sortOf(const Node& last) {
    nodes.clear();
    const bool indices = last.op == "ReduceSum";
    if ((!indices && last.op != "ReduceMax") || last.inputs.size() != 1 || last.boolAttr("keepdims")) return std::nullopt;
    const int64_t R = graph_.type(last.inputs[0]).rank();
    if (R < 2 || last.intListAttr("axes") != std::vector<int64_t>{R - 2}) return std::nullopt;
    const Node* where = is(last.inputs[0], "Where", 3);
    const Node* lands = where ? is(where->inputs[0], "Equal", 2) : nullptr;
    if (!lands) return std::nullopt;
    const Node* ranks = expanded(lands->inputs[0], R - 1, "ReduceSum");
    const Node* position = expanded(lands->inputs[1], 0, "Cast");
    if (!ranks || !position || ranks->boolAttr("keepdims") || ranks->intListAttr("axes") != std::vector<int64_t>{R - 1}) return std::nullopt;
    const ValueId index = position->inputs[0];
    const Node* range = is(index, "Range", 0);
    const Node* counted = is(ranks->inputs[0], "Cast", 1);
    const Node* before = counted ? is(counted->inputs[0], "LogicalOr", 2) : nullptr;
    if (!range || !before || range->floatAttr("start") != 0.0 || range->floatAttr("step") != 1.0) return std::nullopt;
    const Node* smaller = is(before->inputs[0], "LogicalOr", 2);
    const Node* tie = is(before->inputs[1], "LogicalAnd", 2);
    const Node* less = smaller ? is(smaller->inputs[0], "Less", 2) : nullptr;
    if (!tie || !less) return std::nullopt;
    const ValueId xj = less->inputs[0], xi = less->inputs[1];
    const std::optional<ValueId> x = spreadOf(xi, R - 1);
    if (!x || spreadOf(xj, R - 2) != x) return std::nullopt;
    const int64_t n = graph_.type(*x).shape.back().extent;
    if (range->floatAttr("stop") != static_cast<double>(n)) return std::nullopt;
    // (isnan(xi) and not isnan(xj)), (xj == xi or (isnan(xi) and isnan(xj))) and earlier
    const Node* nanFirst = is(smaller->inputs[1], "LogicalAnd", 2);
    const Node* same = is(tie->inputs[0], "LogicalOr", 2);
    const Node* earlier = is(tie->inputs[1], "Less", 2);
    if (!nanFirst || !same || !earlier) return std::nullopt;
    const Node* nanI = is(nanFirst->inputs[0], "IsNan", 1);
    const Node* notNanJ = is(nanFirst->inputs[1], "LogicalNot", 1);
    const Node* nanJ = notNanJ ? is(notNanJ->inputs[0], "IsNan", 1) : nullptr;
    const Node* equal = is(same->inputs[0], "Equal", 2);
    const Node* bothNan = is(same->inputs[1], "LogicalAnd", 2);
    if (!nanI || !nanJ || !equal || !bothNan || nanI->inputs[0] != xi || nanJ->inputs[0] != xj) return std::nullopt;
    if (equal->inputs != std::vector<ValueId>{xj, xi} || bothNan->inputs != std::vector<ValueId>{nanI->outputs[0], nanJ->outputs[0]}) return std::nullopt;
    if (spreadOf(earlier->inputs[0], 0) != index || spreadOf(earlier->inputs[1], 1) != index) return std::nullopt;
    if (indices) {
      const Node* own = is(where->inputs[1], "ExpandDims", 1);
      if (!own || own->inputs[0] != index || own->intListAttr("axes") != std::vector<int64_t>{1}) return std::nullopt;
    } else if (where->inputs[1] != xi) {
      return std::nullopt;
    }
    return std::make_pair(*x, indices);
  }

  std::set<const Node*> nodes;  // the construction's nodes matched (the last reduction not among them)

 private:
  const Node* is(ValueId v, const char* op, size_t inputs) { return definedBy(definitions_, v, op, inputs, nodes); }
  // ExpandDims(node(...), [axis]): the node
  const Node* expanded(ValueId v, int64_t axis, const char* op) {
    const Node* e = is(v, "ExpandDims", 1);
    if (!e || e->intListAttr("axes") != std::vector<int64_t>{axis}) return nullptr;
    return is(e->inputs[0], op, 1);
  }
  // BroadcastTo(ExpandDims(v, [axis])): v
  std::optional<ValueId> spreadOf(ValueId v, int64_t axis) {
    const Node* b = is(v, "BroadcastTo", 1);
    const Node* e = b ? is(b->inputs[0], "ExpandDims", 1) : nullptr;
    if (!e || e->intListAttr("axes") != std::vector<int64_t>{axis}) return std::nullopt;
    return e->inputs[0];
  }

  const Definitions& definitions_;
  const graph::Graph& graph_;
};

// Each element as an unsigned key of its width whose order is NumPy's sort order (every NaN last).
template <typename T>
struct SortKey {  // integers: the sign bit flipped
  using U = std::make_unsigned_t<T>;
  static constexpr U kSign = std::is_signed_v<T> ? U(U(1) << (sizeof(T) * 8 - 1)) : U(0);
  static U of(T v) { return static_cast<U>(v) ^ kSign; }
  static T from(U k) { return static_cast<T>(k ^ kSign); }
};
template <typename T, typename U>
struct FloatKey {  // negative values' bits inverted, others' sign bit set; NaN the largest key
  static constexpr U kSign = U(U(1) << (sizeof(U) * 8 - 1));
  static U of(T v) {
    if (std::isnan(v)) return U(~U(0));
    if (v == 0) v = 0;  // -0.0 ranks with +0.0 (equal, kept in their order)
    U u;
    std::memcpy(&u, &v, sizeof u);
    return (u & kSign) ? U(~u) : U(u | kSign);
  }
  static T from(U k) {
    if (k == U(~U(0))) return std::numeric_limits<T>::quiet_NaN();
    const U u = (k & kSign) ? U(k ^ kSign) : U(~k);
    T v;
    std::memcpy(&v, &u, sizeof v);
    return v;
  }
};
template <> struct SortKey<float> : FloatKey<float, uint32_t> {};
template <> struct SortKey<double> : FloatKey<double, uint64_t> {};
template <>
struct SortKey<Halide::float16_t> {
  static uint16_t of(Halide::float16_t v) {
    if ((v.to_bits() & 0x7fff) > 0x7c00) return 0xffff;  // NaN (the bits: is_nan is not inlined)
    const uint16_t u = v.to_bits() == 0x8000 ? 0 : v.to_bits();  // -0.0 ranks with +0.0
    return (u & 0x8000) ? uint16_t(~u) : uint16_t(u | 0x8000);
  }
  static Halide::float16_t from(uint16_t k) {
    return Halide::float16_t::make_from_bits(k == 0xffff ? 0x7e00 : (k & 0x8000) ? uint16_t(k ^ 0x8000) : uint16_t(~k));
  }
};

// Sorts `keys` ascending: Highway's vectorised quicksort from kVectorSortFrom keys (NumPy's sort is
// vectorised too), std::sort below it (the vector sort's set-up costs more).
template <typename K>
void sortKeys(std::vector<K>& keys) {
  constexpr size_t kVectorSortFrom = 256;
  if (keys.size() < kVectorSortFrom || sizeof(K) == 1) {  // (bytes: no vector sort of them)
    std::sort(keys.begin(), keys.end(), [](const K& a, const K& b) {
      if constexpr (std::is_same_v<K, hwy::uint128_t>) return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
      else return a < b;
    });
    return;
  }
  if constexpr (sizeof(K) > 1) {
    thread_local const hwy::Sorter sorter;
    sorter(keys.data(), keys.size(), hwy::SortAscending());
  }
}

// The position in its row of each element, in the stable order of keys of U: each key with its
// position as one wider key (ties broken by position), sorted.
template <typename U>
struct StableOrder {
  using Wide = std::conditional_t<sizeof(U) == 8, hwy::uint128_t, uint64_t>;
  std::vector<Wide> wide;
  void sort(const std::vector<U>& keys) {
    wide.resize(keys.size());
    for (size_t k = 0; k < keys.size(); ++k) {
      if constexpr (sizeof(U) == 8) wide[k] = hwy::uint128_t{k, keys[k]};
      else wide[k] = (uint64_t{keys[k]} << 32) | k;
    }
    sortKeys(wide);
  }
  int64_t position(size_t k) const {
    if constexpr (sizeof(U) == 8) return static_cast<int64_t>(wide[k].lo);
    else return static_cast<int64_t>(wide[k] & 0xffffffffu);
  }
};

template <typename T>
void sortRowsOf(const halide_buffer_t& in, halide_buffer_t& out, bool indices) {
  using Key = SortKey<T>;
  using U = decltype(Key::of(T{}));
  const int dims = in.dimensions;
  for (int d = 0; d < dims; ++d)
    if (in.dim[d].extent == 0) return;  // no element
  const int64_t n = dims > 0 ? in.dim[0].extent : 1, inStep = dims > 0 ? in.dim[0].stride : 1, outStep = dims > 0 ? out.dim[0].stride : 1;
  std::vector<int64_t> rowFrom{0}, rowTo{0};  // each row's first element in `in` and `out`
  for (int d = 1; d < dims; ++d) {
    const size_t before = rowFrom.size();
    for (int64_t i = 1; i < in.dim[d].extent; ++i) {
      for (size_t r = 0; r < before; ++r) {
        rowFrom.push_back(rowFrom[r] + i * in.dim[d].stride);
        rowTo.push_back(rowTo[r] + i * out.dim[d].stride);
      }
    }
  }
  const int64_t rows = static_cast<int64_t>(rowFrom.size());
  const T* source = reinterpret_cast<const T*>(in.host);
  auto write = [&](int64_t r, int64_t k, U key, uint64_t position) {
    const int64_t at = rowTo[r] + k * outStep;
    if (!indices) reinterpret_cast<T*>(out.host)[at] = Key::from(key);
    else if (out.type.bits == 64) reinterpret_cast<int64_t*>(out.host)[at] = static_cast<int64_t>(position);
    else reinterpret_cast<int32_t*>(out.host)[at] = static_cast<int32_t>(position);
  };
  if (sizeof(U) > 1 && sizeof(U) <= 4 && rows > 1 && n < 1024 && rows * n >= 256 && rows < (int64_t{1} << 32)) {
    // many short rows: one vector sort of every element keyed by its row, then its key
    if (!indices) {
      std::vector<uint64_t> all(static_cast<size_t>(rows * n));
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t k = 0; k < n; ++k) all[r * n + k] = (uint64_t(r) << 32) | Key::of(source[rowFrom[r] + k * inStep]);
      sortKeys(all);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t k = 0; k < n; ++k) write(r, k, static_cast<U>(all[r * n + k]), 0);
    } else {
      std::vector<hwy::uint128_t> all(static_cast<size_t>(rows * n));
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t k = 0; k < n; ++k) all[r * n + k] = hwy::uint128_t{uint64_t(k), (uint64_t(r) << 32) | Key::of(source[rowFrom[r] + k * inStep])};
      sortKeys(all);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t k = 0; k < n; ++k) write(r, k, 0, all[r * n + k].lo);
    }
    return;
  }
  std::vector<U> keys(static_cast<size_t>(n));
  StableOrder<U> order;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = 0; k < n; ++k) keys[k] = Key::of(source[rowFrom[r] + k * inStep]);
    if (indices) {
      order.sort(keys);
      for (int64_t k = 0; k < n; ++k) write(r, k, 0, static_cast<uint64_t>(order.position(k)));
    } else {
      sortKeys(keys);
      for (int64_t k = 0; k < n; ++k) write(r, k, keys[k], 0);
    }
  }
}

}  // namespace

int replaceRankSorts(graph::Graph& graph) {
  return replaceConstructions(graph, [&](const Node& node, const Definitions& definitions) -> std::optional<Replacement> {
    Match match(definitions, graph);
    const std::optional<std::pair<ValueId, bool>> sort = match.sortOf(node);
    if (!sort) return std::nullopt;
    Replacement r;
    r.node.op = kHostSortOp;
    r.node.inputs = {sort->first};
    r.node.attrs = {{"indices", sort->second}};
    r.construction = std::move(match.nodes);
    return r;
  });
}

void sortRows(const Halide::Buffer<>& in, Halide::Buffer<>& out, bool indices) {
  const halide_buffer_t& a = *in.raw_buffer();
  halide_buffer_t& b = *out.raw_buffer();
  const Halide::Type t = in.type();
  if (t.is_float()) {
    if (t.bits() == 16) return sortRowsOf<Halide::float16_t>(a, b, indices);
    if (t.bits() == 32) return sortRowsOf<float>(a, b, indices);
    return sortRowsOf<double>(a, b, indices);
  }
  if (t.is_int()) {
    if (t.bits() == 8) return sortRowsOf<int8_t>(a, b, indices);
    if (t.bits() == 16) return sortRowsOf<int16_t>(a, b, indices);
    if (t.bits() == 32) return sortRowsOf<int32_t>(a, b, indices);
    return sortRowsOf<int64_t>(a, b, indices);
  }
  if (t.bits() <= 8) return sortRowsOf<uint8_t>(a, b, indices);  // bool (1 bit in a byte) and uint8
  if (t.bits() == 16) return sortRowsOf<uint16_t>(a, b, indices);
  if (t.bits() == 32) return sortRowsOf<uint32_t>(a, b, indices);
  sortRowsOf<uint64_t>(a, b, indices);
}

}  // namespace pyasc::cpu
