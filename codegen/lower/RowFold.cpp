// foldRow: halving with whole blocks so that both halves stay 32-byte aligned.
#include "codegen/lower/RowFold.h"

#include "codegen/isel/VectorIsel.h"

namespace pyasc::codegen {

using isa::MemRef;
using isa::Opcode;
using isa::Space;

int64_t foldRow(KernelBuilder& b, Opcode combine, DType t, int64_t src, int64_t dst, int64_t count, int64_t limit) {
  const int es = dtypeSize(t);
  const int64_t perBlock = isa::kBlockBytes / es, lanes = limit > 0 ? limit : isa::kRepeatBytes / es;
  auto ub = [](int64_t offset) { return MemRef{Space::UB, 0, offset}; };
  VectorOp op;
  op.op = combine;
  op.type = t;
  VectorOp move;
  move.op = Opcode::VMov;
  move.type = t;
  if (count <= lanes) {
    if (src != dst) {
      move.dst = ub(dst);
      move.src0 = ub(src);
      emitContiguous(b, move, count);
    }
    return count;
  }
  // first level, possibly out of place: dst[0:h] = src[0:h] ⊕ src[n-h:n], the middle block copied
  int64_t whole = count / perBlock * perBlock, n = whole;
  int64_t h = n / 2 / perBlock * perBlock;
  op.dst = ub(dst);
  op.src0 = ub(src);
  op.src1 = ub(src + (n - h) * es);
  emitContiguous(b, op, h);
  if (n - 2 * h > 0 && src != dst) {
    move.dst = ub(dst + h * es);
    move.src0 = ub(src + h * es);
    emitContiguous(b, move, n - 2 * h);
  }
  n -= h;
  if (whole < count) {  // the odd tail onto the head
    op.dst = op.src0 = ub(dst);
    op.src1 = ub(src + whole * es);
    emitContiguous(b, op, count - whole);
  }
  while (n > lanes) {
    h = n / 2 / perBlock * perBlock;
    op.dst = op.src0 = ub(dst);
    op.src1 = ub(dst + (n - h) * es);
    emitContiguous(b, op, h);
    n -= h;
  }
  return n;
}

}  // namespace pyasc::codegen
