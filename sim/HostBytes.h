// Byte arrays that start on a host cache line, for GM and the local buffers: bulk copies and SIMD
// loops over them then never split a line they could have moved whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace pyasc::sim {

template <typename T>
struct LineAlignedAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlign{64};
  LineAlignedAllocator() = default;
  template <typename U>
  LineAlignedAllocator(const LineAlignedAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlign)); }
  void deallocate(T* p, size_t) { ::operator delete(p, kAlign); }
  template <typename U>
  bool operator==(const LineAlignedAllocator<U>&) const { return true; }
  template <typename U>
  bool operator!=(const LineAlignedAllocator<U>&) const { return false; }
};

using HostBytes = std::vector<uint8_t, LineAlignedAllocator<uint8_t>>;

}  // namespace pyasc::sim
