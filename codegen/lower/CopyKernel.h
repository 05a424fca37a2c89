// Lowers a strided copy out[i] = in[srcOffset + Σ i_k·srcStride_k] into out[dstOffset + Σ i_k·dstStride_k]:
// the one data-movement kernel behind slices, slice updates, concatenation, broadcasts, transposes,
// pads and gathers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

struct CopyCompute {
  std::string name;
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;       // iteration space (the copied region)
  std::vector<int64_t> srcStrides;  // elements; 0 broadcasts, negative reverses
  std::vector<int64_t> dstStrides;  // elements, positive
  int64_t srcOffset = 0, dstOffset = 0;  // elements
  // runtime byte offsets added to the source/destination, passed as scalar arguments after the
  // two tensors (source first): slices inside loops
  bool srcOffsetArg = false, dstOffsetArg = false;
  int sourceLine = 0;
  // the destination's element type when it differs (int32 → int64 sign-extends): element moves
  // through the scalar unit
  std::optional<DType> toType;
};

// Merges dimensions that are contiguous on both sides and drops extent-1 dimensions (except a
// contiguous last one after a strided dimension: rows of one element).
CopyCompute canonicalCopy(const CopyCompute& copy);

// Kernel arguments: source, destination, then the runtime offsets that are enabled. Rows contiguous
// on both sides move by DMA through UB; broadcasts along the last axis by vdup; transposes of
// 16- and 32-bit elements (a dimension contiguous in the source becoming the contiguous one of the
// destination) in tiles through vtranspose, the tiles split over the cores; any other pattern
// moves element by element through the scalar unit. The outermost loop is split over up to
// `maxCores` cores; a copy without loops larger than one DMA is cut into pieces for the cores.
KernelCode lowerCopy(const CopyCompute& copy, const Target& target, int maxCores);

// Several copies from one tensor to another in one kernel (kernel arguments: source, destination;
// no runtime offsets), e.g. the index runs of a gather. A copy with outer loops splits them over
// the cores; copies without loops are dealt to the cores in turn.
KernelCode lowerCopies(const std::string& name, const std::vector<CopyCompute>& pieces, const Target& target,
                       int maxCores);

}  // namespace pyasc::codegen
