// The contraction template: two-operand einsum (implicit outputs made explicit) and tensordot as
// transposes around one batched matmul: A → [batch, free_a, contracted], B → [batch, contracted,
// free_b], the product [batch, free_a, free_b], then the output's order.
#include <algorithm>

#include "codegen/templates/MatmulTemplate.h"
#include "codegen/templates/Template.h"
#include "ops/Matmul.h"

namespace pyasc::codegen {

namespace {

void lowerContraction(const Node& n, Lowering& l, const std::string& la, const std::string& lb, const std::string& lo,
                      std::vector<Step>& out) {
  const graph::Graph& g = l.graph;
  ValueId a = n.inputs[0], b = n.inputs[1], res = n.outputs[0];
  checkCubeTypes(n, g.type(a).dtype, g.type(b).dtype);
  std::vector<int64_t> sa = staticShape(g.type(a), n.loc), sb = staticShape(g.type(b), n.loc);
  std::string batch, freeA, freeB, contracted;
  auto unsupportedIndex = [&](char c) {
    return CompileError(n.loc, std::string("einsum index '") + c + "' (repeated, or summed within one operand) "
                               "is not supported on the NPU yet");
  };
  for (char c : la) {
    bool inB = lb.find(c) != std::string::npos, inOut = lo.find(c) != std::string::npos;
    if (std::count(la.begin(), la.end(), c) > 1 || (!inB && !inOut)) throw unsupportedIndex(c);
    (inB ? (inOut ? batch : contracted) : freeA) += c;
  }
  for (char c : lb) {
    if (la.find(c) != std::string::npos) continue;
    if (std::count(lb.begin(), lb.end(), c) > 1 || lo.find(c) == std::string::npos) throw unsupportedIndex(c);
    freeB += c;
  }
  auto extent = [&](char c) {
    size_t i = la.find(c);
    return i != std::string::npos ? sa[i] : sb[lb.find(c)];
  };
  auto permuted = [&](int storage, const std::string& labels, const std::vector<int64_t>& shape, const std::string& order) {
    std::vector<int64_t> perm;
    for (char c : order) perm.push_back(static_cast<int64_t>(labels.find(c)));
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i) identity = identity && perm[i] == static_cast<int64_t>(i);
    return identity ? storage : l.transposeInto(storage, l.program.storages[storage].dtype, shape, perm, n, out);
  };
  int ta = permuted(l.storageOf(a, n.loc), la, sa, batch + freeA + contracted);
  int tb = permuted(l.storageOf(b, n.loc), lb, sb, batch + contracted + freeB);
  auto size = [&](const std::string& labels) {
    int64_t p = 1;
    for (char c : labels) p *= extent(c);
    return p;
  };
  std::string natural = batch + freeA + freeB;
  std::vector<int64_t> naturalShape;
  for (char c : natural) naturalShape.push_back(extent(c));
  int productStorage = natural == lo ? l.newIntermediate(res) : -1;
  if (productStorage < 0) {
    Storage s;
    s.name = g.value(res).name + "_mm";
    s.dtype = g.type(res).dtype;
    s.shape = naturalShape;
    productStorage = l.addStorage(s);
  }
  launchMatmul(n, l, ta, tb, productStorage, size(batch), true, size(freeA), size(contracted), size(freeB),
               g.type(a).dtype, g.type(res).dtype, out);
  if (natural != lo) {
    int dst = permuted(productStorage, natural, naturalShape, lo);
    l.program.storages[dst].name = g.value(res).name;
    l.bind(res, dst);
  }
}

void lowerEinsumOrTensorDot(const Node& n, Lowering& l, std::vector<Step>& out) {
  if (n.op == "TensorDot") {
    ops::ContractionLabels labels = ops::tensordotLabels(l.graph.type(n.inputs[0]).rank(), l.graph.type(n.inputs[1]).rank(),
                                                         n.intListAttr("axes_a"), n.intListAttr("axes_b"));
    return lowerContraction(n, l, labels.a, labels.b, labels.out, out);
  }
  std::string eq = ops::explicitEinsum(n.stringAttr("equation"));
  size_t comma = eq.find(','), arrow = eq.find("->");
  if (n.inputs.size() != 2 || comma == std::string::npos || eq.find("...") != std::string::npos) {
    throw CompileError(n.loc, "einsum '" + n.stringAttr("equation") + "' is not supported on the NPU yet (two operands)");
  }
  lowerContraction(n, l, eq.substr(0, comma), eq.substr(comma + 1, arrow - comma - 1), eq.substr(arrow + 2), out);
}

}  // namespace

const Template contractionTemplate{"contraction", {"Einsum", "TensorDot"}, lowerEinsumOrTensorDot};

}  // namespace pyasc::codegen
