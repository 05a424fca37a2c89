// te.compute definitions: a tensor defined element by element over index variables, by an
// expression of loads at computed indices, index arithmetic, selections, casts, math functions
// and reductions over reduce axes; printed as text and parsed back (a graph node carries it so).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sdk/support/DType.h"

namespace pyasc::te {

enum class Op : uint8_t {
  Var,       // iteration variable `var` (int32)
  Int,       // integer immediate `ival`
  Float,     // float immediate `fval`
  Add, Sub, Mul,
  Div,       // true division of floats
  FloorDiv,  // Python's //: rounds toward minus infinity
  FloorMod,  // Python's %: the sign of the divisor
  Min, Max,
  Neg,
  Lt, Le, Gt, Ge, Eq, Ne,  // → bool
  And, Or, Not,            // of bools
  Select,    // args: condition, then, else (te.if_then_else)
  Load,      // input `tensor` at args, one index per dimension
  Cast,      // args[0] converted to dtype
  Call,      // math function `fn` of args[0]: exp log sqrt rsqrt abs relu
  Reduce,    // `fn` (sum, max, min) of args[0] over the reduce variables `axes`
};

struct ComputeNode;
using ComputeExpr = std::shared_ptr<const ComputeNode>;

struct ComputeNode {
  Op op = Op::Int;
  DType dtype = DType::Int32;
  std::vector<ComputeExpr> args;
  int var = -1;            // Var
  int tensor = -1;         // Load
  int64_t ival = 0;        // Int
  double fval = 0;         // Float
  std::string fn;          // Call, Reduce
  std::vector<int> axes;   // Reduce
};

// An axis of the output (extent of its dimension, from 0) or a reduce axis [lo, lo + extent).
struct IterVar {
  std::string name;
  int64_t lo = 0;
  int64_t extent = 1;
  bool reduce = false;
};

struct ComputeInput {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
};

// Names for printing and reading expressions: variables (Var) and tensors (Load) by index.
struct ExprNames {
  std::vector<std::string> vars;
  std::vector<std::string> tensors;
};

struct ComputeDef {
  std::string name;
  std::vector<ComputeInput> inputs;
  // te.computes computed inside this one's loops (compute_at), over the inputs above; the body reads
  // attached[a] as tensor inputs.size() + a
  std::vector<ComputeDef> attached;
  std::vector<IterVar> vars;  // the output's axes, one per dimension in order, then reduce axes
  ComputeExpr body;           // the output element at the output's axes

  // The type of tensor `t` the body reads: an input, or an attached compute's result.
  ComputeInput tensor(int t) const;
  int tensors() const { return static_cast<int>(inputs.size() + attached.size()); }

  std::vector<int64_t> shape() const;  // extents of the output's axes
  DType dtype() const { return body->dtype; }
  int rank() const;                     // number of output axes
  std::string str() const;              // one line; parseComputeDef reads it back
  ExprNames names() const;              // its axes' names, and in0, in1, ... for its tensors
};

// Node construction (no type checks: verifyComputeDef checks a whole definition).
ComputeExpr var(int index);
ComputeExpr intImm(int64_t value, DType dtype = DType::Int32);
ComputeExpr floatImm(double value, DType dtype);
ComputeExpr node(Op op, DType dtype, std::vector<ComputeExpr> args);
ComputeExpr load(int tensor, DType dtype, std::vector<ComputeExpr> indices);
ComputeExpr call(const std::string& fn, ComputeExpr arg);
ComputeExpr reduce(const std::string& fn, ComputeExpr source, std::vector<int> axes);

const char* opName(Op op);       // "add", "floordiv", "load", ...
bool parseOpName(const std::string& name, Op& out);  // the operations written "(name:...)"
bool isComparison(Op op);
bool isMathFunction(const std::string& fn);  // exp log sqrt rsqrt abs relu
bool isReducer(const std::string& fn);       // sum max min

// Parses ComputeDef::str(); throws std::invalid_argument saying what is wrong and where.
ComputeDef parseComputeDef(const std::string& text);
// "" when `def` is well formed (indices and reduce axes in range, one index per input dimension,
// operand dtypes as each operation needs, at most one reduction, outside indices: the body is the
// reduction or an elementwise epilogue of it), else what is wrong.
std::string verifyComputeDef(const ComputeDef& def);
// What is wrong with one node as an operation (its operand count and dtypes), whatever tensors and
// axes it refers to; "" when nothing is. verifyComputeDef and the loop-nest verifier both ask it.
std::string operationError(const ComputeNode& node);
// compute_inline: `consumer` computes the elements of its tensor `tensor` (the result of `producer`,
// whose input i is the consumer's tensor inputs[i]) where it reads them; the tensor is then read no
// more. A reduction is inlined only into a consumer without one that reads it once, at an index
// using each of the consumer's axes; its reduce axes join the consumer's. "" or why it cannot.
std::string inlineInto(ComputeDef& consumer, int tensor, const ComputeDef& producer, const std::vector<int>& inputs);

// A matrix product as a definition writes it: out[i, j] = sum over k of a[i, k] * b[k, j] (or b[j, k],
// transposed), both operands of one float type (cast or not to the sum's type), the sum maybe cast
// to the output's: which inputs hold A and B.
struct Contraction {
  int a = 0, b = 0;
  bool transposedB = false;
};
std::optional<Contraction> contractionOf(const ComputeDef& def);

// The reduction of a body (its first, in a malformed one), or null.
ComputeExpr reductionOf(const ComputeExpr& body);

// What an expression's variables, loads and reductions are worth, for evaluateExpr.
struct ExprEnvironment {
  std::function<double(int var)> var;
  std::function<double(int tensor, const std::vector<int64_t>& indices)> load;
  std::function<double(const ComputeNode& reduction)> reduce;
};
// The value of `e` in float64 (index arithmetic exact, // and % as Python rounds them).
double evaluateExpr(const ComputeExpr& e, const ExprEnvironment& env);
// A value converted to `t` as a cast does: bools to 0/1, integers truncated, floats kept.
double castValue(double v, DType t);

// The value of `def` at every output element, row-major, computed in float64 from the inputs'
// values (row-major, as float64); for tests and references. Index arithmetic is exact.
std::vector<double> evaluateComputeDef(const ComputeDef& def, const std::vector<std::vector<double>>& inputs);

}  // namespace pyasc::te
