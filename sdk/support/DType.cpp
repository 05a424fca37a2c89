// DType names, sizes and parsing.
#include "sdk/support/DType.h"

namespace pyasc {

namespace {
struct DTypeInfo {
  const char* name;
  const char* shortName;
  const char* npy;
  int size;
  bool isFloat;
  bool isSigned;
};
const DTypeInfo kInfo[kDTypeCount] = {
    {"bool", "b8", "|b1", 1, false, false},     {"int8", "s8", "|i1", 1, false, true},
    {"uint8", "u8", "|u1", 1, false, false},    {"int16", "s16", "<i2", 2, false, true},
    {"int32", "s32", "<i4", 4, false, true},    {"int64", "s64", "<i8", 8, false, true},
    {"float16", "f16", "<f2", 2, true, true},   {"float32", "f32", "<f4", 4, true, true},
    {"float64", "f64", "<f8", 8, true, true},
};
const DTypeInfo& info(DType t) { return kInfo[static_cast<int>(t)]; }
}  // namespace

int dtypeSize(DType t) { return info(t).size; }
bool isFloat(DType t) { return info(t).isFloat; }
bool isSigned(DType t) { return info(t).isSigned; }
bool isInteger(DType t) { return !info(t).isFloat && t != DType::Bool; }
const char* dtypeName(DType t) { return info(t).name; }
const char* dtypeShortName(DType t) { return info(t).shortName; }
std::string dtypeNpyDescr(DType t) { return info(t).npy; }

bool parseDType(const std::string& name, DType& out) {
  for (int i = 0; i < kDTypeCount; ++i) {
    if (name == kInfo[i].name || name == kInfo[i].shortName) {
      out = static_cast<DType>(i);
      return true;
    }
  }
  static const std::pair<const char*, DType> aliases[] = {
      {"half", DType::Float16}, {"float", DType::Float32}, {"double", DType::Float64},
      {"int", DType::Int32},    {"bool_", DType::Bool},    {"fp16", DType::Float16},
      {"fp32", DType::Float32},
  };
  for (const auto& a : aliases) {
    if (name == a.first) {
      out = a.second;
      return true;
    }
  }
  return false;
}

}  // namespace pyasc
