// NumPy 2 dtype promotion: promote_types between arrays, weak Python scalars (NEP 50), ufunc loops.
#pragma once

#include "sdk/support/DType.h"

namespace pyasc::registry {

// The kind of a Python scalar literal, which is "weak": it adapts to the array it meets.
enum class ScalarKind : uint8_t { Bool, Int, Float };

// np.promote_types(a, b) for the dtypes pyasc knows.
DType promoteTypes(DType a, DType b);
// The result dtype of an array of `array` dtype combined with a weak Python scalar of `kind`.
DType promoteWithScalar(DType array, ScalarKind kind);
// The dtype of a Python scalar on its own (bool, int64, float64: NumPy's defaults).
DType scalarDefaultDType(ScalarKind kind);
// The float dtype NumPy's float-only ufuncs (exp, sqrt, true_divide...) compute in for `t`:
// bool/int8/uint8 -> float16, int16 -> float32, int32/int64 -> float64, floats unchanged.
DType floatLoopDType(DType t);
// The accumulator dtype of np.sum/np.prod: small ints and bool widen to int64.
DType sumDType(DType t);

}  // namespace pyasc::registry
