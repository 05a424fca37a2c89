// Appends typed nodes to the graph under construction: registry inference, casts, constants,
// inputs, loop regions, pragma hints, and the demotion of float64 on NPU targets.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "registry/OpRegistry.h"
#include "sdk/graph/Graph.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::frontend {

class GraphBuilder {
 public:
  GraphBuilder(const registry::OpRegistry& registry, DiagnosticEngine& diags, const std::string& target,
               bool demoteFloat64);

  graph::Graph& graph() { return graph_; }
  const registry::OpRegistry& registry() const { return registry_; }
  const graph::TensorType& type(graph::ValueId id) const { return graph_.type(id); }

  // Adds a node with one result. On an inference error returns false with `error` set (the
  // caller reports it with notes about the operands).
  bool tryAddNode(const std::string& op, std::vector<graph::ValueId> inputs, std::vector<graph::NamedAttr> attrs,
                  const SourceRange& range, const std::string& nameHint, graph::ValueId& result, std::string& error);
  // As tryAddNode, but an inference error is thrown as a CompileError at `range`.
  graph::ValueId addNode(const std::string& op, std::vector<graph::ValueId> inputs,
                         std::vector<graph::NamedAttr> attrs, const SourceRange& range, const std::string& nameHint = "");

  graph::ValueId cast(graph::ValueId value, DType to, const SourceRange& range);
  // value[begin:end:step] along `axis` (static bounds).
  graph::ValueId slice(graph::ValueId value, int64_t axis, int64_t begin, int64_t end, int64_t step, const SourceRange& range,
                       const std::string& nameHint = "");
  // A constant tensor; float64 is demoted on NPU targets, with the warning unless `silentDemotion`
  // (the analyzer then warns where the float64 values are computed with).
  graph::ValueId constant(DType dtype, const std::vector<double>& values, const graph::Shape& shape,
                          const SourceRange& range, const std::string& nameHint = "cst", bool silentDemotion = false);
  // An input. Random inputs are drawn in float64 and rounded to float32 by the runtime, which is
  // exact for a program that casts them, so their demotion is silent here; the analyzer warns when
  // the float64 values are computed with.
  graph::ValueId addInput(const std::string& name, graph::TensorType type, graph::InputRole role,
                          const graph::RandomSpec& random, const SourceRange& range);
  void addOutput(const std::string& name, graph::ValueId value);

  // The dtype used on the device: float64 becomes float32 on NPU targets (one warning per program).
  DType deviceDType(DType dtype, const SourceRange& range);

  // Loop bodies: nodes go to the innermost open region.
  void openRegion();
  graph::Region closeRegion();
  bool inLoopBody() const { return !regions_.empty(); }
  // Identifies the innermost open region (0: the top level); values made there stay usable
  // while it is open.
  int currentRegionId() const { return regionIds_.empty() ? 0 : regionIds_.back(); }
  bool isRegionOpen(int id) const;
  // The nodes of the current region so far, and the results of those appended since `count`.
  size_t nodeCount() { return currentRegion().nodes.size(); }
  std::vector<graph::ValueId> resultsSince(size_t count) {
    std::vector<graph::ValueId> results;
    const auto& nodes = currentRegion().nodes;
    for (size_t i = count; i < nodes.size(); ++i) results.insert(results.end(), nodes[i].outputs.begin(), nodes[i].outputs.end());
    return results;
  }
  // Appends a finished loop node to the current region.
  void appendNode(graph::Node node);
  graph::ValueId newValue(const std::string& name, const graph::TensorType& type, const SourceRange& range);
  // The node of an open region or of the top level that computes `value` (null for inputs,
  // constants and loop arguments).
  const graph::Node* producer(graph::ValueId value) const;

  // Hints from pragmas apply to every node added while they are pushed.
  void pushHint(graph::NamedAttr hint) { hints_.push_back(std::move(hint)); }
  // While set, every node, value and warning is located at `site` (a call of a NumPy function the
  // frontend writes in Python: its nodes belong to the user's call).
  void setSite(const SourceRange* site) { site_ = site; }
  void popHint() { hints_.pop_back(); }

 private:
  graph::Region& currentRegion() { return regions_.empty() ? graph_.body : *regions_.back(); }

  const registry::OpRegistry& registry_;
  DiagnosticEngine& diags_;
  std::string target_;
  bool demoteFloat64_;
  bool warnedFloat64_ = false;
  const SourceRange* site_ = nullptr;
  SourceLocation locOf(const SourceRange& range) const { return site_ ? site_->begin : range.begin; }
  graph::Graph graph_;
  std::vector<std::unique_ptr<graph::Region>> regions_;  // open loop bodies, innermost last
  std::vector<int> regionIds_;
  int nextRegionId_ = 1;
  std::vector<graph::NamedAttr> hints_;
  std::map<std::pair<int, std::vector<uint8_t>>, graph::ValueId> scalarConstants_;
};

}  // namespace pyasc::frontend
