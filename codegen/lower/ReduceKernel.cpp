// Reduction lowering on the shared tile pipeline.
#include "codegen/lower/ReduceKernel.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "codegen/isel/DmaIsel.h"
#include "codegen/lower/ScheduleCheck.h"
#include "codegen/isel/VectorIsel.h"
#include "codegen/lower/RowFold.h"
#include "codegen/lower/TilePipeline.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

using isa::Instruction;
using isa::MemRef;
using isa::Opcode;
using isa::Space;

std::string ReduceSchedule::str() const {
  std::ostringstream os;
  os << "units_per_tile=" << unitsPerTile << " unit_bytes=" << unitBytes << " block_dim=" << blockDim;
  return os.str();
}

Opcode reduceCombineOp(ReduceKind k) {
  return k == ReduceKind::Max ? Opcode::VMax : k == ReduceKind::Min ? Opcode::VMin : k == ReduceKind::Prod ? Opcode::VMul : Opcode::VAdd;
}

Opcode reduceLaneOp(ReduceKind k) {
  return k == ReduceKind::Max ? Opcode::VCMax : k == ReduceKind::Min ? Opcode::VCMin : Opcode::VCAdd;
}

std::shared_ptr<const ReducePrologue> makeReducePrologue(std::vector<ElementwiseInput> inputs, te::ExprPtr value) {
  auto p = std::make_shared<ReducePrologue>();
  p->inputs = std::move(inputs);
  p->value = std::move(value);
  p->plan = planSlots(p->inputs, {p->value});
  return p;
}

namespace {

int64_t alignBlock(int64_t bytes) { return localRowBytes(bytes); }

// Input elements from one unit to the next.
int64_t unitStep(const ReduceCompute& c) { return c.columns ? c.inner : c.reduce * c.inner; }

// Bytes of one result element.
int resultSize(const ReduceCompute& c) { return c.halfResult ? 2 : dtypeSize(c.dtype); }

uint64_t lowMask(int64_t lanes, bool high) {
  int64_t n = high ? lanes - 64 : lanes;
  if (n <= 0) return 0;
  return n >= 64 ? ~0ull : (1ull << n) - 1;
}

// Bytes of one input unit, of a buffer set's slots (the input's, or a prologue's values) and
// output slot, of the accumulators and of a prologue's constant tiles.
struct Layout {
  int64_t inUnitBytes, outSlotBytes, halfSlotBytes, accBytes, setBytes;  // halfSlot: a float16 result's copy
  int slots = 1;
  int64_t slotBytes = 0, persistentBytes = 0;
  int64_t totalBytes() const { return 2 * setBytes + accBytes + persistentBytes; }
};

Layout layoutOf(const ReduceCompute& c, int64_t units) {
  int es = dtypeSize(c.dtype);
  Layout l;
  if (c.inner == 1) {
    l.inUnitBytes = alignBlock(c.reduce * es);
    // a product also gathers one lane of every row of an instruction (up to 255 rows) at a time
    l.accBytes = units * isa::kRepeatBytes + (c.kind == ReduceKind::Prod ? alignBlock(isa::kMaxRepeat * es) : 0);
  } else {
    l.inUnitBytes = c.reduce * alignBlock(c.inner * es);
    l.accBytes = 0;
  }
  l.outSlotBytes = alignBlock(units * (c.inner == 1 ? 1 : alignBlock(c.inner * es) / es) * es);
  l.halfSlotBytes = c.halfResult ? alignBlock(units * (c.inner == 1 ? 2 : alignBlock(c.inner * 2))) : 0;
  // a slot holds a tile's elements (input units with their row padding) at the widest element size
  const SlotPlan* plan = c.prologue ? &c.prologue->plan : nullptr;
  const int64_t elemBytes = plan ? std::max<int64_t>(es, plan->elemBytes) : es;
  l.slots = plan ? std::max(1, plan->slotsPerSet) : 1;
  l.slotBytes = alignBlock(units * l.inUnitBytes / es * elemBytes);
  l.persistentBytes = plan ? plan->persistentSlots * l.slotBytes : 0;
  l.setBytes = l.slots * l.slotBytes + l.outSlotBytes + l.halfSlotBytes;
  return l;
}

// One unit (row or slice) of extent `reduce` fits UB with its double buffer.
bool unitFits(ReduceCompute c, int64_t reduce, int64_t ub) {
  c.reduce = reduce;
  return layoutOf(c, 1).totalBytes() <= ub;
}

}  // namespace

bool reduceUnitFits(const ReduceCompute& c, int64_t reduce, const Target& target) {
  return unitFits(c, reduce, target.buffer(Space::UB).size);
}

std::vector<int64_t> planReduceStages(const ReduceCompute& c, const Target& target, int maxCores) {
  int64_t ub = target.buffer(Space::UB).size;
  constexpr int64_t kSmall = 2048;  // elements per core below which one stage on few cores is fine
  bool fits = unitFits(c, c.reduce, ub);
  bool starved = c.outer < maxCores && c.outer * c.reduce * c.inner > kSmall * maxCores;
  if (fits && !starved) return {c.reduce};
  // the largest divisor m of the extent whose units fit, preferring one that gives every core a unit
  int64_t best = 0, bestParallel = 0;
  for (int64_t d = 1; d * d <= c.reduce; ++d) {
    if (c.reduce % d) continue;
    for (int64_t m : {d, c.reduce / d}) {
      if (m <= 1 || m >= c.reduce || !unitFits(c, m, ub)) continue;
      best = std::max(best, m);
      if (c.outer * (c.reduce / m) >= maxCores) bestParallel = std::max(bestParallel, m);
    }
  }
  int64_t m = bestParallel ? bestParallel : best;
  if (m == 0) return {c.reduce};  // no split fits: scheduleReduce reports the single stage
  ReduceCompute rest = c;
  rest.reduce = c.reduce / m;
  std::vector<int64_t> stages = {m};
  for (int64_t e : planReduceStages(rest, target, maxCores)) stages.push_back(e);
  return stages;
}

ReduceCompute planReduceColumns(const ReduceCompute& c, const Target& target, int maxCores) {
  ReduceCompute columns = c;
  columns.columns = 0;
  if (c.outer != 1 || c.inner == 1 || c.columns) return columns;
  const int64_t block = isa::kBlockBytes / dtypeSize(c.dtype);
  // the narrowest whole blocks dividing the slice's width that leave no more units than cores
  for (int64_t width = block; width < c.inner; width += block) {
    if (c.inner % width || c.inner / width > maxCores) continue;
    ReduceCompute unit = c;
    unit.inner = width;
    if (!unitFits(unit, c.reduce, target.buffer(Space::UB).size)) break;
    columns.columns = c.inner;
    columns.outer = c.inner / width;
    columns.inner = width;
    break;
  }
  return columns;
}

namespace {

int64_t maxUnitsOf(const ReduceCompute& c) {
  return c.inner == 1 ? isa::kMaxNBurst : std::max<int64_t>(1, isa::kMaxNBurst / c.reduce);
}

bool unitsFit(const ReduceCompute& c, int64_t units, int64_t ub) {
  return layoutOf(c, units).totalBytes() <= ub;
}

}  // namespace

ReduceSchedule reduceSchedule(const ReduceCompute& c, const Target& target, int64_t units, int blockDim, int maxCores,
                              const SourceLocation& where) {
  int64_t ub = target.buffer(Space::UB).size;
  auto fail = [&](const std::string& message) { scheduleError("reduction '" + c.name + "'", c.sourceLine, where, message); };
  const char* unit = c.inner == 1 ? "row" : "slice";
  if (units < 1 || units > std::min<int64_t>(maxUnitsOf(c), c.outer)) {
    fail(std::to_string(units) + " " + unit + "s per tile: 1 to " + std::to_string(std::min<int64_t>(maxUnitsOf(c), c.outer)) +
         " are possible");
  }
  if (!unitsFit(c, units, ub)) {
    Layout l = layoutOf(c, units);
    fail("needs " + std::to_string(l.totalBytes()) + " bytes of UB for " + std::to_string(units) + " " + unit +
         (units == 1 ? "" : "s") + " of " + std::to_string(c.reduce) + " elements, but UB holds " + std::to_string(ub) +
         " bytes");
  }
  int64_t fullTiles = c.outer / units;
  if (std::string coreProblem = coreCountProblem(blockDim, fullTiles, maxCores, "full tiles"); !coreProblem.empty()) fail(coreProblem);
  ReduceSchedule s;
  s.unitsPerTile = units;
  s.unitBytes = layoutOf(c, 1).inUnitBytes;
  s.blockDim = blockDim;
  return s;
}

ReduceSchedule scheduleReduce(const ReduceCompute& c, const Target& target, int maxCores) {
  int64_t ub = target.buffer(Space::UB).size;
  int64_t maxUnits = std::min<int64_t>(maxUnitsOf(c), c.outer);
  int64_t best = 0;
  for (int64_t units = 1; units <= maxUnits; units = units < 8 ? units + 1 : units * 2)
    if (unitsFit(c, units, ub)) best = units;
  // refine the last doubling step
  while (best > 0 && best < maxUnits && unitsFit(c, best + 1, ub)) ++best;
  // no more units per tile than keep every core busy
  best = std::min(best, (c.outer + maxCores - 1) / maxCores);
  int64_t units = std::max<int64_t>(best, 1);  // nothing fits: reduceSchedule reports one unit
  int blockDim = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(maxCores, c.outer / units)));
  return reduceSchedule(c, target, units, blockDim, maxCores, SourceLocation{});
}

namespace {

class ReduceEmitter {
 public:
  ReduceEmitter(const ReduceCompute& c, const ReduceSchedule& s, KernelBuilder& b)
      : c_(c), s_(s), b_(b), es_(dtypeSize(c.dtype)), lanes_(isa::kRepeatBytes / es_), layout_(layoutOf(c, s.unitsPerTile)) {
    b.noteBufferBytes(Space::UB, layout_.totalBytes());
    if (!c.prologue) return;
    const ReducePrologue& p = *c.prologue;
    outputArg_ = gmInputCount(p.inputs);
    inputReg_ = inputArgRegs(p.inputs, outputArg_ + 1);
    tile_ = std::make_unique<TileEmitter>(b, p.inputs, p.plan, scalarRegs_, 0, layout_.slotBytes, persistentBase());
  }

  // Kernel arguments: the prologue's GM inputs, the output and its by-value scalars (else 2).
  static int arguments(const ReduceCompute& c) {
    return c.prologue ? static_cast<int>(c.prologue->inputs.size()) + 1 : 2;
  }
  int outputReg() const { return KernelBuilder::argReg(outputArg_); }

  int64_t inBase(int set) const { return set * layout_.setBytes; }
  int64_t outBase(int set) const { return inBase(set) + layout_.slots * layout_.slotBytes; }
  int64_t halfBase(int set) const { return outBase(set) + layout_.outSlotBytes; }
  int64_t accBase() const { return 2 * layout_.setBytes; }
  int64_t gatherBase() const { return accBase() + s_.unitsPerTile * isa::kRepeatBytes; }
  int64_t persistentBase() const { return accBase() + layout_.accBytes; }
  // Where the reduced values of a tile lie: the input's units, or the prologue's value.
  int64_t valueBase(int set) const {
    return inBase(set) + (tile_ ? c_.prologue->plan.slot.at(c_.prologue->value.get()) * layout_.slotBytes : 0);
  }
  // Elements of a tile of `units` units in UB, row padding included.
  int64_t tileElems(int64_t units) const { return units * layout_.inUnitBytes / es_; }
  // Elements of one UB row: a reduced row (inner 1) or a slice's row, padded to whole blocks.
  int64_t rowPitch() const { return alignBlock((c_.inner == 1 ? c_.reduce : c_.inner) * es_) / es_; }

  // The prologue's scalars in registers and its constant tiles (scalars used as tiles, repeated rows),
  // once before the tile loop.
  void setUp() {
    if (!tile_) return;
    const ReducePrologue& p = *c_.prologue;
    scalarRegs_ = loadScalars(b_, p.inputs, {p.value}, inputReg_);
    const int64_t elems = tileElems(s_.unitsPerTile);
    fillConstantTiles(b_, p.inputs, p.plan, scalarRegs_, inputReg_, persistentBase(), layout_.slotBytes, elems, elems * es_,
                      rowPitch() * es_);
  }

  void load(int set, int64_t units, int ahead) {
    if (!tile_) {
      loadUnits(MemRef{Space::UB, 0, inBase(set)}, KernelBuilder::argReg(0), units, ahead);
      return;
    }
    tile_->setBase = inBase(set);
    for (const te::Expr* e : c_.prologue->plan.loads)
      loadUnits(tile_->slotRef(e), inputReg_[static_cast<size_t>(e->index)], units, ahead);
  }

  // GM cursors: an array input moves a tile's units, a column input a tile's values, the output its results.
  void advance(int64_t tiles, int countReg) {
    const int64_t units = s_.unitsPerTile;
    if (!tile_) advanceCursor(b_, KernelBuilder::argReg(0), units * unitStep(c_) * es_, tiles, countReg);
    if (tile_) {
      const std::vector<ElementwiseInput>& inputs = c_.prologue->inputs;
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i].scalar || inputs[i].period > 0) continue;
        const int64_t step = inputs[i].stretch > 0 ? columnRows(inputs[i].stretch, units) : units * unitStep(c_);
        advanceCursor(b_, inputReg_[i], step * es_, tiles, countReg);
      }
    }
    advanceCursor(b_, outputReg(), units * c_.inner * resultSize(c_), tiles, countReg);
  }

  void store(int set, int64_t units) {
    MemRef gm{Space::GM, static_cast<uint8_t>(outputReg()), 0};
    MemRef ub{Space::UB, 0, c_.halfResult ? halfBase(set) : outBase(set)};
    const int outEs = resultSize(c_);
    if (c_.inner == 1) {
      emitCopyRows(b_, Opcode::CopyUbToGm, gm, ub, 1, units * outEs);
    } else {
      emitCopyRows(b_, Opcode::CopyUbToGm, gm, ub, units, c_.inner * outEs);
    }
  }

  void compute(int set, int64_t units) {
    if (tile_) {
      tile_->setBase = inBase(set);
      for (const te::Expr* e : c_.prologue->plan.fills) {
        const int64_t rows = columnRows(c_.prologue->inputs[e->index].stretch, units), span = tileElems(units) / rows;
        tile_->fillColumn(e, inputReg_[static_cast<size_t>(e->index)], rows, span, span);
      }
      for (const te::Expr* e : c_.prologue->plan.order) tile_->emitNode(e, tileElems(units));
      b_.setCounterMode(false);  // (selections leave counter mode on; the reduction sets lane masks)
    }
    if (c_.inner == 1) {
      reduceRows(set, units);
    } else {
      reduceSlices(set, units);
    }
    if (c_.kind == ReduceKind::Mean) {
      VectorOp scale;
      scale.op = Opcode::VMuls;
      scale.type = c_.dtype;
      scale.dst = scale.src0 = MemRef{Space::UB, 0, outBase(set)};
      scale.scalarIsImm = true;
      scale.scalarBits = scalarBitsOf(1.0 / static_cast<double>(c_.reduce), c_.dtype);
      int64_t count = c_.inner == 1 ? units : units * alignBlock(c_.inner * es_) / es_;
      emitContiguous(b_, scale, count);
    }
    if (c_.halfResult) narrowResult(set, units);
  }

  // The float32 results rounded to float16 into the half slot, whose slice rows (inner > 1) are
  // 32-byte aligned at their own pitch: one conversion of the padded rows when the float16 pitch is
  // half the float32 one, else one per row.
  void narrowResult(int set, int64_t units) {
    const int64_t wide = alignBlock(c_.inner * es_), half = alignBlock(c_.inner * 2);
    if (c_.inner == 1 || wide == 2 * half) {  // whole padded rows, which land at half the pitch
      emitConvert(b_, halfBase(set), outBase(set), DType::Float32, DType::Float16, c_.inner == 1 ? units : units * wide / es_);
      return;
    }
    for (int64_t u = 0; u < units; ++u)
      emitConvert(b_, halfBase(set) + u * half, outBase(set) + u * wide, DType::Float32, DType::Float16, c_.inner);
  }

 private:
  // `units` units of the array in GM at the cursor in `argReg` (`ahead` tiles on) into UB at `ub`.
  void loadUnits(MemRef ub, int argReg, int64_t units, int ahead) {
    MemRef gm{Space::GM, static_cast<uint8_t>(argReg), ahead * s_.unitsPerTile * unitStep(c_) * es_};
    if (c_.inner == 1) {
      emitCopyRows(b_, Opcode::CopyGmToUb, ub, gm, units, c_.reduce * es_);
    } else if (c_.columns) {
      for (int64_t u = 0; u < units; ++u) {
        MemRef from = gm, to = ub;
        from.offset += u * c_.inner * es_;
        to.offset += u * layout_.inUnitBytes;
        emitCopyRows(b_, Opcode::CopyGmToUb, to, from, c_.reduce, c_.inner * es_, (c_.columns - c_.inner) * es_);
      }
    } else {
      emitCopyRows(b_, Opcode::CopyGmToUb, ub, gm, units * c_.reduce, c_.inner * es_);
    }
  }

  // The values a column input of `stretch` gives a tile of `units` units: one per UB row (its
  // stretch a row's elements) or one per unit.
  int64_t columnRows(int64_t stretch, int64_t units) const {
    return c_.inner > 1 && stretch == c_.inner ? units * c_.reduce : units;
  }

  Instruction rowOp(Opcode op, MemRef dst, MemRef src0, MemRef src1, int64_t rows) const {
    Instruction i;
    i.op = op;
    i.type = c_.dtype;
    i.repeat = static_cast<uint16_t>(rows);
    i.dst = dst;
    i.src0 = src0;
    i.src1 = src1;
    return i;
  }

  // Lane-parallel accumulation of each row's 256-byte chunks into acc[row], then one lane
  // reduction per row; every instruction covers up to 255 rows as repeats.
  void reduceRows(int set, int64_t units) {
    int64_t chunks = (c_.reduce + lanes_ - 1) / lanes_;
    uint16_t rowStride = static_cast<uint16_t>(layout_.inUnitBytes / isa::kBlockBytes);
    // rows per instruction: at most 255 repeats, and a whole number of 32-byte output blocks
    const int64_t perBlock = isa::kBlockBytes / es_, step = isa::kMaxRepeat / perBlock * perBlock;
    for (int64_t r0 = 0; r0 < units; r0 += step) {
      int64_t rows = std::min<int64_t>(step, units - r0);
      MemRef acc{Space::UB, 0, accBase() + r0 * isa::kRepeatBytes};
      MemRef row{Space::UB, 0, valueBase(set) + r0 * layout_.inUnitBytes};
      if (layout_.inUnitBytes / isa::kBlockBytes > 255) {
        // rows too far apart for a repeat stride: fold each row on its own into acc[row]
        for (int64_t r = 0; r < rows; ++r) foldRow(row.offset + r * layout_.inUnitBytes, acc.offset + r * isa::kRepeatBytes);
        chunks = 0;
      }
      for (int64_t k = 0; k < chunks; ++k) {
        int64_t active = std::min<int64_t>(lanes_, c_.reduce - k * lanes_);
        b_.setMask(lowMask(active, false), lowMask(active, true));
        MemRef chunk = row;
        chunk.offset += k * isa::kRepeatBytes;
        Instruction i = k == 0 ? rowOp(Opcode::VMov, acc, chunk, MemRef{}, rows)
                               : rowOp(reduceCombineOp(c_.kind), acc, acc, chunk, rows);
        if (k == 0) {
          i.src0Rep = rowStride;
        } else {
          i.src1Rep = rowStride;
        }
        b_.emit(i);
      }
      int64_t active = std::min<int64_t>(lanes_, c_.reduce);
      MemRef out{Space::UB, 0, outBase(set) + r0 * es_};
      if (c_.kind == ReduceKind::Prod) {
        multiplyLanes(acc, out, rows, active);
        continue;
      }
      b_.setMask(lowMask(active, false), lowMask(active, true));
      Instruction red = rowOp(reduceLaneOp(c_.kind), out, acc, MemRef{}, rows);
      red.dstRep = 1;  // one element per row
      b_.emit(red);
    }
  }

  // out[r] = the product of the first `active` lanes of acc[r] (256 bytes per row), for `rows`
  // rows: the rows fold in place down to one block (the odd blocks onto the head, then halves, as
  // foldRow), then each remaining lane is gathered across the rows (a one-lane vcmax, exact) and
  // multiplied into out.
  void multiplyLanes(MemRef acc, MemRef out, int64_t rows, int64_t active) {
    const int64_t perBlock = isa::kBlockBytes / es_;
    auto fold = [&](int64_t count, int64_t from) {  // acc[r][0:count] *= acc[r][from:from+count]
      b_.setMask(lowMask(count, false), lowMask(count, true));
      MemRef src1 = acc;
      src1.offset += from * es_;
      b_.emit(rowOp(Opcode::VMul, acc, acc, src1, rows));
    };
    int64_t n = active / perBlock * perBlock;
    if (n == 0) {
      n = active;
    } else if (n < active) {
      fold(active - n, n);
    }
    while (n > perBlock) {
      int64_t h = n / 2 / perBlock * perBlock;
      fold(h, n - h);
      n -= h;
    }
    MemRef gathered{Space::UB, 0, gatherBase()};
    for (int64_t lane = 0; lane < n; ++lane) {
      b_.setMask(lowMask(lane + 1, false) & ~lowMask(lane, false), lowMask(lane + 1, true) & ~lowMask(lane, true));
      Instruction g = rowOp(Opcode::VCMax, lane == 0 ? out : gathered, acc, MemRef{}, rows);
      g.dstRep = 1;
      b_.emit(g);
      if (lane == 0) continue;
      VectorOp mul;
      mul.op = Opcode::VMul;
      mul.type = c_.dtype;
      mul.dst = mul.src0 = out;
      mul.src1 = gathered;
      emitContiguous(b_, mul, rows);
    }
  }

  // Folds one long row in place to at most L lanes and copies them to `accOffset`.
  void foldRow(int64_t rowOffset, int64_t accOffset) {
    int64_t n = codegen::foldRow(b_, reduceCombineOp(c_.kind), c_.dtype, rowOffset, rowOffset, c_.reduce);
    // lanes past n hold values already folded in: harmless for max/min, set to the identity (0 or
    // 1) for sums and products
    bool additive = c_.kind == ReduceKind::Sum || c_.kind == ReduceKind::Mean || c_.kind == ReduceKind::Prod;
    if (additive && n < lanes_) {
      VectorOp identity;
      identity.op = Opcode::VDup;
      identity.type = c_.dtype;
      identity.dst = MemRef{Space::UB, 0, accOffset};
      identity.scalarIsImm = true;
      identity.scalarBits = c_.kind == ReduceKind::Prod ? scalarBitsOf(1.0, c_.dtype) : 0;
      emitContiguous(b_, identity, lanes_);
    }
    VectorOp move;
    move.op = Opcode::VMov;
    move.type = c_.dtype;
    move.dst = MemRef{Space::UB, 0, accOffset};
    move.src0 = MemRef{Space::UB, 0, rowOffset};
    emitContiguous(b_, move, additive ? n : std::min<int64_t>(lanes_, c_.reduce));
  }

  // Pairwise tree over the reduce rows of each slice: rows[0:h] ⊕= rows[n-h:n] until one is left.
  void reduceSlices(int set, int64_t units) {
    int64_t rowBytes = alignBlock(c_.inner * es_);
    int64_t rowElems = rowBytes / es_;
    for (int64_t u = 0; u < units; ++u) {
      int64_t base = valueBase(set) + u * layout_.inUnitBytes;
      VectorOp op;
      op.op = reduceCombineOp(c_.kind);
      op.type = c_.dtype;
      for (int64_t n = c_.reduce; n > 1;) {
        int64_t h = n / 2;
        op.dst = op.src0 = MemRef{Space::UB, 0, base};
        op.src1 = MemRef{Space::UB, 0, base + (n - h) * rowBytes};
        emitContiguous(b_, op, h * rowElems);
        n -= h;
      }
      VectorOp move;
      move.op = Opcode::VMov;
      move.type = c_.dtype;
      move.dst = MemRef{Space::UB, 0, outBase(set) + u * rowBytes};
      move.src0 = MemRef{Space::UB, 0, base};
      emitContiguous(b_, move, rowElems);
    }
  }

  const ReduceCompute& c_;
  const ReduceSchedule& s_;
  KernelBuilder& b_;
  int es_, lanes_;
  Layout layout_;
  // the prologue's argument registers by input, the output's argument, its scalars and its tiles
  std::vector<int> inputReg_;
  int outputArg_ = 1;
  std::map<const te::Expr*, int> scalarRegs_;
  std::unique_ptr<TileEmitter> tile_;
};

}  // namespace

KernelCode lowerReduce(const ReduceCompute& c, const ReduceSchedule& s, const Target& target) {
  KernelBuilder b(c.name, ReduceEmitter::arguments(c));
  b.setSourceLine(c.sourceLine);
  ReduceEmitter e(c, s, b);
  e.setUp();
  int64_t tailUnits = c.outer % s.unitsPerTile;
  auto units = [&](bool tail) { return tail ? tailUnits : s.unitsPerTile; };
  TilePipeline p;
  p.fullTiles = c.outer / s.unitsPerTile;
  p.hasTail = tailUnits > 0;
  p.sets = 2;
  p.blockDim = s.blockDim;
  p.load = [&](int set, bool tail, int ahead) { e.load(set, units(tail), ahead); };
  p.compute = [&](int set, bool tail) { e.compute(set, units(tail)); };
  p.store = [&](int set, bool tail) { e.store(set, units(tail)); };
  p.advance = [&](int64_t tiles, int countReg) { e.advance(tiles, countReg); };
  emitTilePipeline(b, p);
  return b.finish(s.blockDim);
}

}  // namespace pyasc::codegen
