// The GM→UB→vector→GM tile pipeline shared by vector kernels: per-core tile ranges, rotating
// buffer sets synchronised MTE2→V→MTE3→MTE2, a loop over rounds of sets and a static tail tile.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "codegen/emit/KernelBuilder.h"

namespace pyasc::codegen {

struct TilePipeline {
  int64_t fullTiles = 0;  // tiles of the full size, split over the cores
  bool hasTail = false;   // one smaller tile after them
  // Dynamic shapes: registers holding the full tile count and the tail's element count (a tail tile
  // runs when it is positive), computed by the kernel at run time; -1: the constants above.
  int fullTilesReg = -1, tailReg = -1;
  // How tiles go to cores: false, core k runs a contiguous range (and the last core the tail);
  // true, core k runs tiles k, k + blockDim, k + 2·blockDim… (and core fullTiles % blockDim the
  // tail), so the cores move through GM together. A load `ahead` tiles of its core then lies
  // ahead × blockDim tiles in front of the cursors.
  bool interleaved = false;
  int sets = 2;           // buffer sets in rotation: 2 is double buffering, 1 none
  int blockDim = 1;
  // Emit one stage of a tile held in buffer set `set`; `tail` marks the smaller last tile. A load
  // may run `ahead` tiles (0 to sets-1) in front of the cursors, which move after each store.
  std::function<void(int set, bool tail, int ahead)> load;
  std::function<void(int set, bool tail)> compute, store;
  // Advance every GM cursor register: by `tiles` tiles, or by the tile count in `countReg` (≥ 0).
  std::function<void(int64_t tiles, int countReg)> advance;
};

// Core k (in `blockIdx`) of `blockDim` gets units [first, first + count) of `total`:
// first = k·q + min(k, r), count = q + (k < r) with q, r = total / blockDim, total % blockDim.
void emitCoreShare(KernelBuilder& b, int blockIdx, int64_t total, int blockDim, int firstReg, int countReg);

// The same for a total held in register `totalReg`.
void emitCoreShare(KernelBuilder& b, int blockIdx, int totalReg, int blockDim, int firstReg, int countReg);

// Adds `tiles` × `stepBytes` to a cursor register, or `countReg` × `stepBytes` when countReg ≥ 0.
void advanceCursor(KernelBuilder& b, int reg, int64_t stepBytes, int64_t tiles, int countReg);

// Tiles between a core's consecutive tiles: blockDim when interleaved, else 1.
inline int64_t coreStride(const TilePipeline& p) { return p.interleaved ? p.blockDim : 1; }

// Emits the whole tile loop, from the buffer-free flags of the prologue to the final waits.
void emitTilePipeline(KernelBuilder& b, const TilePipeline& pipeline);

// Static per-core tile lists (cube and window kernels): contiguous ranges of `tiles`, each core
// branching to its own unrolled code. `emitter.beginCore()` starts a core's range and
// `emitter.tile(tile, j)` emits its j-th tile.
template <typename Tile, typename Emitter>
void emitPerCore(KernelBuilder& b, int blockDim, const std::vector<Tile>& tiles, Emitter& emitter) {
  int blockIdx = b.allocReg(), coreId = b.allocReg();
  b.blockIdx(blockIdx);
  int done = b.newLabel();
  size_t perCore = tiles.size() / blockDim, extra = tiles.size() % blockDim, next = 0;
  for (int core = 0; core < blockDim; ++core) {
    size_t count = perCore + (static_cast<size_t>(core) < extra ? 1 : 0);
    int skip = b.newLabel();
    b.li(coreId, core);
    b.branch(isa::Opcode::Bne, blockIdx, coreId, skip);
    emitter.beginCore();
    for (size_t j = 0; j < count; ++j) emitter.tile(tiles[next + j], j);
    b.jump(done);
    b.bind(skip);
    next += count;
  }
  b.bind(done);
  b.freeReg(blockIdx);
  b.freeReg(coreId);
}

}  // namespace pyasc::codegen
