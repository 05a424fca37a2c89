// Elementwise lowering: slot allocation with liveness, per-core tile ranges, ping-pong buffers
// synchronised MTE2→V→MTE3→MTE2, and a static tail tile on the last core.
#include "codegen/lower/ElementwiseKernel.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "codegen/isel/DmaIsel.h"
#include "codegen/isel/VectorIsel.h"
#include "codegen/lower/ScheduleCheck.h"
#include "codegen/lower/TilePipeline.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

using isa::MemRef;
using isa::Opcode;
using isa::Pipe;
using isa::Space;
using te::Expr;
using te::ExprPtr;
using te::Prim;

std::string ElementwiseSchedule::str() const {
  std::ostringstream os;
  os << "tile=" << tileElems << " block_dim=" << blockDim << " buffer_sets=" << bufferSets
     << " slots=" << slotsPerSet << "+" << persistentSlots << " slot_bytes=" << slotBytes;
  return os.str();
}

namespace {

bool isScalarOperand(const Expr* e, const ElementwiseCompute& c) {
  return e->prim == Prim::Const || (e->prim == Prim::Placeholder && c.inputs[e->index].scalar);
}

// How each expression node is realised inside a tile.
struct SlotPlan {
  std::unordered_map<const Expr*, int> slot;        // node -> ping-pong slot
  std::unordered_map<const Expr*, int> persistent;  // scalar node -> constant tile (vdup'd once)
  std::vector<const Expr*> order;         // compute nodes in emission order
  std::vector<const Expr*> loads;         // vector placeholders, loaded each tile
  std::vector<const Expr*> fills;         // column placeholders, stretched into their slot each tile
  int slotsPerSet = 0;
  int persistentSlots = 0;
  int elemBytes = 2;
};

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
bool needsTile(const Expr* node, size_t argIndex, const ElementwiseCompute& c) {
  const Expr* a = node->args[argIndex].get();
  if (!isScalarOperand(a, c)) return false;
  if (isBinaryTensorPrim(node->prim)) {
    const Expr* other = node->args[1 - argIndex].get();
    if (isScalarOperand(other, c)) return argIndex == 0;  // both scalar: tile the first, scalar-op the second
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

SlotPlan planSlotsInOrder(const ElementwiseCompute& c, const std::vector<const Expr*>& all) {
  SlotPlan plan;
  std::unordered_map<const Expr*, int> lastUse;
  for (size_t i = 0; i < all.size(); ++i) {
    for (const auto& a : all[i]->args) lastUse[a.get()] = static_cast<int>(i);
    plan.elemBytes = std::max(plan.elemBytes, dtypeSize(all[i]->dtype == DType::Bool ? DType::Float16 : all[i]->dtype));
  }
  std::unordered_set<const Expr*> isOutput;
  for (const auto& o : c.outputs) {
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
    if (e->prim != Prim::Placeholder || c.inputs[e->index].scalar) continue;
    if (c.inputs[e->index].period > 0) {
      plan.persistent[e] = plan.persistentSlots++;  // the row, repeated over a whole tile once
      continue;
    }
    plan.slot[e] = take();
    (c.inputs[e->index].stretch > 0 ? plan.fills : plan.loads).push_back(e);
  }
  for (size_t i = 0; i < all.size(); ++i) {
    const Expr* e = all[i];
    for (size_t a = 0; a < e->args.size(); ++a) {
      const Expr* arg = e->args[a].get();
      if (needsTile(e, a, c) && !plan.persistent.count(arg)) plan.persistent[arg] = plan.persistentSlots++;
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
  for (const auto& o : c.outputs) {
    if (!plan.slot.count(o.get()) && !plan.persistent.count(o.get())) plan.persistent[o.get()] = plan.persistentSlots++;
  }
  return plan;
}

// The slots of the operands' order (depth first), or, for a kernel of many tiles, of the
// neediest-first order when that needs fewer (larger tiles for the same UB).
SlotPlan planSlots(const ElementwiseCompute& c) {
  constexpr int kFewTiles = 16;
  SlotPlan plan = planSlotsInOrder(c, te::topologicalOrder(c.outputs));
  if (plan.slotsPerSet + plan.persistentSlots <= kFewTiles) return plan;
  SlotPlan compact = planSlotsInOrder(c, neediestFirstOrder(c.outputs));
  auto tiles = [](const SlotPlan& p) { return p.slotsPerSet + p.persistentSlots; };
  return tiles(compact) < tiles(plan) ? compact : plan;
}

// Emits the vector instructions of one node over `count` elements of the current set.
struct TileEmitter {
  KernelBuilder& b;
  const ElementwiseCompute& c;
  const SlotPlan& plan;
  const std::map<const Expr*, int>& scalarRegs;  // scalar placeholders -> register with bits
  int64_t setBase = 0;
  int64_t slotBytes = 0;
  int64_t persistentBase = 0;
  int countReg = -1;  // dynamic shapes: a register holding the tile's element count, else `count` counts

  // `op` over the tile's elements: `count`, or the run-time count in countReg.
  void contiguous(const VectorOp& op, int64_t count) const {
    if (countReg >= 0) {
      emitContiguousCounted(b, op, countReg);
    } else {
      emitContiguous(b, op, count);
    }
  }

  MemRef slotRef(const Expr* e) const {
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

  MemRef operandRef(const Expr* node, size_t argIndex) const {
    const Expr* a = node->args[argIndex].get();
    if (needsTile(node, argIndex, c)) {
      MemRef r;
      r.space = Space::UB;
      r.offset = persistentBase + plan.persistent.at(a) * slotBytes;
      return r;
    }
    return slotRef(a);
  }

  void setScalar(VectorOp& op, const Expr* s, bool negate) const {
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

  mutable std::vector<int> scratch;

  void releaseScratch() const {
    for (int r : scratch) b.freeReg(r);
    scratch.clear();
  }

  // Column input `e` over a tile of `count` elements: each of its elements, read from GM at the
  // cursor in `cursorReg` by the scalar unit, duplicated over its row of the slot by the vector unit.
  void fillColumn(const Expr* e, int cursorReg, int64_t count) const {
    const int64_t stretch = c.inputs[e->index].stretch, es = dtypeSize(e->dtype);
    int gm = b.allocReg(), row = b.allocReg(), end = b.allocReg(), value = b.allocReg();
    int loop = b.newLabel(), done = b.newLabel();
    b.aluImm(Opcode::Add, gm, cursorReg, 0);
    b.aluImm(Opcode::Add, end, cursorReg, count / stretch * es);
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
    emitContiguous(b, dup, stretch);
    b.aluImm(Opcode::Add, gm, gm, es);
    b.aluImm(Opcode::Add, row, row, stretch * es);
    b.jump(loop);
    b.bind(done);
    for (int r : {gm, row, end, value}) b.freeReg(r);
  }

  void emitNode(const Expr* e, int64_t count) const {
    VectorOp op;
    op.type = e->args.empty() ? e->dtype : e->args[0]->dtype;
    op.dst = slotRef(e);
    switch (e->prim) {
      case Prim::VAdd: case Prim::VSub: case Prim::VMul: case Prim::VDiv: case Prim::VMax: case Prim::VMin: {
        bool s0 = isScalarOperand(e->args[0].get(), c) && !needsTile(e, 0, c);
        bool s1 = isScalarOperand(e->args[1].get(), c) && !needsTile(e, 1, c);
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
};

}  // namespace

namespace {

constexpr int64_t kGranule = 256;  // elements: whole repeats for every type, 32-byte aligned bit masks
constexpr int kMaxSets = 8;        // event ids per flag pair
constexpr int64_t kMaxRowGranule = 4096;  // elements: the largest tile granule a row broadcast may force

// Tiles are multiples of 256 elements and of every broadcast row, so each tile starts a row.
int64_t granuleOf(const ElementwiseCompute& c) {
  int64_t g = kGranule;
  for (const auto& in : c.inputs) {
    if (in.period > 0) g = std::lcm(g, in.period);
    if (in.stretch > 0) g = std::lcm(g, in.stretch);
  }
  return g;
}

// Elements of the largest tile whose `sets` buffer sets (and the constant tiles) fit UB.
int64_t maxTileWith(const SlotPlan& plan, const Target& target, int sets, int64_t granule) {
  int64_t slots = sets * std::max(1, plan.slotsPerSet) + plan.persistentSlots;
  return target.buffer(Space::UB).size / (slots * plan.elemBytes) / granule * granule;
}

}  // namespace

bool rowBroadcastFits(int64_t period, DType dtype) {
  return period > 1 && (period * dtypeSize(dtype)) % isa::kBlockBytes == 0 && std::lcm(kGranule, period) <= kMaxRowGranule;
}

bool columnBroadcastFits(int64_t stretch, DType dtype) {
  return stretch * dtypeSize(dtype) >= isa::kRepeatBytes && rowBroadcastFits(stretch, dtype);
}

bool granuleFitsUb(const ElementwiseCompute& c, const Target& target) {
  const int64_t granule = granuleOf(c);
  return maxTileWith(planSlots(c), target, 1, granule) >= granule;
}

ElementwiseSchedule elementwiseSchedule(const ElementwiseCompute& c, const Target& target, int64_t tileElems, int sets,
                                        int blockDim, int maxCores, const SourceLocation& where) {
  SlotPlan plan = planSlots(c);
  auto fail = [&](const std::string& message) {
    scheduleError("elementwise kernel '" + c.name + "'", c.sourceLine, where, message);
  };
  int64_t granule = granuleOf(c);
  if (tileElems < granule || tileElems % granule) {
    fail("a tile of " + std::to_string(tileElems) + " elements is not a positive multiple of " +
                                std::to_string(granule));
  }
  if (sets < 1 || sets > kMaxSets) {
    fail(std::to_string(sets) + " buffer sets: 1 to " + std::to_string(kMaxSets) + " are possible");
  }
  int64_t slots = sets * std::max(1, plan.slotsPerSet) + plan.persistentSlots;
  int64_t ub = target.buffer(Space::UB).size;
  if (maxTileWith(plan, target, sets, granule) < tileElems) {
    fail(std::to_string(slots) + " UB tiles of " + std::to_string(tileElems * plan.elemBytes) +
                                " bytes need " + std::to_string(slots * tileElems * plan.elemBytes) + " bytes, but UB holds " +
                                std::to_string(ub) + " bytes");
  }
  int64_t fullTiles = c.count / tileElems;
  if (std::string coreProblem = coreCountProblem(blockDim, fullTiles, maxCores, "full tiles"); !coreProblem.empty()) fail(coreProblem);
  ElementwiseSchedule s;
  s.slotsPerSet = std::max(1, plan.slotsPerSet);
  s.persistentSlots = plan.persistentSlots;
  s.tileElems = tileElems;
  s.bufferSets = sets;
  s.blockDim = blockDim;
  s.slotBytes = tileElems * plan.elemBytes;
  return s;
}

namespace {

// Cycles the vector pipe holds for one tile of `elems` elements: the tile's instructions, emitted
// into a scratch kernel, timed as the simulator times them; a column's fill loop runs once a row.
double vectorCyclesPerTile(const ElementwiseCompute& c, const SlotPlan& plan, const Target& target, int64_t elems) {
  auto vectorCycles = [&](KernelBuilder& scratch) {
    double cycles = 0;
    for (const isa::Instruction& inst : scratch.finish(1).program)
      if (isa::issuePipe(inst) == Pipe::V) cycles += vectorInstructionCycles(target, inst.repeat, isa::vectorCost(inst.op));
    return cycles;
  };
  const int args = static_cast<int>(c.inputs.size() + c.outputs.size());
  KernelBuilder scratch(c.name, args);
  std::map<const Expr*, int> scalarRegs;
  for (const Expr* e : te::topologicalOrder(c.outputs))
    if (e->prim == Prim::Placeholder && c.inputs[e->index].scalar) scalarRegs[e] = scratch.allocReg();
  int64_t slotBytes = elems * plan.elemBytes;
  TileEmitter tile{scratch, c, plan, scalarRegs, 0, slotBytes, std::max(1, plan.slotsPerSet) * slotBytes};
  for (const Expr* e : plan.order) tile.emitNode(e, elems);
  double cycles = vectorCycles(scratch);
  for (const Expr* e : plan.fills) {
    KernelBuilder row(c.name, args);
    TileEmitter{row, c, plan, scalarRegs, 0, slotBytes, 0, {}}.fillColumn(e, KernelBuilder::argReg(0), c.inputs[e->index].stretch);
    cycles += vectorCycles(row) * static_cast<double>(elems / c.inputs[e->index].stretch);
  }
  return cycles;
}

// Estimated cycles of the kernel with tiles of `tile` elements in `sets` rotating buffer sets. A
// core's tiles stream at the pace of the busiest of MTE2, V and MTE3, of its share of the device
// memory for the tile's reads and writes together, or, when the sets are reused
// and too few, of a set's round trip (load latency and transfer, compute, store transfer and
// latency) over the sets; the first tile's round trip is exposed.
double estimatedCycles(const ElementwiseCompute& c, const SlotPlan& plan, const Target& target, int64_t tile, int sets,
                       int blockDim, double vector) {
  int64_t loadBytes = 0, storeBytes = 0;
  for (const Expr* e : plan.loads) loadBytes += tile * dtypeSize(e->dtype);
  for (const auto& o : c.outputs) storeBytes += tile * dtypeSize(o->dtype);
  double load = static_cast<double>(plan.loads.size()) * target.dmaOverhead +
                static_cast<double>(loadBytes) / coreBandwidth(target, DmaPath::GmToUb, blockDim);
  double store = static_cast<double>(c.outputs.size()) * target.dmaOverhead +
                 static_cast<double>(storeBytes) / coreBandwidth(target, DmaPath::UbToGm, blockDim);
  // a set's round trip passes three flags: loaded, computed, stored (free to load again)
  double roundTrip = target.dmaLatency[static_cast<int>(DmaPath::GmToUb)] + load + vector + store +
                     target.dmaLatency[static_cast<int>(DmaPath::UbToGm)] + 3.0 * target.flagLatency;
  int64_t tiles = (c.count + tile * blockDim - 1) / (tile * blockDim);
  double shared = gmStreamCycles(target, static_cast<double>(loadBytes), static_cast<double>(storeBytes), blockDim);
  double pace = std::max({load, vector, store, shared, tiles > sets ? roundTrip / sets : 0.0});
  return static_cast<double>(tiles - 1) * pace + roundTrip;
}

}  // namespace

ElementwiseSchedule scheduleElementwise(const ElementwiseCompute& c, const Target& target, bool doubleBuffer,
                                        int maxCores) {
  SlotPlan plan = planSlots(c);
  int64_t granule = granuleOf(c);
  // Candidates: every buffer-set count UB allows, with tiles of granule × 2^k and the tiles that give
  // each core 1 to 16 whole tiles; the one of fewest estimated cycles wins. Estimates within
  // kEstimateTie of each other are a tie (the estimate is not that exact), won by larger tiles: fewer
  // instructions, longer copies.
  constexpr double kEstimateTie = 0.005;
  std::vector<int> setChoices = doubleBuffer ? std::vector<int>{kMaxSets, 4, 2, 1} : std::vector<int>{1};
  ElementwiseSchedule best;
  double bestCycles = -1;
  std::map<int64_t, double> vectorCycles;  // per tile size
  for (int sets : setChoices) {
    int64_t maxTile = maxTileWith(plan, target, sets, granule);
    if (maxTile < granule) continue;
    std::vector<int64_t> tiles{maxTile};
    for (int64_t t = granule; t < maxTile; t *= 2) tiles.push_back(t);
    for (int64_t perCore = 1; perCore <= 16; ++perCore) {
      int64_t share = (c.count + maxCores * perCore - 1) / (maxCores * perCore);
      tiles.push_back(std::min(maxTile, std::max<int64_t>(granule, (share + granule - 1) / granule * granule)));
    }
    std::sort(tiles.rbegin(), tiles.rend());
    tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
    for (int64_t tile : tiles) {
      int blockDim = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(maxCores, c.count / tile)));
      auto [vector, fresh] = vectorCycles.try_emplace(tile, 0.0);
      if (fresh) vector->second = vectorCyclesPerTile(c, plan, target, tile);
      double cycles = estimatedCycles(c, plan, target, tile, sets, blockDim, vector->second);
      if (bestCycles >= 0 && cycles >= bestCycles * (1 - kEstimateTie)) continue;
      bestCycles = cycles;
      // no more sets than a core has tiles (each set is unrolled once in the tile loop)
      int64_t tilesPerCore = (c.count / tile + blockDim - 1) / blockDim;
      int used = sets > 2 ? static_cast<int>(std::max<int64_t>(2, std::min<int64_t>(sets, tilesPerCore))) : sets;
      best = elementwiseSchedule(c, target, tile, used, blockDim, maxCores, SourceLocation{});
    }
  }
  if (bestCycles < 0) {  // not even one granule fits: report it through the checks
    return elementwiseSchedule(c, target, granule, doubleBuffer ? 2 : 1, 1, maxCores, SourceLocation{});
  }
  return best;
}

namespace {

// A broadcast row in GM and the UB tile it is repeated over.
struct RepeatedRow {
  MemRef dst;
  int argReg;
  int64_t rowBytes;
};

// Each row loaded from GM once, then copied on V, doubling the filled part, over `tileBytes`. The
// scalar unit waits for the loads (MTE2→S, leaving the MTE2→V events to the tile loop) before it
// issues the copies, and V for each copy, so the tile loop's vector instructions, queued behind,
// see whole tiles.
void fillRepeatedRows(KernelBuilder& b, const std::vector<RepeatedRow>& rows, int64_t tileBytes) {
  if (rows.empty()) return;
  for (const auto& r : rows)
    emitCopyRows(b, Opcode::CopyGmToUb, r.dst, MemRef{Space::GM, static_cast<uint8_t>(r.argReg), 0}, 1, r.rowBytes);
  b.setFlag(Pipe::MTE2, Pipe::S, 0);
  b.waitFlag(Pipe::MTE2, Pipe::S, 0);
  for (const auto& r : rows) {
    for (int64_t filled = r.rowBytes; filled < tileBytes;) {
      int64_t n = std::min(filled, tileBytes - filled);
      emitCopyRows(b, Opcode::CopyUbToUb, MemRef{Space::UB, 0, r.dst.offset + filled}, r.dst, 1, n);
      b.barrier(Pipe::V);
      filled += n;
    }
  }
}

}  // namespace

KernelCode lowerElementwise(const ElementwiseCompute& c, const ElementwiseSchedule& s, const Target& target) {
  SlotPlan plan = planSlots(c);
  int numIn = static_cast<int>(c.inputs.size());
  int numOut = static_cast<int>(c.outputs.size());
  // argument registers: GM inputs, outputs, then by-value scalars
  std::vector<int> inputReg(static_cast<size_t>(numIn));
  int gmInputs = 0, byValue = 0;
  for (const auto& in : c.inputs) (in.inRegister ? byValue : gmInputs) += 1;
  for (int i = 0, g = 0, v = 0; i < numIn; ++i)
    inputReg[static_cast<size_t>(i)] = KernelBuilder::argReg(c.inputs[i].inRegister ? gmInputs + numOut + v++ : g++);
  auto outputReg = [&](int o) { return KernelBuilder::argReg(gmInputs + o); };
  KernelBuilder b(c.name, gmInputs + numOut + byValue + (c.dynamicCount ? 1 : 0));
  const int countArg = c.dynamicCount ? KernelBuilder::argReg(gmInputs + numOut + byValue) : -1;
  b.setSourceLine(c.sourceLine);
  int sets = s.bufferSets;
  int64_t setBytes = s.slotsPerSet * s.slotBytes;
  int64_t persistentBase = sets * setBytes;
  b.noteBufferBytes(Space::UB, persistentBase + s.persistentSlots * s.slotBytes);

  // scalar inputs: load their bits once
  std::map<const Expr*, int> scalarRegs;
  for (const Expr* e : te::topologicalOrder(c.outputs)) {
    if (e->prim != Prim::Placeholder || !c.inputs[e->index].scalar) continue;
    if (c.inputs[e->index].inRegister) {
      scalarRegs[e] = inputReg[static_cast<size_t>(e->index)];
      continue;
    }
    int r = b.allocReg();
    isa::Instruction ld;
    ld.op = Opcode::Ld;
    ld.type = e->dtype;
    ld.rd = static_cast<uint8_t>(r);
    ld.src0 = MemRef{Space::GM, static_cast<uint8_t>(inputReg[static_cast<size_t>(e->index)]), 0};
    b.emit(ld);
    scalarRegs[e] = r;
  }
  TileEmitter tile{b, c, plan, scalarRegs, 0, s.slotBytes, persistentBase};
  // constant tiles
  std::vector<RepeatedRow> rows;
  std::vector<const Expr*> tiles(static_cast<size_t>(plan.persistentSlots));  // by tile, not by address
  for (const auto& [e, index] : plan.persistent) tiles[static_cast<size_t>(index)] = e;
  for (int64_t index = 0; index < static_cast<int64_t>(tiles.size()); ++index) {
    const Expr* e = tiles[static_cast<size_t>(index)];
    if (e->prim == Prim::Placeholder && c.inputs[e->index].period > 0) {
      rows.push_back({MemRef{Space::UB, 0, persistentBase + index * s.slotBytes}, inputReg[static_cast<size_t>(e->index)],
                      c.inputs[e->index].period * dtypeSize(e->dtype)});
      continue;
    }
    VectorOp dup;
    dup.op = Opcode::VDup;
    dup.type = e->dtype;
    dup.dst = MemRef{Space::UB, 0, persistentBase + index * s.slotBytes};
    if (e->prim == Prim::Const) {
      dup.scalarIsImm = true;
      dup.scalarBits = scalarBitsOf(e->value, e->dtype);
    } else {
      dup.scalarReg = scalarRegs.at(e);
    }
    emitContiguous(b, dup, s.tileElems);
  }
  fillRepeatedRows(b, rows, s.slotBytes);

  auto argBytes = [&](int arg, int64_t elems) {
    DType t = arg < numIn ? c.inputs[arg].dtype : c.outputs[arg - numIn]->dtype;
    return elems * dtypeSize(t);
  };
  int64_t tailElems = c.count % s.tileElems;
  auto count = [&](bool tail) { return tail ? tailElems : s.tileElems; };
  TilePipeline p;
  p.fullTiles = c.count / s.tileElems;
  p.hasTail = tailElems > 0;
  if (c.dynamicCount) {  // full tiles and the tail's elements from the count argument
    p.fullTilesReg = b.allocReg();
    p.tailReg = b.allocReg();
    b.aluImm(Opcode::Div, p.fullTilesReg, countArg, s.tileElems);
    b.aluImm(Opcode::Mul, p.tailReg, p.fullTilesReg, s.tileElems);
    b.alu(Opcode::Sub, p.tailReg, countArg, p.tailReg);
  }
  p.sets = sets;
  p.blockDim = s.blockDim;
  p.interleaved = true;
  // a copy of the tile's elements of argument `arg`: a dynamic tail's byte count is computed here
  auto copy = [&](Opcode op, MemRef dst, MemRef src, int arg, bool tail) {
    if (!tail || p.tailReg < 0) {
      emitCopyRows(b, op, dst, src, 1, argBytes(arg, count(tail)));
      return;
    }
    int bytes = b.allocReg();
    b.aluImm(Opcode::Mul, bytes, p.tailReg, argBytes(arg, 1));
    emitCopyBytes(b, op, dst, src, bytes);
    b.freeReg(bytes);
  };
  p.load = [&](int set, bool tail, int ahead) {
    tile.setBase = set * setBytes;
    for (const Expr* e : plan.loads) {
      MemRef gm{Space::GM, static_cast<uint8_t>(inputReg[static_cast<size_t>(e->index)]),
                ahead * coreStride(p) * argBytes(e->index, s.tileElems)};
      copy(Opcode::CopyGmToUb, tile.slotRef(e), gm, e->index, tail);
    }
  };
  p.compute = [&](int set, bool tail) {
    tile.setBase = set * setBytes;
    tile.countReg = tail ? p.tailReg : -1;
    for (const Expr* e : plan.fills) tile.fillColumn(e, inputReg[static_cast<size_t>(e->index)], count(tail));
    for (const Expr* e : plan.order) tile.emitNode(e, count(tail));
    tile.countReg = -1;
  };
  p.store = [&](int set, bool tail) {
    tile.setBase = set * setBytes;
    for (int o = 0; o < numOut; ++o) {
      MemRef gm{Space::GM, static_cast<uint8_t>(outputReg(o)), 0};
      copy(Opcode::CopyUbToGm, gm, tile.slotRef(c.outputs[o].get()), numIn + o, tail);
    }
  };
  p.advance = [&](int64_t tiles, int countReg) {
    for (int a = 0; a < numIn + numOut; ++a) {
      if (a < numIn && (c.inputs[a].scalar || c.inputs[a].period > 0)) continue;
      int reg = a < numIn ? inputReg[static_cast<size_t>(a)] : outputReg(a - numIn);
      int64_t stretch = a < numIn && c.inputs[a].stretch > 0 ? c.inputs[a].stretch : 1;
      advanceCursor(b, reg, argBytes(a, s.tileElems / stretch), tiles, countReg);
    }
  };
  emitTilePipeline(b, p);
  for (int reg : {p.fullTilesReg, p.tailReg})
    if (reg >= 0) b.freeReg(reg);
  return b.finish(s.blockDim);
}

}  // namespace pyasc::codegen
