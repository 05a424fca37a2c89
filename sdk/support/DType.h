// Element types shared by the frontend, the graph IR, the ISA and the model file.
#pragma once

#include <cstdint>
#include <string>

namespace pyasc {

enum class DType : uint8_t {
  Bool = 0,
  Int8 = 1,
  UInt8 = 2,
  Int16 = 3,
  Int32 = 4,
  Int64 = 5,
  Float16 = 6,
  Float32 = 7,
  Float64 = 8,
};
constexpr int kDTypeCount = 9;

int dtypeSize(DType t);
bool isFloat(DType t);
bool isSigned(DType t);
bool isInteger(DType t);  // Bool is not an integer here
const char* dtypeName(DType t);    // NumPy name: "float16", "int32", "bool"
const char* dtypeShortName(DType t);  // ISA suffix: "f16", "s32", "b8"
// Accepts NumPy names, their aliases ("float", "half", "int") and ISA suffixes.
bool parseDType(const std::string& name, DType& out);
// The NumPy character code with byte order, as in a .npy header ("<f4", "|b1").
std::string dtypeNpyDescr(DType t);

}  // namespace pyasc
