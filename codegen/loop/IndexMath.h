// Index arithmetic on loop-nest expressions: substitution, constant folding, the linear form of an
// index in one variable (which intrinsic selection asks of every access), and copying statements
// onto fresh loop variables.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "sdk/loop/LoopNest.h"

namespace pyasc::codegen {

loop::Expr intConst(int64_t v);  // int32 immediate
loop::Expr add(loop::Expr a, loop::Expr b);
loop::Expr sub(loop::Expr a, loop::Expr b);
loop::Expr mul(loop::Expr a, loop::Expr b);
loop::Expr floorDiv(loop::Expr a, loop::Expr b);
loop::Expr floorMod(loop::Expr a, loop::Expr b);
loop::Expr minOf(loop::Expr a, loop::Expr b);
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

// A copy of statement `s` with variables renamed as `rename` says, buffers as `buffers` says, and
// every loop inside on a fresh variable of `k` (its name plus `suffix`): loops may then appear twice
// in one nest.
loop::StmtPtr cloneFresh(loop::Kernel& k, const loop::StmtPtr& s, std::map<int, loop::Expr> rename,
                         const std::string& suffix, const std::map<int, int>& buffers = {});
// Whether `s` holds DMA or vector statements (work of a pipe other than the scalar unit).
bool holdsPipeWork(const loop::Stmt& s);
// Nested blocks spliced into the list that holds them (recursively).
std::vector<loop::StmtPtr> flattenBlocks(const std::vector<loop::StmtPtr>& list);
// `e` with the buffers its loads read renamed as `buffers` says.
loop::Expr renameBuffers(const loop::Expr& e, const std::map<int, int>& buffers);

}  // namespace pyasc::codegen
