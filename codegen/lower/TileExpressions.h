// Elementwise TE expressions evaluated over UB tiles: which slot holds each value (by liveness, in
// place where sizes allow) and the vector instructions of each node; shared by the elementwise
// kernel and a reduction's elementwise prologue.
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "codegen/emit/KernelBuilder.h"
#include "codegen/isel/VectorIsel.h"
#include "sdk/te/Expr.h"

namespace pyasc::codegen {

struct ElementwiseInput {
  DType dtype;
  bool scalar = false;      // one element broadcast to every output element
  bool inRegister = false;  // a scalar passed by value as a scalar kernel argument (loop counters)
  int64_t period = 0;       // > 0: a row of `period` elements repeated along the output (a row broadcast)
  int64_t stretch = 0;      // > 0: each element repeated `stretch` times in a row (a column broadcast)
};

// How each expression node is realised inside a tile.
struct SlotPlan {
  std::unordered_map<const te::Expr*, int> slot;        // node -> slot of a buffer set
  std::unordered_map<const te::Expr*, int> persistent;  // scalar node or repeated row -> constant tile (filled once)
  std::vector<const te::Expr*> order;  // compute nodes in emission order
  std::vector<const te::Expr*> loads;  // vector placeholders, loaded each tile
  std::vector<const te::Expr*> fills;  // column placeholders, stretched into their slot each tile
  int slotsPerSet = 0;
  int persistentSlots = 0;
  int elemBytes = 2;  // the widest element any slot holds
};

// The slots of `outputs` over placeholders reading `inputs`: the operands' order (depth first), or,
// for many tiles, the neediest-first order when that needs fewer (larger tiles for the same UB).
SlotPlan planSlots(const std::vector<ElementwiseInput>& inputs, const std::vector<te::ExprPtr>& outputs);

// Emits the vector instructions of one node over `count` elements of the current buffer set.
struct TileEmitter {
  TileEmitter(KernelBuilder& builder, const std::vector<ElementwiseInput>& in, const SlotPlan& slots,
              const std::map<const te::Expr*, int>& registers, int64_t set, int64_t bytes, int64_t persistentAt)
      : b(builder), inputs(in), plan(slots), scalarRegs(registers), setBase(set), slotBytes(bytes), persistentBase(persistentAt) {}

  KernelBuilder& b;
  const std::vector<ElementwiseInput>& inputs;
  const SlotPlan& plan;
  const std::map<const te::Expr*, int>& scalarRegs;  // scalar placeholders -> register with bits
  int64_t setBase, slotBytes, persistentBase;
  int countReg = -1;  // dynamic shapes: a register holding the tile's element count, else `count` counts

  isa::MemRef slotRef(const te::Expr* e) const;
  // Column input `e`: `rows` of its elements, read from GM at the cursor in `cursorReg` by the scalar
  // unit, each duplicated by the vector unit over `span` elements of the slot, rows `pitch` apart.
  void fillColumn(const te::Expr* e, int cursorReg, int64_t rows, int64_t span, int64_t pitch) const;
  void emitNode(const te::Expr* e, int64_t count) const;

 private:
  mutable std::vector<int> scratch;
  void contiguous(const VectorOp& op, int64_t count) const;
  isa::MemRef operandRef(const te::Expr* node, size_t argIndex) const;
  void setScalar(VectorOp& op, const te::Expr* s, bool negate) const;
  void releaseScratch() const;
};

// The argument register of each input: GM inputs from argument 0 in order, by-value scalars from
// argument `firstByValue` in order.
std::vector<int> inputArgRegs(const std::vector<ElementwiseInput>& inputs, int firstByValue);
int gmInputCount(const std::vector<ElementwiseInput>& inputs);
// The bits of each scalar placeholder of `outputs` in a register: a by-value one in its argument
// register, a GM one's element loaded once.
std::map<const te::Expr*, int> loadScalars(KernelBuilder& b, const std::vector<ElementwiseInput>& inputs,
                                           const std::vector<te::ExprPtr>& outputs, const std::vector<int>& inputReg);
// The plan's constant tiles, `slotBytes` apart from `base`, filled once: scalars and constants
// duplicated over `elems` elements, repeated rows loaded and copied `rowPitchBytes` apart (0: their
// own length) over `rowTileBytes`.
void fillConstantTiles(KernelBuilder& b, const std::vector<ElementwiseInput>& inputs, const SlotPlan& plan,
                       const std::map<const te::Expr*, int>& scalarRegs, const std::vector<int>& inputReg, int64_t base,
                       int64_t slotBytes, int64_t elems, int64_t rowTileBytes, int64_t rowPitchBytes);

// A broadcast row in GM and the UB tile it is repeated over: `loadBytes` read, copies `pitchBytes` apart.
struct RepeatedRow {
  isa::MemRef dst;
  int argReg;
  int64_t loadBytes, pitchBytes;
};

// Each row loaded from GM once, then copied on V, doubling the filled part, over `tileBytes`. The
// scalar unit waits for the loads (MTE2→S, leaving the MTE2→V events to the tile loop) before it
// issues the copies, and V for each copy, so the tile loop's vector instructions, queued behind,
// see whole tiles.
void fillRepeatedRows(KernelBuilder& b, const std::vector<RepeatedRow>& rows, int64_t tileBytes);

}  // namespace pyasc::codegen
