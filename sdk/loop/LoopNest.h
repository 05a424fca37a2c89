// The loop-nest IR: a kernel as buffers (GM parameters and local allocations) and a tree of loops
// over statements, from element stores (what a schedule produces) down to DMA, vector and sync
// statements (what intrinsic selection and synchronisation leave for emission). Expressions are the
// compute expressions of sdk/te/Compute.h: a Var names a loop variable, a Load reads a buffer at one
// flat element index. Printed as text, parsed back and verified (sdk/loop/LoopText, LoopVerifier).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sdk/isa/ISA.h"
#include "sdk/te/Compute.h"

namespace pyasc::loop {

using Expr = te::ComputeExpr;

struct Buffer {
  std::string name;
  isa::Space scope = isa::Space::UB;
  DType dtype = DType::Float32;
  int64_t elements = 0;   // capacity of one copy
  int64_t align = 32;     // bytes; a local buffer starts at a multiple
  int64_t offset = -1;    // byte offset of copy 0 in its scope once storage is planned, else -1
  enum class Role : uint8_t { Input, Output, Local } role = Role::Local;  // inputs and outputs are GM parameters, in order
};

// A pipelined loop rotates at most this many buffer sets: each set is a private copy of the body's
// tiles in one local buffer and a copy of the body in the unrolled loop, and a third set already hides
// a load behind a compute when both take about as long.
constexpr int kMaxBufferSets = 8;

enum class ForKind : uint8_t {
  Serial,
  Unrolled,    // emitted once per iteration
  Vectorized,  // its iterations are lanes of vector instructions (only stores inside)
  Cores,       // its iterations run on different cores (block_idx)
  Pipelined,   // its iterations overlap through `copies` buffer sets (stage double-buffer gives each
               // iteration t the set t % copies of the local buffers its body writes)
};
const char* forKindName(ForKind k);  // "serial", "unrolled", "vectorized", "cores", "pipelined"

enum class StmtKind : uint8_t {
  Block,   // body in order
  For,     // for var in [min, min + extent): body
  Store,   // buffer[index] = value
  If,      // if cond: body else orelse
  Dma,     // rows bursts of len elements from src to dst, each side advancing by its stride (elements)
  Vector,  // dst[0..count) = op(srcs[0..count)..., scalar) on the vector unit
  Cube,    // a tile on the cube's pipes: load_l0a (L1 rows → L0A), load_l0b (L1 rows → L0B),
           // mmad (L0C (+)= L0A · L0B), fix (L0C → GM, converted)
  Sync,    // set/wait of the flag (src pipe, dst pipe, event), or a barrier of src pipe
};

// A place in a buffer: its first element.
struct Ref {
  int buffer = -1;
  Expr offset;  // elements
};

struct Stmt;
using StmtPtr = std::shared_ptr<Stmt>;

struct Stmt {
  StmtKind kind = StmtKind::Block;
  std::vector<StmtPtr> body;    // Block, For, If
  std::vector<StmtPtr> orelse;  // If
  // For
  int var = -1;
  Expr min, extent;
  ForKind forKind = ForKind::Serial;
  int copies = 1;  // Pipelined: buffer sets in rotation, 2..kMaxBufferSets
  // Store
  int buffer = -1;
  Expr index, value;
  // If
  Expr cond;
  // Dma and Vector
  Ref dst;
  std::vector<Ref> srcs;  // Dma: one
  Expr rows, len, dstStride, srcStride;  // Dma
  std::string op;         // Vector: an ISA vector mnemonic without its type suffix (vadd, vmuls, vexp, ...);
                          // vcadd/vcmax/vcmin fold all `count` source elements into dst's first
  Expr count;             // Vector: elements
  Expr scalar;            // Vector: the scalar operand of the *s forms, else null
  // Cube (op: load_l0a, load_l0b, mmad, fix; dst and srcs as for Vector): an m×k (A), k×n (B) or
  // m×n (C) tile, its valid rows and columns (the rest zero), the row stride in elements of the L1
  // rows loaded (srcStride) or of the GM rows written (dstStride), mmad's init (C = A · B, not +=),
  // load_l0b's rows stored N×K (transposed)
  int64_t m = 0, k = 0, n = 0;
  Expr validRows, validCols;
  bool init = false, transposed = false;
  // Sync
  enum class SyncKind : uint8_t { Set, Wait, Barrier } sync = SyncKind::Set;
  isa::Pipe srcPipe = isa::Pipe::S, dstPipe = isa::Pipe::S;
  Expr event;
};

struct Kernel {
  std::string name;
  std::vector<Buffer> buffers;
  std::vector<std::string> vars;  // loop variables by index (unique names)
  StmtPtr body;

  int addVar(const std::string& base);  // a fresh variable named base, base.1, ...
  int findBuffer(const std::string& name) const;  // -1 when none
  std::string freshBufferName(const std::string& base) const;  // base, base.1, ...: the first no buffer has
  te::ExprNames names() const;   // variables and buffers for expression text
};

StmtPtr block(std::vector<StmtPtr> body = {});
StmtPtr forLoop(int var, Expr min, Expr extent, ForKind kind, std::vector<StmtPtr> body);
StmtPtr store(int buffer, Expr index, Expr value);
StmtPtr ifThen(Expr cond, std::vector<StmtPtr> body, std::vector<StmtPtr> orelse = {});

// Structural copies of a statement tree (passes rewrite copies, never the input).
StmtPtr clone(const StmtPtr& s);

}  // namespace pyasc::loop
