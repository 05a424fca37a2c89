// What the CPU backend's operator lowerings share: defining functions by index expressions,
// reductions, broadcasting, and the lowering table's families (one file each).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cpu/LowerNode.h"

namespace pyasc::cpu {

using Index = std::vector<Halide::Expr>;  // NumPy axis order

[[noreturn]] void fail(const graph::Node& node, const std::string& message);
std::vector<int64_t> extents(const graph::TensorType& t);
// `e` as a Halide extent; an error at `node` beyond 2^31 - 1.
int32_t extent32(const graph::Node& node, int64_t e);

// The Halide autoscheduler that schedules the pipelines instead of the backend's own schedules:
// $PYASC_CPU_SCHEDULER (Adams2019, Li2018 or Mullapudi2016; empty or unset: none). While one is
// chosen, the lowerings leave every function unscheduled.
std::string autoscheduler();
// While one exists (on this thread), autoscheduler() is empty: the backend schedules what the
// autoscheduler could not.
struct HandSchedules {
  HandSchedules();
  ~HandSchedules();
  HandSchedules(const HandSchedules&) = delete;
  HandSchedules& operator=(const HandSchedules&) = delete;
};

// `v` of `stage` split into vectors of `lanes`, and those into blocks of `block` elements: only the
// last vector is masked (a block split first masks every vector of the last block, and a masked
// store past the end of a buffer costs hundreds of cycles on some x86 cores).
void splitIntoVectorBlocks(Halide::Stage stage, const Halide::Var& v, const Halide::Var& blocks, const Halide::Var& within,
                           const Halide::Var& lane, int lanes, int block);

// `value` computed once over its extent, its innermost dimension vectorised (under the backend's
// schedules; an autoscheduler decides otherwise): an operand prepared for many reads.
void computeOnce(const Lowered& value);

// The loop over `v` (`extent` iterations of `work` element operations each) split over the cores
// in tasks of at least 2^14 operations, when the loop holds at least two such tasks.
void parallelOver(Halide::Stage stage, const Halide::VarOrRVar& v, int64_t extent, int64_t work);

// A function of `type` whose element at index i (NumPy order) is body(i), converted to its dtype.
Lowered define(const std::string& name, const graph::TensorType& type, const std::function<Halide::Expr(const Index&)>& body);
// How a reduction walks memory, for its schedule: along the innermost axis of what it reads
// (row sums, matrix-vector products: split over vector lanes), across it (column sums,
// convolutions: a row of totals accumulates a contiguous row of input at a time), or in tiles of
// the two innermost output axes (matmul: a tile of totals held in vector registers while the
// reduction walks, its operand rows reused from the cache across tiles).
enum class Walk { AlongInner, Across, Tiles };

// A function of `type` computed by a reduction: init(i) at every index i (NumPy order), then
// current = update(current, i) once per point of the reduction domain the update reads; the
// element is finish(current). Halide's update definitions cannot be pure, hence the wrapper. The
// update must combine with +, *, min or max (Halide proves them associative: the schedule
// reorders the reduction); the first reduction variable is the innermost loop.
Lowered accumulate(const std::string& name, const graph::TensorType& type, Walk walk, const std::function<Halide::Expr(const Index&)>& init,
                   const std::function<Halide::Expr(Halide::Expr, const Index&)>& update,
                   const std::function<Halide::Expr(Halide::Expr)>& finish);
Halide::Expr same(Halide::Expr e);

// The index of an input broadcast (NumPy rules, trailing axes aligned) to an output index.
Index broadcastIndex(const Index& out, const graph::TensorType& in);
Halide::Expr clampIndex(const Halide::Expr& i, int64_t extent);
// The node's axes attribute (an int or a list; absent: every axis), normalised.
std::vector<int64_t> normalizedAxes(const graph::Node& node, const std::string& attr, int rank);
// Sums and products of floats accumulate in float64 (within NumPy's pairwise float32 error whatever
// their order), of integers and booleans in the result's integer type.
Halide::Type accumulatorType(DType in, DType out);
// A float as the signed integer of its width that orders as the floats do, every NaN as the quiet
// NaN above +infinity (nanHigh) or below -infinity: max and min of keys are NumPy's max and min
// (NaN wins) with an operator Halide knows is associative. fromOrderedKey inverts it.
Halide::Expr orderedKey(Halide::Expr x, bool nanHigh);
Halide::Expr fromOrderedKey(Halide::Expr key, const Halide::Type& type);
// NaN wins, as NumPy's max and min (comparisons only between numbers: see compareOp)
Halide::Expr nanMaxOf(Halide::Expr acc, Halide::Expr x);
Halide::Expr nanMinOf(Halide::Expr acc, Halide::Expr x);

using Lowering = std::function<Lowered(const graph::Graph&, const graph::Node&, const std::vector<Lowered>&)>;
using LoweringTable = std::map<std::string, Lowering>;

Lowered lowerElementwise(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in);  // LowerElementwise.cpp
// The value of elementwise `node` from its operands' values (of types `in`), as lowerElementwise
// computes each element; a one-element constant operand k is folded in when inlineConstants[k].
using Combiner = std::function<Halide::Expr(const std::vector<Halide::Expr>&)>;
Combiner elementwiseCombiner(const graph::Graph& graph, const graph::Node& node, const std::vector<graph::TensorType>& in,
                             const std::vector<bool>& inlineConstants);
void addDataMovementLowerings(LoweringTable& table);  // LowerDataMovement.cpp: shapes, slices, joins, pads, gathers, fills
void addReduceLowerings(LoweringTable& table);        // LowerReduce.cpp: reductions, var/std, argmax/argmin
void addContractionLowerings(LoweringTable& table);   // LowerContraction.cpp: matmul, einsum, tensordot
void addNNLowerings(LoweringTable& table);            // LowerNN.cpp: softmax, norms, Conv2D, pooling, te.compute

}  // namespace pyasc::cpu
