// TE compute expressions as Halide expressions, lane for lane what the simulator's vector unit computes.
#pragma once

#include <vector>

#include "cpu/HalideTypes.h"
#include "sdk/te/Expr.h"

namespace pyasc::cpu {

// `e` with placeholder i replaced by placeholders[i]. float16 arithmetic runs in float32 and is
// rounded once to float16, exp/log/sqrt/reciprocals in float64 rounded once to the lane type, int32
// arithmetic wraps, max/min return a NaN operand and conversions saturate: the simulator's rules
// (sim/VectorUnit.cpp, docs/simulator.md). Except: float32 lanes take exp and log in float32
// (expFloat, logFloat), within 1 ulp of the simulator's correctly rounded results.
Halide::Expr teToHalide(const te::ExprPtr& e, const std::vector<Halide::Expr>& placeholders);

// `x` (of dtype `from`) converted to `to` as the simulator's vconv does with rounding `round`:
// float to integer rounded then saturated (NaN → 0), to float16 rounded to nearest even.
// exp and log of a float64, vectorised (no libm call per lane): within 2 ulp of float64, so their
// results rounded to float32 or float16 are the correctly rounded ones the simulator's vexp and vln
// give (a result within 2^-50 of a rounding boundary aside).
Halide::Expr expDouble(const Halide::Expr& x);
Halide::Expr logDouble(const Halide::Expr& x);
// exp and log of a float32 in float32, vectorised: within 1 ulp of the correctly rounded result
// (measured in tests/e2e/cpu_matches_sim.py), for float32 lanes, which need not match the simulator
// bit for bit.
Halide::Expr expFloat(const Halide::Expr& x);
Halide::Expr logFloat(const Halide::Expr& x);

// a <cmp> b as IEEE defines it for NaN operands.
Halide::Expr compareOp(te::Cmp cmp, const Halide::Expr& a, const Halide::Expr& b);

Halide::Expr convert(const Halide::Expr& x, DType from, DType to, RoundMode round);

}  // namespace pyasc::cpu
