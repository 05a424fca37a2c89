// Reductions over extents bound at launch: each unit's rows accumulate lane-parallel into one
// repeat (its lanes cycling through the inner columns), which folds down to the inner columns;
// rows narrower than a 32-byte block fold to one block and then reduce lane by lane, each column's
// result in a block of its own.
#include "codegen/lower/DynamicReduceKernel.h"

#include <algorithm>
#include <functional>

#include "codegen/isel/DmaIsel.h"
#include "codegen/isel/VectorIsel.h"
#include "codegen/lower/TilePipeline.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

using isa::Instruction;
using isa::MemRef;
using isa::Opcode;
using isa::Pipe;
using isa::Space;

namespace {

constexpr int kLanes = isa::kRepeatBytes / 4;     // float32 lanes of one repeat
constexpr int64_t kMaxBufferBytes = 32768;        // one of the two chunk buffers
constexpr int64_t kMinPartBytes = 2048;           // a part reads at least this much

MemRef ub(int64_t at) { return MemRef{Space::UB, 0, at}; }

constexpr int64_t kBlockLanes = isa::kBlockBytes / 4;  // float32 lanes of one block

// Where a unit's result lies in UB: `inner` elements from `at`, or (rows narrower than a block)
// one element at the start of each of `inner` blocks.
struct Result {
  int64_t at;
  bool perBlock;
};

// UB: the two chunk buffers, the accumulator repeat, the columns of a narrow row one block each,
// the divisor's lanes and the float16 result.
struct Layout {
  int64_t buffer[2], acc, columns, divisor, half, bytes;
  explicit Layout(int64_t bufferBytes) {
    buffer[0] = 0;
    buffer[1] = bufferBytes;
    acc = 2 * bufferBytes;
    columns = acc + isa::kRepeatBytes;
    divisor = columns + isa::kRepeatBytes;
    half = divisor + isa::kRepeatBytes;
    bytes = half + isa::kRepeatBytes;
  }
};

class Emitter {
 public:
  Emitter(const DynamicReduceCompute& c, KernelBuilder& b) : c_(c), b_(b) {}

  // acc = the identity of the reduction in every lane.
  void initAcc(const Layout& l) {
    VectorOp v;
    v.op = Opcode::VDup;
    v.type = DType::Float32;
    v.dst = ub(l.acc);
    v.scalarIsImm = true;
    v.scalarBits = c_.kind == ReduceKind::Max ? 0xff800000 : c_.kind == ReduceKind::Min ? 0x7f800000 : 0;
    emitContiguous(b_, v, kLanes);
  }

  // acc ⊕= the `countReg` elements from `src`, repeat after repeat into the same 64 lanes.
  void accumulate(const Layout& l, int64_t src, int countReg) {
    Instruction i;
    i.op = reduceCombineOp(c_.kind);
    i.type = DType::Float32;
    i.dst = i.src0 = ub(l.acc);
    i.src1 = ub(src);
    i.repeat = 1;
    i.dstBlk = i.src0Blk = i.src1Blk = 1;
    i.dstRep = i.src0Rep = 0;
    i.src1Rep = isa::kRepeatBytes / isa::kBlockBytes;
    b_.setCounterMode(true);
    b_.setMaskLow(countReg);
    b_.emit(i);
  }

  // The accumulator folded to the inner columns; with `final`, a mean divided by the reduce extent
  // in `reduceReg` and a float16 result rounded.
  Result finish(const Layout& l, bool final, int reduceReg) {
    for (int64_t width = kLanes; width > std::max(c_.inner, kBlockLanes); width /= 2) {
      VectorOp fold;
      fold.op = reduceCombineOp(c_.kind);
      fold.type = DType::Float32;
      fold.dst = fold.src0 = ub(l.acc);
      fold.src1 = ub(l.acc + width / 2 * 4);
      emitContiguous(b_, fold, width / 2);
    }
    // a row narrower than a block: column j is lanes j, j + inner, … of the block
    const bool perBlock = c_.inner < kBlockLanes;
    const int64_t values = perBlock ? l.columns : l.acc;
    for (int64_t j = 0; perBlock && j < c_.inner; ++j) {
      uint64_t lanes = 0;
      for (int64_t e = j; e < kBlockLanes; e += c_.inner) lanes |= uint64_t{1} << e;
      b_.setCounterMode(false);
      b_.setMask(lanes, 0);
      Instruction i;
      i.op = reduceLaneOp(c_.kind);
      i.type = DType::Float32;
      i.dst = ub(l.columns + j * isa::kBlockBytes);
      i.src0 = ub(l.acc);
      i.repeat = 1;
      i.src0Blk = 1;
      i.dstRep = 1;
      i.src0Rep = isa::kRepeatBytes / isa::kBlockBytes;
      b_.emit(i);
    }
    if (!final) return Result{values, perBlock};
    // each column's value: `inner` contiguous ones, or the first of each block
    auto eachColumn = [&](const std::function<void(int64_t offset, int64_t count)>& apply) {
      if (!perBlock) return apply(0, c_.inner);
      for (int64_t j = 0; j < c_.inner; ++j) apply(j * isa::kBlockBytes, 1);
    };
    if (c_.kind == ReduceKind::Mean) {
      VectorOp dup;
      dup.op = Opcode::VDup;
      dup.type = DType::Int32;
      dup.dst = ub(l.divisor);
      dup.scalarReg = reduceReg;
      emitContiguous(b_, dup, kBlockLanes);
      emitConvert(b_, l.divisor, l.divisor, DType::Int32, DType::Float32, kBlockLanes);
      eachColumn([&](int64_t offset, int64_t count) {
        VectorOp div;
        div.op = Opcode::VDiv;
        div.type = DType::Float32;
        div.dst = div.src0 = ub(values + offset);
        div.src1 = ub(l.divisor);
        div.src1Broadcast = true;
        emitContiguous(b_, div, count);
      });
    }
    if (!c_.halfResult) return Result{values, perBlock};
    eachColumn([&](int64_t offset, int64_t count) { emitConvert(b_, l.half + offset, values + offset, DType::Float32, DType::Float16, count); });
    return Result{l.half, perBlock};
  }

  // Writes the result to row `unitReg` of argument 1 once the vector unit is done, and frees the
  // accumulator for the next unit when the copy is.
  void store(const Result& r, int unitReg, bool final) {
    const int size = final && c_.halfResult ? 2 : 4;
    const int at = b_.allocReg();
    b_.aluImm(Opcode::Mul, at, unitReg, c_.inner * size);
    b_.alu(Opcode::Add, at, at, KernelBuilder::argReg(1));
    b_.setFlag(Pipe::V, Pipe::MTE3, 0);
    b_.waitFlag(Pipe::V, Pipe::MTE3, 0);
    const MemRef to{Space::GM, static_cast<uint8_t>(at), 0};
    if (r.perBlock) emitCopyRows(b_, Opcode::CopyUbToGm, to, ub(r.at), c_.inner, size);  // one element per block
    else emitCopyRows(b_, Opcode::CopyUbToGm, to, ub(r.at), 1, c_.inner * size);
    b_.setFlag(Pipe::MTE3, Pipe::V, 0);
    b_.freeReg(at);
  }

  // Units [first, end) of this core, where unitReg counts; `body` emits one.
  template <typename Body>
  void forEachUnit(int totalReg, int blockDim, Body body) {
    const int unit = b_.allocReg(), end = b_.allocReg(), blockIdx = b_.allocReg();
    b_.blockIdx(blockIdx);
    emitCoreShare(b_, blockIdx, totalReg, blockDim, unit, end);
    b_.freeReg(blockIdx);
    b_.alu(Opcode::Add, end, end, unit);
    const int loop = b_.newLabel(), done = b_.newLabel();
    b_.branch(Opcode::Bge, unit, end, done);
    b_.bind(loop);
    body(unit);
    b_.aluImm(Opcode::Add, unit, unit, 1);
    b_.branch(Opcode::Blt, unit, end, loop);
    b_.bind(done);
    b_.freeReg(unit);
    b_.freeReg(end);
  }

 private:
  const DynamicReduceCompute& c_;
  KernelBuilder& b_;
};

// Rows of one chunk buffer: as many as fit.
int64_t chunkRowsOf(const DynamicReduceCompute& c, const Target& target) {
  const int64_t room = std::min(kMaxBufferBytes, (target.buffer(Space::UB).size - 4 * isa::kRepeatBytes) / 2);
  return std::max<int64_t>(1, room / (c.inner * 4));
}

}  // namespace

DynamicReducePlan planDynamicReduce(const DynamicReduceCompute& c, const Target& target, int maxCores) {
  if (c.kind == ReduceKind::Prod || c.inner < 1 || kLanes % c.inner != 0) {
    Diagnostic d;
    d.range.begin.line = c.sourceLine;
    d.message = "reduction '" + c.name + "' over dynamic dimensions needs a sum, mean, maximum or minimum whose " +
                "trailing kept extent (" + std::to_string(c.inner) + ") divides 64";
    throw CompileError(d);
  }
  DynamicReducePlan p;
  p.chunkRows = chunkRowsOf(c, target);
  const int64_t minPartRows = std::max<int64_t>(1, kMinPartBytes / (c.inner * 4));
  p.parts = c.reduce <= p.chunkRows ? 1 : std::min<int64_t>(maxCores, (c.reduce + minPartRows - 1) / minPartRows);
  p.blockDim = static_cast<int>(std::min<int64_t>(maxCores, c.outer * p.parts));
  return p;
}

KernelCode lowerDynamicReduceParts(const DynamicReduceCompute& c, const DynamicReducePlan& p, const Target& target) {
  KernelBuilder b(c.name, 2 + static_cast<int>(PartialScalar::Count));
  b.setSourceLine(c.sourceLine);
  auto arg = [](PartialScalar s) { return KernelBuilder::argReg(2 + static_cast<int>(s)); };
  const int64_t rowBytes = c.inner * 4;
  const Layout l(localRowBytes(p.chunkRows * rowBytes));
  b.noteBufferBytes(Space::UB, l.bytes);
  const bool final = p.parts == 1;
  Emitter e(c, b);
  for (int k = 0; k < 2; ++k) b.setFlag(Pipe::V, Pipe::MTE2, k);
  b.setFlag(Pipe::MTE3, Pipe::V, 0);
  e.forEachUnit(arg(PartialScalar::Units), p.blockDim, [&](int unit) {
    // rows [part·Q, min(part·Q + Q, R)) of image unit / parts, from GM row image·R + part·Q
    const int src = b.allocReg(), remaining = b.allocReg(), count = b.allocReg(), bytes = b.allocReg();
    b.aluImm(Opcode::Div, count, unit, p.parts);                       // image
    b.aluImm(Opcode::Mul, bytes, count, p.parts);
    b.alu(Opcode::Sub, bytes, unit, bytes);                            // part
    b.alu(Opcode::Mul, bytes, bytes, arg(PartialScalar::PartRows));    // its first row
    b.alu(Opcode::Sub, remaining, arg(PartialScalar::Reduce), bytes);
    b.alu(Opcode::Min, remaining, remaining, arg(PartialScalar::PartRows));
    b.alu(Opcode::Mul, src, count, arg(PartialScalar::Reduce));
    b.alu(Opcode::Add, src, src, bytes);
    b.aluImm(Opcode::Mul, src, src, rowBytes);
    b.alu(Opcode::Add, src, src, KernelBuilder::argReg(0));
    b.waitFlag(Pipe::MTE3, Pipe::V, 0);
    e.initAcc(l);
    // chunks of up to chunkRows rows, alternating buffers (the loop written once per buffer)
    const int next = b.newLabel(), done = b.newLabel();
    b.bind(next);
    for (int k = 0; k < 2; ++k) {
      b.branch(Opcode::Bge, 0, remaining, done);
      b.aluImm(Opcode::Min, count, remaining, p.chunkRows);
      b.waitFlag(Pipe::V, Pipe::MTE2, k);
      b.aluImm(Opcode::Mul, bytes, count, rowBytes);
      emitCopyBytes(b, Opcode::CopyGmToUb, ub(l.buffer[k]), MemRef{Space::GM, static_cast<uint8_t>(src), 0}, bytes);
      b.aluImm(Opcode::Mul, count, count, c.inner);
      b.setFlag(Pipe::MTE2, Pipe::V, k);
      b.waitFlag(Pipe::MTE2, Pipe::V, k);
      e.accumulate(l, l.buffer[k], count);
      b.setFlag(Pipe::V, Pipe::MTE2, k);
      b.aluImm(Opcode::Add, src, src, p.chunkRows * rowBytes);
      b.aluImm(Opcode::Sub, remaining, remaining, p.chunkRows);
    }
    b.jump(next);
    b.bind(done);
    for (int reg : {src, remaining, count, bytes}) b.freeReg(reg);
    e.store(e.finish(l, final, arg(PartialScalar::Reduce)), unit, final);
  });
  for (int k = 0; k < 2; ++k) b.waitFlag(Pipe::V, Pipe::MTE2, k);
  b.waitFlag(Pipe::MTE3, Pipe::V, 0);
  return b.finish(p.blockDim);
}

KernelCode lowerDynamicReduceCombine(const DynamicReduceCompute& c, const DynamicReducePlan& p, const Target& target) {
  KernelBuilder b(c.name, 2 + static_cast<int>(CombineScalar::Count));
  b.setSourceLine(c.sourceLine);
  auto arg = [](CombineScalar s) { return KernelBuilder::argReg(2 + static_cast<int>(s)); };
  const int64_t partsBytes = p.parts * c.inner * 4;
  const Layout l(localRowBytes(partsBytes));
  b.noteBufferBytes(Space::UB, l.bytes);
  if (l.bytes > target.buffer(Space::UB).size) throw std::logic_error("lowerDynamicReduceCombine: the parts do not fit UB");
  Emitter e(c, b);
  const int blockDim = static_cast<int>(std::min<int64_t>(p.blockDim, c.outer));
  b.setFlag(Pipe::V, Pipe::MTE2, 0);
  b.setFlag(Pipe::MTE3, Pipe::V, 0);
  e.forEachUnit(arg(CombineScalar::Outer), blockDim, [&](int unit) {
    const int src = b.allocReg(), count = b.allocReg();
    b.aluImm(Opcode::Mul, src, unit, partsBytes);
    b.alu(Opcode::Add, src, src, KernelBuilder::argReg(0));
    b.waitFlag(Pipe::V, Pipe::MTE2, 0);
    emitCopyRows(b, Opcode::CopyGmToUb, ub(l.buffer[0]), MemRef{Space::GM, static_cast<uint8_t>(src), 0}, 1, partsBytes);
    b.setFlag(Pipe::MTE2, Pipe::V, 0);
    b.waitFlag(Pipe::MTE2, Pipe::V, 0);
    b.waitFlag(Pipe::MTE3, Pipe::V, 0);
    e.initAcc(l);
    b.li(count, p.parts * c.inner);
    e.accumulate(l, l.buffer[0], count);
    b.setFlag(Pipe::V, Pipe::MTE2, 0);
    b.freeReg(src);
    b.freeReg(count);
    e.store(e.finish(l, true, arg(CombineScalar::Reduce)), unit, true);
  });
  b.waitFlag(Pipe::V, Pipe::MTE2, 0);
  b.waitFlag(Pipe::MTE3, Pipe::V, 0);
  return b.finish(blockDim);
}

}  // namespace pyasc::codegen
