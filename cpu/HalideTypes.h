// What the CPU backend shares about Halide: dtypes as Halide types, the host target.
#pragma once

#include <Halide.h>

#include "sdk/support/DType.h"

namespace pyasc::cpu {

Halide::Type halideType(DType t);

// The JIT target: the host's vector extensions, with strict float semantics (no contraction into
// fused multiply-adds, no reassociation), so float results match the simulator's rounding.
Halide::Target hostTarget();

// Whether a float is NaN / ±infinity, from its bits: Halide 14's is_nan and is_inf are always
// false under the strict-float target feature.
Halide::Expr isNaN(const Halide::Expr& x);
Halide::Expr isInf(const Halide::Expr& x);

// Halide::cast, except that a float16 NaN converts to NaN and a NaN to float16 NaN (Halide 14
// converts them to infinities). Every conversion of element values goes through it.
Halide::Expr castValue(const Halide::Type& to, const Halide::Expr& x);

}  // namespace pyasc::cpu
