// Sliding-window kernels on the vector unit over NHWC images: depthwise conv2d, max and average pooling.
#pragma once

#include <string>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

// A tile is consecutive output rows of one image × a slice of channels (the lanes of one repeat):
// depthwise conv2d multiplies against resident weights (vmla), max pooling takes vmax, average
// pooling adds (vadd) and scales by 1/(KH·KW).
//
// How the taps of a window combine. MultiplyAdd and Average accumulate in f32, Max in the input type.
enum class WindowReduce { MultiplyAdd, Max, Average };

// input [N,H,W,C] → output [N,OH,OW,C]; MultiplyAdd also reads weights [KH,KW,C]. Taps outside the
// image are skipped: they add nothing and never win a maximum (every window must hold one pixel).
struct WindowCompute {
  std::string name;
  std::string op = "max_pool2d";  // what messages call it
  WindowReduce reduce = WindowReduce::Max;
  DType inType = DType::Float16, outType = DType::Float16;  // f16 or f32 each
  int64_t n = 1, h = 1, w = 1, c = 1, kh = 1, kw = 1;
  int64_t strideH = 1, strideW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  int64_t dilationH = 1, dilationW = 1;
  int sourceLine = 0;

  int64_t outH() const { return (h + padTop + padBottom - (kh - 1) * dilationH - 1) / strideH + 1; }
  int64_t outW() const { return (w + padLeft + padRight - (kw - 1) * dilationW - 1) / strideW + 1; }
  DType accType() const { return reduce == WindowReduce::Max ? inType : DType::Float32; }
};

// Plain data: channels per tile (1 .. lanes of the accumulator type), output rows per tile (their
// input rows loaded once) and cores.
struct WindowSchedule {
  int64_t channels = 0;
  int64_t rows = 1;
  int blockDim = 0;  // 0: no tile fits
  double estimatedCycles = 0;
  std::string str() const;
};

// UB bytes of tiles of `channels` × `rows` output rows: two buffer sets (input rows, their converted
// copy, accumulator, converted output) plus the resident weights of MultiplyAdd.
int64_t windowUbBytes(const WindowCompute& compute, int64_t channels, int64_t rows);

// The tile with the fewest modelled cycles among those that fit UB and the repeat-stride field;
// blockDim 0 when none does.
WindowSchedule scheduleWindow(const WindowCompute& compute, const Target& target, int maxCores);

// As scheduleWindow, but throws a CompileError naming UB, its capacity and the smallest request (or
// the field that overflows) when no slice fits.
WindowSchedule requireWindowSchedule(const WindowCompute& compute, const Target& target, int maxCores);

// Kernel arguments: input, output (MultiplyAdd: input, weights, output). Throws CompileError for a
// compute outside the supported sizes or a schedule that does not fit the target.
KernelCode lowerWindow(const WindowCompute& compute, const WindowSchedule& schedule, const Target& target);

}  // namespace pyasc::codegen
