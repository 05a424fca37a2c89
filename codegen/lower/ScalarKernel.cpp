// Integer elementwise kernels on the scalar unit: per core a share of the positions, each read,
// computed in 64-bit registers and stored, with NumPy's integer semantics.
#include "codegen/lower/ScalarKernel.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include "codegen/lower/TilePipeline.h"

namespace pyasc::codegen {

using isa::Instruction;
using isa::MemRef;
using isa::Opcode;
using isa::Space;

namespace {

const std::set<std::string>& binaryArithmetic() {
  static const std::set<std::string> ops = {"Add",       "Sub",        "Mul",        "Maximum",   "Minimum",   "FloorDiv",
                                            "Mod",       "Pow",        "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift",
                                            "RightShift"};
  return ops;
}

// Each comparison as the branch taken when it is false, and whether that branch takes the operands
// swapped (a > b is false when b >= a).
const std::map<std::string, std::pair<Opcode, bool>>& comparisons() {
  static const std::map<std::string, std::pair<Opcode, bool>> ops = {
      {"Equal", {Opcode::Bne, false}},       {"NotEqual", {Opcode::Beq, false}}, {"Less", {Opcode::Bge, false}},
      {"GreaterEqual", {Opcode::Blt, false}}, {"Greater", {Opcode::Bge, true}},  {"LessEqual", {Opcode::Blt, true}}};
  return ops;
}

// The dtype an element has in GM (a bool is one byte).
DType stored(DType t) { return t == DType::Bool ? DType::UInt8 : t; }

// reg = the element of dtype t at GM[address], and back.
void gmLoad(KernelBuilder& b, DType t, int reg, int address) {
  Instruction ld;
  ld.op = Opcode::Ld;
  ld.type = stored(t);
  ld.rd = static_cast<uint8_t>(reg);
  ld.src0 = MemRef{Space::GM, static_cast<uint8_t>(address), 0};
  b.emit(ld);
}

void gmStore(KernelBuilder& b, DType t, int reg, int address) {
  Instruction st;
  st.op = Opcode::St;
  st.type = stored(t);
  st.ra = static_cast<uint8_t>(reg);
  st.dst = MemRef{Space::GM, static_cast<uint8_t>(address), 0};
  b.emit(st);
}

// A loop that runs while `counter` (counting down to 0) is positive: its head, then its tail.
struct Countdown {
  int loop, done;
};

Countdown beginCountdown(KernelBuilder& b, int counter) {
  const Countdown c{b.newLabel(), b.newLabel()};
  b.bind(c.loop);
  b.branch(Opcode::Bge, 0, counter, c.done);  // x0 reads as 0
  return c;
}

void endCountdown(KernelBuilder& b, int counter, const Countdown& c) {
  b.aluImm(Opcode::Sub, counter, counter, 1);
  b.jump(c.loop);
  b.bind(c.done);
}

// This core's share of `positions`, [first, first + count), in two new registers.
void emitThisCoresShare(KernelBuilder& b, int64_t positions, int blockDim, int& first, int& count) {
  const int idx = b.allocReg();
  first = b.allocReg();
  count = b.allocReg();
  b.blockIdx(idx);
  emitCoreShare(b, idx, positions, blockDim, first, count);
  b.freeReg(idx);
}

}  // namespace

std::string scalarRefusal(const std::string& op, const std::vector<DType>& inputs, DType out) {
  for (DType t : inputs) {
    if (isFloat(t) && !(op == "Cast" && t == DType::Float32 && isInteger(out))) {
      return "operator '" + op + "' on " + dtypeName(t) + " with integers the vector unit has no lanes for has no "
             "scalar-unit lowering (the scalar unit computes integers only; a float32 cast to an integer is the exception)";
    }
  }
  if (isFloat(out) && !(op == "Cast" && out == DType::Float32)) {
    return "operator '" + op + "' giving " + dtypeName(out) + " from integers the vector unit has no lanes for has no "
           "lowering (the scalar unit has no floats; cast them to float32 first)";
  }
  const bool known = binaryArithmetic().count(op) || comparisons().count(op) || op == "Neg" || op == "Abs" ||
                     op == "Invert" || op == "Square" || op == "Sign" || op == "Relu" || op == "Reciprocal" ||
                     op.rfind("Logical", 0) == 0 || op == "IsNan" || op == "IsInf" || op == "IsFinite" || op == "Where" || op == "Cast" || op == "Clip" || op == "Identity";
  if (!known) return "operator '" + op + "' on integers the vector unit has no lanes for has no scalar-unit lowering yet";
  return "";
}

KernelCode lowerScalarElementwise(const ScalarCompute& c, int cores) {
  int tensors = 0, scalars = 0;
  for (const ScalarOperand& o : c.operands) {
    if (o.kind == ScalarOperand::Kind::Array || o.kind == ScalarOperand::Kind::Element) ++tensors;
    if (o.kind == ScalarOperand::Kind::Argument) ++scalars;
  }
  KernelBuilder b(c.name, tensors + 1 + scalars);
  b.setSourceLine(c.sourceLine);
  const int blockDim = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(cores, c.count / 64)));
  const int outArg = KernelBuilder::argReg(tensors);
  // each array operand's cursor, advanced per position; the others' values, read once
  std::vector<int> cursor(c.operands.size(), -1), value(c.operands.size(), -1);
  int tensor = 0, scalar = 0;
  for (size_t k = 0; k < c.operands.size(); ++k) {
    const ScalarOperand& o = c.operands[k];
    if (o.kind == ScalarOperand::Kind::Array) {
      cursor[k] = KernelBuilder::argReg(tensor++);
    } else if (o.kind == ScalarOperand::Kind::Element) {
      value[k] = b.allocReg();
      gmLoad(b, o.dtype, value[k], KernelBuilder::argReg(tensor++));
    } else if (o.kind == ScalarOperand::Kind::Constant) {
      value[k] = b.allocReg();
      b.li(value[k], o.constant);
    } else {
      value[k] = KernelBuilder::argReg(tensors + 1 + scalar++);
    }
  }
  int first = 0, count = 0;
  emitThisCoresShare(b, c.count, blockDim, first, count);
  int tmp = b.allocReg();
  for (size_t k = 0; k < c.operands.size(); ++k) {
    if (cursor[k] < 0) continue;
    b.aluImm(Opcode::Mul, tmp, first, dtypeSize(stored(c.operands[k].dtype)));
    b.alu(Opcode::Add, cursor[k], cursor[k], tmp);
  }
  b.aluImm(Opcode::Mul, tmp, first, dtypeSize(stored(c.outType)));
  b.alu(Opcode::Add, outArg, outArg, tmp);
  b.freeReg(tmp);
  b.freeReg(first);

  std::vector<int> in(c.operands.size());
  for (size_t k = 0; k < c.operands.size(); ++k) in[k] = cursor[k] >= 0 ? b.allocReg() : value[k];
  int result = b.allocReg(), scratch = b.allocReg(), zero = 0;  // x0 reads as 0
  const Countdown positionsLeft = beginCountdown(b, count);
  for (size_t k = 0; k < c.operands.size(); ++k) {
    if (cursor[k] >= 0) gmLoad(b, c.operands[k].dtype, in[k], cursor[k]);
  }
  // result = one of two values by a branch: `then` when `a op b` holds
  auto select = [&](Opcode branchWhenFalse, int a, int bReg, int thenReg, int elseReg) {
    const int skip = b.newLabel(), end = b.newLabel();
    b.branch(branchWhenFalse, a, bReg, skip);
    b.aluImm(Opcode::Add, result, thenReg, 0);
    b.jump(end);
    b.bind(skip);
    b.aluImm(Opcode::Add, result, elseReg, 0);
    b.bind(end);
  };
  auto truth = [&](Opcode branchWhenFalse, int a, int bReg) {  // result = a op b ? 1 : 0
    b.li(scratch, 1);
    const int skip = b.newLabel(), end = b.newLabel();
    b.branch(branchWhenFalse, a, bReg, skip);
    b.aluImm(Opcode::Add, result, scratch, 0);
    b.jump(end);
    b.bind(skip);
    b.li(result, 0);
    b.bind(end);
  };
  const std::string& op = c.op;
  const int x = in.empty() ? 0 : in[0], y = in.size() > 1 ? in[1] : 0;
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Maximum" || op == "Minimum") {
    static const std::map<std::string, Opcode> alu = {{"Add", Opcode::Add}, {"Sub", Opcode::Sub}, {"Mul", Opcode::Mul},
                                                      {"Maximum", Opcode::Max}, {"Minimum", Opcode::Min}};
    b.alu(alu.at(op), result, x, y);
  } else if (op == "FloorDiv" || op == "Mod") {
    // NumPy: a zero divisor gives 0; otherwise Python's floor division and the divisor-signed remainder
    const int nonzero = b.newLabel(), end = b.newLabel();
    b.branch(Opcode::Bne, y, zero, nonzero);
    b.li(result, 0);
    b.jump(end);
    b.bind(nonzero);
    b.alu(Opcode::Rem, scratch, x, y);  // toward zero
    b.alu(Opcode::Div, result, x, y);
    const int exact = b.newLabel();
    b.branch(Opcode::Beq, scratch, zero, exact);
    const int quotientSign = b.allocReg();
    b.alu(Opcode::Xor, quotientSign, scratch, y);  // remainder and divisor of opposite signs: one step back
    b.branch(Opcode::Bge, quotientSign, zero, exact);
    b.aluImm(Opcode::Sub, result, result, 1);
    b.alu(Opcode::Add, scratch, scratch, y);
    b.freeReg(quotientSign);
    b.bind(exact);
    if (op == "Mod") b.aluImm(Opcode::Add, result, scratch, 0);
    b.bind(end);
  } else if (op == "BitwiseAnd" || op == "BitwiseOr" || op == "BitwiseXor") {
    b.alu(op == "BitwiseAnd" ? Opcode::And : op == "BitwiseOr" ? Opcode::Or : Opcode::Xor, result, x, y);
  } else if (op == "Invert") {
    b.li(scratch, -1);
    b.alu(Opcode::Xor, result, x, scratch);
  } else if (op == "LeftShift" || op == "RightShift") {
    // NumPy: a count outside 0..63 (the register's width; a narrower dtype keeps the low bits, all
    // 0 or all sign for counts beyond its own width) shifts everything out
    const int outOfRange = b.newLabel(), end = b.newLabel();
    b.branch(Opcode::Blt, y, zero, outOfRange);
    b.li(scratch, 64);
    b.branch(Opcode::Bge, y, scratch, outOfRange);
    b.alu(op == "LeftShift" ? Opcode::Shl : Opcode::Shr, result, x, y);
    b.jump(end);
    b.bind(outOfRange);
    if (op == "LeftShift") {
      b.li(result, 0);
    } else {
      b.aluImm(Opcode::Shr, result, x, 63);  // 0 or -1 by the sign
    }
    b.bind(end);
  } else if (op == "Pow") {
    // by squaring, wrapping as NumPy; a negative exponent (which NumPy refuses) truncates 1 / x^-y:
    // 1 for x = 1, +-1 for x = -1 by the exponent's parity, else 0
    const int base = b.allocReg(), e = b.allocReg(), square = b.newLabel(), negative = b.newLabel(), end = b.newLabel();
    b.li(result, 1);
    b.aluImm(Opcode::Add, base, x, 0);
    b.aluImm(Opcode::Add, e, y, 0);
    b.branch(Opcode::Blt, e, zero, negative);
    b.bind(square);
    b.branch(Opcode::Beq, e, zero, end);
    b.aluImm(Opcode::And, scratch, e, 1);
    const int even = b.newLabel();
    b.branch(Opcode::Beq, scratch, zero, even);
    b.alu(Opcode::Mul, result, result, base);
    b.bind(even);
    b.alu(Opcode::Mul, base, base, base);
    b.aluImm(Opcode::Shr, e, e, 1);
    b.jump(square);
    b.bind(negative);
    b.branch(Opcode::Beq, x, result, end);  // 1
    b.li(result, 0);
    b.li(scratch, -1);
    b.branch(Opcode::Bne, x, scratch, end);
    b.aluImm(Opcode::And, scratch, e, 1);
    b.li(result, 1);
    b.branch(Opcode::Beq, scratch, zero, end);
    b.li(result, -1);
    b.bind(end);
    b.freeReg(base);
    b.freeReg(e);
  } else if (op == "Square") {
    b.alu(Opcode::Mul, result, x, x);
  } else if (op == "Sign") {  // min(max(x, 0), 1) + max(min(x, 0), -1)
    b.aluImm(Opcode::Max, result, x, 0);
    b.aluImm(Opcode::Min, result, result, 1);
    b.aluImm(Opcode::Min, scratch, x, 0);
    b.aluImm(Opcode::Max, scratch, scratch, -1);
    b.alu(Opcode::Add, result, result, scratch);
  } else if (op == "Relu") {
    b.aluImm(Opcode::Max, result, x, 0);
  } else if (op == "Reciprocal") {  // 1 / x truncated: x itself for -1, 0 and 1, else 0
    b.aluImm(Opcode::Max, scratch, x, -1);
    b.aluImm(Opcode::Min, scratch, scratch, 1);
    select(Opcode::Bne, scratch, x, x, zero);
  } else if (op == "IsNan" || op == "IsInf" || op == "IsFinite") {  // of integers: finite numbers
    b.li(result, op == "IsFinite" ? 1 : 0);
  } else if (op == "LogicalNot") {
    truth(Opcode::Bne, x, zero);
  } else if (op == "LogicalAnd" || op == "LogicalOr") {
    // And: 0 as soon as one is 0; Or: 1 as soon as one is not
    const bool isAnd = op == "LogicalAnd";
    const int end = b.newLabel();
    b.li(result, isAnd ? 0 : 1);
    b.branch(isAnd ? Opcode::Beq : Opcode::Bne, x, zero, end);
    b.branch(isAnd ? Opcode::Beq : Opcode::Bne, y, zero, end);
    b.li(result, isAnd ? 1 : 0);
    b.bind(end);
  } else if (op == "LogicalXor") {
    const int first = b.allocReg();
    truth(Opcode::Beq, x, zero);  // x != 0
    b.aluImm(Opcode::Add, first, result, 0);
    truth(Opcode::Beq, y, zero);
    b.alu(Opcode::Xor, result, result, first);
    b.freeReg(first);
  } else if (op == "Neg") {
    b.alu(Opcode::Sub, result, zero, x);
  } else if (op == "Abs") {
    b.alu(Opcode::Sub, scratch, zero, x);
    b.alu(Opcode::Max, result, x, scratch);
  } else if (op == "Clip") {
    b.alu(Opcode::Max, result, x, y);
    b.alu(Opcode::Min, result, result, in[2]);
  } else if (op == "Where") {
    select(Opcode::Beq, in[0], zero, in[1], in[2]);
  } else if (auto comparison = comparisons().find(op); comparison != comparisons().end()) {
    const auto [whenFalse, swapped] = comparison->second;
    truth(whenFalse, swapped ? y : x, swapped ? x : y);
  } else if (op == "Cast" && c.operands[0].dtype == DType::Float32) {
    // float32 bits to an integer toward zero: 2^(e-23) times the 24-bit significand; NaN gives 0,
    // beyond int64 saturates (as the vector unit's conversions)
    const int e = b.allocReg(), m = b.allocReg(), end = b.newLabel(), positive = b.newLabel(), big = b.newLabel();
    b.aluImm(Opcode::Shr, e, x, 23);
    b.aluImm(Opcode::And, e, e, 0xff);
    b.aluImm(Opcode::And, m, x, 0x7fffff);
    b.li(result, 0);
    b.li(scratch, 127);
    b.branch(Opcode::Blt, e, scratch, end);  // |x| < 1 (and zero, subnormals)
    b.li(scratch, 255);
    const int finite = b.newLabel();
    b.branch(Opcode::Bne, e, scratch, finite);
    b.branch(Opcode::Bne, m, zero, end);  // NaN: 0
    b.bind(finite);
    b.aluImm(Opcode::Or, m, m, 0x800000);
    b.aluImm(Opcode::Sub, e, e, 127 + 23);  // the shift: value = m * 2^e
    b.li(scratch, 40);  // 2^63 and beyond: saturated
    b.branch(Opcode::Bge, e, scratch, big);
    const int left = b.newLabel(), signed_ = b.newLabel();
    b.branch(Opcode::Bge, e, zero, left);
    b.alu(Opcode::Sub, e, zero, e);
    b.alu(Opcode::Shr, result, m, e);
    b.jump(signed_);
    b.bind(left);
    b.alu(Opcode::Shl, result, m, e);
    b.bind(signed_);
    b.aluImm(Opcode::Shr, scratch, x, 31);  // the sign bit (ld gives the float's 32 bits)
    b.aluImm(Opcode::And, scratch, scratch, 1);
    b.branch(Opcode::Beq, scratch, zero, positive);
    b.alu(Opcode::Sub, result, zero, result);
    b.jump(positive);
    b.bind(big);
    b.li(result, INT64_MAX);
    b.aluImm(Opcode::Shr, scratch, x, 31);
    b.aluImm(Opcode::And, scratch, scratch, 1);
    b.branch(Opcode::Beq, scratch, zero, positive);
    b.li(result, INT64_MIN);
    b.bind(positive);
    b.bind(end);
    b.freeReg(e);
    b.freeReg(m);
  } else if (op == "Cast" && isFloat(c.outType)) {
    // an integer to float32 bits: the leading bit's position p gives the exponent, the 24 bits from it the significand, rounded to nearest even
    const int a = b.allocReg(), p = b.allocReg(), sign = b.allocReg(), end = b.newLabel();
    b.li(result, 0);
    b.branch(Opcode::Beq, x, zero, end);
    b.li(sign, 0);
    b.aluImm(Opcode::Add, a, x, 0);
    const int nonNegative = b.newLabel();
    b.branch(Opcode::Bge, x, zero, nonNegative);
    b.li(sign, int64_t{1} << 31);
    b.alu(Opcode::Sub, a, zero, x);
    b.li(result, 0xDF000000);  // -2^63, whose magnitude has no int64
    b.branch(Opcode::Blt, a, zero, end);
    b.bind(nonNegative);
    b.li(p, 0);  // p = the leading bit of a
    b.aluImm(Opcode::Shr, scratch, a, 1);
    const int scan = b.newLabel(), found = b.newLabel();
    b.bind(scan);
    b.branch(Opcode::Beq, scratch, zero, found);
    b.aluImm(Opcode::Add, p, p, 1);
    b.aluImm(Opcode::Shr, scratch, scratch, 1);
    b.jump(scan);
    b.bind(found);
    const int wide = b.newLabel(), assemble = b.newLabel();
    b.li(scratch, 23);
    b.branch(Opcode::Blt, scratch, p, wide);
    b.alu(Opcode::Sub, scratch, scratch, p);  // exact: a << (23 - p)
    b.alu(Opcode::Shl, a, a, scratch);
    b.jump(assemble);
    b.bind(wide);
    const int shift = b.allocReg(), rest = b.allocReg();
    b.aluImm(Opcode::Sub, shift, p, 23);
    b.li(rest, 1);  // rest = a mod 2^shift, against half = 2^(shift-1)
    b.alu(Opcode::Shl, rest, rest, shift);
    b.aluImm(Opcode::Sub, rest, rest, 1);
    b.alu(Opcode::And, rest, a, rest);
    b.alu(Opcode::Shr, a, a, shift);
    b.aluImm(Opcode::Sub, shift, shift, 1);
    b.li(scratch, 1);
    b.alu(Opcode::Shl, scratch, scratch, shift);  // half
    const int up = b.newLabel(), keep = b.newLabel();
    b.branch(Opcode::Blt, scratch, rest, up);
    b.branch(Opcode::Bne, scratch, rest, keep);
    b.aluImm(Opcode::And, scratch, a, 1);  // a tie: to the even significand
    b.branch(Opcode::Beq, scratch, zero, keep);
    b.bind(up);
    b.aluImm(Opcode::Add, a, a, 1);
    b.li(scratch, int64_t{1} << 24);
    b.branch(Opcode::Blt, a, scratch, keep);
    b.aluImm(Opcode::Shr, a, a, 1);  // rounded up to 2^24: one more exponent
    b.aluImm(Opcode::Add, p, p, 1);
    b.bind(keep);
    b.freeReg(shift);
    b.freeReg(rest);
    b.bind(assemble);
    b.aluImm(Opcode::And, a, a, 0x7fffff);
    b.aluImm(Opcode::Add, p, p, 127);
    b.aluImm(Opcode::Shl, p, p, 23);
    b.alu(Opcode::Or, result, a, p);
    b.alu(Opcode::Or, result, result, sign);
    b.bind(end);
    b.freeReg(a);
    b.freeReg(p);
    b.freeReg(sign);
  } else if (op == "Cast" && c.outType == DType::Bool) {
    truth(Opcode::Beq, x, zero);
  } else {  // Cast between integers (the store keeps the low bytes, as NumPy's astype), Identity
    b.aluImm(Opcode::Add, result, x, 0);
  }
  gmStore(b, c.outType, result, outArg);
  for (size_t k = 0; k < c.operands.size(); ++k) {
    if (cursor[k] >= 0) b.aluImm(Opcode::Add, cursor[k], cursor[k], dtypeSize(stored(c.operands[k].dtype)));
  }
  b.aluImm(Opcode::Add, outArg, outArg, dtypeSize(stored(c.outType)));
  endCountdown(b, count, positionsLeft);
  return b.finish(blockDim);
}

KernelCode lowerScalarReduce(const ScalarReduce& r, int cores) {
  KernelBuilder b(r.name, 2);
  b.setSourceLine(r.sourceLine);
  const int64_t positions = r.outer * r.inner;
  const int blockDim = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(cores, positions)));
  const int src = KernelBuilder::argReg(0), dst = KernelBuilder::argReg(1);
  int first = 0, count = 0;
  emitThisCoresShare(b, positions, blockDim, first, count);
  int at = b.allocReg(), cursor = b.allocReg(), acc = b.allocReg(), value = b.allocReg(), k = b.allocReg();
  b.aluImm(Opcode::Mul, at, first, 8);
  b.alu(Opcode::Add, dst, dst, at);
  const Countdown positionsLeft = beginCountdown(b, count);
  // the position's first element: (first / inner) * reduce * inner + first % inner
  b.aluImm(Opcode::Div, at, first, r.inner);
  b.aluImm(Opcode::Mul, at, at, r.reduce * r.inner);
  b.aluImm(Opcode::Rem, cursor, first, r.inner);
  b.alu(Opcode::Add, cursor, cursor, at);
  b.aluImm(Opcode::Mul, cursor, cursor, 8);
  b.alu(Opcode::Add, cursor, cursor, src);
  b.li(acc, r.op == "ReduceSum" ? 0 : r.op == "ReduceProd" ? 1 : r.op == "ReduceMax" ? INT64_MIN : INT64_MAX);
  b.li(k, r.reduce);
  const Countdown termsLeft = beginCountdown(b, k);
  gmLoad(b, DType::Int64, value, cursor);
  b.alu(r.op == "ReduceSum" ? Opcode::Add : r.op == "ReduceProd" ? Opcode::Mul : r.op == "ReduceMax" ? Opcode::Max : Opcode::Min,
        acc, acc, value);
  b.aluImm(Opcode::Add, cursor, cursor, r.inner * 8);
  endCountdown(b, k, termsLeft);
  gmStore(b, DType::Int64, acc, dst);
  b.aluImm(Opcode::Add, dst, dst, 8);
  b.aluImm(Opcode::Add, first, first, 1);
  endCountdown(b, count, positionsLeft);
  return b.finish(blockDim);
}

KernelCode lowerScalarMatMul(const MatmulCompute& mm, int cores) {
  KernelBuilder b(mm.name, 3);
  b.setSourceLine(mm.sourceLine);
  const int64_t positions = mm.batch * mm.m * mm.n;
  const int64_t in = dtypeSize(stored(mm.inType)), out = dtypeSize(stored(mm.outType));
  const int blockDim = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(cores, positions / 16)));
  const int a = KernelBuilder::argReg(0), bm = KernelBuilder::argReg(1), dst = KernelBuilder::argReg(2);
  int first = 0, count = 0;
  emitThisCoresShare(b, positions, blockDim, first, count);
  int at = b.allocReg(), ca = b.allocReg(), cb = b.allocReg(), acc = b.allocReg(), x = b.allocReg(), y = b.allocReg(),
      k = b.allocReg(), batch = b.allocReg();
  b.aluImm(Opcode::Mul, at, first, out);
  b.alu(Opcode::Add, dst, dst, at);
  const Countdown positionsLeft = beginCountdown(b, count);
  // position p = (batch, i, j): A's row (batch * m + i) * k, B's column batch * k * n + j
  b.aluImm(Opcode::Div, batch, first, mm.m * mm.n);
  b.aluImm(Opcode::Rem, at, first, mm.m * mm.n);
  b.aluImm(Opcode::Div, ca, at, mm.n);  // i
  b.aluImm(Opcode::Rem, cb, at, mm.n);  // j
  b.aluImm(Opcode::Mul, at, batch, mm.m);
  b.alu(Opcode::Add, ca, ca, at);
  b.aluImm(Opcode::Mul, ca, ca, mm.k * in);
  b.alu(Opcode::Add, ca, ca, a);
  if (mm.batchB) {
    b.aluImm(Opcode::Mul, at, batch, mm.k * mm.n);
    b.alu(Opcode::Add, cb, cb, at);
  }
  b.aluImm(Opcode::Mul, cb, cb, in);
  b.alu(Opcode::Add, cb, cb, bm);
  b.li(acc, 0);
  b.li(k, mm.k);
  const Countdown termsLeft = beginCountdown(b, k);
  gmLoad(b, mm.inType, x, ca);
  gmLoad(b, mm.inType, y, cb);
  b.alu(Opcode::Mul, x, x, y);
  b.alu(Opcode::Add, acc, acc, x);  // wrapping, as NumPy's integer matmul
  b.aluImm(Opcode::Add, ca, ca, in);
  b.aluImm(Opcode::Add, cb, cb, mm.n * in);
  endCountdown(b, k, termsLeft);
  gmStore(b, mm.outType, acc, dst);
  b.aluImm(Opcode::Add, dst, dst, out);
  b.aluImm(Opcode::Add, first, first, 1);
  endCountdown(b, count, positionsLeft);
  return b.finish(blockDim);
}

}  // namespace pyasc::codegen
