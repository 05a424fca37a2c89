// The graph IR: typed tensor values, registry-operator nodes, graph inputs/outputs/constants and loops.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "sdk/support/DType.h"
#include "sdk/support/ShapeExpr.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::graph {

// Physical arrangement of a tensor in device memory; the frontend produces ND only.
enum class Layout : uint8_t { ND, NCHW, NHWC, NC1HWC0, FRACTAL_Z, FRACTAL_NZ };
const char* layoutName(Layout layout);
bool parseLayout(const std::string& name, Layout& out);

// One dimension: a known extent, a named symbolic extent ("N"), or unknown ("?").
struct Dim {
  int64_t extent = -1;  // >= 0 when known
  std::string symbol;   // non-empty for a symbolic dimension

  static Dim known(int64_t n) { return Dim{n, {}}; }
  static Dim symbolic(std::string name) { return Dim{-1, std::move(name)}; }
  static Dim unknown() { return Dim{}; }
  bool isKnown() const { return extent >= 0; }
  bool isSymbolic() const { return extent < 0 && !symbol.empty(); }
  std::string str() const;  // "256", "N" or "?"
  bool operator==(const Dim& o) const { return extent == o.extent && symbol == o.symbol; }
  bool operator!=(const Dim& o) const { return !(*this == o); }
};

using Shape = std::vector<Dim>;
Shape knownShape(const std::vector<int64_t>& extents);
bool isStaticShape(const Shape& shape);
// -1 unless every dimension is known; INT64_MAX when the product overflows. The verifier refuses
// values of more than kMaxElements, so that sizes, byte counts and work computed from a verified
// graph stay far from overflow.
int64_t elementCount(const Shape& shape);
constexpr int64_t kMaxElements = int64_t{1} << 40;
// The most bytes one constant of a model holds (a literal array, np.eye, a fill stored by the compiler).
constexpr int64_t kMaxConstantBytes = int64_t{64} << 20;
std::string shapeString(const Shape& shape);  // "[256,256]", "[]" for a scalar
// Each dimension's extent (-1 for one not known at compile time).
std::vector<int64_t> extents(const Shape& shape);

struct TensorType {
  DType dtype = DType::Float32;
  Shape shape;
  Layout layout = Layout::ND;
  // False for an array whose rank is not known at compile time (a parameter annotated only
  // Tensor[float32]); `shape` is then empty and the type prints as "f32[*]".
  bool ranked = true;

  int rank() const { return static_cast<int>(shape.size()); }
  std::string str() const;  // "f32[256,256]", "f32[N,3]@NCHW", "f32[*]"
  bool operator==(const TensorType& o) const {
    return dtype == o.dtype && shape == o.shape && layout == o.layout && ranked == o.ranked;
  }
  bool operator!=(const TensorType& o) const { return !(*this == o); }
};

// Index of a value in Graph::values.
using ValueId = int32_t;
constexpr ValueId kNoValue = -1;

struct Value {
  std::string name;  // printed as %name; unique within the graph
  TensorType type;
  SourceLocation loc;
};

// A typed node attribute: int, float, bool, string or list of ints.
using Attribute = std::variant<int64_t, double, bool, std::string, std::vector<int64_t>>;
enum class AttrKind : uint8_t { Int, Float, Bool, String, IntList };
AttrKind attrKind(const Attribute& attr);
const char* attrKindName(AttrKind kind);  // "int", "float", "bool", "string", "int-list"
std::string attrString(const Attribute& attr);  // as printed: 3, 2.0, true, "s", [1, 2]
// Shortest decimal text that reads back to the same value of `dtype`, always with '.' or 'e'.
std::string formatFloat(double value, DType dtype);

struct NamedAttr {
  std::string name;
  Attribute value;
};

struct Node;

// An ordered list of nodes with block arguments and yielded results: the body of a loop.
struct Region {
  std::vector<ValueId> arguments;  // for a loop: the induction variable, then the carried values
  std::vector<Node> nodes;
  std::vector<ValueId> yields;  // for a loop: the next carried values, one per carried input
};

// The op name of a loop node. Inputs are the initial carried values; the attributes start,
// stop and step give the compile-time trip range; the body's first argument is the induction
// variable (i32 scalar) and the rest are the carried values of the current iteration; the
// node's outputs are the carried values after the last iteration. Values of enclosing regions
// may be used in the body directly. A while loop (bool attribute `while` = true, start 0, step 1)
// carries its condition, a bool scalar, last: it runs a trip while the condition holds, and `stop`
// is the most trips it may run (one more is a run-time error).
constexpr const char* kLoopOp = "Loop";
// The run-time error of a while loop about to start trip number `maxTrips`.
std::string whileTripLimitMessage(int64_t maxTrips);

// The hint carrying the explicit schedule a custom operator's definition gives the kernel that
// computes the node (the text of codegen/schedule's Schedule::str()).
constexpr const char* kScheduleHint = "schedule";

struct Node {
  std::string op;  // a registry operator name ("Add", "MatMul", "ReduceSum") or kLoopOp
  std::vector<ValueId> inputs;
  std::vector<ValueId> outputs;
  std::vector<NamedAttr> attrs;  // kept in insertion order so printing is stable
  // Compiler hints from pragmas (amp_mode = "O2"); not operator attributes, so the registry does
  // not check them. Printed as [name = value] after the attributes.
  std::vector<NamedAttr> hints;
  SourceLocation loc;
  std::vector<Region> regions;  // one region for a loop, none otherwise

  const Attribute* attr(const std::string& name) const;
  bool hasAttr(const std::string& name) const { return attr(name) != nullptr; }
  int64_t intAttr(const std::string& name, int64_t fallback = 0) const;
  double floatAttr(const std::string& name, double fallback = 0) const;
  bool boolAttr(const std::string& name, bool fallback = false) const;
  std::string stringAttr(const std::string& name, const std::string& fallback = "") const;
  std::vector<int64_t> intListAttr(const std::string& name) const;
  // The list, or `fallback` when the node has none or an empty one (graph text may leave out an
  // attribute that has a default, such as a convolution's strides).
  std::vector<int64_t> intListAttr(const std::string& name, std::vector<int64_t> fallback) const;
  void setAttr(const std::string& name, Attribute value);
  bool isLoop() const { return op == kLoopOp; }
  bool isWhileLoop() const { return isLoop() && boolAttr("while"); }
  Region& body() { return regions.at(0); }
  const Region& body() const { return regions.at(0); }
};

// How the runtime provides a graph input.
enum class InputRole : uint8_t {
  Array,   // an array bound by the user (a parameter or --input)
  Scalar,  // a runtime scalar parameter, shape []
  Random,  // an array the runtime regenerates from NumPy's legacy MT19937 stream
};
const char* inputRoleName(InputRole role);  // "array", "scalar", "random"

// The NumPy legacy distribution of a random input.
enum class RandomDistribution : uint8_t {
  Uniform,  // np.random.rand / random / random_sample: 53-bit doubles in [0, 1)
  Normal,   // np.random.randn: legacy polar Box-Muller gauss
};
const char* randomDistributionName(RandomDistribution dist);  // "rand", "randn"

// Replay recipe for a random input: after np.random.seed(seed), the program drew `offset`
// values of earlier random inputs with the same seed and stream before this one. The runtime
// regenerates all random inputs of one stream in increasing offset order from a single
// generator (sdk/support/Random.h), so mixed rand/randn sequences reproduce NumPy bit for bit;
// each value is drawn as NumPy's double and converted to the input's dtype (float32 on NPU
// targets). An unseeded stream (seeded = false) may use any seed.
struct RandomSpec {
  RandomDistribution distribution = RandomDistribution::Uniform;
  bool seeded = false;
  uint32_t seed = 0;
  int stream = 0;      // increments at every np.random.seed call
  int64_t offset = 0;  // values drawn from this stream before this input
  // Then each value, as float32, is multiplied by `scale` and `shift` is added, each rounded to
  // float32 (a float16 input is rounded to float16 last): a float32 initialiser's scaling
  // (fold-random-affine). Float64 inputs take no transform.
  double scale = 1.0, shift = 0.0;
  bool transformed() const { return scale != 1.0 || shift != 0.0; }
};

struct GraphInput {
  ValueId value = kNoValue;
  InputRole role = InputRole::Array;
  RandomSpec random;  // meaningful for InputRole::Random
  // Array role: the dtype the program declared where the device computes another (float64 in
  // float32); arrays of it are converted when bound. Printed as `from float64`.
  std::optional<DType> declared;
  // A program compiled with dynamic dimensions (pyasc --dynamic-dims): each dimension's extent over
  // Graph::symbols (a symbol, or a constant for a static one); empty for a static input. The
  // value's type holds the extents at the symbols' largest values. Not printed.
  std::vector<ShapeExpr> dims;
};

// A dynamic dimension of the inputs and its range.
struct GraphSymbol {
  std::string name;
  int64_t min = 0, max = 0;
};

struct GraphOutput {
  std::string name;  // out0, out1... for returns; the parameter or variable name otherwise
  ValueId value = kNoValue;
};

// A compile-time tensor stored as raw little-endian bytes of its dtype.
struct GraphConstant {
  ValueId value = kNoValue;
  std::vector<uint8_t> bytes;
};

struct Graph {
  std::vector<Value> values;
  std::vector<GraphInput> inputs;
  std::vector<GraphConstant> constants;
  Region body;  // the top-level nodes; its arguments and yields are unused
  std::vector<GraphOutput> outputs;
  std::vector<GraphSymbol> symbols;  // the dynamic dimensions GraphInput::dims refer to; empty: static

  // Adds a value named `name`, or name_1, name_2... when that name is taken.
  ValueId addValue(const std::string& name, const TensorType& type, const SourceLocation& loc = {});
  const Value& value(ValueId id) const { return values.at(static_cast<size_t>(id)); }
  Value& value(ValueId id) { return values.at(static_cast<size_t>(id)); }
  const TensorType& type(ValueId id) const { return value(id).type; }
  const GraphInput* findInput(ValueId id) const;
  const GraphConstant* findConstant(ValueId id) const;

 private:
  std::unordered_map<std::string, int> nameUses_;  // name -> next suffix to try
};

// How many times each value is read: by the nodes of every region, by loop yields and as a graph
// output.
std::map<ValueId, int> useCounts(const Graph& graph);

// Whether `value` is a one-element constant equal to zero.
bool isZeroConstant(const Graph& graph, ValueId value);

// Builds a constant's bytes from numbers converted to `dtype` (float16 rounds to nearest even).
std::vector<uint8_t> encodeConstant(DType dtype, const std::vector<double>& numbers);
// The element values of a constant as doubles.
std::vector<double> decodeConstant(DType dtype, const std::vector<uint8_t>& bytes);

}  // namespace pyasc::graph
