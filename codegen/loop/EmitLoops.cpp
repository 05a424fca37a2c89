// Stage emit-loops: loop-nest statements to instructions.
#include "codegen/loop/EmitLoops.h"

#include <algorithm>
#include <map>

#include "codegen/isel/DmaIsel.h"
#include "codegen/isel/VectorIsel.h"
#include "codegen/loop/IndexMath.h"
#include "codegen/lower/CubeShapes.h"
#include "codegen/lower/RowFold.h"
#include "sdk/support/Float16.h"

namespace pyasc::codegen {

namespace {

using isa::MemRef;
using isa::Opcode;
using isa::Space;
using loop::Expr;
using te::Op;

class Emitter {
 public:
  Emitter(const loop::Kernel& k, int sourceLine, const SourceLocation& where)
      : k_(k), where_(where), b_(k.name, countParams(k)) {
    b_.setSourceLine(sourceLine);
    int arg = 0;
    for (size_t i = 0; i < k.buffers.size(); ++i) {
      if (k.buffers[i].role != loop::Buffer::Role::Local) paramReg_[static_cast<int>(i)] = KernelBuilder::argReg(arg++);
    }
  }

  KernelCode run() {
    for (const auto& b : k_.buffers) {
      if (b.role == loop::Buffer::Role::Local) {
        b_.noteBufferBytes(b.scope, b.offset + b.elements * dtypeSize(b.dtype));
      }
    }
    stmt(*k_.body);
    return b_.finish(blockDim_);
  }

 private:
  static int countParams(const loop::Kernel& k) {
    int n = 0;
    for (const auto& b : k.buffers) n += b.role != loop::Buffer::Role::Local ? 1 : 0;
    return n;
  }

  [[noreturn]] void fail(const std::string& what) const { throw CompileError(where_, "te.compute: " + what); }

  // ---- integer expressions into registers (the caller frees the register)

  // Index values that take several instructions are kept in registers (the most recently used few)
  // and copied when asked again, until the loop body or branch that computed them ends.
  int eval(const Expr& e) {
    bool keep = cost(e) >= 4;
    if (keep) {
      for (Known& k : known_) {
        if (!sameExpr(k.value, e)) continue;
        k.used = ++uses_;
        int r = b_.allocReg();
        b_.aluImm(Opcode::Add, r, k.reg, 0);
        return r;
      }
    }
    int r = compute(e);
    if (keep && (known_.size() == kKnownValues || b_.freeRegs() <= kSpareRegisters)) {
      // the least recently used value of this scope goes (one of a scope outside would be missing
      // in the next iteration of the code before this point)
      auto oldest = known_.end();
      for (auto it = known_.begin(); it != known_.end(); ++it) {
        if (it->depth == depth_ && (oldest == known_.end() || it->used < oldest->used)) oldest = it;
      }
      keep = oldest != known_.end();
      if (keep) {
        b_.freeReg(oldest->reg);
        known_.erase(oldest);
      }
    }
    if (keep) {
      int held = b_.allocReg();
      b_.aluImm(Opcode::Add, held, r, 0);
      known_.push_back(Known{e, held, depth_, ++uses_});
    }
    return r;
  }
  // Scalar instructions computing `e` (about).
  static int cost(const Expr& e) {
    if (e->op == Op::Var || e->op == Op::Int) return 1;
    int c = e->op == Op::FloorDiv || e->op == Op::FloorMod ? 6 : 1;
    for (const auto& a : e->args) c += cost(a);
    return c;
  }
  void enterScope() { ++depth_; }
  void leaveScope() {
    for (auto it = known_.begin(); it != known_.end();) {
      if (it->depth < depth_) {
        ++it;
        continue;
      }
      b_.freeReg(it->reg);
      it = known_.erase(it);
    }
    --depth_;
  }

  int compute(const Expr& e) {
    if (auto c = constValue(e)) {
      int r = b_.allocReg();
      b_.li(r, *c);
      return r;
    }
    switch (e->op) {
      case Op::Var: {
        auto it = vars_.find(e->var);
        if (it == vars_.end()) fail("variable '" + k_.vars[static_cast<size_t>(e->var)] + "' has no register");
        int r = b_.allocReg();
        b_.aluImm(Opcode::Add, r, it->second, 0);
        return r;
      }
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Min:
      case Op::Max: {
        static const std::map<Op, Opcode> ops = {{Op::Add, Opcode::Add}, {Op::Sub, Opcode::Sub}, {Op::Mul, Opcode::Mul},
                                                 {Op::Min, Opcode::Min}, {Op::Max, Opcode::Max}};
        int a = eval(e->args[0]);
        if (auto c = constValue(e->args[1])) {
          b_.aluImm(ops.at(e->op), a, a, *c);
          return a;
        }
        int bReg = eval(e->args[1]);
        b_.alu(ops.at(e->op), a, a, bReg);
        b_.freeReg(bReg);
        return a;
      }
      case Op::Neg: {
        int a = eval(e->args[0]);
        b_.aluImm(Opcode::Mul, a, a, -1);
        return a;
      }
      case Op::FloorDiv:
      case Op::FloorMod: {
        auto d = constValue(e->args[1]);
        if (!d || *d <= 0) fail("// and % need a positive constant divisor on the scalar unit");
        int a = eval(e->args[0]);
        int r = b_.allocReg();
        b_.aluImm(Opcode::Rem, r, a, *d);  // toward zero: negative for a negative a
        int done = b_.newLabel();
        int zero = b_.allocReg();
        b_.li(zero, 0);
        b_.branch(Opcode::Bge, r, zero, done);
        b_.aluImm(Opcode::Add, r, r, *d);  // Python's remainder has the divisor's sign
        b_.bind(done);
        b_.freeReg(zero);
        if (e->op == Op::FloorMod) {
          b_.freeReg(a);
          return r;
        }
        b_.alu(Opcode::Sub, a, a, r);
        b_.aluImm(Opcode::Div, a, a, *d);  // exact now
        b_.freeReg(r);
        return a;
      }
      case Op::Cast:
        if (isInteger(e->dtype) && isInteger(e->args[0]->dtype)) return eval(e->args[0]);
        break;
      default: break;
    }
    fail(std::string("'") + te::opName(e->op) + "' in an index expression has no scalar lowering");
  }

  // Jumps to `label` when `cond` is false.
  void branchUnless(const Expr& cond, int label) {
    if (cond->op == Op::Int) {
      if (cond->ival == 0) b_.jump(label);
      return;
    }
    if (cond->op == Op::And) {
      branchUnless(cond->args[0], label);
      branchUnless(cond->args[1], label);
      return;
    }
    if (!te::isComparison(cond->op)) fail(std::string("a condition '") + te::opName(cond->op) + "' has no scalar lowering");
    int a = eval(cond->args[0]), c = eval(cond->args[1]);
    switch (cond->op) {
      case Op::Lt: b_.branch(Opcode::Bge, a, c, label); break;
      case Op::Le: b_.branch(Opcode::Blt, c, a, label); break;
      case Op::Gt: b_.branch(Opcode::Bge, c, a, label); break;
      case Op::Ge: b_.branch(Opcode::Blt, a, c, label); break;
      case Op::Eq: b_.branch(Opcode::Bne, a, c, label); break;
      default: b_.branch(Opcode::Beq, a, c, label); break;
    }
    b_.freeReg(a);
    b_.freeReg(c);
  }

  // ---- addresses

  struct Address {
    MemRef ref;
    int reg = -1;  // a register to free after use
  };

  Address address(int buffer, const Expr& offset) {
    const loop::Buffer& b = k_.buffers[static_cast<size_t>(buffer)];
    int64_t size = dtypeSize(b.dtype);
    Address a;
    a.ref.space = b.scope;
    int64_t base = b.role == loop::Buffer::Role::Local ? b.offset : 0;
    int baseReg = b.role == loop::Buffer::Role::Local ? 0 : paramReg_.at(buffer);
    if (auto c = constValue(offset)) {
      a.ref.reg = static_cast<uint8_t>(baseReg);
      a.ref.offset = base + *c * size;
      return a;
    }
    a.reg = eval(offset);
    b_.aluImm(Opcode::Mul, a.reg, a.reg, size);
    if (baseReg != 0) b_.alu(Opcode::Add, a.reg, a.reg, baseReg);
    a.ref.reg = static_cast<uint8_t>(a.reg);
    a.ref.offset = base;
    return a;
  }
  void release(const Address& a) {
    if (a.reg >= 0) b_.freeReg(a.reg);
  }

  int64_t constant(const Expr& e, const char* what) {
    auto c = constValue(e);
    if (!c) fail(std::string(what) + " must be a constant");
    return *c;
  }

  // ---- statements

  void stmts(const std::vector<loop::StmtPtr>& list) {
    for (const auto& s : list) stmt(*s);
  }

  void stmt(const loop::Stmt& s) {
    switch (s.kind) {
      case loop::StmtKind::Block: stmts(s.body); return;
      case loop::StmtKind::For: forLoop(s); return;
      case loop::StmtKind::If: {
        int otherwise = b_.newLabel(), end = b_.newLabel();
        enterScope();  // a condition may stop before its last operand: its values are not kept
        branchUnless(s.cond, otherwise);
        leaveScope();
        enterScope();
        stmts(s.body);
        leaveScope();
        b_.jump(end);
        b_.bind(otherwise);
        enterScope();
        stmts(s.orelse);
        leaveScope();
        b_.bind(end);
        return;
      }
      case loop::StmtKind::Store: elementCopy(s); return;
      case loop::StmtKind::Dma: dma(s); return;
      case loop::StmtKind::Cube: cube(s); return;
      case loop::StmtKind::Vector: vector(s); return;
      case loop::StmtKind::Sync: {
        if (s.sync == loop::Stmt::SyncKind::Barrier) {
          b_.barrier(s.srcPipe);
          return;
        }
        int event = static_cast<int>(constant(s.event, "a flag's event"));
        if (s.sync == loop::Stmt::SyncKind::Set) {
          b_.setFlag(s.srcPipe, s.dstPipe, event);
        } else {
          b_.waitFlag(s.srcPipe, s.dstPipe, event);
        }
        return;
      }
    }
  }

  void forLoop(const loop::Stmt& s) {
    int reg = b_.allocReg();
    vars_[s.var] = reg;
    if (s.forKind == loop::ForKind::Cores) {
      if (blockDim_ != 1) fail("one loop per kernel can be bound to the cores");
      blockDim_ = static_cast<int>(constant(s.extent, "a cores loop's extent"));
      b_.blockIdx(reg);
      if (auto lo = constValue(s.min); !lo || *lo != 0) fail("a cores loop starts at 0");
      enterScope();
      stmts(s.body);
      leaveScope();
    } else if (s.forKind == loop::ForKind::Unrolled) {
      int64_t lo = constant(s.min, "an unrolled loop's start"), n = constant(s.extent, "an unrolled loop's extent");
      for (int64_t i = lo; i < lo + n; ++i) {
        b_.li(reg, i);
        enterScope();
        stmts(s.body);
        leaveScope();
      }
    } else {
      int end = eval(add(s.min, s.extent));
      int first = eval(s.min);
      b_.aluImm(Opcode::Add, reg, first, 0);
      b_.freeReg(first);
      int top = b_.newLabel(), exit = b_.newLabel();
      b_.bind(top);
      b_.branch(Opcode::Bge, reg, end, exit);
      enterScope();
      stmts(s.body);
      leaveScope();
      b_.aluImm(Opcode::Add, reg, reg, 1);
      b_.jump(top);
      b_.bind(exit);
      b_.freeReg(end);
    }
    vars_.erase(s.var);
    b_.freeReg(reg);
  }

  // reg = the element a Load expression reads (its bits, for floats)
  void loadElement(int reg, const te::ComputeNode& load) {
    Address src = address(load.tensor, load.args[0]);
    isa::Instruction ld;
    ld.op = Opcode::Ld;
    ld.type = load.dtype;
    ld.rd = static_cast<uint8_t>(reg);
    ld.src0 = src.ref;
    b_.emit(ld);
    release(src);
  }

  // dst[index] = src[index'] (or an immediate) on the scalar unit
  void elementCopy(const loop::Stmt& s) {
    const loop::Buffer& dst = k_.buffers[static_cast<size_t>(s.buffer)];
    int value = b_.allocReg();
    if (s.value->op == Op::Load && s.value->dtype == dst.dtype) {
      loadElement(value, *s.value);
    } else if (s.value->op == Op::Int || s.value->op == Op::Float) {
      b_.li(value, scalarBitsOf(s.value->op == Op::Int ? static_cast<double>(s.value->ival) : s.value->fval, dst.dtype));
    } else {
      fail("an element computed on the scalar unit (only copies are; vectorize the loop)");
    }
    Address at = address(s.buffer, s.index);
    isa::Instruction st;
    st.op = Opcode::St;
    st.type = dst.dtype;
    st.ra = static_cast<uint8_t>(value);
    st.dst = at.ref;
    b_.emit(st);
    release(at);
    b_.freeReg(value);
  }

  void dma(const loop::Stmt& s) {
    const loop::Buffer& dst = k_.buffers[static_cast<size_t>(s.dst.buffer)];
    const loop::Buffer& src = k_.buffers[static_cast<size_t>(s.srcs[0].buffer)];
    Opcode op;
    if (src.scope == Space::GM && dst.scope == Space::UB) op = Opcode::CopyGmToUb;
    else if (src.scope == Space::GM && dst.scope == Space::L1) op = Opcode::CopyGmToL1;
    else if (src.scope == Space::UB && dst.scope == Space::GM) op = Opcode::CopyUbToGm;
    else if (src.scope == Space::UB && dst.scope == Space::UB) op = Opcode::CopyUbToUb;
    else fail(std::string("a copy from ") + isa::spaceName(src.scope) + " to " + isa::spaceName(dst.scope));
    const int64_t rows = constant(s.rows, "a copy's row count"), es = dtypeSize(dst.dtype);
    const int64_t bytes = constant(s.len, "a copy's length") * es;
    int64_t gmGap = 0;  // several rows: from GM rows `srcStride` apart into 32-byte padded local rows
    if (rows > 1) {
      if (src.scope != Space::GM || dst.scope == Space::GM || constant(s.dstStride, "a copy's stride") * es != localRowBytes(bytes)) {
        fail("copies of several rows go from GM into 32-byte padded rows of a local buffer");
      }
      gmGap = constant(s.srcStride, "a copy's stride") * es - bytes;
    }
    Address d = address(s.dst.buffer, s.dst.offset), from = address(s.srcs[0].buffer, s.srcs[0].offset);
    emitCopyRows(b_, op, d.ref, from.ref, rows, bytes, gmGap);
    release(d);
    release(from);
  }

  // A cube statement: the instruction of the matmul template's pipeline (codegen/lower/MatmulKernel).
  void cube(const loop::Stmt& s) {
    const loop::Buffer& dst = k_.buffers[static_cast<size_t>(s.dst.buffer)];
    const DType in = k_.buffers[static_cast<size_t>(s.srcs.at(0).buffer)].dtype;
    // a field of `bits` bits: a constant in range, else a located error (loop text may hold anything)
    auto field = [&](const Expr& e, const char* what, int bits) {
      const int64_t v = constant(e, what);
      if (v < 0 || v >= (int64_t{1} << bits)) fail(std::string(what) + " " + std::to_string(v) + " does not fit " + std::to_string(bits) + " bits");
      return static_cast<uint16_t>(v);
    };
    Address d = address(s.dst.buffer, s.dst.offset), a = address(s.srcs[0].buffer, s.srcs[0].offset);
    if (s.op == "mmad") {
      Address bRef = address(s.srcs.at(1).buffer, s.srcs[1].offset);
      if (d.reg >= 0 || a.reg >= 0 || bRef.reg >= 0) fail("mmad operands at computed places are not emitted");
      b_.emit(mmadInstruction(in, d.ref.offset, a.ref.offset, bRef.ref.offset, s.m, s.k, s.n, s.init));
      release(bRef);
    } else {
      isa::Instruction i;
      i.type = in;
      i.dst = d.ref;
      i.src0 = a.ref;
      i.validRows = field(s.validRows, "a cube tile's valid rows", 12);
      i.validCols = field(s.validCols, "a cube tile's valid columns", 12);
      if (s.op == "fix") {
        i.op = Opcode::FixL0CToGm;
        i.type2 = dst.dtype;
        i.m = static_cast<uint16_t>(s.m);
        i.n = static_cast<uint16_t>(s.n);
        i.dstStride = field(s.dstStride, "a fixpipe's row stride", 16);
      } else {
        i.op = s.op == "load_l0a" ? Opcode::LoadL0A : Opcode::LoadL0B;
        i.m = static_cast<uint16_t>(s.m);
        i.k = static_cast<uint16_t>(s.k);
        i.n = static_cast<uint16_t>(s.n);
        i.srcStride = field(s.srcStride, "a cube load's row stride", 16);
        i.mode = s.transposed ? 1 : 0;
      }
      b_.emit(i);
    }
    release(d);
    release(a);
  }

  // dst[0] = fold of src[0..count): pairwise folding with the matching binary operation down to one
  // repeat, then one lane reduction over what is left
  void laneReduction(const loop::Stmt& s, Opcode reduce) {
    const loop::Buffer& dst = k_.buffers[static_cast<size_t>(s.dst.buffer)];
    Address d = address(s.dst.buffer, s.dst.offset), from = address(s.srcs.at(0).buffer, s.srcs[0].offset);
    if (d.reg >= 0 || from.reg >= 0) fail("a lane reduction over a tile at a computed place is not emitted yet");
    Opcode combine = reduce == Opcode::VCAdd ? Opcode::VAdd : reduce == Opcode::VCMax ? Opcode::VMax : Opcode::VMin;
    int64_t n = foldRow(b_, combine, dst.dtype, from.ref.offset, d.ref.offset, constant(s.count, "a reduction's count"));
    b_.setCounterMode(false);
    auto [lo, hi] = firstLanesMask(n);
    b_.setMask(lo, hi);
    isa::Instruction i;
    i.op = reduce;
    i.type = dst.dtype;
    i.repeat = 1;
    i.dst = MemRef{Space::UB, 0, d.ref.offset};
    i.src0 = MemRef{Space::UB, 0, d.ref.offset};  // foldRow leaves the n lanes at dst
    i.src0Blk = 1;
    i.dstRep = 1;
    i.src0Rep = 8;
    b_.emit(i);
  }

  void vector(const loop::Stmt& s) {
    VectorOp op;
    if (!isa::parseMnemonic(s.op, op.op) || isa::opcodeInfo(op.op).pipeRule != isa::PipeRule::Fixed ||
        isa::opcodeInfo(op.op).pipe != isa::Pipe::V) {
      fail("unknown vector operation '" + s.op + "'");
    }
    if (op.op == Opcode::VCAdd || op.op == Opcode::VCMax || op.op == Opcode::VCMin) return laneReduction(s, op.op);
    const loop::Buffer& dst = k_.buffers[static_cast<size_t>(s.dst.buffer)];
    op.type = dst.dtype;
    if (op.op == Opcode::VConv) {
      op.type = k_.buffers[static_cast<size_t>(s.srcs.at(0).buffer)].dtype;
      op.type2 = dst.dtype;
      op.mode = static_cast<uint8_t>(isFloat(dst.dtype) ? RoundMode::Rint : RoundMode::Trunc);
    }
    std::vector<Address> held;
    held.push_back(address(s.dst.buffer, s.dst.offset));
    op.dst = held.back().ref;
    MemRef* srcs[] = {&op.src0, &op.src1, &op.src2};
    for (size_t i = 0; i < s.srcs.size() && i < 3; ++i) {
      held.push_back(address(s.srcs[i].buffer, s.srcs[i].offset));
      *srcs[i] = held.back().ref;
    }
    int scalarReg = -1;
    if (s.scalar) {
      if (s.scalar->op == Op::Float || s.scalar->op == Op::Int) {
        op.scalarIsImm = true;
        op.scalarBits = scalarBitsOf(s.scalar->op == Op::Int ? static_cast<double>(s.scalar->ival) : s.scalar->fval, op.type);
      } else if (s.scalar->op == Op::Load) {
        scalarReg = b_.allocReg();
        loadElement(scalarReg, *s.scalar);
        op.scalarReg = scalarReg;
      } else {
        fail("a vector scalar operand must be an immediate or one element");
      }
    }
    emitContiguous(b_, op, constant(s.count, "a vector statement's element count"));
    for (const auto& a : held) release(a);
    if (scalarReg >= 0) b_.freeReg(scalarReg);
  }

  const loop::Kernel& k_;
  SourceLocation where_;
  KernelBuilder b_;
  std::map<int, int> paramReg_;  // parameter buffer → argument register
  std::map<int, int> vars_;      // loop variable → register
  struct Known {
    Expr value;
    int reg, depth;
    uint64_t used;
  };
  static constexpr size_t kKnownValues = 14;
  static constexpr int kSpareRegisters = 10;  // left for evaluating expressions
  std::vector<Known> known_;  // index values kept in registers
  int depth_ = 0;             // loop bodies and branches entered
  uint64_t uses_ = 0;
  int blockDim_ = 1;
};

}  // namespace

KernelCode emitLoops(const loop::Kernel& k, int sourceLine, const SourceLocation& where) {
  return Emitter(k, sourceLine, where).run();
}

}  // namespace pyasc::codegen
