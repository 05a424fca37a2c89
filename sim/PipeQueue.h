// A pipe's in-order instruction queue: a fixed ring of Depth slots, no allocation per instruction.
#pragma once

#include <array>
#include <cstddef>

namespace pyasc::sim {

template <typename T, size_t Depth>
class PipeQueue {
 public:
  bool empty() const { return count_ == 0; }
  size_t size() const { return count_; }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  // A new last slot, holding whatever it held before, for the caller to fill in place. The caller
  // keeps size() below Depth (the scalar unit stalls on a full queue).
  T& push_back() {
    T& slot = slots_[(head_ + count_) % Depth];
    ++count_;
    return slot;
  }
  void pop_front() {
    head_ = (head_ + 1) % Depth;
    --count_;
  }

 private:
  std::array<T, Depth> slots_{};
  size_t head_ = 0, count_ = 0;
};

}  // namespace pyasc::sim
