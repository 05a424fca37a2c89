// pyasc info MODEL.om [--json]: inputs, outputs, kernels and the memory plan of a model.
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "codegen/graph/AutoMixedPrecision.h"
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

std::string shapeText(const model::Tensor& t) {
  std::string s = "[";
  for (size_t i = 0; i < t.shape.size(); ++i) {
    s += i ? "," : "";
    s += t.shape[i].isStatic() ? std::to_string(t.shape[i].min)
                               : std::to_string(t.shape[i].min) + "-" + std::to_string(t.shape[i].max);
  }
  return s + "]";
}

nlohmann::json toJson(const model::Model& m) {
  nlohmann::json j;
  j["target"] = m.target;
  j["format_version"] = std::to_string(m.formatMajor) + "." + std::to_string(m.formatMinor);
  j["gm_peak_bytes"] = m.memory.gmPeakBytes;
  j["float16_nodes"] = float16Nodes(m);
  for (const auto& t : m.tensors) {
    j["tensors"].push_back({{"name", t.name}, {"dtype", dtypeName(t.dtype)}, {"shape", shapeText(t)},
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
      for (const char* role : {"input", "random-input", "output", "constant", "intermediate"}) {
        for (const auto& t : m.tensors) {
          if (std::string(model::tensorRoleName(t.role)) != role) continue;
          std::printf("  %-13s %-16s %-8s %-20s gm[0x%llx, +%lld]%s\n", role, t.name.c_str(), dtypeName(t.dtype),
                      shapeText(t).c_str(), static_cast<unsigned long long>(t.gmOffset), static_cast<long long>(t.gmSize),
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
      std::cout << "memory plan: " << humanBytes(static_cast<double>(m.memory.gmPeakBytes)) << " of device memory ("
                << m.memory.gmPeakBytes << " bytes)\n";
    } catch (const CompileError& e) {
      return reportError(e);
    }
    return 0;
  };
}

}  // namespace pyasc::tool
