// One operator of the registry: operands, attributes, category and shape/dtype inference.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sdk/graph/Graph.h"

namespace pyasc::registry {

// The compute pattern of an operator, which picks its schedule template later.
enum class OpCategory : uint8_t { Elementwise, Broadcast, Reduce, Cube, Conv, DataMovement, Creation, Pool, Compute };
const char* categoryName(OpCategory category);  // "elementwise", "broadcast", ...

// A set of element types as a bit mask indexed by DType.
using DTypeSet = uint32_t;
constexpr DTypeSet dtypeBit(DType t) { return 1u << static_cast<unsigned>(t); }
constexpr DTypeSet kBoolTypes = dtypeBit(DType::Bool);
constexpr DTypeSet kIntTypes = dtypeBit(DType::Int8) | dtypeBit(DType::UInt8) | dtypeBit(DType::Int16) |
                               dtypeBit(DType::Int32) | dtypeBit(DType::Int64);
constexpr DTypeSet kFloatTypes = dtypeBit(DType::Float16) | dtypeBit(DType::Float32) | dtypeBit(DType::Float64);
constexpr DTypeSet kNumericTypes = kIntTypes | kFloatTypes;
constexpr DTypeSet kAllTypes = kBoolTypes | kNumericTypes;
std::string dtypeSetString(DTypeSet set);  // "float16|float32|float64", "any"

struct OperandSpec {
  std::string name;
  DTypeSet dtypes = kAllTypes;
  bool variadic = false;  // zero or more operands of this kind (Concat inputs, Slice offsets); last only
};

struct AttrSpec {
  std::string name;
  graph::AttrKind kind = graph::AttrKind::Int;
  std::optional<graph::Attribute> defaultValue;  // none: the attribute is required, unless optional
  bool optional = false;                         // may be absent (e.g. reduction axes: all axes)
  std::string doc;
};

// Inference input: the node (its op name, filled-in attributes and input count) and input types.
struct InferContext {
  const graph::Node& node;
  const std::vector<graph::TensorType>& inputs;
  std::vector<graph::TensorType> outputs;
  std::string error;  // set with a user-facing message when inference fails

  bool fail(std::string message) {
    error = std::move(message);
    return false;
  }
};
using InferFn = std::function<bool(InferContext&)>;

// Extension point for ops/: the compute (TE expression), lowering hints and NumPy reference of
// an operator. The registry only stores it; ops/ derives from it and attaches it with
// OpRegistry::attachImplementation, so the frontend never depends on computes.
class OpImplementation {
 public:
  virtual ~OpImplementation() = default;
};

struct OpEntry {
  std::string name;  // "Add", "MatMul", "ReduceSum"
  OpCategory category = OpCategory::Elementwise;
  std::string summary;  // one line for `describe`
  std::vector<OperandSpec> inputs;
  std::vector<OperandSpec> outputs;
  std::vector<AttrSpec> attrs;
  InferFn infer;
  std::shared_ptr<const OpImplementation> implementation;  // null until ops/ attaches one

  const AttrSpec* findAttr(const std::string& attrName) const;
};

}  // namespace pyasc::registry
