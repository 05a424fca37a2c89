// Conv2d lowering: a tiling solver over buffer capacities, per-core static tile lists, and per tile
// a GM→L1 input window, img2col and per-tap weight loads into ping-pong L0A/L0B, mmad accumulating
// over K chunks, and a fixpipe of the valid rows and columns, synchronised MTE2→MTE1→M→FIX; depthwise
// convolutions may run as a window kernel on the vector unit (WindowKernel) instead.
#include "codegen/lower/ConvKernel.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "codegen/isel/DmaIsel.h"
#include "codegen/isel/VectorIsel.h"
#include "codegen/lower/CopyKernel.h"
#include "codegen/lower/CubeShapes.h"
#include "codegen/lower/TilePipeline.h"
#include "codegen/lower/WindowKernel.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

using isa::Instruction;
using isa::MemRef;
using isa::Opcode;
using isa::Pipe;
using isa::Space;

std::string Conv2dSchedule::str() const {
  std::ostringstream os;
  if (engine == Conv2dEngine::VectorDepthwise) {
    os << "vector_depthwise channels=" << tc << " rows=" << outRows << " block_dim=" << blockDim;
  } else {
    os << "tile=" << tm << "x" << tn << " channel_block=" << tc << " kernel_rows=" << kr << " window_rows=" << windowRows;
    if (windowChannels > 0) os << " window_channels=" << windowChannels;
    os << " l0c_buffers=" << l0cBuffers << " block_dim=" << blockDim;
  }
  return os.str();
}

namespace {

// Event ids: 0 and 1 name ping-pong buffers; MTE1→MTE2 `kWeightsEvent` frees the weights, and
// MTE2→MTE1 `kWeightsEvent + piece` says one piece of them has arrived.
constexpr int kWeightsEvent = 2;
constexpr int kStatisticsEvent = 2;  // V→MTE2 and MTE2→V: the epilogue's bias or batch-norm statistics
constexpr int64_t kWeightPieces = 4;
constexpr int64_t kMaxImg2ColField = 4095;  // h, w, c, m, k of img2col; m, k, n of mmad
constexpr int64_t kMaxImg2ColGeometry = 63;  // stride, pad and dilation fields

[[noreturn]] void fail(const Conv2dCompute& c, const std::string& what) {
  Diagnostic d;
  d.range.begin.line = c.sourceLine;
  d.message = "conv2d '" + c.name + "': " + what;
  throw CompileError(d);
}

// Sizes derived from a compute, shared by the solver and the emitter.
struct ConvGeometry {
  int64_t oh, ow, positions;  // output rows, columns, positions per image
  int64_t cg, ng;             // input and output channels per group
  int64_t taps;               // KH·KW
  int64_t effH, effW;         // dilated kernel extents
  int64_t c0, cpad;           // fractal row elements; channels per group padded to c0
  int es;                     // input element bytes
  int lanes;                  // f16 lanes per input element: img2col moves f32 data as f16 pairs

  explicit ConvGeometry(const Conv2dCompute& c)
      : oh(c.outH()), ow(c.outW()), positions(oh * ow), cg(c.cin / c.groups), ng(c.cout / c.groups),
        taps(c.kh * c.kw), effH((c.kh - 1) * c.dilationH + 1), effW((c.kw - 1) * c.dilationW + 1),
        c0(c0Of(c.inType)), cpad(roundUp(cg, c0)), es(dtypeSize(c.inType)), lanes(dtypeSize(c.inType) / 2) {}

  // Input rows the window of any tile of `tm` positions needs: a tile spans at most
  // ceil((tm-1)/OW)+1 output rows. A dynamic shape's window holds the most pixels any width in
  // its range needs (its tiles hold whole output rows, dynamicTilePositions), given as rows of the
  // widest input.
  int64_t windowRows(const Conv2dCompute& c, int64_t tm) const {
    if (!c.dynamicShape) return rowsAt(c, tm, ow);
    int64_t pixels = 0;
    for (int64_t w = c.minW; w <= c.w; ++w) {
      const int64_t outW = (w + c.padLeft + c.padRight - effW) / c.strideW + 1;
      if (outW < 1) continue;
      const int64_t rowsOut = outW <= tm ? std::min(oh, tm / outW) : std::min<int64_t>(oh, 2);
      pixels = std::max(pixels, std::min(c.h, (rowsOut - 1) * c.strideH + effH) * w);
    }
    return ceilDiv(pixels, c.w);
  }
  // The input rows a tile of `tm` positions spans at most in rows of `outW` positions.
  int64_t rowsAt(const Conv2dCompute& c, int64_t tm, int64_t outW) const {
    int64_t rowsOut = std::min(oh, ceilDiv(tm - 1, outW) + 1);
    return std::min(c.h, (rowsOut - 1) * c.strideH + effH);
  }
  // One window of `windowRows` input rows and `channels` padded channels (0: all of the group's).
  int64_t windowBytes(const Conv2dCompute& c, int64_t windowRows, int64_t channels = 0) const {
    return windowRows * c.w * (channels > 0 ? channels : cpad) * es;
  }
  // Weights of one output-channel slice in L1: one padded row per (tap, input channel).
  int64_t weightBytes(int64_t tn) const { return taps * cg * localRowBytes(tn * es); }
};

bool isDepthwise(const Conv2dCompute& c) { return c.groups == c.cin && c.groups == c.cout; }

// A float16 result whose residual, if any, is float16 takes its epilogue in float16: the fixpipe
// rounds the accumulator to float16 and the scale and shift (computed in float32), the residual and
// the max apply to that, as inference engines apply a batch norm folded into float16 weights.
bool halfEpilogue(const Conv2dCompute& c) {
  return c.outType == DType::Float16 && (!c.epilogue.residual || c.epilogue.residualType == DType::Float16);
}

// The float16 rows a float16 epilogue applies (scale then bias, or the batch norm's scale and
// shift), each at least one repeat (256 bytes) so that a row narrower than that can be repeated
// across it and applied to several tile rows per repeat.
int64_t halfRowCount(const Conv2dCompute& c) {
  return c.epilogue.batchNorm ? 2 : static_cast<int64_t>(c.epilogue.channelRows().size());
}
int64_t halfRowBytes(int64_t tn) { return std::max<int64_t>(roundUp(tn, 16) * 2, isa::kRepeatBytes); }

// UB of an epilogue: the statistics rows of a tile's `tn` channels (the batch norm's four, or the
// scale and bias rows: float32 ones, float16 ones and the float32 rows those widen into; in a
// float16 epilogue the float32 ones and the float16 rows applied), and per column of a chunk of
// every tile row, twice (chunks alternate between two buffers), the float32 accumulator, the
// residual (its type, and float32 when that is float16 but the output is not) and the float16
// output (in a float16 epilogue only the output and the float16 residual).
int64_t epilogueStatisticsBytes(const Conv2dCompute& c, int64_t tn) {
  const int64_t row = roundUp(tn, 16) * dtypeSize(DType::Float32);
  const std::vector<DType> rows = c.epilogue.channelRows();
  const int64_t f32Rows = c.epilogue.batchNorm ? 4 : std::count(rows.begin(), rows.end(), DType::Float32);
  if (halfEpilogue(c)) return f32Rows * row + halfRowCount(c) * halfRowBytes(tn);
  return c.epilogue.batchNorm ? 4 * row
                              : static_cast<int64_t>(rows.size()) * row + (static_cast<int64_t>(rows.size()) - f32Rows) * (row / 2);
}
int64_t epilogueColumnBytes(const Conv2dCompute& c, int64_t tm) {
  if (halfEpilogue(c)) return 2 * tm * (2 + (c.epilogue.residual ? 2 : 0));
  const bool half = c.outType == DType::Float16, halfResidual = c.epilogue.residualType == DType::Float16;
  const int64_t residual = !c.epilogue.residual ? 0 : 4 + (halfResidual ? 2 : 0);
  return 2 * tm * (4 + residual + (half ? 2 : 0));
}
// Output channels one epilogue chunk takes: the most whole 16-channel blocks of the tile that fit
// UB; 0 when not even one does.
int64_t epilogueChunkColumns(const Conv2dCompute& c, const Target& target, int64_t tm, int64_t tn) {
  int64_t room = target.buffer(Space::UB).size - epilogueStatisticsBytes(c, tn);
  return room <= 0 ? 0 : std::min(roundUp(tn, 16), room / epilogueColumnBytes(c, tm) / 16 * 16);
}

// The depthwise conv2d as a window kernel (groups = Cin = Cout, weights [KH,KW,1,C]).
WindowCompute depthwiseWindow(const Conv2dCompute& c) {
  WindowCompute w;
  w.name = c.name;
  w.op = "conv2d";
  w.reduce = WindowReduce::MultiplyAdd;
  w.inType = c.inType;
  w.outType = c.outType;
  w.n = c.n;
  w.h = c.h;
  w.w = c.w;
  w.c = c.cin;
  w.kh = c.kh;
  w.kw = c.kw;
  w.strideH = c.strideH;
  w.strideW = c.strideW;
  w.padTop = c.padTop;
  w.padBottom = c.padBottom;
  w.padLeft = c.padLeft;
  w.padRight = c.padRight;
  w.dilationH = c.dilationH;
  w.dilationW = c.dilationW;
  w.sourceLine = c.sourceLine;
  return w;
}

WindowSchedule windowScheduleOf(const Conv2dSchedule& s) {
  return WindowSchedule{s.tc, s.outRows, s.blockDim, s.estimatedCycles};
}

void validate(const Conv2dCompute& c) {
  if (c.inType != DType::Float16 && c.inType != DType::Float32)
    fail(c, std::string("input type ") + dtypeName(c.inType) + " is not supported (f16 or f32)");
  if (c.outType != DType::Float16 && c.outType != DType::Float32)
    fail(c, std::string("output type ") + dtypeName(c.outType) + " is not supported (f16 or f32)");
  if (c.n < 1 || c.h < 1 || c.w < 1 || c.cin < 1 || c.cout < 1 || c.kh < 1 || c.kw < 1 || c.groups < 1)
    fail(c, "every size must be positive");
  if (c.cin % c.groups != 0 || c.cout % c.groups != 0)
    fail(c, "groups (" + std::to_string(c.groups) + ") must divide input channels (" + std::to_string(c.cin) +
                ") and output channels (" + std::to_string(c.cout) + ")");
  for (int64_t v : {c.strideH, c.strideW, c.dilationH, c.dilationW})
    if (v < 1 || v > kMaxImg2ColGeometry) fail(c, "strides and dilations must be in 1..63 (img2col fields)");
  for (int64_t v : {c.padTop, c.padBottom, c.padLeft, c.padRight})
    if (v > kMaxImg2ColGeometry) fail(c, "padding must be at most 63 (img2col fields)");
  ConvGeometry g(c);
  if (c.padTop < 0 || c.padBottom < 0 || c.padTop >= g.effH || c.padLeft < 0 || c.padRight < 0 || c.padLeft >= g.effW ||
      c.padBottom >= g.effH || c.padRight >= g.effW)
    fail(c, "padding must be non-negative and smaller than the dilated kernel extent");
  if (c.kh > 255 || c.kw > 255) fail(c, "kernel sizes above 255 do not fit img2col");
  if (c.w > kMaxImg2ColField) fail(c, "input width " + std::to_string(c.w) + " exceeds img2col's 4095");
  if (c.cin * g.es > 65535 || c.cout * g.es > 65535)
    fail(c, "a row of " + std::to_string(std::max(c.cin, c.cout) * g.es) + " bytes of channels exceeds a DMA gap");
  if (g.oh < 1 || g.ow < 1) fail(c, "the kernel does not fit the padded input");
  if (c.epilogue.any() && c.nchw) fail(c, "a fused epilogue needs the NHWC kernel");
  if (c.dynamicShape && (c.nchw || c.groups != 1 || c.minN < 1 || c.minN > c.n || c.minH < 1 || c.minH > c.h ||
                         c.minW < 1 || c.minW > c.w || c.minW + c.padLeft + c.padRight < g.effW ||
                         c.minH + c.padTop + c.padBottom < g.effH))
    fail(c, "dynamic shapes need an NHWC convolution without groups whose kernel fits the smallest input");
  if ((c.epilogue.scale || c.epilogue.bias) && c.epilogue.batchNorm)
    fail(c, "a fused epilogue takes a scale and bias or a batch norm, not both");
  for (DType t : c.epilogue.channelRows())
    if (t != DType::Float16 && t != DType::Float32)
      fail(c, std::string("per-channel row type ") + dtypeName(t) + " is not supported (f16 or f32)");
  if (c.epilogue.residual && c.epilogue.residualType != DType::Float16 && c.epilogue.residualType != DType::Float32)
    fail(c, std::string("residual type ") + dtypeName(c.epilogue.residualType) + " is not supported (f16 or f32)");
}

// Cycles copyRowsToL1 holds MTE2 for a copy whose first GM byte is `start`: one burst for
// contiguous whole-block rows, otherwise a burst per row (in pieces of the DMA's burst count),
// each charged the lines it touches.
double copyRowsCycles(const Target& target, int64_t rows, int64_t rowBytes, int64_t gmGapBytes, int64_t start,
                      int cores) {
  if (gmGapBytes == 0 && rowBytes % isa::kBlockBytes == 0)
    return gmBurstCycles(target, 1, rows * rowBytes, 0, DmaPath::GmToL1, cores, start);
  double cycles = 0;
  for (int64_t done = 0; done < rows; done += isa::kMaxNBurst)
    cycles += gmBurstCycles(target, std::min<int64_t>(isa::kMaxNBurst, rows - done), rowBytes, rowBytes + gmGapBytes,
                            DmaPath::GmToL1, cores, start + done * (rowBytes + gmGapBytes));
  return cycles;
}

Conv2dSchedule scheduleCube(const Conv2dCompute& c, const Target& target, int maxCores, const Conv2dSearch& options) {
  ConvGeometry g(c);
  const int64_t l1 = target.buffer(Space::L1).size, l0a = target.buffer(Space::L0A).size,
                l0b = target.buffer(Space::L0B).size, l0c = target.buffer(Space::L0C).size;
  const int accBytes = dtypeSize(DType::Float32);
  // A dynamic-shape tile holds every output channel's weights and windows of every input channel
  // sized for the widest rows the ranges allow: say so when even the smallest does not fit.
  // (needL1 < 0: the tiles that fit the buffers need windows beyond one DMA's 4095 pixels)
  auto noDynamicTile = [&](int64_t needL1) {
    const std::string what = "two windows of all " + std::to_string(c.cin) + " input channels over " +
                             std::to_string(g.windowRows(c, 16)) + " rows of the widest input, and the weights of all " +
                             std::to_string(c.cout) + " output channels";
    fail(c, "compiled for dynamic shapes, " +
                (needL1 >= 0 ? "its smallest tile needs " + std::to_string(needL1) + " bytes of L1, which holds " +
                                   std::to_string(l1) + " (" + what + ")"
                             : "no tile fits L1, L0A, L0B and L0C with windows of at most 4095 pixels") +
                "; narrow the --dynamic-dims ranges or compile one model per shape");
  };
  if (c.dynamicShape) {
    const int64_t needL1 = 2 * g.windowBytes(c, g.windowRows(c, 16)) + g.weightBytes(roundUp(g.ng, 16));
    if (needL1 > l1) noDynamicTile(needL1);
  }
  // the smallest tile first: when it does not fit, say which buffer refuses it
  {
    int64_t rows = g.windowRows(c, 16);
    int64_t needL1 = 2 * g.windowBytes(c, rows, g.c0) + g.weightBytes(16);  // windows of one channel block
    auto refuse = [&](const char* buffer, int64_t capacity, int64_t request, const std::string& what) {
      fail(c, std::string(buffer) + " holds " + std::to_string(capacity) + " bytes but the smallest tile needs " +
                  std::to_string(request) + " (" + what + ")");
    };
    if (needL1 > l1)
      refuse("L1", l1, needL1,
             "two windows of " + std::to_string(rows) + "x" + std::to_string(c.w) + "x" + std::to_string(g.c0) +
                 " input elements and the weights of 16 output channels");
    int64_t k = c.kw * g.c0;  // one kernel row of one channel block
    if (2 * 16 * k * g.es > l0a) refuse("L0A", l0a, 2 * 16 * k * g.es, "two 16-row patch chunks");
    if (2 * k * 16 * g.es > l0b) refuse("L0B", l0b, 2 * k * 16 * g.es, "two weight chunks");
    if (rows > kMaxImg2ColField || k * g.lanes > kMaxImg2ColField)
      fail(c, "the smallest tile's img2col needs h=" + std::to_string(rows) + " and k=" + std::to_string(k * g.lanes) +
                  " (img2col fields hold at most 4095)");
  }
  const double fixBw = std::max(1e-9, coreBandwidth(target, DmaPath::L0CToGm, maxCores));
  const double rate = cubeRate(target, c.inType);
  // The shapes whose modelled cycles choose the tiles: the compute's own, or a dynamic shape's
  // smallest and largest (the tiles fit its worst case, ConvGeometry g). With several, each
  // candidate's cost is its worst ratio to the best each shape alone could have: a first search per
  // shape finds those.
  std::vector<Conv2dCompute> shapes = {c};
  if (c.dynamicShape) {
    Conv2dCompute smallest = c;
    smallest.n = c.minN;
    smallest.h = c.minH;
    smallest.w = c.minW;
    shapes = {smallest, c};
    for (Conv2dCompute& at : shapes) at.dynamicShape = false;
  }
  std::vector<double> bestAt(shapes.size(), 0);
  int only = shapes.size() > 1 ? 0 : -1;  // the shape a search models, or -1: all of them
  Conv2dSchedule best;
  double bestCycles = -1, bestScore = -1;
  // Windows of every channel of the group first; when none fits (or everyWindow asks), windows of
  // fewer channels (whole channel blocks), loaded one after another into the two buffers, their K
  // chunks accumulating into the tile's L0C.
  auto search = [&](bool split) {
  for (int64_t tm = 16; tm <= std::min(kMaxImg2ColField / 16 * 16, roundUp(g.positions, 16)); tm += 16) {
    int64_t rows = g.windowRows(c, tm);
    if (rows > kMaxImg2ColField) break;
    const int64_t smallest = 2 * g.windowBytes(c, rows, split ? g.c0 : 0);
    if (smallest + g.weightBytes(16) > l1) break;
    for (int64_t tn = c.dynamicShape ? roundUp(g.ng, 16) : 16; tn <= std::min<int64_t>(kMaxImg2ColField / 16 * 16, roundUp(g.ng, 16)); tn += 16) {
      if (smallest + g.weightBytes(tn) > l1) break;
      int64_t cBytes = tm * tn * accBytes;
      if (cBytes > l0c) break;
      if (c.epilogue.any() && epilogueChunkColumns(c, target, tm, tn) < 16) break;
      int buffers = 2 * cBytes <= l0c ? 2 : 1;
      // the slowest slice's weights: a slice whose rows start inside a line touches more lines
      double weightLoad = 0;
      for (int64_t col = 0; col < g.ng; col += tn) {
        const int64_t cols = std::min(tn, g.ng - col);
        weightLoad = std::max(weightLoad, copyRowsCycles(target, g.taps * g.cg, cols * g.es, (c.cout - cols) * g.es,
                                                         col * g.es, maxCores));
      }
      for (int64_t tc = g.c0; tc <= g.cpad; tc += g.c0) {
        // the channels a window holds: all, or the most whole blocks of tc that fit beside the weights
        int64_t held = 0;
        if (split) {
          const int64_t perBlock = 2 * g.windowBytes(c, rows, tc);
          held = std::min<int64_t>((l1 - g.weightBytes(tn)) / perBlock, ceilDiv(g.cpad, tc)) * tc;
          if (held < tc) break;
          if (held >= g.cpad) continue;  // the unsplit search has this one
        }
        // a dynamic kernel copies a window of runs per pixel in one DMA (nburst)
        if (c.dynamicShape && !(tc >= g.cg && g.cg * g.es % isa::kBlockBytes == 0) && rows * c.w > isa::kMaxNBurst) continue;
        // The window arrives as one copy per channel block: runs of a pixel's block of channels,
        // the whole row run when the block holds every channel. A tile's load at shape `at`: of the
        // rows the widest tile spans, or with tiles of `tp` positions from whole output rows (a
        // dynamic kernel's) averaged over an image's tiles.
        auto windowLoad = [&](const Conv2dCompute& at, int64_t tp) {
          const ConvGeometry ga(at);
          std::map<int64_t, int64_t> tilesOfRows;  // window rows → tiles
          if (!c.dynamicShape) tilesOfRows[ga.rowsAt(at, tm, ga.ow)] = 1;
          for (int64_t pos = 0; c.dynamicShape && pos < ga.positions; pos += tp) {
            const int64_t spanned = (std::min(ga.positions, pos + tp) - 1) / ga.ow - pos / ga.ow + 1;
            ++tilesOfRows[std::min(at.h, (spanned - 1) * at.strideH + ga.effH)];
          }
          int64_t tiles = 0;
          for (const auto& entry : tilesOfRows) tiles += entry.second;
          double cycles = 0;
          for (const auto& [windowRows, count] : tilesOfRows) {
            for (int64_t ch = 0; ch < g.cg; ch += tc) {
              int64_t valid = std::min(tc, g.cg - ch);
              cycles += double(count) * copyRowsCycles(target, windowRows * at.w, valid * g.es, (c.cin - valid) * g.es,
                                                       ch * g.es, maxCores);
            }
          }
          return cycles / double(tiles);
        };
        for (int64_t kr = 1; kr <= c.kh; ++kr) {
          int64_t tk = kr * c.kw * tc;
          if (tk * g.lanes > kMaxImg2ColField || 2 * tm * tk * g.es > l0a || 2 * tk * tn * g.es > l0b) break;
          // modelled cycles of one tile: the overlapped pipes, the slowest one setting the pace
          double compute = 0;
          for (int64_t ch = 0; ch < g.cg; ch += tc) {
            for (int64_t row = 0; row < c.kh; row += kr) {
              int64_t k = std::min(kr, c.kh - row) * c.kw * roundUp(std::min(tc, g.cg - ch), g.c0);
              double mmad = double(ceilDiv(tm, 16) * ceilDiv(tn, 16) * ceilDiv(k, 16)) / rate + target.cubeStartup;
              double mte1 = double(tm * k * g.es) / target.bw(DmaPath::L1ToL0A) +
                            double(k * tn * g.es) / target.bw(DmaPath::L1ToL0B);
              compute += std::max(mmad, mte1);
            }
          }
          double fix = double(tm * tn * dtypeSize(c.outType)) / fixBw;
          auto tilePositions = [&](const ConvGeometry& ga) { return c.dynamicShape ? dynamicTilePositions(tm, ga.ow) : tm; };
          // the cores are those the largest shape's tiles keep busy (a dynamic kernel's block_dim)
          const int cores = static_cast<int>(std::min<int64_t>(
              maxCores, c.groups * ceilDiv(g.ng, tn) * c.n * ceilDiv(g.positions, tilePositions(g))));
          auto cyclesAt = [&](const Conv2dCompute& at) {
            const ConvGeometry ga(at);
            const int64_t tp = tilePositions(ga);
            const double load = windowLoad(at, tp);
            double perTile = std::max({compute, load, buffers == 2 ? fix : 0.0}) + (buffers == 2 ? 0.0 : fix);
            const int64_t perSlice = at.n * ceilDiv(ga.positions, tp);
            int64_t tiles = at.groups * ceilDiv(ga.ng, tn) * perSlice;
            // a core loads the weights of every channel slice its run of tiles (emitPerCore's split,
            // slices outermost) touches: the busiest core's count
            int64_t slices = 1;
            for (int64_t core = 0, start = 0; core < std::min<int64_t>(cores, tiles); ++core) {
              int64_t count = tiles / cores + (core < tiles % cores ? 1 : 0);
              slices = std::max(slices, (start + count - 1) / perSlice - start / perSlice + 1);
              start += count;
            }
            return double(ceilDiv(tiles, cores)) * perTile + load + double(slices) * weightLoad + fix;
          };
          double score = 0, total = 0;
          for (size_t k = 0; k < shapes.size(); ++k) {
            if (only >= 0 && static_cast<size_t>(only) != k) continue;
            const double at = cyclesAt(shapes[k]);
            score = std::max(score, bestAt[k] > 0 ? at / bestAt[k] : at);
            total = at;  // the largest shape's, when it is modelled
          }
          if (bestScore < 0 || score < bestScore * 0.9999) {
            bestScore = score;
            bestCycles = total;
            best = Conv2dSchedule{Conv2dEngine::Cube, tm, tn, tc, kr, rows};
            best.windowChannels = held;
            best.l0cBuffers = buffers;
            best.blockDim = cores;
            best.estimatedCycles = total;
          }
        }
      }
    }
  }
  };
  for (; only >= 0 && only < static_cast<int>(shapes.size()); ++only) {
    search(false);
    if (bestScore < 0) noDynamicTile(-1);
    bestAt[static_cast<size_t>(only)] = bestScore;
    bestScore = -1;
  }
  only = -1;
  search(false);
  if (!c.dynamicShape && (bestCycles < 0 || options.everyWindow)) search(true);
  if (bestCycles < 0) fail(c, "no tile fits L1, L0A, L0B and L0C together");
  return best;
}

// The vector engine's best channel slice; blockDim 0 when none fits UB.
Conv2dSchedule scheduleDepthwiseVector(const Conv2dCompute& c, const Target& target, int maxCores) {
  WindowSchedule w = scheduleWindow(depthwiseWindow(c), target, maxCores);
  Conv2dSchedule s;
  s.engine = Conv2dEngine::VectorDepthwise;
  s.tc = w.channels;
  s.outRows = w.rows;
  s.blockDim = w.blockDim;
  s.estimatedCycles = w.estimatedCycles;
  return s;
}

}  // namespace

Conv2dSchedule scheduleConv2d(const Conv2dCompute& c, const Target& target, int maxCores, const Conv2dSearch& options) {
  validate(c);
  if (!isDepthwise(c) || c.epilogue.any() || c.dynamicShape) return scheduleCube(c, target, maxCores, options);
  int vectorCores = std::max(1, static_cast<int>(int64_t(maxCores) * target.vectorCores / std::max(1, target.cubeCores)));
  Conv2dSchedule vector = scheduleDepthwiseVector(c, target, vectorCores);
  try {
    Conv2dSchedule cube = scheduleCube(c, target, maxCores, options);
    return vector.blockDim > 0 && vector.estimatedCycles < cube.estimatedCycles ? vector : cube;
  } catch (const CompileError&) {
    if (vector.blockDim > 0) return vector;
    throw;
  }
}

namespace {

// A schedule is plain data that a caller may edit: refuse one the emitter cannot honour.
void checkSchedule(const Conv2dCompute& c, const Conv2dSchedule& s, const Target& target) {
  if (s.engine == Conv2dEngine::VectorDepthwise) {
    if (!isDepthwise(c) || c.epilogue.any() || s.tc < 1 || s.tc > 64 || s.tc > c.cin || s.blockDim < 1)
      fail(c, "schedule " + s.str() + " does not describe a depthwise conv2d on the vector unit");
    return;  // lowerWindow checks the buffers
  }
  ConvGeometry g(c);
  if (s.tm < 16 || s.tm % 16 != 0 || s.tm > kMaxImg2ColField || s.tn < 16 || s.tn % 16 != 0 ||
      s.tn > kMaxImg2ColField || s.tc < g.c0 || s.tc % g.c0 != 0 || s.tc > g.cpad || s.kr < 1 || s.kr > c.kh ||
      s.kr * c.kw * s.tc * g.lanes > kMaxImg2ColField || s.blockDim < 1 || s.l0cBuffers < 1 || s.l0cBuffers > 2)
    fail(c, "schedule " + s.str() + " does not describe tiles of this conv2d");
  if (c.dynamicShape && (s.engine != Conv2dEngine::Cube || s.tn < g.ng || s.windowChannels != 0))
    fail(c, "schedule " + s.str() + " does not describe tiles of a dynamic-shape conv2d (one channel slice, windows of "
            "every channel)");
  if (s.windowRows < g.windowRows(c, s.tm) || s.windowRows > kMaxImg2ColField)
    fail(c, "schedule " + s.str() + " needs windows of " + std::to_string(g.windowRows(c, s.tm)) + " input rows");
  auto fits = [&](Space space, const char* name, int64_t request) {
    int64_t capacity = target.buffer(space).size;
    if (request > capacity)
      fail(c, "schedule " + s.str() + " needs " + std::to_string(request) + " bytes of " + name + ", which holds " +
                  std::to_string(capacity));
  };
  if (s.windowChannels < 0 || s.windowChannels % s.tc != 0 || (s.windowChannels > 0 && s.windowChannels >= g.cpad))
    fail(c, "schedule " + s.str() + " needs window_channels of whole channel blocks, fewer than the group's " +
                std::to_string(g.cpad));
  fits(Space::L1, "L1", 2 * g.windowBytes(c, s.windowRows, s.windowChannels) + g.weightBytes(s.tn));
  fits(Space::L0A, "L0A", 2 * s.tm * s.kr * c.kw * s.tc * g.es);
  fits(Space::L0B, "L0B", 2 * s.kr * c.kw * s.tc * s.tn * g.es);
  fits(Space::L0C, "L0C", s.l0cBuffers * s.tm * s.tn * dtypeSize(DType::Float32));
  if (c.epilogue.any() && epilogueChunkColumns(c, target, s.tm, s.tn) < 16)
    fits(Space::UB, "UB", epilogueStatisticsBytes(c, s.tn) + 16 * epilogueColumnBytes(c, s.tm));
}

// The registers a tile of a dynamic-shape kernel lives in, computed on the scalar unit per tile.
struct TileRegs {
  int rows;                                  // valid positions
  int winRows, padTop, outRowsM1, posStart;  // input rows of the window, its top padding, output rows − 1, first position
  int src;                                   // GM address of the window's first input row
  int outElem;                               // the tile's first output element, (image·P + pos)·Cout
  int scratch;                               // addresses and counts derived where they are used
};

// One output tile: `rows` valid positions of one image from `pos`, `cols` valid output channels of
// one group from `col`; all static, or (dynamic shapes) image, pos and rows in `regs`, `rows`
// then the most it holds.
struct ConvTile {
  int64_t group, col, image, pos;
  int64_t rows, cols;
  const TileRegs* regs = nullptr;
};

// Copies `rows` runs of `rowBytes` (GM runs `gmGapBytes` apart) into packed 32-byte padded local
// rows, in pieces the DMA's burst count can hold; contiguous whole-block rows move as one run.
void copyRowsToL1(KernelBuilder& b, MemRef dst, MemRef src, int64_t rows, int64_t rowBytes, int64_t gmGapBytes) {
  if (gmGapBytes == 0 && rowBytes % isa::kBlockBytes == 0) {
    emitCopyRows(b, Opcode::CopyGmToL1, dst, src, 1, rows * rowBytes);
    return;
  }
  for (int64_t done = 0; done < rows; done += isa::kMaxNBurst) {
    int64_t piece = std::min<int64_t>(isa::kMaxNBurst, rows - done);
    MemRef d = dst, s = src;
    d.offset += done * localRowBytes(rowBytes);
    s.offset += done * (rowBytes + gmGapBytes);
    emitCopyRows(b, Opcode::CopyGmToL1, d, s, piece, rowBytes, gmGapBytes);
  }
}

class ConvEmitter {
 public:
  ConvEmitter(const Conv2dCompute& c, const Conv2dSchedule& s, KernelBuilder& b, int64_t chunkColumns, int widthReg = -1)
      : c_(c), s_(s), b_(b), g_(c), blocks_(ceilDiv(g_.cg, s.tc)), pieces_(std::min(blocks_, kWeightPieces)),
        chunk_(chunkColumns), widthReg_(widthReg) {
    int64_t window = g_.windowBytes(c, s.windowRows, s.windowChannels);
    for (int p = 0; p < 2; ++p) {
      l1Window_[p] = p * window;
      l0a_[p] = p * s.tm * s.kr * c.kw * s.tc * g_.es;
      l0b_[p] = p * s.kr * c.kw * s.tc * s.tn * g_.es;
    }
    l1Weights_ = 2 * window;
    cBytes_ = s.tm * s.tn * dtypeSize(DType::Float32);
    b.noteBufferBytes(Space::L1, 2 * window + g_.weightBytes(s.tn));
    b.noteBufferBytes(Space::L0A, 2 * l0a_[1]);
    b.noteBufferBytes(Space::L0B, 2 * l0b_[1]);
    b.noteBufferBytes(Space::L0C, s.l0cBuffers * cBytes_);
    if (c.epilogue.any()) {
      // UB: statistics rows (mean, var → sqrt(var + eps), gamma → scale, beta → shift), then the
      // chunk's accumulator, residual and float16 output, rows `chunk_` elements apart at most
      int64_t at = 0;
      auto take = [&](int64_t bytes) { int64_t a = at; at += roundUp(bytes, isa::kBlockBytes); return a; };
      statRow_ = roundUp(s.tn, 16) * dtypeSize(DType::Float32);
      ubStats_ = take(epilogueStatisticsBytes(c, s.tn));
      const bool halfWork = halfEpilogue(c);
      if (halfWork) {
        halfRow_ = halfRowBytes(s.tn);
        ubHalfRows_ = ubStats_ + epilogueStatisticsBytes(c, s.tn) - halfRowCount(c) * halfRow_;
      }
      for (int e = 0; e < 2; ++e) {
        if (!halfWork) ubAcc_[e] = take(s.tm * chunk_ * 4);
        if (c.epilogue.residual && !halfWork) ubResidual_[e] = take(s.tm * chunk_ * 4);
        if (c.epilogue.residual && c.epilogue.residualType == DType::Float16) ubResidualHalf_[e] = take(s.tm * chunk_ * 2);
        if (c.outType == DType::Float16) ubOut_[e] = take(s.tm * chunk_ * 2);
      }
      b.noteBufferBytes(Space::UB, at);
    }
  }

  // The epilogue's flags per chunk buffer: its accumulator is free for the fixpipe (MTE3→FIX) and
  // its residual for the next load (V→MTE2); the prologue sets them all, the epilogue consumes them.
  void prologue() {
    emitCubeFlagPrologue(b_, s_.l0cBuffers);
    for (int e = 0; e < 2; ++e) {
      if (c_.epilogue.any()) b_.setFlag(Pipe::MTE3, Pipe::FIX, e);
      if (c_.epilogue.residual) b_.setFlag(Pipe::V, Pipe::MTE2, e);
    }
  }
  void epilogue() {
    emitCubeFlagEpilogue(b_, s_.l0cBuffers);
    for (int e = 0; e < 2; ++e) {
      if (c_.epilogue.any()) b_.waitFlag(Pipe::MTE3, Pipe::FIX, e);
      if (c_.epilogue.residual) b_.waitFlag(Pipe::V, Pipe::MTE2, e);
    }
  }

  // Each core's code starts with no weights in L1.
  void beginCore() {
    weightsGroup_ = -1;
    weightsCol_ = -1;
    windowLoads_ = 0;
    epilogueChunks_ = 0;
  }

  // Emits tile number `index` of this core.
  // The tile's K reduction runs over one window of every channel, or over windows of
  // `windowChannels` channels one after another (alternating buffers), accumulating in L0C.
  void tile(const ConvTile& t, size_t index) {
    const int q = static_cast<int>(index % s_.l0cBuffers);
    const bool freshWeights = t.group != weightsGroup_ || t.col != weightsCol_;
    const int64_t held = s_.windowChannels > 0 ? s_.windowChannels : blocks_ * s_.tc;
    for (int64_t from = 0; from < g_.cg; from += held) {
      const int w = static_cast<int>(windowLoads_++ % 2);
      Window win = loadWindow(t, w, from, std::min(g_.cg, from + held));
      if (from == 0) {
        if (freshWeights) loadWeights(t);
        b_.waitFlag(Pipe::FIX, Pipe::M, q);
      }
      for (int64_t block = from / s_.tc; block < std::min(blocks_, (from + held) / s_.tc); ++block) {
        int64_t ch = block * s_.tc, valid = std::min(s_.tc, g_.cg - ch);
        int64_t piece = pieceOf(block);
        if (freshWeights && block == pieceStart(piece))
          b_.waitFlag(Pipe::MTE2, Pipe::MTE1, kWeightsEvent + static_cast<int>(piece));
        for (int64_t row = 0; row < c_.kh; row += s_.kr)
          chunk(t, win, ch, valid, row, std::min(s_.kr, c_.kh - row), block == 0 && row == 0, q);
      }
      b_.setFlag(Pipe::MTE1, Pipe::MTE2, w);
    }
    b_.setFlag(Pipe::M, Pipe::FIX, q);
    b_.waitFlag(Pipe::M, Pipe::FIX, q);
    if (c_.epilogue.any()) {
      for (int64_t j = 0; j < t.cols; j += chunk_) epilogueChunk(t, q, j, std::min(chunk_, t.cols - j), freshWeights && j == 0);
      b_.setFlag(Pipe::FIX, Pipe::M, q);
      return;
    }
    Instruction fix;
    fix.op = Opcode::FixL0CToGm;
    fix.type = DType::Float32;
    fix.type2 = c_.outType;
    fix.dst = outputAt(t, 2, dtypeSize(c_.outType), t.group * g_.ng + t.col);
    fix.src0 = MemRef{Space::L0C, 0, q * cBytes_};
    fix.m = static_cast<uint16_t>(s_.tm);
    fix.n = static_cast<uint16_t>(s_.tn);
    fix.dstStride = static_cast<uint16_t>(c_.cout);
    fix.validRows = static_cast<uint16_t>(t.regs ? 0 : t.rows);
    fix.validCols = static_cast<uint16_t>(t.cols);
    if (t.regs) b_.fieldFromReg(isa::Field::ValidRows, t.regs->rows);
    b_.emit(fix);
    b_.setFlag(Pipe::FIX, Pipe::M, q);
  }

 private:
  // Element `channel` of the tile's first output position in GM argument `arg` of `size`-byte
  // elements (the output, or the residual of its shape); a dynamic tile's address is computed into
  // its scratch register, which holds it until the next call.
  MemRef outputAt(const ConvTile& t, int arg, int size, int64_t channel) {
    const auto base = static_cast<uint8_t>(KernelBuilder::argReg(arg));
    if (!t.regs) return MemRef{Space::GM, base, ((t.image * g_.positions + t.pos) * c_.cout + channel) * size};
    b_.aluImm(Opcode::Mul, t.regs->scratch, t.regs->outElem, size);
    b_.alu(Opcode::Add, t.regs->scratch, t.regs->scratch, base);
    return MemRef{Space::GM, static_cast<uint8_t>(t.regs->scratch), channel * size};
  }

  // The input rows of one tile in L1 and how img2col sees them.
  struct Window {
    int64_t l1, rows;  // L1 address of the first channel block held, input rows held
    int64_t padTop;    // padding rows above the first held row
    int64_t outRows;   // output rows the tile's positions touch
    int64_t posStart;  // the tile's first position relative to the window's first output row
    int64_t firstChannel = 0;  // the group's channel the window's first block starts at
  };

  // Channel blocks are split into at most kWeightPieces pieces of consecutive blocks.
  int64_t pieceOf(int64_t block) const { return block * pieces_ / blocks_; }
  int64_t pieceStart(int64_t piece) const { return ceilDiv(piece * blocks_, pieces_); }

  // The weights of one (group, output-channel slice), resident in L1 until the slice changes:
  // rows (tap, input channel), the slice's columns. They arrive in pieces of channel blocks, so
  // that the first K chunk need not wait for all of them.
  void loadWeights(const ConvTile& t) {
    if (weightsGroup_ >= 0) {
      b_.setFlag(Pipe::MTE1, Pipe::MTE2, kWeightsEvent);
      b_.waitFlag(Pipe::MTE1, Pipe::MTE2, kWeightsEvent);
    }
    weightPitch_ = localRowBytes(t.cols * g_.es);
    for (int64_t piece = 0; piece < pieces_; ++piece) {
      int64_t ch = pieceStart(piece) * s_.tc, channels = std::min(g_.cg, pieceStart(piece + 1) * s_.tc) - ch;
      // one piece is a run of rows per tap, or every row at once when it holds all channels
      int64_t runs = channels == g_.cg ? 1 : g_.taps, rows = channels == g_.cg ? g_.taps * g_.cg : channels;
      for (int64_t tap = 0; tap < runs; ++tap) {
        int64_t row = tap * g_.cg + ch;
        copyRowsToL1(b_, MemRef{Space::L1, 0, l1Weights_ + row * weightPitch_},
                     MemRef{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(1)),
                            (row * c_.cout + t.group * g_.ng + t.col) * g_.es},
                     rows, t.cols * g_.es, (c_.cout - t.cols) * g_.es);
      }
      b_.setFlag(Pipe::MTE2, Pipe::MTE1, kWeightsEvent + static_cast<int>(piece));
    }
    weightsGroup_ = t.group;
    weightsCol_ = t.col;
  }

  // The input rows the tile's positions read, one L1 image per channel block (H×W×block, the
  // block's channels padded to c0) of the group's channels [from, to), into window buffer `w`.
  Window loadWindow(const ConvTile& t, int w, int64_t from, int64_t to) {
    int64_t oh0 = t.pos / g_.ow, oh1 = (t.pos + t.rows - 1) / g_.ow;
    int64_t r0 = std::max<int64_t>(0, oh0 * c_.strideH - c_.padTop);
    int64_t r1 = std::min(c_.h - 1, oh1 * c_.strideH - c_.padTop + g_.effH - 1);
    Window win{l1Window_[w], r1 - r0 + 1, std::max<int64_t>(0, c_.padTop - oh0 * c_.strideH), oh1 - oh0 + 1,
               t.pos - oh0 * g_.ow, from};
    b_.waitFlag(Pipe::MTE1, Pipe::MTE2, w);
    for (int64_t ch = from; ch < to; ch += s_.tc) {
      int64_t valid = std::min(s_.tc, g_.cg - ch);
      const MemRef dst{Space::L1, 0, blockAddress(win, ch)};
      const int64_t rowBytes = valid * g_.es, gap = (c_.cin - valid) * g_.es;
      if (t.regs) {  // the window's winRows·W pixels from the tile's first input row
        const TileRegs& r = *t.regs;
        const MemRef src{Space::GM, static_cast<uint8_t>(r.src), (t.group * g_.cg + ch) * g_.es};
        b_.alu(Opcode::Mul, r.scratch, r.winRows, widthReg_);
        if (gap == 0 && rowBytes % isa::kBlockBytes == 0) {
          b_.aluImm(Opcode::Mul, r.scratch, r.scratch, rowBytes);
          emitCopyBytes(b_, Opcode::CopyGmToL1, dst, src, r.scratch);
        } else {
          emitCopyRowsCounted(b_, Opcode::CopyGmToL1, dst, src, r.scratch, s_.windowRows * c_.w, rowBytes, gap);
        }
        continue;
      }
      int64_t src = ((t.image * c_.h + r0) * c_.w * c_.cin + t.group * g_.cg + ch) * g_.es;
      copyRowsToL1(b_, dst, MemRef{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(0)), src}, win.rows * c_.w,
                   rowBytes, gap);
    }
    b_.setFlag(Pipe::MTE2, Pipe::MTE1, w);
    b_.waitFlag(Pipe::MTE2, Pipe::MTE1, w);
    return win;
  }

  // Output channels [j, j + cols) of the tile through UB, in the chunk buffer after the last one's:
  // the fixpipe moves the accumulator's columns there, the vector unit applies the epilogue
  // (preparing the slice's rows first when its statistics are new) and MTE3 writes the rows to GM,
  // while the other buffer's chunk is in another of these steps.
  void epilogueChunk(const ConvTile& t, int q, int64_t j, int64_t cols, bool newStatistics) {
    const Conv2dEpilogue& e = c_.epilogue;
    const int u = static_cast<int>(epilogueChunks_++ % 2);
    const DType out = c_.outType;
    const int os = dtypeSize(out);
    const bool halfWork = halfEpilogue(c_);
    const DType work = halfWork ? DType::Float16 : DType::Float32;
    const int ws = dtypeSize(work);
    const int64_t pitch = roundUp(cols, 16), channel = t.group * g_.ng + t.col + j;
    auto ub = [](int64_t at) { return MemRef{Space::UB, 0, at}; };
    auto gmArg = [](int arg, int64_t bytes) { return MemRef{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(arg)), bytes}; };
    auto localGap = [&](int size) { return (pitch * size - localRowBytes(cols * size)) / isa::kBlockBytes; };
    const int64_t acc = halfWork ? ubOut_[u] : ubAcc_[u];  // where the epilogue works
    b_.waitFlag(Pipe::MTE3, Pipe::FIX, u);
    Instruction fix = fixColumnsToUb(q * cBytes_, s_.tm, j, cols, t.regs ? 0 : t.rows, acc, work);
    if (t.regs) b_.fieldFromReg(isa::Field::ValidRows, t.regs->rows);
    b_.emit(fix);
    b_.setFlag(Pipe::FIX, Pipe::V, u);
    const std::vector<DType> rows = e.channelRows();
    const bool statistics = e.batchNorm || !rows.empty();
    if (statistics && newStatistics) {  // once the vector unit is done with the last slice's
      b_.setFlag(Pipe::V, Pipe::MTE2, kStatisticsEvent);
      b_.waitFlag(Pipe::V, Pipe::MTE2, kStatisticsEvent);
      for (size_t k = 0; k < rows.size(); ++k) {
        const int size = dtypeSize(rows[k]);
        emitCopyRows(b_, Opcode::CopyGmToUb, ub(arrivalRow(k)), gmArg(3 + static_cast<int>(k), (channel - j) * size), 1,
                     t.cols * size);
      }
      for (int k = 0; k < 4 && e.batchNorm; ++k)
        emitCopyRows(b_, Opcode::CopyGmToUb, ub(ubStats_ + k * statRow_), gmArg(3 + k, (channel - j) * 4), 1, t.cols * 4);
      b_.setFlag(Pipe::MTE2, Pipe::V, kStatisticsEvent);
    }
    const bool halfResidual = e.residualType == DType::Float16;
    if (e.residual) {
      const int rs = dtypeSize(e.residualType);
      b_.waitFlag(Pipe::V, Pipe::MTE2, u);
      copyTileRows(t, Opcode::CopyGmToUb, ub(halfResidual ? ubResidualHalf_[u] : ubResidual_[u]),
                   outputAt(t, 3 + static_cast<int>(rows.size()) + (e.batchNorm ? 4 : 0), rs, channel), cols * rs,
                   (c_.cout - cols) * rs, localGap(rs));
      b_.setFlag(Pipe::MTE2, Pipe::V, u);
      b_.waitFlag(Pipe::MTE2, Pipe::V, u);
    }
    if (statistics && newStatistics) {
      b_.waitFlag(Pipe::MTE2, Pipe::V, kStatisticsEvent);
      prepareRows(t.cols, halfWork && cols == t.cols);
    }
    b_.waitFlag(Pipe::FIX, Pipe::V, u);
    // Rows of `cols` elements `pitch` apart; whole rows (pitch = cols) run as one contiguous
    // operation, a per-channel row too when it was repeated across a repeat (prepareRows).
    const bool whole = pitch == cols;
    const bool repeatedRows = halfWork && cols == t.cols && repeatedRowCopies(cols) > 1;
    auto vector = [&](Opcode op, int64_t dst, int64_t src0, int64_t src1, bool row, DType type, DType type2 = DType::Float32) {
      VectorOp v;
      v.op = op;
      v.type = type;
      v.type2 = type2;
      v.dst = ub(dst);
      v.src0 = ub(src0);
      v.src1 = ub(src1);
      v.src1OneRepeat = row;
      if (whole && (!row || repeatedRows)) {
        if (!t.regs) return emitContiguous(b_, v, t.rows * cols);
        b_.aluImm(Opcode::Mul, t.regs->scratch, t.regs->rows, cols);
        return emitContiguousCounted(b_, v, t.regs->scratch);
      }
      if (!t.regs) return emitRows(b_, v, t.rows, cols, pitch, row);
      // a dynamic tile's rows in pieces of at most 255 (a repeat count), those past its rows skipped
      const int done = b_.newLabel();
      for (int64_t first = 0; first < t.rows; first += isa::kMaxRepeat) {
        b_.aluImm(Opcode::Sub, t.regs->scratch, t.regs->rows, first);
        b_.branch(Opcode::Bge, 0, t.regs->scratch, done);
        b_.aluImm(Opcode::Min, t.regs->scratch, t.regs->scratch, isa::kMaxRepeat);
        VectorOp piece = v;
        for (MemRef* m : {&piece.dst, &piece.src0, &piece.src1}) {
          if (m == &piece.src1 && row) continue;
          const DType type = m == &piece.dst && isa::opcodeInfo(v.op).format == isa::Format::VConv ? v.type2 : v.type;
          m->offset += first * pitch * dtypeSize(type);
        }
        emitRows(b_, piece, std::min<int64_t>(isa::kMaxRepeat, t.rows - first), cols, pitch, row, t.regs->scratch);
      }
      b_.bind(done);
    };
    // acc ∘= src1 for each step, the max folded into a last add
    struct Step {
      Opcode op;
      int64_t src1;
      bool row;
    };
    std::vector<Step> steps;
    for (size_t k = 0; k < rows.size(); ++k)
      steps.push_back({e.scale && k == 0 ? Opcode::VMul : Opcode::VAdd, appliedRow(k) + j * ws, true});
    if (e.batchNorm) {
      steps.push_back({Opcode::VMul, appliedRow(0) + j * ws, true});
      steps.push_back({Opcode::VAdd, appliedRow(1) + j * ws, true});
    }
    if (e.residual) {
      if (!halfWork && halfResidual) vector(Opcode::VConv, ubResidual_[u], ubResidualHalf_[u], 0, false, DType::Float16);
      steps.push_back({Opcode::VAdd, halfWork ? ubResidualHalf_[u] : ubResidual_[u], false});
    }
    if (e.relu && !steps.empty() && steps.back().op == Opcode::VAdd) steps.back().op = Opcode::VAddRelu;
    else if (e.relu) steps.push_back({Opcode::VRelu, 0, false});
    for (const Step& step : steps) vector(step.op, acc, acc, step.src1, step.row, work);
    if (e.residual) b_.setFlag(Pipe::V, Pipe::MTE2, u);
    if (!halfWork && out == DType::Float16) vector(Opcode::VConv, ubOut_[u], acc, 0, false, DType::Float32, DType::Float16);
    b_.setFlag(Pipe::V, Pipe::MTE3, u);
    b_.waitFlag(Pipe::V, Pipe::MTE3, u);
    copyTileRows(t, Opcode::CopyUbToGm, outputAt(t, 2, os, channel), ub(out == DType::Float16 ? ubOut_[u] : acc), cols * os,
                 (c_.cout - cols) * os, localGap(os));
    b_.setFlag(Pipe::MTE3, Pipe::FIX, u);
  }

  // The tile's rows of `rowBytes` between GM and UB (emitCopyRows), their count from the tile's
  // registers in a dynamic kernel.
  void copyTileRows(const ConvTile& t, Opcode op, MemRef dst, MemRef src, int64_t rowBytes, int64_t gmGap, int64_t localGap) {
    if (t.regs) emitCopyRowsCounted(b_, op, dst, src, t.regs->rows, t.rows, rowBytes, gmGap, localGap);
    else emitCopyRows(b_, op, dst, src, t.rows, rowBytes, gmGap, localGap);
  }

  // Where channel row k (scale, then bias) arrives from GM: its float32 slot (in a float16
  // epilogue the float32 rows are packed first), or for a float16 row its staging slot after the
  // float32 rows (the float16 row applied, in a float16 epilogue).
  int64_t arrivalRow(size_t k) const {
    const std::vector<DType> rows = c_.epilogue.channelRows();
    const auto before = [&](DType t) { return std::count(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(k), t); };
    if (halfEpilogue(c_))
      return rows[k] == DType::Float16 ? ubHalfRows_ + static_cast<int64_t>(k) * halfRow_ : ubStats_ + before(DType::Float32) * statRow_;
    if (rows[k] == DType::Float32) return ubStats_ + static_cast<int64_t>(k) * statRow_;
    return ubStats_ + static_cast<int64_t>(rows.size()) * statRow_ + before(DType::Float16) * (statRow_ / 2);
  }
  // The row step k applies: scale then bias, or the batch norm's scale and shift, in the
  // epilogue's type.
  int64_t appliedRow(size_t k) const {
    if (halfEpilogue(c_)) return ubHalfRows_ + static_cast<int64_t>(k) * halfRow_;
    return ubStats_ + static_cast<int64_t>(c_.epilogue.batchNorm ? 2 + k : k) * statRow_;
  }
  // Copies of a row of `cols` float16 elements that fill one repeat: more than one when the row
  // is a whole number of blocks that divides 256 bytes.
  static int64_t repeatedRowCopies(int64_t cols) {
    const int64_t bytes = cols * 2;
    return cols % 16 == 0 && bytes < isa::kRepeatBytes && isa::kRepeatBytes % bytes == 0 ? isa::kRepeatBytes / bytes : 1;
  }

  // A new slice's rows into the form the epilogue applies, over its `n` channels: the batch norm's
  // scale and shift computed in float32; float16 rows widened (float32 epilogue) or float32 rows
  // narrowed (float16 epilogue); with `repeat`, each float16 row repeated across one repeat.
  void prepareRows(int64_t n, bool repeat) {
    const Conv2dEpilogue& e = c_.epilogue;
    const std::vector<DType> rows = e.channelRows();
    const bool halfWork = halfEpilogue(c_);
    auto convert = [&](int64_t dst, int64_t src, DType from, DType to) { emitConvert(b_, dst, src, from, to, n); };
    if (e.batchNorm) statistics(n);
    for (size_t k = 0; k < rows.size(); ++k) {
      if (rows[k] == DType::Float16 && !halfWork) convert(appliedRow(k), arrivalRow(k), DType::Float16, DType::Float32);
      if (rows[k] == DType::Float32 && halfWork) convert(appliedRow(k), arrivalRow(k), DType::Float32, DType::Float16);
    }
    for (int k = 0; k < 2 && e.batchNorm && halfWork; ++k)
      convert(appliedRow(static_cast<size_t>(k)), ubStats_ + (2 + k) * statRow_, DType::Float32, DType::Float16);
    if (!halfWork || !repeat) return;
    for (int64_t k = 0; k < halfRowCount(c_); ++k) {
      for (int64_t copy = 1; copy < repeatedRowCopies(n); ++copy) {
        VectorOp v;
        v.op = Opcode::VMov;
        v.type = DType::Float16;
        v.dst = MemRef{Space::UB, 0, appliedRow(static_cast<size_t>(k)) + copy * n * 2};
        v.src0 = MemRef{Space::UB, 0, appliedRow(static_cast<size_t>(k))};
        emitContiguous(b_, v, n);
      }
    }
  }

  // A channel slice's batch-norm scale gamma / sqrt(var + eps) into gamma's row and shift
  // beta − mean · scale into beta's, over its `n` channels.
  void statistics(int64_t n) {
    auto row = [&](int k) { return MemRef{Space::UB, 0, ubStats_ + k * statRow_}; };
    auto op = [&](Opcode code, int dst, int src0, int src1) {
      VectorOp v;
      v.op = code;
      v.type = DType::Float32;
      v.dst = row(dst);
      v.src0 = row(src0);
      v.src1 = row(src1);
      if (code == Opcode::VAdds) {
        v.scalarIsImm = true;
        v.scalarBits = scalarBitsOf(c_.epilogue.epsilon, DType::Float32);
      }
      emitContiguous(b_, v, n);
    };
    op(Opcode::VAdds, 1, 1, 1);
    op(Opcode::VSqrt, 1, 1, 1);
    op(Opcode::VDiv, 2, 2, 1);
    op(Opcode::VMul, 0, 0, 2);
    op(Opcode::VSub, 3, 3, 0);
  }

  int64_t blockAddress(const Window& win, int64_t ch) const {
    return win.l1 + s_.windowRows * c_.w * (ch - win.firstChannel) * g_.es;
  }

  // One K chunk: the patches of input channels [ch, ch+valid) under kernel rows [row, row+rows),
  // times their weights. img2col sees those kernel rows as a kernel of their own, over the window
  // shifted down by the rows the skipped kernel rows would have consumed.
  void chunk(const ConvTile& t, const Window& win, int64_t ch, int64_t valid, int64_t row, int64_t rows, bool init,
             int q) {
    int64_t top = win.padTop - row * c_.dilationH;  // padding above the window for kernel row `row`
    int64_t skip = std::max<int64_t>(0, -top), height = win.rows - skip;
    // A chunk whose kernel rows see only bottom padding adds nothing; the first never does. A
    // dynamic tile knows at run time only: it then branches around the chunk's work, keeping its
    // events so that the buffers alternate as the code does.
    if (height <= 0) return;
    const int skipWork = t.regs && row > 0 ? b_.newLabel() : -1;
    int64_t padTop = std::max<int64_t>(0, top);
    int64_t extent = (rows - 1) * c_.dilationH + 1;
    int64_t padBottom = std::max<int64_t>(0, (win.outRows - 1) * c_.strideH + extent - height - padTop);
    int p = chunkParity_;
    chunkParity_ ^= 1;
    b_.waitFlag(Pipe::M, Pipe::MTE1, p);
    int64_t block = roundUp(valid, g_.c0), k = rows * c_.kw * block;
    ChunkRegs dyn;
    if (t.regs) dyn = dynamicChunk(*t.regs, row, rows, block * g_.es, skipWork);
    Instruction im;
    im.op = Opcode::Img2Col;
    im.type = DType::Float16;  // a byte gather: f32 elements move as pairs of f16 lanes
    im.dst = MemRef{Space::L0A, 0, l0a_[p]};
    im.src0 = MemRef{Space::L1, 0, blockAddress(win, ch) + skip * c_.w * block * g_.es};
    im.h = static_cast<uint16_t>(height);
    im.w = static_cast<uint16_t>(c_.w);
    im.c = static_cast<uint16_t>(block * g_.lanes);
    im.kh = static_cast<uint8_t>(rows);
    im.kw = static_cast<uint8_t>(c_.kw);
    im.strideH = static_cast<uint8_t>(c_.strideH);
    im.strideW = static_cast<uint8_t>(c_.strideW);
    im.padT = static_cast<uint8_t>(padTop);
    im.padB = static_cast<uint8_t>(padBottom);
    im.padL = static_cast<uint8_t>(c_.padLeft);
    im.padR = static_cast<uint8_t>(c_.padRight);
    im.dilH = static_cast<uint8_t>(c_.dilationH);
    im.dilW = static_cast<uint8_t>(c_.dilationW);
    im.posStart = static_cast<uint16_t>(win.posStart);
    im.m = static_cast<uint16_t>(s_.tm);
    im.k = static_cast<uint16_t>(k * g_.lanes);
    if (t.regs) {  // the window's geometry from registers (dynamicChunkGeometry)
      im.h = im.w = im.padT = im.padB = 0;
      im.posStart = 0;
      im.src0 = MemRef{Space::L1, static_cast<uint8_t>(dyn.skipBytes), blockAddress(win, ch)};
      b_.fieldFromReg(isa::Field::H, dyn.height);
      b_.fieldFromReg(isa::Field::W, widthReg_);
      b_.fieldFromReg(isa::Field::PadT, dyn.padTop);
      b_.fieldFromReg(isa::Field::PadB, t.regs->scratch);
      b_.fieldFromReg(isa::Field::PosStart, t.regs->posStart);
    }
    b_.emit(im);
    // Weight rows of channels beyond `valid` must be zero (they meet the window's channel
    // padding): one load per tap zero-fills them, unless the block has no padding and the
    // chunk's taps are contiguous in L1.
    bool contiguous = valid == block && valid == g_.cg;
    int64_t firstTap = row * c_.kw, taps = rows * c_.kw;
    for (int64_t tap = 0; tap < (contiguous ? 1 : taps); ++tap) {
      Instruction lb;
      lb.op = Opcode::LoadL0B;
      lb.type = c_.inType;
      lb.dst = MemRef{Space::L0B, 0, l0b_[p] + tap * block * s_.tn * g_.es};
      lb.src0 = MemRef{Space::L1, 0, l1Weights_ + ((firstTap + tap) * g_.cg + ch) * weightPitch_};
      lb.k = static_cast<uint16_t>(contiguous ? k : block);
      lb.n = static_cast<uint16_t>(s_.tn);
      lb.srcStride = static_cast<uint16_t>(weightPitch_ / g_.es);
      lb.validRows = static_cast<uint16_t>(contiguous ? k : valid);
      lb.validCols = static_cast<uint16_t>(t.cols);
      b_.emit(lb);
    }
    if (skipWork >= 0) b_.bind(skipWork);
    b_.setFlag(Pipe::MTE1, Pipe::M, p);
    b_.waitFlag(Pipe::MTE1, Pipe::M, p);
    const int skipMmad = skipWork >= 0 ? b_.newLabel() : -1;
    if (skipMmad >= 0) b_.branch(Opcode::Bge, 0, dyn.height, skipMmad);
    b_.emit(mmadInstruction(c_.inType, q * cBytes_, l0a_[p], l0b_[p], s_.tm, k, s_.tn, init));
    if (skipMmad >= 0) b_.bind(skipMmad);
    b_.setFlag(Pipe::M, Pipe::MTE1, p);
    for (int reg : dyn.owned) b_.freeReg(reg);
  }

  // A dynamic tile's img2col geometry for kernel rows [row, row + rows): the window rows img2col
  // sees (past those only the skipped kernel rows would read), its top padding and the L1 bytes
  // skipped (pixels of `pixelBytes`), in registers; the bottom padding in the tile's scratch. A chunk
  // that would see no rows branches to `skipWork`.
  struct ChunkRegs {
    int height = 0, padTop = 0, skipBytes = 0;
    std::vector<int> owned;
  };
  ChunkRegs dynamicChunk(const TileRegs& r, int64_t row, int64_t rows, int64_t pixelBytes, int skipWork) {
    ChunkRegs d{r.winRows, r.padTop, 0, {}};
    if (row > 0) {
      for (int* reg : {&d.height, &d.padTop, &d.skipBytes}) d.owned.push_back(*reg = b_.allocReg());
      b_.aluImm(Opcode::Sub, d.padTop, r.padTop, row * c_.dilationH);  // top = padTop − row·dilation
      b_.alu(Opcode::Sub, d.skipBytes, 0, d.padTop);                   // skip = max(0, −top)
      b_.aluImm(Opcode::Max, d.skipBytes, d.skipBytes, 0);
      b_.aluImm(Opcode::Max, d.padTop, d.padTop, 0);
      b_.alu(Opcode::Sub, d.height, r.winRows, d.skipBytes);
      b_.branch(Opcode::Bge, 0, d.height, skipWork);
      b_.alu(Opcode::Mul, d.skipBytes, d.skipBytes, widthReg_);
      b_.aluImm(Opcode::Mul, d.skipBytes, d.skipBytes, pixelBytes);
    }
    // padBottom = max(0, (outRows − 1)·stride + extent − height − padTop)
    b_.aluImm(Opcode::Mul, r.scratch, r.outRowsM1, c_.strideH);
    b_.aluImm(Opcode::Add, r.scratch, r.scratch, (rows - 1) * c_.dilationH + 1);
    b_.alu(Opcode::Sub, r.scratch, r.scratch, d.height);
    b_.alu(Opcode::Sub, r.scratch, r.scratch, d.padTop);
    b_.aluImm(Opcode::Max, r.scratch, r.scratch, 0);
    return d;
  }

  const Conv2dCompute& c_;
  const Conv2dSchedule& s_;
  KernelBuilder& b_;
  ConvGeometry g_;
  int64_t blocks_, pieces_;  // channel blocks per K reduction; pieces the weights arrive in
  int64_t l1Window_[2], l0a_[2], l0b_[2];
  int64_t l1Weights_ = 0, cBytes_ = 0;
  int64_t weightsGroup_ = -1, weightsCol_ = -1, weightPitch_ = 0;
  int chunkParity_ = 0;
  int64_t windowLoads_ = 0;  // this core's window loads so far: their parity picks the buffer
  int64_t chunk_ = 0;        // output channels per epilogue chunk
  int widthReg_ = -1;        // dynamic shapes: the register holding the input's width
  int64_t epilogueChunks_ = 0;  // this kernel's epilogue chunks so far: their parity picks the buffer
  int64_t statRow_ = 0, ubStats_ = 0;
  int64_t halfRow_ = 0, ubHalfRows_ = 0;  // a float16 epilogue's applied rows
  int64_t ubAcc_[2] = {}, ubResidual_[2] = {}, ubResidualHalf_[2] = {}, ubOut_[2] = {};
};

// A dynamic-shape kernel's tiles: the scalar arguments from `scalarArg` on (Conv2dShapeScalar),
// the tiles image by image (dynamicTilePositions each), split over the cores at run time. Each core runs
// its first tile (which loads the weights) and then loops over the rest, the loop's body unrolled
// twice so that ping-pong buffers and events alternate as in a static kernel; each tile's window,
// padding and addresses come from its index on the scalar unit.
void emitDynamicTiles(KernelBuilder& b, const Conv2dCompute& c, const Conv2dSchedule& s, ConvEmitter& emitter,
                      int scalarArg) {
  auto arg = [&](Conv2dShapeScalar k) { return KernelBuilder::argReg(scalarArg + static_cast<int>(k)); };
  const ConvGeometry g(c);
  TileRegs r{};
  for (int* reg : {&r.rows, &r.winRows, &r.padTop, &r.outRowsM1, &r.posStart, &r.src, &r.outElem, &r.scratch})
    *reg = b.allocReg();
  const int i = b.allocReg(), end = b.allocReg();
  {
    const int blockIdx = b.allocReg();
    b.blockIdx(blockIdx);
    emitCoreShare(b, blockIdx, arg(Conv2dShapeScalar::Tiles), s.blockDim, i, end);
    b.freeReg(blockIdx);
  }
  b.alu(Opcode::Add, end, end, i);
  const int done = b.newLabel(), loop = b.newLabel();
  b.branch(Opcode::Bge, i, end, done);
  const ConvTile tile{0, 0, 0, 0, s.tm, g.ng, &r};
  auto emitTile = [&](size_t index) {
    const int image = b.allocReg(), pos = b.allocReg(), first = b.allocReg(), last = b.allocReg(), t = b.allocReg();
    const int64_t pt = c.padTop, sh = c.strideH;
    b.alu(Opcode::Div, image, i, arg(Conv2dShapeScalar::TilesPerImage));  // image = i / TPI, pos = (i % TPI)·tile
    b.alu(Opcode::Mul, t, image, arg(Conv2dShapeScalar::TilesPerImage));
    b.alu(Opcode::Sub, pos, i, t);
    b.alu(Opcode::Mul, pos, pos, arg(Conv2dShapeScalar::TilePositions));
    b.alu(Opcode::Sub, r.rows, arg(Conv2dShapeScalar::Positions), pos);  // rows = min(tile, P − pos)
    b.alu(Opcode::Min, r.rows, r.rows, arg(Conv2dShapeScalar::TilePositions));
    b.alu(Opcode::Div, first, pos, arg(Conv2dShapeScalar::OutW));  // output rows [first, last]
    b.alu(Opcode::Add, last, pos, r.rows);
    b.aluImm(Opcode::Sub, last, last, 1);
    b.alu(Opcode::Div, last, last, arg(Conv2dShapeScalar::OutW));
    b.alu(Opcode::Mul, r.posStart, first, arg(Conv2dShapeScalar::OutW));  // posStart = pos − first·OW
    b.alu(Opcode::Sub, r.posStart, pos, r.posStart);
    b.aluImm(Opcode::Mul, t, first, sh);  // padTop = max(0, pt − first·s)
    b.li(r.padTop, pt);
    b.alu(Opcode::Sub, r.padTop, r.padTop, t);
    b.aluImm(Opcode::Max, r.padTop, r.padTop, 0);
    b.aluImm(Opcode::Mul, r.winRows, last, sh);  // the last input row: min(H − 1, last·s − pt + effH − 1)
    b.aluImm(Opcode::Add, r.winRows, r.winRows, g.effH - 1 - pt);
    b.aluImm(Opcode::Sub, r.scratch, arg(Conv2dShapeScalar::H), 1);
    b.alu(Opcode::Min, r.winRows, r.winRows, r.scratch);
    b.alu(Opcode::Sub, r.outRowsM1, last, first);
    b.aluImm(Opcode::Sub, first, t, pt);    // the first input row: max(0, first·s − pt)
    b.aluImm(Opcode::Max, first, first, 0);
    b.alu(Opcode::Sub, r.winRows, r.winRows, first);
    b.aluImm(Opcode::Add, r.winRows, r.winRows, 1);
    b.alu(Opcode::Mul, r.src, image, arg(Conv2dShapeScalar::H));  // input row (image·H + first)
    b.alu(Opcode::Add, r.src, r.src, first);
    b.alu(Opcode::Mul, r.src, r.src, arg(Conv2dShapeScalar::W));
    b.aluImm(Opcode::Mul, r.src, r.src, c.cin * g.es);
    b.alu(Opcode::Add, r.src, r.src, KernelBuilder::argReg(0));
    b.alu(Opcode::Mul, r.outElem, image, arg(Conv2dShapeScalar::Positions));  // (image·P + pos)·Cout
    b.alu(Opcode::Add, r.outElem, r.outElem, pos);
    b.aluImm(Opcode::Mul, r.outElem, r.outElem, c.cout);
    for (int reg : {image, pos, first, last, t}) b.freeReg(reg);
    emitter.tile(tile, index);
  };
  emitter.beginCore();
  emitTile(0);
  b.bind(loop);
  for (size_t index = 1; index <= 2; ++index) {
    b.aluImm(Opcode::Add, i, i, 1);
    b.branch(Opcode::Bge, i, end, done);
    emitTile(index);
  }
  b.jump(loop);
  b.bind(done);
  for (int reg : {r.rows, r.winRows, r.padTop, r.outRowsM1, r.posStart, r.src, r.outElem, r.scratch, i, end}) b.freeReg(reg);
}

}  // namespace

KernelCode lowerConv2d(const Conv2dCompute& c, const Conv2dSchedule& s, const Target& target) {
  validate(c);
  if (c.nchw) fail(c, "the conv2d kernel reads NHWC; NCHW convolutions lower through lowerConv2dLaunches");
  checkSchedule(c, s, target);
  if (s.engine == Conv2dEngine::VectorDepthwise) return lowerWindow(depthwiseWindow(c), windowScheduleOf(s), target);
  const int tensors = 3 + static_cast<int>(c.epilogue.channelRows().size()) + (c.epilogue.batchNorm ? 4 : 0) +
                      (c.epilogue.residual ? 1 : 0);
  KernelBuilder b(c.name, tensors + (c.dynamicShape ? static_cast<int>(Conv2dShapeScalar::Count) : 0));
  b.setSourceLine(c.sourceLine);
  ConvGeometry g(c);
  const int64_t chunkColumns = c.epilogue.any() ? epilogueChunkColumns(c, target, s.tm, s.tn) : 0;
  if (c.dynamicShape) {
    ConvEmitter emitter(c, s, b, chunkColumns, KernelBuilder::argReg(tensors + static_cast<int>(Conv2dShapeScalar::W)));
    emitter.prologue();
    emitDynamicTiles(b, c, s, emitter, tensors);
    emitter.epilogue();
    return b.finish(s.blockDim);
  }
  // (group, channel slice) outermost so that each core reloads its weights rarely
  std::vector<ConvTile> tiles;
  for (int64_t group = 0; group < c.groups; ++group)
    for (int64_t col = 0; col < g.ng; col += s.tn)
      for (int64_t image = 0; image < c.n; ++image)
        for (int64_t pos = 0; pos < g.positions; pos += s.tm)
          tiles.push_back(ConvTile{group, col, image, pos, std::min(s.tm, g.positions - pos), std::min(s.tn, g.ng - col)});
  ConvEmitter emitter(c, s, b, chunkColumns);
  emitter.prologue();
  emitPerCore(b, s.blockDim, tiles, emitter);
  emitter.epilogue();
  return b.finish(s.blockDim);
}

Conv2dLaunches lowerConv2dLaunches(const Conv2dCompute& c, const Conv2dSchedule& s, const Target& target) {
  Conv2dLaunches out;
  if (!c.nchw) {
    std::vector<Conv2dTensor> args = {Conv2dTensor::Input, Conv2dTensor::Weights, Conv2dTensor::Output};
    if (c.epilogue.scale) args.push_back(Conv2dTensor::Scale);
    if (c.epilogue.bias) args.push_back(Conv2dTensor::Bias);
    if (c.epilogue.batchNorm)
      args.insert(args.end(), {Conv2dTensor::Mean, Conv2dTensor::Var, Conv2dTensor::Gamma, Conv2dTensor::Beta});
    if (c.epilogue.residual) args.push_back(Conv2dTensor::Residual);
    out.launches.push_back({lowerConv2d(c, s, target), args});
    return out;
  }
  Conv2dCompute nhwc = c;
  nhwc.nchw = false;
  const int64_t oh = c.outH(), ow = c.outW(), cg = c.cin / c.groups;
  // iterates the destination's shape; the strides say where each element lives on both sides
  auto transpose = [&](const char* what, DType type, std::vector<int64_t> shape, std::vector<int64_t> srcStrides,
                       std::vector<int64_t> dstStrides) {
    CopyCompute copy;
    copy.name = c.name + what;
    copy.dtype = type;
    copy.shape = std::move(shape);
    copy.srcStrides = std::move(srcStrides);
    copy.dstStrides = std::move(dstStrides);
    copy.sourceLine = c.sourceLine;
    return lowerCopy(copy, target, target.vectorCores);
  };
  out.launches.push_back({transpose("_input_nhwc", c.inType, {c.n, c.h, c.w, c.cin},
                                    {c.cin * c.h * c.w, c.w, 1, c.h * c.w}, {c.h * c.w * c.cin, c.w * c.cin, c.cin, 1}),
                          {Conv2dTensor::Input, Conv2dTensor::InputNhwc}});
  // [Cout, Cg, KH·KW] → [Cout, KH·KW, Cg] → [KH·KW·Cg, Cout]: two transposes of two axes each,
  // which the copy kernel moves in vtranspose tiles (a transpose of three axes at once would go
  // element by element)
  const int64_t taps = c.kh * c.kw;
  out.launches.push_back({transpose("_weights_taps", c.inType, {c.cout, taps, cg}, {cg * taps, 1, taps}, {taps * cg, cg, 1}),
                          {Conv2dTensor::Weights, Conv2dTensor::WeightsTaps}});
  out.launches.push_back({transpose("_weights_hwio", c.inType, {taps * cg, c.cout}, {1, taps * cg}, {c.cout, 1}),
                          {Conv2dTensor::WeightsTaps, Conv2dTensor::WeightsNhwc}});
  out.launches.push_back({lowerConv2d(nhwc, s, target),
                          {Conv2dTensor::InputNhwc, Conv2dTensor::WeightsNhwc, Conv2dTensor::OutputNhwc}});
  out.launches.push_back({transpose("_output_nchw", c.outType, {c.n, c.cout, oh, ow},
                                    {oh * ow * c.cout, 1, ow * c.cout, c.cout}, {c.cout * oh * ow, oh * ow, ow, 1}),
                          {Conv2dTensor::OutputNhwc, Conv2dTensor::Output}});
  out.scratch = {{Conv2dTensor::InputNhwc, c.inputElements() * dtypeSize(c.inType)},
                 {Conv2dTensor::WeightsTaps, c.weightElements() * dtypeSize(c.inType)},
                 {Conv2dTensor::WeightsNhwc, c.weightElements() * dtypeSize(c.inType)},
                 {Conv2dTensor::OutputNhwc, c.outputElements() * dtypeSize(c.outType)}};
  return out;
}

}  // namespace pyasc::codegen
