// The matmul template with NumPy's rules: 1-D operands become one row or column; a B whose batch
// dimensions are all 1 is shared and every batch of A stacks into M; otherwise an operand whose
// batch dimensions differ from the broadcast batch shape is first copied out to it. FusedMatMul
// (a 2-d B) adds its epilogue's bias and ReLU in the kernel.
#include "codegen/templates/MatmulTemplate.h"

#include "codegen/lower/MatmulKernel.h"
#include "codegen/lower/ScalarKernel.h"
#include "codegen/schedule/PatternSchedules.h"
#include "codegen/templates/Template.h"

namespace pyasc::codegen {

void checkCubeTypes(const Node& n, DType a, DType b) {
  if (a == b && isInteger(a)) return;  // the scalar unit's exact sums (launchMatmul)
  if (a != b || !(a == DType::Float16 || a == DType::Float32)) {
    const std::string booleans = a == DType::Bool && b == DType::Bool && n.op == "MatMul"
                                     ? "; for booleans, (a.astype(np.int32) @ b.astype(np.int32)) > 0"
                                     : "";
    throw CompileError(n.loc, std::string("matmul of ") + dtypeName(a) + " and " + dtypeName(b) +
                                  " is not supported (float16, float32 or one integer dtype on both sides" + booleans + ")");
  }
}

void launchMatmul(const Node& n, Lowering& l, int a, int b, int dst, int64_t batch, bool batchB, int64_t m, int64_t k,
                  int64_t nn, DType in, DType outType, std::vector<Step>& out, int bias, const ShapeExpr& rows) {
  MatmulCompute mm;
  mm.name = l.kernelName("matmul");
  mm.inType = in;
  mm.outType = outType;
  mm.batch = batch;
  mm.batchB = batchB;
  mm.m = m;
  mm.k = k;
  mm.n = nn;
  mm.sourceLine = n.loc.line;
  if (n.op == "FusedMatMul") {
    mm.epilogue.bias = n.boolAttr("bias");
    mm.epilogue.relu = n.boolAttr("relu");
    if (mm.epilogue.bias) mm.epilogue.biasType = l.graph.type(n.inputs[2]).dtype;
  }
  std::vector<model::AffineScalar> scalars;
  if (rows) {  // dynamic shapes: A's rows at run time, all in one tile of the cube kernel
    if (isInteger(in) || batch != 1 || m > isa::kMaxRepeat) {
      throw CompileError(n.loc, "'" + n.op + "' over more than " + std::to_string(isa::kMaxRepeat) +
                                    " dynamic rows, or of integers, is not compiled for dynamic shapes yet; compile one model per shape");
    }
    mm.dynamicRows = true;
    scalars.push_back(model::AffineScalar{0, {}, rows});
  }
  if (isInteger(in)) {  // integers narrow-integers could not prove exact in float32: the scalar unit
    l.launch(out, lowerScalarMatMul(mm, l.cores(false)), {a, b, dst});
    return;
  }
  MatmulSchedule s = scheduleMatmul(mm, l.target, l.cores(true));
  if (const Schedule* explicitSchedule = l.explicitScheduleOf(n)) s = replayMatmul(*explicitSchedule, mm, s, l.target, l.cores(true));
  if (mm.dynamicRows && s.tm < mm.m) {
    throw CompileError(n.loc, "the schedule's row tile of " + std::to_string(s.tm) + " is smaller than the dynamic rows (up to " +
                                  std::to_string(mm.m) + "): a matmul over dynamic rows takes them all in one tile");
  }
  KernelCode code = codegen::lowerMatmul(mm, s, l.target);
  code.schedule = matmulTrace(mm, s).str();
  std::vector<int> args = {a, b, dst};
  if (mm.epilogue.bias) args.push_back(bias);
  l.launch(out, std::move(code), args, scalars);
}

namespace {

void lowerMatmul(const Node& n, Lowering& l, std::vector<Step>& out) {
  const graph::Graph& g = l.graph;
  ValueId a = n.inputs[0], b = n.inputs[1], res = n.outputs[0];
  std::vector<int64_t> sa = staticShape(g.type(a), n.loc), sb = staticShape(g.type(b), n.loc);
  checkCubeTypes(n, g.type(a).dtype, g.type(b).dtype);
  if (sa.size() == 1) sa.insert(sa.begin(), 1);
  if (sb.size() == 1) sb.push_back(1);
  const int64_t k = sa.back(), nn = sb.back(), m = sa[sa.size() - 2];
  const size_t rank = std::max(sa.size(), sb.size());
  sa.insert(sa.begin(), rank - sa.size(), 1);
  sb.insert(sb.begin(), rank - sb.size(), 1);
  std::vector<int64_t> batch(rank - 2);
  for (size_t d = 0; d + 2 < rank; ++d) batch[d] = std::max(sa[d], sb[d]);
  int ta = l.storageOf(a, n.loc), tb = l.storageOf(b, n.loc);
  int dst = l.newIntermediate(res);
  if (product(sb, 0, rank - 2) == 1) {
    // a 2-d B is shared: every batch of A then stacks into the M dimension (always so for FusedMatMul)
    const int bias = n.op == "FusedMatMul" && n.boolAttr("bias") ? l.storageOf(n.inputs[2], n.loc) : -1;
    // with dynamic shapes, A's rows are its dims but the last (SymbolicShapes keeps B static)
    ShapeExpr rows;
    if (const auto* dims = l.shapes.dims(a)) rows = shape::product(std::vector<ShapeExpr>(dims->begin(), dims->end() - 1));
    launchMatmul(n, l, ta, tb, dst, 1, true, product(sa, 0, rank - 2) * m, k, nn, g.type(a).dtype, g.type(res).dtype, out,
                 bias, rows);
    return;
  }
  auto full = [&](int storage, const std::vector<int64_t>& shape, const char* suffix) {
    std::vector<int64_t> to = batch;
    to.insert(to.end(), shape.end() - 2, shape.end());
    return to == shape ? storage : l.broadcastStorage(storage, shape, to, g.value(res).name + suffix, n, out);
  };
  ta = full(ta, sa, "_a");
  tb = full(tb, sb, "_b");
  launchMatmul(n, l, ta, tb, dst, product(batch), true, m, k, nn, g.type(a).dtype, g.type(res).dtype, out);
}

}  // namespace

const Template matmulTemplate{"matmul", {"MatMul", "FusedMatMul"}, lowerMatmul};

}  // namespace pyasc::codegen
