// NumPy .npy files: read format versions 1.0–3.0 (either byte order, C or Fortran order), write 1.0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sdk/support/DType.h"

namespace pyasc {

struct NpyArray {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;  // empty for a 0-d array
  std::vector<uint8_t> data;   // C order, native (little-endian) byte order

  int64_t elementCount() const;
};

// An array's bytes held by someone else (an NpyArray, a NumPy array): C order, native byte order,
// elementCount(shape) × dtypeSize(dtype) bytes at `data`.
struct NpyView {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  const uint8_t* data = nullptr;

  static NpyView of(const NpyArray& a) { return NpyView{a.dtype, a.shape, a.data.data()}; }
};

// Reads and validates a .npy file; a malformed file throws CompileError at SourceLocation{path}
// with a one-line reason ("not a .npy file (bad magic)", "unsupported dtype '<c16'", ...).
NpyArray readNpy(const std::string& path);
// The same for bytes already in memory; `name` is the file name used in messages.
NpyArray parseNpy(const std::vector<uint8_t>& bytes, const std::string& name);

// Writes a version 1.0 file, byte-identical to np.save of the same array, atomically.
void writeNpy(const std::string& path, const NpyArray& array);
std::vector<uint8_t> serializeNpy(const NpyArray& array);

}  // namespace pyasc
