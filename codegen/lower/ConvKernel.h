// Lowers conv2d to a cube kernel by img2col: L1 input windows → L0A patch matrices, resident L1
// weights → L0B, mmad accumulating over K chunks, L0C → GM fixpipe; depthwise optionally on the
// vector unit; NCHW through transposes.
#pragma once

#include <string>
#include <vector>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/target/Target.h"

namespace pyasc::codegen {

// What a fused conv2d applies to each output element's float32 accumulator before writing it,
// in this order: a per-output-channel scale and bias, or batch norm with per-output-channel statistics
// (acc · s + t, s = gamma / sqrt(var + epsilon), t = beta − mean · s, computed in the kernel), the
// residual added, max(·, 0); a float16 residual of a float16 result is added (with the max) after
// the conversion.
struct Conv2dEpilogue {
  bool scale = false;                // a row of Cout multiplied (not with a batch norm)
  DType scaleType = DType::Float32;  // f32, or f16 converted once per channel slice
  bool bias = false;                 // a row of Cout added (not with a batch norm)
  DType biasType = DType::Float32;   // f32, or f16 converted once per channel slice
  bool batchNorm = false;
  double epsilon = 1e-5;
  bool residual = false;  // an array of the output's shape
  DType residualType = DType::Float32;  // f16 or f32
  bool relu = false;
  bool any() const { return scale || bias || batchNorm || residual || relu; }
  // the types of the per-channel rows read from argument 3 on: the scale, then the bias
  std::vector<DType> channelRows() const {
    std::vector<DType> rows;
    if (scale) rows.push_back(scaleType);
    if (bias) rows.push_back(biasType);
    return rows;
  }
};

// out = conv2d(input, weights). NHWC: input [N,H,W,Cin], weights [KH,KW,Cin/groups,Cout], output
// [N,OH,OW,Cout]. NCHW (PyTorch order): input [N,Cin,H,W], weights [Cout,Cin/groups,KH,KW], output
// [N,Cout,OH,OW]. Output channel block g of Cout/groups reads input channel block g of Cin/groups.
struct Conv2dCompute {
  std::string name;
  DType inType = DType::Float16;   // input and weights: f16 or f32
  DType outType = DType::Float32;  // f16 or f32; accumulation is always f32
  int64_t n = 1, h = 1, w = 1, cin = 1, cout = 1, kh = 1, kw = 1;
  int64_t strideH = 1, strideW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  int64_t dilationH = 1, dilationW = 1;
  int64_t groups = 1;
  bool nchw = false;
  Conv2dEpilogue epilogue;  // NHWC cube kernels only
  int sourceLine = 0;
  // Dynamic shapes (pyasc --dynamic-dims): n, h and w are the largest extents, minN, minH and minW
  // the smallest, and the kernel takes the extents at launch as scalar arguments after its tensors, in
  // Conv2dShapeScalar order.
  bool dynamicShape = false;
  int64_t minN = 0, minH = 0, minW = 0;

  int64_t outH() const { return (h + padTop + padBottom - (kh - 1) * dilationH - 1) / strideH + 1; }
  int64_t outW() const { return (w + padLeft + padRight - (kw - 1) * dilationW - 1) / strideW + 1; }
  int64_t inputElements() const { return n * h * w * cin; }
  int64_t weightElements() const { return kh * kw * (cin / groups) * cout; }
  int64_t outputElements() const { return n * outH() * outW() * cout; }
};

// The scalar arguments of a dynamic-shape conv2d kernel: input rows and columns, output columns,
// output positions per image (OH·OW), positions per tile (dynamicTilePositions), tiles per image
// (ceil(positions / that)) and tiles in all (N times that).
enum class Conv2dShapeScalar { H, W, OutW, Positions, TilePositions, TilesPerImage, Tiles, Count };

// The positions a dynamic-shape kernel's tile covers at output width `ow`: the most whole output
// rows a tile of `tm` holds, so that each window holds no more input rows than its own, or `tm`
// when one row is wider.
inline int64_t dynamicTilePositions(int64_t tm, int64_t ow) { return ow <= tm ? tm / ow * ow : tm; }

// Cube: img2col + mmad. VectorDepthwise (groups = Cin = Cout only): f32 multiply-accumulates
// on the vector unit, which wastes no lanes on the other channels of a fractal.
enum class Conv2dEngine { Cube, VectorDepthwise };

// Tile sizes: plain data, printable. Cube: one tile is `tm` output positions of one image by `tn`
// output channels of one group; its reduction runs in K chunks of `kr` kernel rows × KW × `tc`
// input channels (channel blocks outer, kernel rows inner). VectorDepthwise: one tile is one
// output rows (`outRows`) of one image by `tc` (≤ 64) channels; tm, tn, kr and windowRows are 0.
struct Conv2dSchedule {
  Conv2dEngine engine = Conv2dEngine::Cube;
  int64_t tm = 0, tn = 0, tc = 0, kr = 0;
  int64_t windowRows = 0;  // input rows one tile's window holds in L1 (the most any tile needs)
  int l0cBuffers = 1;
  int blockDim = 1;
  double estimatedCycles = 0;
  int64_t outRows = 1;  // VectorDepthwise: output rows per tile
  // Input channels one window holds (a multiple of tc): 0 holds every channel of the group; fewer
  // split the tile's K reduction into window loads that accumulate into the same L0C tile.
  int64_t windowChannels = 0;
  std::string str() const;
};

// Enumerates tiles that fit L1 (two input windows plus the weights of one output-channel slice),
// L0A, L0B and L0C (double-buffered) and the instruction fields, and keeps the one with the fewest
// modelled cycles; a depthwise conv2d also tries the vector engine (UB double-buffered) on the
// same share of the vector cores (maxCores · vectorCores / cubeCores) and keeps the faster.
// Throws CompileError naming the buffer, its capacity and the smallest request when nothing fits,
// or the field when a size is beyond what img2col encodes.
struct Conv2dSearch {
  // Also windows of fewer channels when windows of every channel fit (O2); else only when none does.
  bool everyWindow = false;
};
Conv2dSchedule scheduleConv2d(const Conv2dCompute& compute, const Target& target, int maxCores,
                              const Conv2dSearch& options = {});

// A dynamic-shape conv2d runs on the cube with one output-channel slice and windows of every
// channel; each core loops over its share of the tiles at run time.
// The NHWC kernel (compute.nchw must be false). Kernel arguments: input, weights, output, then
// with an epilogue the float32 statistics mean, var, gamma, beta (batch norm) and the residual.
// Throws CompileError for a schedule (possibly edited by the caller) that does not fit the target.
KernelCode lowerConv2d(const Conv2dCompute& compute, const Conv2dSchedule& schedule, const Target& target);

// GM tensors the launches of a conv2d name: the operator's three, and the NHWC scratch copies an
// NCHW conv2d needs.
enum class Conv2dTensor {
  Input, Weights, Output, InputNhwc, WeightsTaps, WeightsNhwc, OutputNhwc, Scale, Bias, Mean, Var, Gamma, Beta, Residual
};

struct Conv2dLaunch {
  KernelCode code;
  std::vector<Conv2dTensor> args;  // GM tensor of each kernel argument, in order
};

struct Conv2dScratch {
  Conv2dTensor tensor;
  int64_t bytes;
};

// A whole conv2d as launches in order. NHWC: the conv kernel alone. NCHW: input and weights are
// transposed into NHWC scratch tensors (the weights in two steps, through [Cout, KH·KW, Cin/g]),
// the NHWC kernel runs, and its result is transposed back.
struct Conv2dLaunches {
  std::vector<Conv2dLaunch> launches;
  std::vector<Conv2dScratch> scratch;
};

Conv2dLaunches lowerConv2dLaunches(const Conv2dCompute& compute, const Conv2dSchedule& schedule, const Target& target);

}  // namespace pyasc::codegen
