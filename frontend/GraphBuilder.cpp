// Node construction with registry inference and float64 demotion.
#include "frontend/GraphBuilder.h"

#include <algorithm>

namespace pyasc::frontend {

using graph::NamedAttr;
using graph::TensorType;
using graph::ValueId;

namespace {
std::string lowerName(const std::string& op) {
  std::string s;
  for (char c : op) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

GraphBuilder::GraphBuilder(const registry::OpRegistry& registry, DiagnosticEngine& diags, const std::string& target,
                           bool demoteFloat64)
    : registry_(registry), diags_(diags), target_(target), demoteFloat64_(demoteFloat64) {}

DType GraphBuilder::deviceDType(DType dtype, const SourceRange& range) {
  if (dtype != DType::Float64 || !demoteFloat64_) return dtype;
  if (!warnedFloat64_) {
    warnedFloat64_ = true;
    Diagnostic& d = diags_.warning(site_ ? *site_ : range, "float64 is not supported on the NPU target '" + target_ +
                                              "'; float64 values are computed in float32");
    d.notes.push_back(Diagnostic{Severity::Note, SourceRange{}, "this warning is shown once per program; "
                                 "use float32 explicitly (e.g. .astype(np.float32)) to silence it", {}});
  }
  return DType::Float32;
}

ValueId GraphBuilder::newValue(const std::string& name, const TensorType& type, const SourceRange& range) {
  return graph_.addValue(name, type, locOf(range));
}

const graph::Node* GraphBuilder::producer(ValueId value) const {
  auto find = [&](const graph::Region& region) -> const graph::Node* {
    for (auto node = region.nodes.rbegin(); node != region.nodes.rend(); ++node) {
      if (std::find(node->outputs.begin(), node->outputs.end(), value) != node->outputs.end()) return &*node;
    }
    return nullptr;
  };
  for (auto region = regions_.rbegin(); region != regions_.rend(); ++region) {
    if (const graph::Node* node = find(**region)) return node;
  }
  return find(graph_.body);
}

bool GraphBuilder::tryAddNode(const std::string& op, std::vector<ValueId> inputs, std::vector<NamedAttr> attrs,
                              const SourceRange& range, const std::string& nameHint, ValueId& result,
                              std::string& error) {
  graph::Node node;
  node.op = op;
  node.attrs = std::move(attrs);
  node.loc = locOf(range);
  node.hints = hints_;
  for (auto& a : node.attrs) {
    if (a.name == "dtype" && std::holds_alternative<std::string>(a.value)) {
      DType t;
      if (parseDType(std::get<std::string>(a.value), t)) a.value = std::string(dtypeName(deviceDType(t, range)));
    }
  }
  error = registry_.completeAttrs(node);
  if (!error.empty()) return false;
  std::vector<TensorType> types;
  for (ValueId in : inputs) types.push_back(graph_.type(in));
  std::vector<TensorType> outputs;
  if (!registry_.infer(node, types, outputs, error)) return false;
  if (outputs.size() != 1) {
    error = op + " has " + std::to_string(outputs.size()) + " results where one was expected";
    return false;
  }
  // NumPy computes integer true division, means and float ufuncs of integers in float64; on an
  // NPU target the operands are cast to float32 first so the result is float32.
  if (outputs[0].dtype == DType::Float64 && demoteFloat64_) {
    deviceDType(DType::Float64, range);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const bool condition = op == "Where" && i == 0;
      if (!condition && graph_.type(inputs[i]).dtype != DType::Float32) inputs[i] = cast(inputs[i], DType::Float32, range);
    }
    types.clear();
    for (ValueId in : inputs) types.push_back(graph_.type(in));
    if (!registry_.infer(node, types, outputs, error)) return false;
  }
  node.inputs = std::move(inputs);
  result = graph_.addValue(nameHint.empty() ? lowerName(op) : nameHint, outputs[0], locOf(range));
  node.outputs.push_back(result);
  currentRegion().nodes.push_back(std::move(node));
  return true;
}

ValueId GraphBuilder::addNode(const std::string& op, std::vector<ValueId> inputs, std::vector<NamedAttr> attrs,
                              const SourceRange& range, const std::string& nameHint) {
  ValueId result;
  std::string error;
  if (!tryAddNode(op, std::move(inputs), std::move(attrs), range, nameHint, result, error)) {
    throw CompileError(Diagnostic{Severity::Error, range, error, {}});
  }
  return result;
}

ValueId GraphBuilder::cast(ValueId value, DType to, const SourceRange& range) {
  if (graph_.type(value).dtype == to) return value;
  return addNode("Cast", {value}, {{"dtype", std::string(dtypeName(to))}}, range);
}

ValueId GraphBuilder::slice(ValueId value, int64_t axis, int64_t begin, int64_t end, int64_t step, const SourceRange& range,
                            const std::string& nameHint) {
  return addNode("Slice", {value},
                 {{"axes", std::vector<int64_t>{axis}}, {"begin", std::vector<int64_t>{begin}}, {"end", std::vector<int64_t>{end}},
                  {"step", std::vector<int64_t>{step}}, {"dynamic_axes", std::vector<int64_t>{}}},
                 range, nameHint);
}

ValueId GraphBuilder::constant(DType dtype, const std::vector<double>& values, const graph::Shape& shape,
                               const SourceRange& range, const std::string& nameHint, bool silentDemotion) {
  dtype = silentDemotion && dtype == DType::Float64 && demoteFloat64_ ? DType::Float32 : deviceDType(dtype, range);
  std::vector<uint8_t> bytes = graph::encodeConstant(dtype, values);
  const bool scalar = shape.empty();
  if (scalar) {
    auto it = scalarConstants_.find({static_cast<int>(dtype), bytes});
    if (it != scalarConstants_.end()) return it->second;
  }
  ValueId id = graph_.addValue(nameHint, TensorType{dtype, shape, graph::Layout::ND, true}, locOf(range));
  if (scalar) scalarConstants_[{static_cast<int>(dtype), bytes}] = id;
  graph_.constants.push_back(graph::GraphConstant{id, std::move(bytes)});
  return id;
}

ValueId GraphBuilder::addInput(const std::string& name, TensorType type, graph::InputRole role,
                               const graph::RandomSpec& random, const SourceRange& range) {
  const bool silent = role == graph::InputRole::Random && type.dtype == DType::Float64 && demoteFloat64_;
  const DType declared = type.dtype;
  type.dtype = silent ? DType::Float32 : deviceDType(type.dtype, range);
  ValueId id = graph_.addValue(name, type, locOf(range));
  graph_.inputs.push_back(graph::GraphInput{id, role, random, std::nullopt});
  if (role != graph::InputRole::Random && declared != type.dtype) graph_.inputs.back().declared = declared;
  return id;
}

void GraphBuilder::addOutput(const std::string& name, ValueId value) {
  graph_.outputs.push_back(graph::GraphOutput{name, value});
}

void GraphBuilder::openRegion() {
  regions_.push_back(std::make_unique<graph::Region>());
  regionIds_.push_back(nextRegionId_++);
}

graph::Region GraphBuilder::closeRegion() {
  graph::Region region = std::move(*regions_.back());
  regions_.pop_back();
  regionIds_.pop_back();
  return region;
}

bool GraphBuilder::isRegionOpen(int id) const {
  return id == 0 || std::find(regionIds_.begin(), regionIds_.end(), id) != regionIds_.end();
}

void GraphBuilder::appendNode(graph::Node node) { currentRegion().nodes.push_back(std::move(node)); }

}  // namespace pyasc::frontend
