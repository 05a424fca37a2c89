// Automatic mixed precision: float32 matmuls and convolutions take float16 operands; at O2, float16 flows on through the operators listed as following it.
#include "codegen/graph/AutoMixedPrecision.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include "ops/Elementwise.h"

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

namespace {

// The operators the cube computes: float16 operands, float32 accumulation.
bool onTheCube(const std::string& op) {
  return op == "MatMul" || op == "FusedMatMul" || op == "Conv2D" || op == "FusedConv2D";
}

// The operands a cube operator multiplies: the first two (a fused convolution's statistics stay
// float32; its residual is float16 when it is computed in float16, whatever the result's type).
bool isCubeOperand(const Node& n, size_t index) { return onTheCube(n.op) && index < 2; }
bool hasResidual(const Node& n) { return n.op == "FusedConv2D" && n.boolAttr("residual"); }

// O2: operators that compute in float16 when their float operands already are float16 (or
// constants): sums and products of two terms, selections, data movement, max pooling.
bool followsFloat16(const std::string& op) {
  static const std::set<std::string> ops = {"Add",     "Sub",        "Mul",       "Neg",         "Abs",     "Relu",
                                            "LeakyRelu", "Maximum",  "Minimum",   "Clip",        "Where",   "Reshape",
                                            "Transpose", "Slice",    "Concat",    "Pad",         "ExpandDims", "Squeeze",
                                            "BroadcastTo", "Identity", "Stack",   "MaxPool2D"};
  return ops.count(op) > 0;
}

class MixedPrecision {
 public:
  MixedPrecision(graph::Graph& g, const std::string& mode) : g_(g), mode_(mode) {}

  int changed = 0;

  // Which results are float16 (O2): a cube operator's, and a following operator's whose float
  // operands are all float16 (or constants) with one at least, seen within one region. A cube
  // result no float16 operator reads stays float32 (its accumulator, without a cast), and the
  // decisions are made again without it until none changes.
  void decide(const graph::Region& body) {
    for (const auto& o : g_.outputs) outputs_.insert(o.value);
    std::map<ValueId, std::vector<ValueId>> readers;  // value -> the results of the nodes reading it
    std::function<void(const graph::Region&)> collect = [&](const graph::Region& region) {
      for (ValueId y : region.yields) uses_[y].push_back({ValueId{-1}, false});  // carried on in float32
      for (const Node& n : region.nodes) {
        for (const auto& sub : n.regions) collect(sub);
        for (ValueId r : n.outputs) producers_[r] = n.op;
        for (size_t i = 0; i < n.inputs.size(); ++i) {
          for (ValueId r : n.outputs) readers[n.inputs[i]].push_back(r);
          uses_[n.inputs[i]].push_back({n.outputs.size() == 1 ? n.outputs[0] : ValueId{-1}, isCubeOperand(n, i)});
        }
        if (halfWritable(n)) float32Reductions_.insert(n.outputs[0]);
      }
    };
    collect(body);
    std::set<ValueId> float32Cubes;
    while (true) {
      halfResults_.clear();
      decideRegion(body, float32Cubes);
      bool changed = false;
      for (ValueId r : cubeResults_) {
        if (!halfResults_.count(r)) continue;
        const auto& rs = readers[r];
        // a float16 reader: an operator that follows float16, or a cube, which takes float16 operands anyway
        if (std::none_of(rs.begin(), rs.end(), [&](ValueId x) { return halfResults_.count(x) > 0 || cubeResults_.count(x) > 0; })) {
          float32Cubes.insert(r);
          changed = true;
        }
      }
      if (!changed) break;
    }
    std::function<void(const graph::Region&)> cubes = [&](const graph::Region& region) {
      for (const Node& n : region.nodes) {
        for (const auto& sub : n.regions) cubes(sub);
        if (!modeOf(n).empty() && cubeTakes(n, halfResults_)) convertedCubes_.insert(n.outputs[0]);
      }
    };
    cubes(body);
    // a float32 reduction whose every reader is a converted cube writes its result in float16
    for (ValueId v : float32Reductions_) {
      const auto& us = uses_[v];
      if (!outputs_.count(v) && !us.empty() &&
          std::all_of(us.begin(), us.end(), [&](const Use& u) { return u.cubeOperand && convertedCubes_.count(u.reader); }))
        halfReductions_.insert(v);
    }
    // A float32 input (array or random) that only float16 readers read is taken in float16: the
    // runtime rounds it when it is bound (declared float32) or draws it so, and no cast kernel runs.
    std::map<ValueId, bool> onlyHalfReaders;
    for (const Node& n : body.nodes) {
      const bool halfResult = n.outputs.size() == 1 && halfResults_.count(n.outputs[0]);
      const bool cube = n.outputs.size() == 1 && convertedCubes_.count(n.outputs[0]);
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        // a converted cube reads its operands in float16, and its residual when its result is
        const bool halfResidual = hasResidual(n) && i + 1 == n.inputs.size() && halfResults_.count(n.inputs[i]);
        const bool halfReader = cube ? isCubeOperand(n, i) || halfResidual : halfResult;
        auto it = onlyHalfReaders.emplace(n.inputs[i], true).first;
        it->second = it->second && halfReader;
      }
      for (const auto& sub : n.regions) markReadIn(sub, onlyHalfReaders);
    }
    for (const auto& input : g_.inputs) {
      auto it = onlyHalfReaders.find(input.value);
      if (it != onlyHalfReaders.end() && it->second && !outputs_.count(input.value) &&
          g_.type(input.value).dtype == DType::Float32 && (!input.declared || input.declared == DType::Float64) &&
          input.role != graph::InputRole::Scalar) {
        halfInputs_.insert(input.value);
      }
    }
  }

  // Values read inside a loop's body, or yielded by it, are read in float32 there.
  static void markReadIn(const graph::Region& region, std::map<ValueId, bool>& onlyHalfReaders) {
    for (ValueId y : region.yields) onlyHalfReaders[y] = false;
    for (const Node& n : region.nodes) {
      for (ValueId in : n.inputs) onlyHalfReaders[in] = false;
      for (const auto& sub : n.regions) markReadIn(sub, onlyHalfReaders);
    }
  }

  void decideRegion(const graph::Region& region, const std::set<ValueId>& float32Cubes) {
    std::set<ValueId> half;  // float16 results visible in this region
    for (const Node& n : region.nodes) {
      for (const auto& sub : n.regions) decideRegion(sub, float32Cubes);
      if (modeOf(n) != "O2" || n.outputs.size() != 1 || g_.type(n.outputs[0]).dtype != DType::Float32) continue;
      const ValueId r = n.outputs[0];
      if (cubeTakes(n, half)) {
        cubeResults_.insert(r);
        if (!float32Cubes.count(r) && (!hasResidual(n) || half.count(n.inputs.back()))) half.insert(r);
      } else if (followsFloat16(n.op)) {
        bool anyHalf = false, allHalf = true;
        for (ValueId in : n.inputs) {
          const DType t = g_.type(in).dtype;
          if (!isFloat(t)) continue;
          anyHalf = anyHalf || half.count(in);
          allHalf = allHalf && t == DType::Float32 && (half.count(in) || constantFitsFloat16(in));
        }
        if (anyHalf && allHalf && attributesFitFloat16(n)) half.insert(r);
      }
    }
    halfResults_.insert(half.begin(), half.end());
  }

  // A float32 constant whose every value float16 holds: finite, and zero or a normal float16
  // (2^-14 up to 65504), so rounding changes it by at most 2^-11 of itself.
  bool constantFitsFloat16(ValueId v) const {
    const graph::GraphConstant* c = g_.findConstant(v);
    if (!c) return false;
    for (double x : graph::decodeConstant(DType::Float32, c->bytes))
      if (!fitsFloat16(x)) return false;
    return true;
  }
  static bool fitsFloat16(double x) { return x == 0 || (std::fabs(x) >= 6.103515625e-05 && std::fabs(x) <= 65504.0); }
  // The node's float attributes (a padding value, a slope) fit float16 too.
  static bool attributesFitFloat16(const Node& n) {
    for (const auto& a : n.attrs) {
      const auto* x = std::get_if<double>(&a.value);
      if (x && !fitsFloat16(*x)) return false;
    }
    return true;
  }

  // A float32 matmul or convolution (two float32 operands, one float32 result) worth float16
  // operands: each operand is an input, a constant or an elementwise result (whose kernel casts
  // it), or the product is large enough (2^24 MACs) to repay a cast kernel of its own; never with a
  // constant operand float16 cannot hold (constantFitsFloat16).
  bool cubeTakes(const Node& n, const std::set<ValueId>& half) const {
    if (!(onTheCube(n.op) && n.inputs.size() >= 2 && (n.inputs.size() == 2 || n.op.rfind("Fused", 0) == 0) && n.outputs.size() == 1 &&
          g_.type(n.inputs[0]).dtype == DType::Float32 && g_.type(n.inputs[1]).dtype == DType::Float32 &&
          g_.type(n.outputs[0]).dtype == DType::Float32)) {
      return false;
    }
    bool castsFree = true;
    for (ValueId in : {n.inputs[0], n.inputs[1]}) {
      if (g_.findConstant(in) && !constantFitsFloat16(in)) return false;  // float16 would not hold it
      auto p = producers_.find(in);
      castsFree = castsFree && (half.count(in) || (g_.findInput(in) && !outputs_.count(in)) || g_.findConstant(in) ||
                                (p != producers_.end() && (ops::isElementwiseOp(p->second) || onTheCube(p->second))) ||
                                writesFloat16For(in));
    }
    const graph::TensorType& w = g_.type(n.inputs[1]);
    const int64_t contracted = n.op == "MatMul" || n.op == "FusedMatMul" ? g_.type(n.inputs[0]).shape.back().extent
                                                : graph::elementCount(w.shape) / std::max<int64_t>(1, w.shape[n.stringAttr("layout", "NHWC") == "NCHW" ? 0 : 3].extent);
    return castsFree || graph::elementCount(g_.type(n.outputs[0]).shape) * contracted >= (int64_t{1} << 24);
  }

  // A float32 sum, mean, maximum or minimum, whose kernel can round its result to float16.
  bool halfWritable(const Node& n) const {
    static const std::set<std::string> ops = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin"};
    return ops.count(n.op) && n.inputs.size() == 1 && n.outputs.size() == 1 && !n.hasAttr("dtype") &&
           g_.type(n.inputs[0]).dtype == DType::Float32 && g_.type(n.outputs[0]).dtype == DType::Float32;
  }
  // v is such a reduction's result that only cube operators read, as an operand: its kernel can
  // write it in float16 for them, so their cast costs nothing.
  bool writesFloat16For(ValueId v) const {
    auto us = uses_.find(v);
    return float32Reductions_.count(v) && !outputs_.count(v) && us != uses_.end() &&
           std::all_of(us->second.begin(), us->second.end(), [](const Use& u) { return u.cubeOperand; });
  }

  // `outer` gives the float16 version of a value of the enclosing region, cast there (before the
  // loop), so that a loop body does not cast it again on every trip.
  void rewrite(graph::Region& region, const std::function<ValueId(ValueId, const Node&)>& outer = nullptr) {
    std::map<ValueId, ValueId> half;  // a float32 value -> its float16 version, in this region
    std::vector<Node> out;
    std::set<ValueId> local(region.arguments.begin(), region.arguments.end());  // values this region defines
    std::function<void(const graph::Region&)> define = [&](const graph::Region& r) {
      for (const Node& n : r.nodes) {
        local.insert(n.outputs.begin(), n.outputs.end());
        for (const auto& sub : n.regions) {
          local.insert(sub.arguments.begin(), sub.arguments.end());
          define(sub);
        }
      }
    };
    define(region);
    std::function<ValueId(ValueId, const Node&)> halfOf = [&](ValueId v, const Node& at) {
      auto it = half.find(v);
      if (it != half.end()) return it->second;
      if (outer && !local.count(v) && !halfInputs_.count(v) && !g_.findConstant(v)) return half[v] = outer(v, at);
      if (halfInputs_.count(v)) {  // the input itself becomes float16, declared float32
        g_.value(v).type.dtype = DType::Float16;
        for (auto& input : g_.inputs)
          if (input.value == v && input.role == graph::InputRole::Array && !input.declared) input.declared = DType::Float32;
        half[v] = v;
        return v;
      }
      auto producer = std::find_if(out.rbegin(), out.rend(), [&](const Node& p) {
        return std::find(p.outputs.begin(), p.outputs.end(), v) != p.outputs.end();
      });
      if (halfReductions_.count(v) && producer != out.rend()) {  // the reduction writes float16 itself
        producer->setAttr("dtype", std::string("float16"));
        producer->hints.push_back({kPrecisionHint, std::string("float16")});
        g_.value(v).type.dtype = DType::Float16;
        ++changed;
        return half[v] = v;
      }
      graph::TensorType t = g_.type(v);
      t.dtype = DType::Float16;
      const std::string name = g_.value(v).name + "_f16";
      ValueId h;
      if (const graph::GraphConstant* c = g_.findConstant(v)) {  // a constant is rounded now
        const std::vector<uint8_t> bytes = graph::encodeConstant(DType::Float16, graph::decodeConstant(DType::Float32, c->bytes));
        h = g_.addValue(name, t, at.loc);
        g_.constants.push_back(graph::GraphConstant{h, bytes});
      } else {
        Node cast;
        cast.op = "Cast";
        cast.inputs = {v};
        cast.attrs = {{"dtype", std::string("float16")}};
        cast.loc = at.loc;
        h = g_.addValue(name, t, at.loc);
        cast.outputs = {h};
        // right after the node that computes v in this region, so that an elementwise producer and
        // the cast fuse into one kernel
        if (producer != out.rend() && !producer->isLoop()) {
          out.insert(producer.base(), std::move(cast));
        } else {
          out.push_back(std::move(cast));
        }
      }
      half[v] = h;
      return h;
    };
    // n computes in float16: its result becomes a float16 value, and the float32 value it had is
    // now a cast of it, for the consumers that keep float32
    auto halfResult = [&](Node& n) {
      const ValueId result = n.outputs[0];
      graph::TensorType t = g_.type(result);
      t.dtype = DType::Float16;
      const ValueId h = g_.addValue(g_.value(result).name + "_f16", t, n.loc);
      n.outputs[0] = h;
      n.hints.push_back({kPrecisionHint, std::string("float16")});
      Node back;
      back.op = "Cast";
      back.inputs = {h};
      back.attrs = {{"dtype", std::string("float32")}};
      back.loc = n.loc;
      back.outputs = {result};
      out.push_back(std::move(n));
      out.push_back(std::move(back));
      half[result] = h;
      ++changed;
    };
    auto isFloat32 = [&](ValueId v) { return g_.type(v).dtype == DType::Float32; };
    for (Node& n : region.nodes) {
      for (auto& sub : n.regions) rewrite(sub, halfOf);
      const std::string mode = modeOf(n);
      if (n.outputs.size() == 1 && convertedCubes_.count(n.outputs[0])) {
        for (size_t i = 0; i < 2; ++i) n.inputs[i] = halfOf(n.inputs[i], n);
        if (hasResidual(n) && halfResults_.count(n.inputs.back())) n.inputs.back() = halfOf(n.inputs.back(), n);
        if (halfResults_.count(n.outputs[0])) {
          halfResult(n);
        } else {  // float16 operands, the float32 accumulator as the result
          n.setAttr("out_dtype", std::string("float32"));
          n.hints.push_back({kPrecisionHint, std::string("float16")});
          out.push_back(std::move(n));
          ++changed;
        }
        continue;
      }
      if (n.outputs.size() == 1 && halfResults_.count(n.outputs[0])) {
        for (ValueId& in : n.inputs)
          if (isFloat32(in)) in = halfOf(in, n);
        halfResult(n);
        continue;
      }
      out.push_back(std::move(n));
    }
    region.nodes = std::move(out);
  }

 private:
  std::string modeOf(const Node& n) const {
    std::string mode = mode_;
    for (const auto& h : n.hints) {  // the innermost pragma's hint comes last
      const auto* pragma = std::get_if<std::string>(&h.value);
      if (h.name == "amp_mode" && pragma) mode = *pragma;
    }
    return mode == "O1" || mode == "O2" ? mode : "";
  }

  graph::Graph& g_;
  std::string mode_;
  std::set<ValueId> halfResults_, cubeResults_, halfInputs_, convertedCubes_;
  struct Use {
    ValueId reader;    // the reading node's result (-1 when it has several)
    bool cubeOperand;  // read as a cube operator's operand
  };
  std::map<ValueId, std::vector<Use>> uses_;
  std::set<ValueId> float32Reductions_, halfReductions_;  // halfWritable results; those written in float16
  std::map<ValueId, std::string> producers_;  // value -> the operator computing it
  std::set<ValueId> outputs_;                 // the program's outputs
};

}  // namespace

int float16Nodes(const graph::Graph& g) {
  int count = 0;
  std::function<void(const graph::Region&)> visit = [&](const graph::Region& region) {
    for (const Node& n : region.nodes) {
      for (const auto& sub : n.regions) visit(sub);
      for (const auto& h : n.hints) count += h.name == kPrecisionHint;
    }
  };
  visit(g.body);
  return count;
}

int autoMixedPrecision(graph::Graph& g, const std::string& mode) {
  if (mode == "off") return 0;
  MixedPrecision amp(g, mode);
  amp.decide(g.body);
  amp.rewrite(g.body);
  return amp.changed;
}

}  // namespace pyasc::codegen
