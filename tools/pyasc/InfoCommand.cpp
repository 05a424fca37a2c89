// pyasc info MODEL.om [--json]: inputs, outputs, kernels, what the stages rewrote and the memory plan of a model.
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <tuple>
#include <nlohmann/json.hpp>

#include "codegen/graph/AutoMixedPrecision.h"
#include "codegen/graph/FoldBatchNorm.h"
#include "codegen/graph/KeepNhwc.h"
#include "codegen/graph/RecognizeBatchNorm.h"
#include "codegen/graph/RecognizeConvolution.h"
#include "codegen/graph/RecognizePooling.h"
#include "codegen/graph/SelectTemplates.h"
#include "runtime/Model.h"
#include "sdk/graph/Parser.h"
#include "tools/pyasc/Command.h"

namespace pyasc::tool {

namespace {

struct InfoOptions {
  std::string model;
  bool json = false;
};

// The nodes automatic mixed precision moved to float16: "%value = Op at file:line".
std::vector<std::string> float16Nodes(const model::Model& m) {
  std::vector<std::string> found;
  if (!(m.flags & model::kFlagMixedPrecision) || m.graph.empty()) return found;
  const graph::Graph g = graph::parseGraph("<model graph>", m.graph);
  std::function<void(const graph::Region&)> visit = [&](const graph::Region& region) {
    for (const graph::Node& n : region.nodes) {
      for (const auto& sub : n.regions) visit(sub);
      for (const auto& h : n.hints) {
        if (h.name != codegen::kPrecisionHint) continue;
        std::string line = "%" + g.value(n.outputs[0]).name + " = " + n.op;
        if (n.loc.valid()) line += " at " + n.loc.str();
        found.push_back(line);
      }
    }
  };
  visit(g.body);
  return found;
}

// "conv2d 3x3 stride 2 pad 1/0/1/0 dilation 2 written out", "max_pool2d 3x3 stride 2 …": a
// convolution's or pooling's kernel and what differs from the defaults.
std::string windowText(const graph::Graph& g, const graph::Node& n) {
  const bool conv = n.op == "Conv2D" || n.op == "FusedConv2D";
  std::vector<int64_t> kernel = n.intListAttr("kernel");
  if (conv) {
    const graph::TensorType& w = g.type(n.inputs.at(1));
    const size_t first = n.stringAttr("layout", "NHWC") == "NCHW" ? 2 : 0;  // [F,C,KH,KW] or [KH,KW,C,F]
    kernel = {w.shape[first].extent, w.shape[first + 1].extent};
  }
  std::string text = (conv ? "conv2d " : n.op == "MaxPool2D" ? "max_pool2d " : "avg_pool2d ") + std::to_string(kernel.at(0)) + "x" +
                     std::to_string(kernel.at(1));
  auto pair = [](const std::vector<int64_t>& v) {
    return v.size() == 2 && v[0] == v[1] ? std::to_string(v[0]) : v.size() == 2 ? std::to_string(v[0]) + "x" + std::to_string(v[1]) : "";
  };
  const std::vector<int64_t> strides = n.intListAttr("strides"), pads = n.intListAttr("pads"), dilations = n.intListAttr("dilations");
  if (!strides.empty() && strides != std::vector<int64_t>{1, 1}) text += " stride " + pair(strides);
  if (pads.size() == 4 && pads != std::vector<int64_t>{0, 0, 0, 0})
    text += " pad " + std::to_string(pads[0]) + "/" + std::to_string(pads[1]) + "/" + std::to_string(pads[2]) + "/" + std::to_string(pads[3]);
  if (!dilations.empty() && dilations != std::vector<int64_t>{1, 1}) text += " dilation " + pair(dilations);
  if (n.intAttr("groups", 1) > 1) text += " groups " + std::to_string(n.intAttr("groups", 1));
  if (n.stringAttr("layout", "NHWC") == "NCHW") text += " NCHW";
  return text + " written out";
}

// What the graph stages rewrote, as (stage, what): random inputs whose draws are scaled, recognised
// idioms, NCHW convolutions and pooling run in NHWC, convolutions and matmuls with epilogues, and
// fusion groups of more than one node (a reduction that computes its group's value among them).
std::vector<std::pair<std::string, std::string>> rewrites(const model::Model& m) {
  std::vector<std::pair<std::string, std::string>> found;
  for (const auto& t : m.tensors) {
    if (t.role != model::TensorRole::RandomInput || !t.random.transformed()) continue;
    std::string what = "%" + t.name + " = " + model::randomDistributionName(t.random.distribution);
    if (t.random.scale != 1.0) what += " * " + graph::formatFloat(t.random.scale, DType::Float32);
    if (t.random.shift != 0.0) what += " + " + graph::formatFloat(t.random.shift, DType::Float32);
    found.emplace_back("fold-random-affine", what);
  }
  if (m.graph.empty()) return found;
  const graph::Graph g = graph::parseGraph("<model graph>", m.graph);
  std::map<int64_t, std::vector<const graph::Node*>> groups;
  std::function<void(const graph::Region&)> visit = [&](const graph::Region& region) {
    for (const graph::Node& n : region.nodes) {
      for (const auto& sub : n.regions) visit(sub);
      for (const auto& h : n.hints) {
        if (h.name == codegen::kFusionGroupHint && std::holds_alternative<int64_t>(h.value))
          groups[std::get<int64_t>(h.value)].push_back(&n);
        for (const auto& [hint, stage] : {std::pair{codegen::kRecognizedConvolutionHint, "recognize-convolution"},
                                          std::pair{codegen::kRecognizedPoolingHint, "recognize-pooling"}})
          if (h.name == hint && std::holds_alternative<int64_t>(h.value))
            found.emplace_back(stage, "%" + g.value(n.outputs[0]).name + " = " + windowText(g, n) + " at " +
                                          SourceLocation{n.loc.file, static_cast<int>(std::get<int64_t>(h.value)), 0}.str());
        for (const auto& [hint, stage, what] : {std::tuple{codegen::kConvolutionNearMissHint, "recognize-convolution", "a convolution"},
                                                std::tuple{codegen::kPoolingNearMissHint, "recognize-pooling", "a pooling"}})
          if (h.name == hint && std::holds_alternative<std::string>(h.value))
            found.emplace_back(stage, std::string("not ") + what + (n.loc.valid() ? " at " + n.loc.str() : std::string()) + ": " +
                                          std::get<std::string>(h.value));
        if (h.name == codegen::kKeptNhwcHint && std::holds_alternative<int64_t>(h.value))
          found.emplace_back("keep-nhwc", "%" + g.value(n.outputs[0]).name + " = an NCHW " +
                                              (n.op.find("Conv") != std::string::npos ? "conv2d" : "pooling") + " run in NHWC at " +
                                              SourceLocation{n.loc.file, static_cast<int>(std::get<int64_t>(h.value)), 0}.str());
        if (h.name == codegen::kRecognizedBatchNormHint && std::holds_alternative<int64_t>(h.value))
          found.emplace_back("recognize-batch-norm", "%" + g.value(n.outputs[0]).name +
                                                         " = (x - mean) / np.sqrt(var + eps) * gamma + beta, a BatchNorm at " +
                                                         SourceLocation{n.loc.file, static_cast<int>(std::get<int64_t>(h.value)), 0}.str());
      }
      for (const auto& h : n.hints)
        if (h.name == codegen::kFoldedBatchNormHint)
          found.emplace_back("fold-batch-norm", "%" + g.value(n.outputs[0]).name + " = batch norm folded into the weights of " +
                                                    (n.op.find("Conv") != std::string::npos ? "conv2d" : "matmul") +
                                                    (n.loc.valid() ? " at " + n.loc.str() : ""));
      const bool conv = n.op == "FusedConv2D";
      if (!conv && n.op != "FusedMatMul") continue;
      std::string what = "%" + g.value(n.outputs[0]).name + (conv ? " = conv2d" : " = matmul");
      for (const char* part : {"scale", "bias", "batch_norm", "residual", "relu"})
        if (n.hasAttr(part) && n.boolAttr(part)) what += std::string(" + ") + (part == std::string("residual") ? "add" : part);
      found.emplace_back(conv ? "fuse-conv-epilogue" : "fuse-matmul-epilogue", what + (n.loc.valid() ? " at " + n.loc.str() : ""));
    }
  };
  visit(g.body);
  for (const auto& [group, nodes] : groups) {
    if (nodes.size() < 2) continue;
    std::string what = "%" + g.value(nodes.back()->outputs[0]).name + " = one kernel of";
    for (const graph::Node* n : nodes) what += " " + n->op;
    found.emplace_back("fuse-elementwise", what + (nodes.back()->loc.valid() ? " at " + nodes.back()->loc.str() : ""));
  }
  return found;
}

// "[4,16]"; a dynamic tensor's extents over the symbols: "[N,H,W,3]"; ranges without them: "[1-64,16]"
std::string shapeText(const model::Model& m, const model::Tensor& t) {
  std::vector<std::string> names;
  for (const auto& sym : m.symbols) names.push_back(sym.name);
  std::string s = "[";
  for (size_t i = 0; i < t.shape.size(); ++i) {
    s += i ? "," : "";
    if (!t.dims.empty()) s += shape::text(t.dims[i], names);
    else s += t.shape[i].isStatic() ? std::to_string(t.shape[i].min)
                                    : std::to_string(t.shape[i].min) + "-" + std::to_string(t.shape[i].max);
  }
  return s + "]";
}

// "N 1-4, H 224-256, W 224-256"
std::string symbolsText(const model::Model& m) {
  std::string s;
  for (const auto& sym : m.symbols) s += (s.empty() ? "" : ", ") + sym.name + " " + std::to_string(sym.min) + "-" + std::to_string(sym.max);
  return s;
}

nlohmann::json toJson(const model::Model& m) {
  nlohmann::json j;
  j["target"] = m.target;
  j["format_version"] = std::to_string(m.formatMajor) + "." + std::to_string(m.formatMinor);
  j["gm_peak_bytes"] = m.memory.gmPeakBytes;
  j["dynamic_dims"] = nlohmann::json::array();
  for (const auto& sym : m.symbols) j["dynamic_dims"].push_back({{"name", sym.name}, {"min", sym.min}, {"max", sym.max}});
  j["float16_nodes"] = float16Nodes(m);
  j["rewrites"] = nlohmann::json::array();
  for (const auto& [stage, what] : rewrites(m)) j["rewrites"].push_back({{"stage", stage}, {"what", what}});
  for (const auto& t : m.tensors) {
    j["tensors"].push_back({{"name", t.name}, {"dtype", dtypeName(t.dtype)}, {"shape", shapeText(m, t)},
                            {"role", model::tensorRoleName(t.role)}, {"gm_offset", t.gmOffset}, {"gm_size", t.gmSize}});
    if (t.declared) j["tensors"].back()["declared_dtype"] = dtypeName(*t.declared);
  }
  for (const auto& k : m.kernels) {
    j["kernels"].push_back({{"name", k.name}, {"block_dim", k.blockDim}, {"instructions", k.instructions.size()},
                            {"ub_bytes", k.buffers.ub}, {"l1_bytes", k.buffers.l1}, {"l0a_bytes", k.buffers.l0a},
                            {"l0b_bytes", k.buffers.l0b}, {"l0c_bytes", k.buffers.l0c}});
  }
  return j;
}

}  // namespace

std::function<int()> setupInfo(CLI::App& app) {
  auto o = std::make_shared<InfoOptions>();
  app.add_option("model", o->model, "model file (.om)")->required();
  app.add_flag("--json", o->json, "print JSON");
  return [o]() -> int {
    try {
      pyasc::Model net = pyasc::Model::load(o->model);
      const model::Model& m = net.image();
      if (o->json) {
        // names come from the model file: bytes that are not UTF-8 print as U+FFFD
        std::cout << toJson(m).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
      }
      std::cout << o->model << ": pyasc model " << m.formatMajor << "." << m.formatMinor << " for " << m.target << "\n";
      if (m.isDynamic()) std::cout << "dynamic dimensions: " << symbolsText(m) << "\n";
      for (const char* role : {"input", "random-input", "output", "constant", "intermediate"}) {
        for (const auto& t : m.tensors) {
          if (std::string(model::tensorRoleName(t.role)) != role) continue;
          std::printf("  %-13s %-16s %-8s %-20s gm[0x%llx, +%lld]%s\n", role, t.name.c_str(), dtypeName(t.dtype),
                      shapeText(m, t).c_str(), static_cast<unsigned long long>(t.gmOffset), static_cast<long long>(t.gmSize),
                      t.declared ? (std::string("  from ") + dtypeName(*t.declared)).c_str() : "");
        }
      }
      std::cout << "kernels:\n";
      for (const auto& k : m.kernels) {
        std::printf("  %-24s block_dim=%-3u %6zu instructions  UB %lld  L1 %lld  L0A %lld  L0B %lld  L0C %lld bytes\n",
                    k.name.c_str(), k.blockDim, k.instructions.size(), static_cast<long long>(k.buffers.ub),
                    static_cast<long long>(k.buffers.l1), static_cast<long long>(k.buffers.l0a),
                    static_cast<long long>(k.buffers.l0b), static_cast<long long>(k.buffers.l0c));
      }
      const std::vector<std::string> mixed = float16Nodes(m);
      if (!mixed.empty()) {
        std::cout << "automatic mixed precision: " << mixed.size() << " node(s) in float16:\n";
        for (const std::string& line : mixed) std::cout << "  " << line << "\n";
      }
      const auto rewritten = rewrites(m);
      if (!rewritten.empty()) std::cout << "rewrites:\n";
      for (const auto& [stage, what] : rewritten) std::printf("  %-20s %s\n", stage.c_str(), what.c_str());
      std::cout << "memory plan: " << humanBytes(static_cast<double>(m.memory.gmPeakBytes)) << " of device memory ("
                << m.memory.gmPeakBytes << " bytes" << (m.isDynamic() ? ", at the largest shapes" : "") << ")\n";
    } catch (const CompileError& e) {
      return reportError(e);
    }
    return 0;
  };
}

}  // namespace pyasc::tool
