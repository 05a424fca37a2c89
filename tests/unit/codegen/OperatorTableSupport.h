// Compiles one registry operator alone through the whole pipeline and runs it on the simulator
// (sanitizer on); shared by the table-driven operator tests.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "codegen/Pipeline.h"
#include "registry/OpRegistry.h"
#include "runtime/Model.h"
#include "sdk/support/ArrayCompare.h"

namespace pyasc::testing {

// Completes `node`'s attributes, infers its result, compiles a graph of it alone over the inputs
// x0, x1, ... for `targetName` and runs it on the simulator (sanitizer on); `out` is its result.
inline void runAlone(graph::Node& node, const std::vector<NpyArray>& inputs, const std::string& targetName, NpyArray& out) {
  const auto& registry = registry::OpRegistry::builtin();
  graph::Graph g;
  std::vector<graph::TensorType> inTypes;
  node.inputs.clear();
  for (size_t i = 0; i < inputs.size(); ++i) {
    graph::TensorType t{inputs[i].dtype, graph::knownShape(inputs[i].shape), graph::Layout::ND};
    graph::ValueId v = g.addValue("x" + std::to_string(i), t);
    g.inputs.push_back(graph::GraphInput{v, graph::InputRole::Array, {}, std::nullopt});
    node.inputs.push_back(v);
    inTypes.push_back(t);
  }
  ASSERT_EQ(registry.completeAttrs(node), "");
  std::vector<graph::TensorType> outTypes;
  std::string error;
  ASSERT_TRUE(registry.infer(node, inTypes, outTypes, error)) << error;
  graph::ValueId result = g.addValue("y", outTypes[0]);
  node.outputs = {result};
  g.body.nodes.push_back(node);
  g.outputs.push_back(graph::GraphOutput{"y", result});
  Target target = loadTarget(targetName);
  codegen::CompileResult compiled = codegen::compileGraph(g, target, codegen::CompileOptions{});
  pyasc::Model net = pyasc::Model::fromImage(compiled.model, node.op);
  for (size_t i = 0; i < inputs.size(); ++i) net.setInput("x" + std::to_string(i), inputs[i]);
  RunResult r = net.run();
  out = r.outputs.at(0).second;
}

inline NpyArray float64Array(const std::vector<int64_t>& shape, const std::vector<double>& values) {
  NpyArray a;
  a.dtype = DType::Float64;
  a.shape = shape;
  a.data.resize(values.size() * 8);
  if (!values.empty()) std::memcpy(a.data.data(), values.data(), values.size() * 8);
  return a;
}

// The project's tolerance on ‖out − ref‖ / ‖ref‖ (docs/contributing.md): exact for integers.
inline double tolerance(DType t) { return t == DType::Float16 ? 2e-3 : t == DType::Float32 ? 1e-5 : 0; }

}  // namespace pyasc::testing
