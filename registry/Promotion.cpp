// Promotion tables following numpy/_core/src/multiarray/dtypemeta promotion for the supported dtypes.
#include "registry/Promotion.h"

#include <algorithm>

namespace pyasc::registry {

DType floatLoopDType(DType t) {
  switch (t) {
    case DType::Bool:
    case DType::Int8:
    case DType::UInt8: return DType::Float16;
    case DType::Int16: return DType::Float32;
    case DType::Int32:
    case DType::Int64: return DType::Float64;
    default: return t;
  }
}

DType sumDType(DType t) {
  if (t == DType::Bool || isInteger(t)) return DType::Int64;
  return t;
}

DType promoteTypes(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  if (isFloat(a) && isFloat(b)) return dtypeSize(a) >= dtypeSize(b) ? a : b;
  if (isFloat(a) || isFloat(b)) {
    const DType f = isFloat(a) ? a : b;
    const DType i = isFloat(a) ? b : a;
    const DType needed = floatLoopDType(i);
    return dtypeSize(needed) >= dtypeSize(f) ? needed : f;
  }
  // Both integers; the only unsigned type is uint8.
  if (isSigned(a) == isSigned(b)) return dtypeSize(a) >= dtypeSize(b) ? a : b;
  const DType s = isSigned(a) ? a : b;
  return s == DType::Int8 ? DType::Int16 : s;
}

DType promoteWithScalar(DType array, ScalarKind kind) {
  switch (kind) {
    case ScalarKind::Bool: return array;
    case ScalarKind::Int: return array == DType::Bool ? DType::Int64 : array;
    case ScalarKind::Float: return isFloat(array) ? array : DType::Float64;
  }
  return array;
}

DType scalarDefaultDType(ScalarKind kind) {
  switch (kind) {
    case ScalarKind::Bool: return DType::Bool;
    case ScalarKind::Int: return DType::Int64;
    case ScalarKind::Float: return DType::Float64;
  }
  return DType::Float64;
}

}  // namespace pyasc::registry
