// Slot planning and vector emission of elementwise expressions over UB tiles.
#include "codegen/lower/TileExpressions.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <unordered_set>

#include "codegen/isel/DmaIsel.h"
#include "codegen/isel/VectorIsel.h"

namespace pyasc::codegen {

using isa::MemRef;
using isa::Opcode;
using isa::Pipe;
using isa::Space;
using te::Expr;
using te::ExprPtr;
using te::Prim;

namespace {

bool isScalarOperand(const Expr* e, const std::vector<ElementwiseInput>& inputs) {
  return e->prim == Prim::Const || (e->prim == Prim::Placeholder && inputs[e->index].scalar);
}


// Binary prims that have a tensor ⊕ scalar instruction, and that instruction.
Opcode scalarForm(Prim p) {
  switch (p) {
    case Prim::VAdd: return Opcode::VAdds;
    case Prim::VMul: return Opcode::VMuls;
    case Prim::VMax: return Opcode::VMaxs;
    case Prim::VMin: return Opcode::VMins;
    default: return Opcode::Count;
  }
}

bool isBinaryTensorPrim(Prim p) {
  return p == Prim::VAdd || p == Prim::VSub || p == Prim::VMul || p == Prim::VDiv || p == Prim::VMax ||
         p == Prim::VMin;
}

// A scalar operand needs a constant tile unless the node uses it through a scalar instruction.
bool needsTile(const Expr* node, size_t argIndex, const std::vector<ElementwiseInput>& inputs) {
  const Expr* a = node->args[argIndex].get();
  if (!isScalarOperand(a, inputs)) return false;
  if (isBinaryTensorPrim(node->prim)) {
    const Expr* other = node->args[1 - argIndex].get();
    if (isScalarOperand(other, inputs)) return argIndex == 0;  // both scalar: tile the first, scalar-op the second
    if (scalarForm(node->prim) != Opcode::Count) return false;
    if (node->prim == Prim::VSub) return false;  // x - s = vadds(-s); s - x = -(x - s)
    return true;                                  // vdiv
  }
  return true;  // unary, cast, compare, select on a scalar
}

// Every node after its arguments, the argument that needs the most live tiles first (Sethi–Ullman's
// labels, counting a shared node once per use): a long chain of small updates (a compensated sum)
// then runs one update at a time instead of computing all its terms first.
std::vector<const Expr*> neediestFirstOrder(const std::vector<ExprPtr>& roots) {
  std::unordered_map<const Expr*, int> need;
  std::function<int(const Expr*)> label = [&](const Expr* e) {
    if (auto it = need.find(e); it != need.end()) return it->second;
    std::vector<int> args;
    for (const auto& a : e->args) args.push_back(label(a.get()));
    std::sort(args.rbegin(), args.rend());
    int n = 1;
    for (size_t i = 0; i < args.size(); ++i) n = std::max(n, args[i] + static_cast<int>(i));
    return need[e] = n;
  };
  std::vector<const Expr*> order;
  std::unordered_set<const Expr*> seen;
  std::function<void(const Expr*)> visit = [&](const Expr* e) {
    if (!seen.insert(e).second) return;
    std::vector<const Expr*> args;
    for (const auto& a : e->args) args.push_back(a.get());
    std::stable_sort(args.begin(), args.end(), [&](const Expr* a, const Expr* b) { return label(a) > label(b); });
    for (const Expr* a : args) visit(a);
    order.push_back(e);
  };
  for (const auto& r : roots) visit(r.get());
  return order;
}

SlotPlan planSlotsInOrder(const std::vector<ElementwiseInput>& inputs, const std::vector<ExprPtr>& outputs,
                          const std::vector<const Expr*>& all) {
  SlotPlan plan;
  std::unordered_map<const Expr*, int> lastUse;
  for (size_t i = 0; i < all.size(); ++i) {
    for (const auto& a : all[i]->args) lastUse[a.get()] = static_cast<int>(i);
    plan.elemBytes = std::max(plan.elemBytes, dtypeSize(all[i]->dtype == DType::Bool ? DType::Float16 : all[i]->dtype));
  }
  std::unordered_set<const Expr*> isOutput;
  for (const auto& o : outputs) {
    isOutput.insert(o.get());
    lastUse[o.get()] = static_cast<int>(all.size());
  }
  std::vector<int> freeSlots;
  auto take = [&]() {
    if (!freeSlots.empty()) {
      int s = freeSlots.back();
      freeSlots.pop_back();
      return s;
    }
    return plan.slotsPerSet++;
  };
  for (const Expr* e : all) {
    if (e->prim != Prim::Placeholder || inputs[e->index].scalar) continue;
    if (inputs[e->index].period > 0) {
      plan.persistent[e] = plan.persistentSlots++;  // the row, repeated over a whole tile once
      continue;
    }
    plan.slot[e] = take();
    (inputs[e->index].stretch > 0 ? plan.fills : plan.loads).push_back(e);
  }
  for (size_t i = 0; i < all.size(); ++i) {
    const Expr* e = all[i];
    for (size_t a = 0; a < e->args.size(); ++a) {
      const Expr* arg = e->args[a].get();
      if (needsTile(e, a, inputs) && !plan.persistent.count(arg)) plan.persistent[arg] = plan.persistentSlots++;
    }
    if (e->prim == Prim::Placeholder || e->prim == Prim::Const) continue;
    // free arguments that die here before choosing the destination, so same-size results run in place
    // an argument of the same element size that dies here lends its slot (full overlap is
    // allowed); other dying arguments free theirs only after the result has a slot
    int reuse = -1;
    std::vector<int> dying;
    for (const auto& aPtr : e->args) {
      const Expr* a = aPtr.get();
      auto it = plan.slot.find(a);
      if (it == plan.slot.end() || lastUse[a] != static_cast<int>(i) || isOutput.count(a)) continue;
      if (reuse < 0 && dtypeSize(a->dtype) == dtypeSize(e->dtype) && a->dtype != DType::Bool && e->prim != Prim::VSel) {
        reuse = it->second;
      } else {
        dying.push_back(it->second);
      }
    }
    plan.slot[e] = reuse >= 0 ? reuse : take();
    for (int slot : dying)
      if (slot != plan.slot[e] && std::find(freeSlots.begin(), freeSlots.end(), slot) == freeSlots.end()) freeSlots.push_back(slot);
    plan.order.push_back(e);
  }
  // an output no vector operation computes (a scalar input or a constant, broadcast to the output's
  // shape) is stored from a constant tile
  for (const auto& o : outputs) {
    if (!plan.slot.count(o.get()) && !plan.persistent.count(o.get())) plan.persistent[o.get()] = plan.persistentSlots++;
  }
  return plan;
}

}  // namespace

// The slots of the operands' order (depth first), or, for a kernel of many tiles, of the
// neediest-first order when that needs fewer (larger tiles for the same UB).
SlotPlan planSlots(const std::vector<ElementwiseInput>& inputs, const std::vector<ExprPtr>& outputs) {
  constexpr int kFewTiles = 16;
  SlotPlan plan = planSlotsInOrder(inputs, outputs, te::topologicalOrder(outputs));
  if (plan.slotsPerSet + plan.persistentSlots <= kFewTiles) return plan;
  SlotPlan compact = planSlotsInOrder(inputs, outputs, neediestFirstOrder(outputs));
  auto tiles = [](const SlotPlan& p) { return p.slotsPerSet + p.persistentSlots; };
  return tiles(compact) < tiles(plan) ? compact : plan;
}

// `op` over the tile's elements: `count`, or the run-time count in countReg.
void TileEmitter::contiguous(const VectorOp& op, int64_t count) const {
  if (countReg >= 0) {
    emitContiguousCounted(b, op, countReg);
  } else {
    emitContiguous(b, op, count);
  }
}

MemRef TileEmitter::slotRef(const Expr* e) const {
  MemRef r;
  r.space = Space::UB;
  auto p = plan.persistent.find(e);
  if (p != plan.persistent.end() && !plan.slot.count(e)) {
    r.offset = persistentBase + p->second * slotBytes;
  } else {
    r.offset = setBase + plan.slot.at(e) * slotBytes;
  }
  return r;
}

MemRef TileEmitter::operandRef(const Expr* node, size_t argIndex) const {
  const Expr* a = node->args[argIndex].get();
  if (needsTile(node, argIndex, inputs)) {
    MemRef r;
    r.space = Space::UB;
    r.offset = persistentBase + plan.persistent.at(a) * slotBytes;
    return r;
  }
  return slotRef(a);
}

void TileEmitter::setScalar(VectorOp& op, const Expr* s, bool negate) const {
  if (s->prim == Prim::Const) {
    op.scalarIsImm = true;
    op.scalarBits = scalarBitsOf(negate ? -s->value : s->value, op.type);
    return;
  }
  int reg = scalarRegs.at(s);
  if (!negate) {
    op.scalarReg = reg;
    return;
  }
  int neg = b.allocReg();
  if (isFloat(op.type)) {
    b.aluImm(Opcode::Xor, neg, reg, op.type == DType::Float16 ? 0x8000 : 0x80000000ll);
  } else {
    b.alu(Opcode::Sub, neg, 0, reg);
    b.aluImm(Opcode::And, neg, neg, 0xffffffffll);
  }
  op.scalarReg = neg;
  scratch.push_back(neg);
}


void TileEmitter::releaseScratch() const {
  for (int r : scratch) b.freeReg(r);
  scratch.clear();
}

// Column input `e` over a tile of `count` elements: each of its elements, read from GM at the
// cursor in `cursorReg` by the scalar unit, duplicated over its row of the slot by the vector unit.
void TileEmitter::fillColumn(const Expr* e, int cursorReg, int64_t rows, int64_t span, int64_t pitch) const {
  const int64_t es = dtypeSize(e->dtype);
  int gm = b.allocReg(), row = b.allocReg(), end = b.allocReg(), value = b.allocReg();
  int loop = b.newLabel(), done = b.newLabel();
  b.aluImm(Opcode::Add, gm, cursorReg, 0);
  b.aluImm(Opcode::Add, end, cursorReg, rows * es);
  b.li(row, 0);
  b.bind(loop);
  b.branch(Opcode::Bge, gm, end, done);
  isa::Instruction ld;
  ld.op = Opcode::Ld;
  ld.type = e->dtype;
  ld.rd = static_cast<uint8_t>(value);
  ld.src0 = MemRef{Space::GM, static_cast<uint8_t>(gm), 0};
  b.emit(ld);
  VectorOp dup;
  dup.op = Opcode::VDup;
  dup.type = e->dtype;
  dup.dst = MemRef{Space::UB, static_cast<uint8_t>(row), slotRef(e).offset};
  dup.scalarReg = value;
  emitContiguous(b, dup, span);
  b.aluImm(Opcode::Add, gm, gm, es);
  b.aluImm(Opcode::Add, row, row, pitch * es);
  b.jump(loop);
  b.bind(done);
  for (int r : {gm, row, end, value}) b.freeReg(r);
}

void TileEmitter::emitNode(const Expr* e, int64_t count) const {
  VectorOp op;
  op.type = e->args.empty() ? e->dtype : e->args[0]->dtype;
  op.dst = slotRef(e);
  switch (e->prim) {
    case Prim::VAdd: case Prim::VSub: case Prim::VMul: case Prim::VDiv: case Prim::VMax: case Prim::VMin: {
      bool s0 = isScalarOperand(e->args[0].get(), inputs) && !needsTile(e, 0, inputs);
      bool s1 = isScalarOperand(e->args[1].get(), inputs) && !needsTile(e, 1, inputs);
      if (s0 || s1) {
        size_t tensorArg = s1 ? 0 : 1;
        const Expr* scalar = e->args[1 - tensorArg].get();
        op.src0 = operandRef(e, tensorArg);
        if (e->prim == Prim::VSub) {
          op.op = Opcode::VAdds;
          setScalar(op, scalar, true);
          contiguous(op, count);
          if (tensorArg == 1) {  // s - x = -(x - s), exact
            VectorOp negate = op;
            negate.op = Opcode::VMuls;
            negate.src0 = op.dst;
            negate.scalarReg = 0;
            negate.scalarIsImm = true;
            negate.scalarBits = scalarBitsOf(-1.0, op.type);
            contiguous(negate, count);
          }
        } else {
          op.op = scalarForm(e->prim);
          setScalar(op, scalar, false);
          contiguous(op, count);
        }
        break;
      }
      static const std::map<Prim, Opcode> ops = {{Prim::VAdd, Opcode::VAdd}, {Prim::VSub, Opcode::VSub},
                                                 {Prim::VMul, Opcode::VMul}, {Prim::VDiv, Opcode::VDiv},
                                                 {Prim::VMax, Opcode::VMax}, {Prim::VMin, Opcode::VMin}};
      op.op = ops.at(e->prim);
      op.src0 = operandRef(e, 0);
      op.src1 = operandRef(e, 1);
      contiguous(op, count);
      break;
    }
    case Prim::VAdds: case Prim::VMuls: case Prim::VMaxs: case Prim::VMins: case Prim::VLRelu: {
      static const std::map<Prim, Opcode> ops = {{Prim::VAdds, Opcode::VAdds}, {Prim::VMuls, Opcode::VMuls},
                                                 {Prim::VMaxs, Opcode::VMaxs}, {Prim::VMins, Opcode::VMins},
                                                 {Prim::VLRelu, Opcode::VLRelu}};
      op.op = ops.at(e->prim);
      op.src0 = operandRef(e, 0);
      op.scalarIsImm = true;
      op.scalarBits = scalarBitsOf(e->value, op.type);
      contiguous(op, count);
      break;
    }
    case Prim::VExp: case Prim::VLog: case Prim::VAbs: case Prim::VRec: case Prim::VSqrt: case Prim::VRsqrt:
    case Prim::VRelu: {
      static const std::map<Prim, Opcode> ops = {{Prim::VExp, Opcode::VExp}, {Prim::VLog, Opcode::VLn},
                                                 {Prim::VAbs, Opcode::VAbs}, {Prim::VRec, Opcode::VRec},
                                                 {Prim::VSqrt, Opcode::VSqrt}, {Prim::VRsqrt, Opcode::VRsqrt},
                                                 {Prim::VRelu, Opcode::VRelu}};
      op.op = ops.at(e->prim);
      op.src0 = operandRef(e, 0);
      contiguous(op, count);
      break;
    }
    case Prim::Cast: {
      if (e->args[0]->dtype == e->dtype) {
        op.op = Opcode::VMov;
      } else {
        op.op = Opcode::VConv;
        op.type2 = e->dtype;
        op.mode = static_cast<uint8_t>(e->round);
      }
      op.src0 = operandRef(e, 0);
      contiguous(op, count);
      break;
    }
    case Prim::VCmp: {
      op.op = Opcode::VCmp;
      op.mode = static_cast<uint8_t>(e->cmp);
      op.src0 = operandRef(e, 0);
      op.src1 = operandRef(e, 1);
      contiguous(op, count);
      break;
    }
    case Prim::VSel: {
      op.op = Opcode::VSel;
      op.type = e->dtype;
      op.src2 = operandRef(e, 0);
      op.src0 = operandRef(e, 1);
      op.src1 = operandRef(e, 2);
      contiguous(op, count);
      break;
    }
    default:
      throw std::logic_error(std::string("elementwise lowering: unexpected ") + te::primName(e->prim));
  }
  releaseScratch();
}

void fillRepeatedRows(KernelBuilder& b, const std::vector<RepeatedRow>& rows, int64_t tileBytes) {
  if (rows.empty()) return;
  for (const auto& r : rows)
    emitCopyRows(b, Opcode::CopyGmToUb, r.dst, MemRef{Space::GM, static_cast<uint8_t>(r.argReg), 0}, 1, r.loadBytes);
  b.setFlag(Pipe::MTE2, Pipe::S, 0);
  b.waitFlag(Pipe::MTE2, Pipe::S, 0);
  for (const auto& r : rows) {
    for (int64_t filled = r.pitchBytes; filled < tileBytes;) {
      int64_t n = std::min(filled, tileBytes - filled);
      emitCopyRows(b, Opcode::CopyUbToUb, MemRef{Space::UB, 0, r.dst.offset + filled}, r.dst, 1, n);
      b.barrier(Pipe::V);
      filled += n;
    }
  }
}

std::vector<int> inputArgRegs(const std::vector<ElementwiseInput>& inputs, int firstByValue) {
  std::vector<int> regs;
  for (size_t i = 0, g = 0, v = 0; i < inputs.size(); ++i)
    regs.push_back(KernelBuilder::argReg(static_cast<int>(inputs[i].inRegister ? firstByValue + v++ : g++)));
  return regs;
}

int gmInputCount(const std::vector<ElementwiseInput>& inputs) {
  return static_cast<int>(std::count_if(inputs.begin(), inputs.end(), [](const ElementwiseInput& in) { return !in.inRegister; }));
}

std::map<const Expr*, int> loadScalars(KernelBuilder& b, const std::vector<ElementwiseInput>& inputs,
                                       const std::vector<ExprPtr>& outputs, const std::vector<int>& inputReg) {
  std::map<const Expr*, int> regs;
  for (const Expr* e : te::topologicalOrder(outputs)) {
    if (e->prim != Prim::Placeholder || !inputs[e->index].scalar) continue;
    if (inputs[e->index].inRegister) {
      regs[e] = inputReg[static_cast<size_t>(e->index)];
      continue;
    }
    int r = b.allocReg();
    isa::Instruction ld;
    ld.op = Opcode::Ld;
    ld.type = e->dtype;
    ld.rd = static_cast<uint8_t>(r);
    ld.src0 = MemRef{Space::GM, static_cast<uint8_t>(inputReg[static_cast<size_t>(e->index)]), 0};
    b.emit(ld);
    regs[e] = r;
  }
  return regs;
}

void fillConstantTiles(KernelBuilder& b, const std::vector<ElementwiseInput>& inputs, const SlotPlan& plan,
                       const std::map<const Expr*, int>& scalarRegs, const std::vector<int>& inputReg, int64_t base,
                       int64_t slotBytes, int64_t elems, int64_t rowTileBytes, int64_t rowPitchBytes) {
  std::vector<RepeatedRow> rows;
  std::vector<const Expr*> tiles(static_cast<size_t>(plan.persistentSlots));  // by tile, not by address
  for (const auto& [e, index] : plan.persistent) tiles[static_cast<size_t>(index)] = e;
  for (int64_t index = 0; index < static_cast<int64_t>(tiles.size()); ++index) {
    const Expr* e = tiles[static_cast<size_t>(index)];
    const MemRef dst{Space::UB, 0, base + index * slotBytes};
    if (e->prim == Prim::Placeholder && inputs[e->index].period > 0) {
      const int64_t rowBytes = inputs[e->index].period * dtypeSize(e->dtype);
      rows.push_back({dst, inputReg[static_cast<size_t>(e->index)], rowBytes, rowPitchBytes ? rowPitchBytes : rowBytes});
      continue;
    }
    VectorOp dup;
    dup.op = Opcode::VDup;
    dup.type = e->dtype;
    dup.dst = dst;
    if (e->prim == Prim::Const) {
      dup.scalarIsImm = true;
      dup.scalarBits = scalarBitsOf(e->value, e->dtype);
    } else {
      dup.scalarReg = scalarRegs.at(e);
    }
    emitContiguous(b, dup, elems);
  }
  fillRepeatedRows(b, rows, rowTileBytes);
}

}  // namespace pyasc::codegen
