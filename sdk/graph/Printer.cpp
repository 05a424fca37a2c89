// Text form of the graph IR; the grammar is the one Parser.cpp reads.
#include "sdk/graph/Printer.h"

namespace pyasc::graph {

namespace {

class GraphPrinter {
 public:
  GraphPrinter(const Graph& graph, const PrintOptions& options) : graph_(graph), options_(options) {}

  std::string printAll() {
    out_ = "graph {\n";
    for (const auto& in : graph_.inputs) printInput(in);
    for (const auto& c : graph_.constants) printConstant(c);
    printNodes(graph_.body, 1);
    for (const auto& o : graph_.outputs) out_ += "  output " + o.name + " = " + ref(o.value) + "\n";
    out_ += "}\n";
    return out_;
  }

  std::string printOne(const Node& node, int indent) {
    out_.clear();
    printNode(node, indent);
    return out_;
  }

 private:
  std::string ref(ValueId id) const { return "%" + graph_.value(id).name; }

  void printLoc(const SourceLocation& loc) {
    if (!options_.locations || !loc.valid()) return;
    out_ += " loc(" + attrString(Attribute{loc.file}) + ":" + std::to_string(loc.line);  // quoted as a string attribute
    if (loc.col > 0) out_ += ":" + std::to_string(loc.col);
    out_ += ")";
  }

  void printInput(const GraphInput& in) {
    const Value& v = graph_.value(in.value);
    out_ += "  input " + ref(in.value) + " : " + v.type.str();
    if (in.role == InputRole::Scalar) out_ += " scalar";
    if (in.role == InputRole::Random) {
      const RandomSpec& r = in.random;
      out_ += std::string(" random(") + randomDistributionName(r.distribution);
      out_ += r.seeded ? ", seed = " + std::to_string(r.seed) : std::string(", unseeded");
      out_ += ", stream = " + std::to_string(r.stream) + ", offset = " + std::to_string(r.offset);
      if (r.scale != 1.0) out_ += ", scale = " + formatFloat(r.scale, DType::Float32);
      if (r.shift != 0.0) out_ += ", shift = " + formatFloat(r.shift, DType::Float32);
      out_ += ")";
    }
    if (in.declared && options_.declaredDTypes) out_ += std::string(" from ") + dtypeName(*in.declared);
    printLoc(v.loc);
    out_ += "\n";
  }

  void printConstant(const GraphConstant& c) {
    const Value& v = graph_.value(c.value);
    out_ += "  const " + ref(c.value) + " : " + v.type.str() + " = [";
    const std::vector<double> numbers = decodeConstant(v.type.dtype, c.bytes);
    for (size_t i = 0; i < numbers.size(); ++i) {
      if (i) out_ += ", ";
      out_ += isFloat(v.type.dtype) ? formatFloat(numbers[i], v.type.dtype)
                                    : std::to_string(static_cast<int64_t>(numbers[i]));
    }
    out_ += "]";
    printLoc(v.loc);
    out_ += "\n";
  }

  void printNodes(const Region& region, int indent) {
    for (const Node& node : region.nodes) printNode(node, indent);
  }

  void printNode(const Node& node, int indent) {
    const std::string pad(static_cast<size_t>(indent) * 2, ' ');
    out_ += pad;
    for (size_t i = 0; i < node.outputs.size(); ++i) out_ += (i ? ", " : "") + ref(node.outputs[i]);
    if (!node.outputs.empty()) out_ += " = ";
    out_ += node.op + "(";
    for (size_t i = 0; i < node.inputs.size(); ++i) out_ += (i ? ", " : "") + ref(node.inputs[i]);
    out_ += ")";
    if (!node.attrs.empty()) {
      out_ += " {";
      for (size_t i = 0; i < node.attrs.size(); ++i) {
        out_ += (i ? ", " : "") + node.attrs[i].name + " = " + attrString(node.attrs[i].value);
      }
      out_ += "}";
    }
    if (!node.hints.empty()) {
      out_ += " [";
      for (size_t i = 0; i < node.hints.size(); ++i) {
        out_ += (i ? ", " : "") + node.hints[i].name + " = " + attrString(node.hints[i].value);
      }
      out_ += "]";
    }
    out_ += " :";
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      out_ += (i ? ", " : " ") + graph_.type(node.outputs[i]).str();
    }
    if (node.outputs.empty()) out_ += " ()";
    for (const Region& region : node.regions) {
      out_ += " (";
      for (size_t i = 0; i < region.arguments.size(); ++i) {
        out_ += (i ? ", " : "") + ref(region.arguments[i]) + " : " + graph_.type(region.arguments[i]).str();
      }
      out_ += ") {\n";
      printNodes(region, indent + 1);
      out_ += pad + "  yield";
      for (size_t i = 0; i < region.yields.size(); ++i) out_ += (i ? ", " : " ") + ref(region.yields[i]);
      out_ += "\n" + pad + "}";
    }
    printLoc(node.loc);
    out_ += "\n";
  }

  const Graph& graph_;
  const PrintOptions& options_;
  std::string out_;
};

}  // namespace

std::string printGraph(const Graph& graph, const PrintOptions& options) {
  return GraphPrinter(graph, options).printAll();
}

std::string printNode(const Graph& graph, const Node& node, int indent, const PrintOptions& options) {
  return GraphPrinter(graph, options).printOne(node, indent);
}

}  // namespace pyasc::graph
