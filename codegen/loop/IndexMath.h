// Index arithmetic on loop-nest expressions: substitution, constant folding, the linear form of an
// index in one variable (which intrinsic selection asks of every access), and copying statements
// onto fresh loop variables.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>

#include "sdk/loop/LoopNest.h"

namespace pyasc::codegen {

loop::Expr intConst(int64_t v);  // int32 immediate
loop::Expr add(loop::Expr a, loop::Expr b);
loop::Expr sub(loop::Expr a, loop::Expr b);
loop::Expr mul(loop::Expr a, loop::Expr b);
loop::Expr floorDiv(loop::Expr a, loop::Expr b);
loop::Expr floorMod(loop::Expr a, loop::Expr b);
loop::Expr minOf(loop::Expr a, loop::Expr b);
loop::Expr maxOf(loop::Expr a, loop::Expr b);
loop::Expr lessThan(loop::Expr a, loop::Expr b);
loop::Expr allOf(const std::vector<loop::Expr>& conditions);  // their conjunction; null when none (or all true)

std::optional<int64_t> constValue(const loop::Expr& e);  // the value of an integer immediate
// `e` with every variable in `values` replaced (Reduce axes excepted), folded.
loop::Expr substitute(const loop::Expr& e, const std::map<int, loop::Expr>& values);
// Integer constants folded, x+0, x*1, x*0, x//1, x%1 removed, sums of constants gathered.
loop::Expr simplify(const loop::Expr& e);
bool usesVar(const loop::Expr& e, int var);
bool sameExpr(const loop::Expr& a, const loop::Expr& b);  // structurally equal

// e = base + stride * var, with base free of var; nullopt when e is not linear in var.
struct Linear {
  loop::Expr base;
  int64_t stride = 0;
};
std::optional<Linear> linearIn(const loop::Expr& e, int var);

// The values an integer expression takes while each variable in `ranges` takes every value of its
// interval (bounds inclusive); nullopt when it uses another variable or an operation not bounded here.
struct Interval {
  int64_t lo = 0, hi = 0;
};
std::optional<Interval> intervalOf(const loop::Expr& e, const std::map<int, Interval>& ranges);

// Whether integer expression `e` is a multiple of `n` for every value of its variables (a sum of
// terms each a multiple: constants, and products with a constant multiple of n).
bool multipleOf(const loop::Expr& e, int64_t n);

// Whether a comparison (or a conjunction of them) holds for every value of the variables in
// `ranges` (true), for none (false), or depends on them (nullopt).
std::optional<bool> truthOf(const loop::Expr& cond, const std::map<int, Interval>& ranges);

// idx = base + clamp(lane + offset) with lane-free bounds lo and hi (either may be null, not both):
// a window of consecutive elements that reads the same element for every lane past a border.
struct ClampedWindow {
  loop::Expr base, offset, lo, hi;
};
std::optional<ClampedWindow> clampedWindow(const loop::Expr& idx, int lane);
// Whether the unclamped window of `lanes` elements lies inside a tensor of `elements` for every value
// of the variables in `ranges`.
bool windowInside(const ClampedWindow& w, int64_t lanes, int64_t elements, const std::map<int, Interval>& ranges);
// The values the variable of loop `s` takes, or nullopt when its bounds are not bounded by `ranges`.
std::optional<Interval> loopRange(const loop::Stmt& s, const std::map<int, Interval>& ranges);
// While it lives, `ranges` holds the values of loop `s`'s variable (when they are bounded): for a
// walk entering a loop's body. Other statements change nothing.
class LoopRangeScope {
 public:
  LoopRangeScope(const loop::Stmt& s, std::map<int, Interval>& ranges);
  ~LoopRangeScope();
  LoopRangeScope(const LoopRangeScope&) = delete;
  LoopRangeScope& operator=(const LoopRangeScope&) = delete;

 private:
  std::map<int, Interval>& ranges_;
  int var_ = -1;
};

// A copy of statement `s` with variables renamed as `rename` says, buffers as `buffers` says, and
// every loop inside on a fresh variable of `k` (its name plus `suffix`): loops may then appear twice
// in one nest.
loop::StmtPtr cloneFresh(loop::Kernel& k, const loop::StmtPtr& s, std::map<int, loop::Expr> rename,
                         const std::string& suffix, const std::map<int, int>& buffers = {});
// The buffers a statement (and every statement inside it) reads and writes: whole buffers, for
// conservative dependence tests.
struct BufferAccess {
  std::set<int> reads, writes;
};
BufferAccess bufferAccess(const loop::Stmt& s);
// `list` with each DMA into a local buffer moved before the statements ahead of it that neither touch
// its destination nor write its source (other such DMAs and synchronisation stop it): the loads of a
// tile start together, before the scalar unit waits for the first of them.
std::vector<loop::StmtPtr> loadsFirst(const loop::Kernel& k, std::vector<loop::StmtPtr> list);
// Whether `s` holds DMA or vector statements (work of a pipe other than the scalar unit).
bool holdsPipeWork(const loop::Stmt& s);
// Nested blocks spliced into the list that holds them (recursively).
std::vector<loop::StmtPtr> flattenBlocks(const std::vector<loop::StmtPtr>& list);
// `e` with the buffers its loads read renamed as `buffers` says.
loop::Expr renameBuffers(const loop::Expr& e, const std::map<int, int>& buffers);

}  // namespace pyasc::codegen
