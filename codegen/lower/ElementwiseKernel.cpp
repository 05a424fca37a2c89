// Elementwise lowering: the tile solver, per-core tile ranges, rotating buffer sets synchronised
// MTE2→V→MTE3→MTE2 and a static tail tile; the expressions' slots and instructions are TileExpressions'.
#include "codegen/lower/ElementwiseKernel.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>

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
  return maxTileWith(planSlots(c.inputs, c.outputs), target, 1, granule) >= granule;
}

ElementwiseSchedule elementwiseSchedule(const ElementwiseCompute& c, const Target& target, int64_t tileElems, int sets,
                                        int blockDim, int maxCores, const SourceLocation& where) {
  SlotPlan plan = planSlots(c.inputs, c.outputs);
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
  TileEmitter tile{scratch, c.inputs, plan, scalarRegs, 0, slotBytes, std::max(1, plan.slotsPerSet) * slotBytes};
  for (const Expr* e : plan.order) tile.emitNode(e, elems);
  double cycles = vectorCycles(scratch);
  for (const Expr* e : plan.fills) {
    KernelBuilder row(c.name, args);
    const int64_t stretch = c.inputs[e->index].stretch;
    TileEmitter{row, c.inputs, plan, scalarRegs, 0, slotBytes, 0}.fillColumn(e, KernelBuilder::argReg(0), 1, stretch, stretch);
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
  SlotPlan plan = planSlots(c.inputs, c.outputs);
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

KernelCode lowerElementwise(const ElementwiseCompute& c, const ElementwiseSchedule& s, const Target& target) {
  SlotPlan plan = planSlots(c.inputs, c.outputs);
  int numIn = static_cast<int>(c.inputs.size());
  int numOut = static_cast<int>(c.outputs.size());
  // argument registers: GM inputs, outputs, then by-value scalars
  const int gmInputs = gmInputCount(c.inputs), byValue = numIn - gmInputs;
  const std::vector<int> inputReg = inputArgRegs(c.inputs, gmInputs + numOut);
  auto outputReg = [&](int o) { return KernelBuilder::argReg(gmInputs + o); };
  KernelBuilder b(c.name, gmInputs + numOut + byValue + (c.dynamicCount ? 1 : 0));
  const int countArg = c.dynamicCount ? KernelBuilder::argReg(gmInputs + numOut + byValue) : -1;
  b.setSourceLine(c.sourceLine);
  int sets = s.bufferSets;
  int64_t setBytes = s.slotsPerSet * s.slotBytes;
  int64_t persistentBase = sets * setBytes;
  b.noteBufferBytes(Space::UB, persistentBase + s.persistentSlots * s.slotBytes);
  const std::map<const Expr*, int> scalarRegs = loadScalars(b, c.inputs, c.outputs, inputReg);
  TileEmitter tile{b, c.inputs, plan, scalarRegs, 0, s.slotBytes, persistentBase};
  fillConstantTiles(b, c.inputs, plan, scalarRegs, inputReg, persistentBase, s.slotBytes, s.tileElems, s.slotBytes, 0);

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
    for (const Expr* e : plan.fills) {
      const int64_t stretch = c.inputs[e->index].stretch;
      tile.fillColumn(e, inputReg[static_cast<size_t>(e->index)], count(tail) / stretch, stretch, stretch);
    }
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
