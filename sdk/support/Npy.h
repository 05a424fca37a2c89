// NumPy .npy files: read format versions 1.0–3.0 (either byte order, C or Fortran order), write 1.0.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sdk/support/DType.h"

namespace pyasc {

// Storage for array bytes, 64-byte aligned; blocks of 4 MiB or more are aligned to 2 MiB and
// advised to the kernel as transparent huge pages (as NumPy does for its large arrays), so that
// writing a fresh array takes one page fault per 2 MiB instead of one per 4 KiB; released blocks
// of 256 KiB or more (up to 512 MiB in all) are kept for the next request of the same size.
// Throws std::bad_alloc; release with releaseArrayStorage.
void* allocateArrayStorage(size_t bytes);
void releaseArrayStorage(void* p) noexcept;

// An allocator whose resize leaves new bytes uninitialised: an array's bytes are always written
// whole (by a reader, a generator, a simulator or a CPU pipeline), so zeroing them first would be a
// wasted pass over memory as large as the array.
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
  using value_type = T;
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <typename U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  T* allocate(size_t n) { return static_cast<T*>(allocateArrayStorage(n * sizeof(T))); }
  void deallocate(T* p, size_t) noexcept { releaseArrayStorage(p); }
};
using ArrayBytes = std::vector<uint8_t, UninitializedAllocator<uint8_t>>;

struct NpyArray {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;  // empty for a 0-d array
  ArrayBytes data;             // C order, native (little-endian) byte order

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
