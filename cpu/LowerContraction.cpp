// CPU lowerings of the contractions: matmul (broadcast batches), einsum, tensordot.
#include "cpu/LowerSupport.h"

#include <map>

#include "cpu/TeToHalide.h"

namespace pyasc::cpu {

using Halide::Expr;

namespace {

// out(labels of the output) = sum over the other labels of the product of the operands.
Lowered contraction(const std::string& name, const graph::Node& node, const graph::TensorType& outType,
                    const std::vector<Lowered>& in, const std::vector<std::string>& terms, const std::string& outLabels) {
  std::map<char, int64_t> extent;
  for (size_t k = 0; k < in.size(); ++k)
    for (size_t d = 0; d < terms[k].size(); ++d) extent[terms[k][d]] = in[k].type.shape[d].extent;
  std::string summed;
  int64_t reduced = 1;  // terms a total sums
  for (const auto& [label, e] : extent) {
    if (outLabels.find(label) != std::string::npos) continue;
    summed += label;
    reduced *= e;
  }
  bool across = false;
  for (const std::string& term : terms) across = across || (!term.empty() && !outLabels.empty() && term.back() == outLabels.back());
  // a matmul-like contraction takes tiles of totals in registers; float32 totals as BLAS keeps
  // them (sgemm): their rounding error grows as sqrt(terms) * 2^-24, within float32's tolerance
  // of 1e-5 for up to 2^14 terms a total
  const bool tiles = across && outLabels.size() >= 2;
  Halide::Type acc = accumulatorType(in[0].type.dtype, outType.dtype);
  if (tiles && acc.is_float() && outType.dtype != DType::Float64 && reduced <= (int64_t{1} << 14)) acc = Halide::Float(32);
  // float16 operands of tiles widened to float32 once (not at every load of every tile)
  std::vector<Lowered> operands = in;
  for (size_t k = 0; k < in.size() && tiles && acc == Halide::Float(32) && autoscheduler().empty(); ++k) {
    if (in[k].type.dtype != DType::Float16) continue;
    graph::TensorType wide = in[k].type;
    wide.dtype = DType::Float32;
    operands[k] = define(name + "_widened", wide, [&](const Index& i) { return at(in[k], i); });
    computeOnce(operands[k]);
  }
  auto product = [&](const std::map<char, Expr>& index) {
    Expr p;
    for (size_t k = 0; k < operands.size(); ++k) {
      Index src;
      for (char label : terms[k]) src.push_back(index.at(label));
      Expr x = castValue(acc, at(operands[k], src));
      p = p.defined() ? p * x : x;
    }
    return p;
  };
  auto labelled = [&](const Index& out) {
    std::map<char, Expr> index;
    for (size_t k = 0; k < outLabels.size(); ++k) index[outLabels[k]] = out[k];
    return index;
  };
  if (summed.empty()) return define(name, outType, [&](const Index& out) { return product(labelled(out)); });
  // the summed label an operand is contiguous along, if any, is the innermost loop; the reduction
  // walks along it unless an operand is contiguous along the output's innermost label
  for (const std::string& term : terms) {
    const size_t at_ = term.empty() ? std::string::npos : summed.find(term.back());
    if (at_ != std::string::npos) std::swap(summed[0], summed[at_]);
  }
  Halide::Region region;
  for (char label : summed) region.emplace_back(0, extent32(node, extent[label]));
  Halide::RDom r(region);
  return accumulate(name, outType, tiles ? Walk::Tiles : across ? Walk::Across : Walk::AlongInner, [&](const Index&) { return castValue(acc, 0); },
                    [&](Expr total, const Index& out) {
                      std::map<char, Expr> index = labelled(out);
                      for (size_t k = 0; k < summed.size(); ++k) index[summed[k]] = r[static_cast<int>(k)];
                      return total + product(index);
                    },
                    same);
}

// The product as `outType`, named `name`.
Lowered matmulAs(const graph::Node& node, const std::vector<Lowered>& in, const std::string& name,
                 const graph::TensorType& outType) {
  const int ra = in[0].type.rank(), rb = in[1].type.rank();
  // labels: batch axes a.., then i (rows of a), k (contracted), j (columns of b)
  const std::string batch = "abcdefgh";
  const int batchRank = outType.rank() - (ra > 1 ? 1 : 0) - (rb > 1 ? 1 : 0);
  if (batchRank > static_cast<int>(batch.size())) fail(node, "the CPU backend takes matmuls of up to 8 batch axes");
  std::string ta, tb, to = batch.substr(0, static_cast<size_t>(batchRank));
  ta = ra > 1 ? batch.substr(static_cast<size_t>(batchRank - (ra - 2)), static_cast<size_t>(ra - 2)) + "ik" : "k";
  tb = rb > 1 ? batch.substr(static_cast<size_t>(batchRank - (rb - 2)), static_cast<size_t>(rb - 2)) + "kj" : "k";
  if (ra > 1) to += "i";
  if (rb > 1) to += "j";
  // an operand whose batch axes broadcast (extent 1 against the result's) is read through a view
  // with the result's batch extents
  std::vector<Lowered> views = in;
  for (size_t side = 0; side < 2; ++side) {
    const std::string& term = side == 0 ? ta : tb;
    const Lowered& source = in[side];
    const size_t batchAxes = term.size() > 2 ? term.size() - 2 : 0;
    graph::TensorType viewType = source.type;
    for (size_t d = 0; d < batchAxes; ++d) viewType.shape[d] = outType.shape[batch.find(term[d])];
    if (viewType == source.type) continue;
    views[side] = define(name + (side ? "_b" : "_a"), viewType,
                         [&](const Index& i) { return at(source, broadcastIndex(i, source.type)); });
  }
  return contraction(name, node, outType, views, {ta, tb}, to);
}

Lowered matmul(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  return matmulAs(node, in, graph.value(node.outputs.at(0)).name, graph.type(node.outputs.at(0)));
}

// FusedMatMul: the product in float32, then the bias row and max(·, 0), converted to the result's
// type once, as the kernel does.
Lowered fusedMatmul(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  const graph::TensorType& outType = graph.type(node.outputs.at(0));
  const std::string name = graph.value(node.outputs[0]).name;
  graph::TensorType accType = outType;
  accType.dtype = DType::Float32;
  Lowered raw = matmulAs(node, {in[0], in[1]}, name + "_acc", accType);
  computeOnce(raw);
  const bool bias = node.boolAttr("bias"), relu = node.boolAttr("relu");
  return define(name, outType, [&](const Index& i) {
    Expr y = at(raw, i);
    if (bias) y = y + castValue(Halide::Float(32), at(in[2], {i.back()}));
    if (relu) y = Halide::max(y, castValue(Halide::Float(32), 0));
    return castValue(halideType(outType.dtype), y);
  });
}

Lowered einsum(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  std::string equation;
  for (char c : node.stringAttr("equation")) if (c != ' ') equation += c;
  const size_t arrow = equation.find("->");
  std::vector<std::string> terms(1);
  for (char c : equation.substr(0, arrow)) {
    if (c == ',') terms.emplace_back();
    else terms.back() += c;
  }
  std::string out;
  if (arrow != std::string::npos) {
    out = equation.substr(arrow + 2);
  } else {  // NumPy's implicit output: the labels used once, in alphabetical order
    std::map<char, int> uses;
    for (const auto& t : terms) for (char c : t) ++uses[c];
    for (const auto& [label, n] : uses) if (n == 1) out += label;
  }
  return contraction(graph.value(node.outputs[0]).name, node, graph.type(node.outputs[0]), in, terms, out);
}

Lowered tensordot(const graph::Graph& graph, const graph::Node& node, const std::vector<Lowered>& in) {
  std::vector<int64_t> axesA = node.intListAttr("axes_a"), axesB = node.intListAttr("axes_b");
  const int ra = in[0].type.rank(), rb = in[1].type.rank();
  std::string ta(static_cast<size_t>(ra), ' '), tb(static_cast<size_t>(rb), ' '), out;
  char next = 'a';
  for (size_t k = 0; k < axesA.size(); ++k) {
    const int64_t a = axesA[k] < 0 ? axesA[k] + ra : axesA[k], b = axesB[k] < 0 ? axesB[k] + rb : axesB[k];
    ta[static_cast<size_t>(a)] = tb[static_cast<size_t>(b)] = next++;
  }
  for (char& c : ta) if (c == ' ') out += (c = next++);
  for (char& c : tb) if (c == ' ') out += (c = next++);
  return contraction(graph.value(node.outputs[0]).name, node, graph.type(node.outputs[0]), in, {ta, tb}, out);
}

}  // namespace

void addContractionLowerings(LoweringTable& m) {
  m["MatMul"] = matmul;
  m["FusedMatMul"] = fusedMatmul;
  m["Einsum"] = einsum;
  m["TensorDot"] = tensordot;
}

}  // namespace pyasc::cpu
