// Window kernel emission: per-tile row loads, one strided vector instruction per tap, stores.
#include "codegen/lower/WindowKernel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "codegen/isel/DmaIsel.h"
#include "codegen/isel/VectorIsel.h"
#include "codegen/lower/CubeShapes.h"
#include "codegen/lower/TilePipeline.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::codegen {

using isa::Instruction;
using isa::MemRef;
using isa::Opcode;
using isa::Pipe;
using isa::Space;

std::string WindowSchedule::str() const {
  std::ostringstream os;
  os << "vector_window channels=" << channels << " rows=" << rows << " block_dim=" << blockDim;
  return os.str();
}

namespace {

// MTE2→V event of the resident weights (0 and 1 name the buffer sets).
constexpr int kWeightsEvent = 2;

[[noreturn]] void fail(const WindowCompute& c, const std::string& what) {
  Diagnostic d;
  d.range.begin.line = c.sourceLine;
  d.message = c.op + " '" + c.name + "': " + what;
  throw CompileError(d);
}

// Elements per pixel so that a pixel starts a 32-byte block in both types.
int64_t pitchOf(int64_t channels, DType a, DType b) {
  int es = std::min(dtypeSize(a), dtypeSize(b));
  return localRowBytes(channels * es) / es;
}

// Input rows a tile of `rows` output rows reads: its window's slots, one per input row.
int64_t windowSlots(const WindowCompute& c, int64_t rows) {
  return (rows - 1) * c.strideH + (c.kh - 1) * c.dilationH + 1;
}

// UB layout of one buffer set for a slice of `channels` × `rows` output rows; converted copies are
// 0 bytes when the types agree (they alias the original).
struct WindowLayout {
  int64_t inPitch, accPitch;       // elements per pixel: input (either type), accumulator/output
  int64_t inRaw, inAcc, acc, out;  // bytes of each buffer of one set
  int64_t weightsRaw, weightsAcc;  // bytes of the resident weights (MultiplyAdd)

  WindowLayout(const WindowCompute& c, int64_t channels, int64_t rows) {
    const DType accType = c.accType();
    const int esIn = dtypeSize(c.inType), esAcc = dtypeSize(accType), esOut = dtypeSize(c.outType);
    inPitch = pitchOf(channels, c.inType, accType);
    accPitch = pitchOf(channels, accType, c.outType);
    const bool convertIn = c.inType != accType, convertOut = c.outType != accType;
    const int64_t slots = windowSlots(c, rows);
    inRaw = slots * c.w * inPitch * esIn;
    inAcc = convertIn ? slots * c.w * inPitch * esAcc : 0;
    acc = rows * c.outW() * accPitch * esAcc;
    out = convertOut ? rows * c.outW() * accPitch * esOut : 0;
    const bool weights = c.reduce == WindowReduce::MultiplyAdd;
    weightsRaw = weights ? c.kh * c.kw * inPitch * esIn : 0;
    weightsAcc = weights && convertIn ? c.kh * c.kw * inPitch * esAcc : 0;
  }
  int64_t setBytes() const { return inRaw + inAcc + acc + out; }
  int64_t ubBytes() const { return 2 * setBytes() + weightsRaw + weightsAcc; }
  // source repeat stride of a tap, in blocks
  int64_t tapStride(const WindowCompute& c) const {
    return c.strideW * inPitch * dtypeSize(c.accType()) / isa::kBlockBytes;
  }
};

int64_t maxChannels(const WindowCompute& c) { return std::min<int64_t>(c.c, isa::kRepeatBytes / dtypeSize(c.accType())); }

void validate(const WindowCompute& c) {
  for (DType t : {c.inType, c.outType})
    if (t != DType::Float16 && t != DType::Float32)
      fail(c, std::string("type ") + dtypeName(t) + " is not supported on the vector unit (float16 or float32)");
  if (c.n < 1 || c.h < 1 || c.w < 1 || c.c < 1 || c.kh < 1 || c.kw < 1 || c.strideH < 1 || c.strideW < 1 ||
      c.dilationH < 1 || c.dilationW < 1)
    fail(c, "every size must be positive");
  if (c.outH() < 1 || c.outW() < 1) fail(c, "the kernel does not fit the padded input");
  if (c.padTop < 0 || c.padBottom < 0 || c.padLeft < 0 || c.padRight < 0) fail(c, "padding must be non-negative");
  if (std::max(c.w, c.outW()) > isa::kMaxNBurst)
    fail(c, "a row of " + std::to_string(std::max(c.w, c.outW())) + " pixels exceeds the " +
                std::to_string(isa::kMaxNBurst) + " bursts of one DMA");
  if (c.c * dtypeSize(c.inType) > isa::kMaxBurstLen || c.c * dtypeSize(c.outType) > isa::kMaxBurstLen)
    fail(c, "a pixel of " + std::to_string(c.c) + " channels exceeds a DMA gap of " + std::to_string(isa::kMaxBurstLen) +
                " bytes");
}

// Output columns [first, last) whose kernel column `j` reads inside the image.
std::pair<int64_t, int64_t> windowColumns(const WindowCompute& c, int64_t j) {
  int64_t shift = c.padLeft - j * c.dilationW;  // iw = ow·stride − shift
  int64_t first = shift <= 0 ? 0 : ceilDiv(shift, c.strideW);
  int64_t last = std::min(c.outW(), c.w - 1 + shift < 0 ? 0 : (c.w - 1 + shift) / c.strideW + 1);
  return {first, std::max(first, last)};
}

}  // namespace

int64_t windowUbBytes(const WindowCompute& c, int64_t channels, int64_t rows) {
  return WindowLayout(c, channels, rows).ubBytes();
}

WindowSchedule scheduleWindow(const WindowCompute& c, const Target& target, int maxCores) {
  validate(c);
  WindowSchedule best;
  double bestCycles = -1;
  const int esIn = dtypeSize(c.inType), esOut = dtypeSize(c.outType);
  const int64_t oh = c.outH(), ow = c.outW();
  const double inBw = std::max(1e-9, coreBandwidth(target, DmaPath::GmToUb, maxCores));
  const double outBw = std::max(1e-9, coreBandwidth(target, DmaPath::UbToGm, maxCores));
  int64_t columns = 0;  // output positions one tile's tap instructions cover
  for (int64_t j = 0; j < c.kw; ++j) columns += windowColumns(c, j).second - windowColumns(c, j).first;
  // rows per tile: up to what spreads the images' output rows evenly over the cores
  const int64_t maxRows = std::max<int64_t>(1, std::min<int64_t>(oh, c.n * oh / std::max(1, maxCores)));
  for (int64_t tc = maxChannels(c); tc >= 1; --tc) {
    for (int64_t rows = 1; rows <= maxRows; ++rows) {
      WindowLayout layout(c, tc, rows);
      if (layout.ubBytes() > target.buffer(Space::UB).size || layout.tapStride(c) > isa::kMaxRepeat) break;
      int64_t slices = ceilDiv(c.c, tc), tiles = c.n * ceilDiv(oh, rows) * slices;
      int cores = static_cast<int>(std::min<int64_t>(maxCores, tiles));
      double repeats = double(rows * c.kh * columns) + double(layout.inAcc + layout.acc + layout.out) / isa::kRepeatBytes;
      double vector = repeats * target.vectorCyclesPerRepeat[static_cast<int>(isa::VectorCost::Binary)] + double(rows * c.kh * c.kw + 3) * target.vectorStartup;
      double load = double(std::min(c.h, windowSlots(c, rows)) * c.w * tc * esIn) / inBw;
      double store = double(rows * ow * tc * esOut) / outBw;
      double total = double(ceilDiv(tiles, cores)) * std::max({vector, load, store}) + load + store;
      if (bestCycles < 0 || total < bestCycles * 0.9999) {
        bestCycles = total;
        best = WindowSchedule{tc, rows, cores, total};
      }
    }
  }
  return best;
}

WindowSchedule requireWindowSchedule(const WindowCompute& c, const Target& target, int maxCores) {
  WindowSchedule s = scheduleWindow(c, target, maxCores);
  if (s.blockDim > 0) return s;
  WindowLayout smallest(c, 1, 1);
  const int64_t ub = target.buffer(Space::UB).size;
  if (smallest.ubBytes() > ub) {
    fail(c, "UB holds " + std::to_string(ub) + " bytes but the smallest tile needs " +
                std::to_string(smallest.ubBytes()) + " (two sets of " + std::to_string(c.kh) + " input rows of " +
                std::to_string(c.w) + " pixels and " + std::to_string(c.outW()) +
                " output pixels, one channel each padded to 32 bytes)");
  }
  fail(c, "a horizontal stride of " + std::to_string(c.strideW) + " pixels needs a repeat stride of " +
              std::to_string(smallest.tapStride(c)) + " blocks, beyond the field's " + std::to_string(isa::kMaxRepeat));
}

namespace {

// One tile: output rows [row, row+rows) of image `image`, channels [channel, channel+channels).
struct WindowTile {
  int64_t channel, channels, image, row, rows;
};

// Per tile: the input rows the windows read (GM→UB, MTE2), converted to the accumulator type; the
// accumulator set (0 or -inf), then per tap one vector instruction over the output columns whose
// input column lies inside the image, each lane a channel, one repeat per column (source repeat
// stride = stride·pixel); scaled (average), converted to the output type and stored (MTE3). Two
// buffer sets alternate between tiles.
class WindowEmitter {
 public:
  WindowEmitter(const WindowCompute& c, const WindowSchedule& s, KernelBuilder& b)
      : c_(c), b_(b), layout_(c, s.channels, s.rows), accType_(c.accType()), esIn_(dtypeSize(c.inType)),
        esAcc_(dtypeSize(c.accType())), esOut_(dtypeSize(c.outType)) {
    for (int p = 0; p < 2; ++p) {
      int64_t base = p * layout_.setBytes();
      inRaw_[p] = base;
      inAcc_[p] = layout_.inAcc ? base + layout_.inRaw : base;
      acc_[p] = base + layout_.inRaw + layout_.inAcc;
      out_[p] = layout_.out ? acc_[p] + layout_.acc : acc_[p];
    }
    weightsRaw_ = 2 * layout_.setBytes();
    weightsAcc_ = layout_.weightsAcc ? weightsRaw_ + layout_.weightsRaw : weightsRaw_;
    b.noteBufferBytes(Space::UB, layout_.ubBytes());
  }

  void prologue() {
    for (int p = 0; p < 2; ++p) {
      b_.setFlag(Pipe::V, Pipe::MTE2, p);
      b_.setFlag(Pipe::MTE3, Pipe::V, p);
    }
  }

  void epilogue() {
    for (int p = 0; p < 2; ++p) {
      b_.waitFlag(Pipe::V, Pipe::MTE2, p);
      b_.waitFlag(Pipe::MTE3, Pipe::V, p);
    }
  }

  void beginCore() { weightsChannel_ = -1; }

  void tile(const WindowTile& t, size_t index) {
    int p = static_cast<int>(index % 2);
    // a narrower tail slice packs its pixels tighter, as its DMAs do
    WindowLayout slice(c_, t.channels, 1);
    inPitch_ = slice.inPitch;
    accPitch_ = slice.accPitch;
    if (c_.reduce == WindowReduce::MultiplyAdd && t.channel != weightsChannel_) loadWeights(t);
    // window slot s holds input row top + s; load the slots some (output row, kernel row) reads
    // that lie inside the image
    const int64_t top = t.row * c_.strideH - c_.padTop, slots = windowSlots(c_, t.rows);
    std::vector<bool> loaded(static_cast<size_t>(slots), false);
    for (int64_t r = 0; r < t.rows; ++r)
      for (int64_t i = 0; i < c_.kh; ++i) {
        int64_t slot = r * c_.strideH + i * c_.dilationH;
        loaded[static_cast<size_t>(slot)] = top + slot >= 0 && top + slot < c_.h;
      }
    b_.waitFlag(Pipe::V, Pipe::MTE2, p);
    for (int64_t slot = 0; slot < slots; ++slot) {
      if (!loaded[static_cast<size_t>(slot)]) continue;
      emitCopyRows(b_, Opcode::CopyGmToUb, MemRef{Space::UB, 0, inRaw_[p] + slot * c_.w * inPitch_ * esIn_},
                   gm(0, ((t.image * c_.h + top + slot) * c_.w * c_.c + t.channel) * esIn_), c_.w, t.channels * esIn_,
                   (c_.c - t.channels) * esIn_);
    }
    b_.setFlag(Pipe::MTE2, Pipe::V, p);
    b_.waitFlag(Pipe::MTE2, Pipe::V, p);
    if (layout_.inAcc) {
      for (int64_t slot = 0; slot < slots; ++slot) {
        if (!loaded[static_cast<size_t>(slot)]) continue;
        int64_t row = slot * c_.w * inPitch_;
        convert(inAcc_[p] + row * esAcc_, inRaw_[p] + row * esIn_, c_.inType, accType_, c_.w * inPitch_);
      }
    }
    const int64_t outPixels = t.rows * c_.outW();
    b_.waitFlag(Pipe::MTE3, Pipe::V, p);
    VectorOp init;
    init.op = Opcode::VDup;
    init.type = accType_;
    init.dst = MemRef{Space::UB, 0, acc_[p]};
    init.scalarIsImm = true;
    init.scalarBits = c_.reduce == WindowReduce::Max ? scalarBitsOf(-std::numeric_limits<double>::infinity(), accType_) : 0;
    emitContiguous(b_, init, outPixels * accPitch_);
    auto [lo, hi] = firstLanesMask(t.channels);
    for (int64_t r = 0; r < t.rows; ++r)
      for (int64_t i = 0; i < c_.kh; ++i) {
        int64_t slot = r * c_.strideH + i * c_.dilationH;
        if (!loaded[static_cast<size_t>(slot)]) continue;
        for (int64_t j = 0; j < c_.kw; ++j) tap(p, r, slot, i, j, lo, hi);
      }
    b_.setFlag(Pipe::V, Pipe::MTE2, p);
    if (c_.reduce == WindowReduce::Average) {
      VectorOp scale;
      scale.op = Opcode::VMuls;
      scale.type = accType_;
      scale.dst = scale.src0 = MemRef{Space::UB, 0, acc_[p]};
      scale.scalarIsImm = true;
      scale.scalarBits = scalarBitsOf(1.0 / static_cast<double>(c_.kh * c_.kw), accType_);
      emitContiguous(b_, scale, outPixels * accPitch_);
    }
    if (layout_.out) convert(out_[p], acc_[p], accType_, c_.outType, outPixels * accPitch_);
    b_.setFlag(Pipe::V, Pipe::MTE3, p);
    b_.waitFlag(Pipe::V, Pipe::MTE3, p);
    // the tile's output rows are consecutive pixels in GM and in UB
    const int outArg = c_.reduce == WindowReduce::MultiplyAdd ? 2 : 1;
    for (int64_t first = 0; first < outPixels; first += isa::kMaxNBurst) {
      int64_t pixels = std::min<int64_t>(isa::kMaxNBurst, outPixels - first);
      emitCopyRows(b_, Opcode::CopyUbToGm,
                   gm(outArg, (((t.image * c_.outH() + t.row) * c_.outW() + first) * c_.c + t.channel) * esOut_),
                   MemRef{Space::UB, 0, out_[p] + first * accPitch_ * esOut_}, pixels, t.channels * esOut_,
                   (c_.c - t.channels) * esOut_);
    }
    b_.setFlag(Pipe::MTE3, Pipe::V, p);
  }

 private:
  static MemRef gm(int arg, int64_t offset) { return MemRef{Space::GM, static_cast<uint8_t>(KernelBuilder::argReg(arg)), offset}; }

  void convert(int64_t dst, int64_t src, DType from, DType to, int64_t count) { emitConvert(b_, dst, src, from, to, count); }

  // The weights of one channel slice, [KH·KW rows × channels], resident in UB in the accumulator
  // type. V must be done with the previous slice first.
  void loadWeights(const WindowTile& t) {
    if (weightsChannel_ >= 0) {
      b_.setFlag(Pipe::V, Pipe::MTE2, kWeightsEvent);
      b_.waitFlag(Pipe::V, Pipe::MTE2, kWeightsEvent);
    }
    emitCopyRows(b_, Opcode::CopyGmToUb, MemRef{Space::UB, 0, weightsRaw_}, gm(1, t.channel * esIn_), c_.kh * c_.kw,
                 t.channels * esIn_, (c_.c - t.channels) * esIn_);
    b_.setFlag(Pipe::MTE2, Pipe::V, kWeightsEvent);
    b_.waitFlag(Pipe::MTE2, Pipe::V, kWeightsEvent);
    if (layout_.weightsAcc) convert(weightsAcc_, weightsRaw_, c_.inType, accType_, c_.kh * c_.kw * inPitch_);
    weightsChannel_ = t.channel;
  }

  // acc[r][ow] ⊕= in[slot][ow·stride − padLeft + j·dilation] (· w[i][j]) over the valid output
  // columns, one repeat per column, in pieces of at most 255 repeats.
  void tap(int p, int64_t r, int64_t slot, int64_t i, int64_t j, uint64_t lo, uint64_t hi) {
    auto [first, last] = windowColumns(c_, j);
    int64_t dstRep = accPitch_ * esAcc_ / isa::kBlockBytes, srcRep = c_.strideW * inPitch_ * esAcc_ / isa::kBlockBytes;
    b_.setCounterMode(false);
    b_.setMask(lo, hi);
    for (int64_t ow = first; ow < last; ow += isa::kMaxRepeat) {
      int64_t repeats = std::min<int64_t>(isa::kMaxRepeat, last - ow);
      int64_t iw = ow * c_.strideW - c_.padLeft + j * c_.dilationW;
      MemRef acc{Space::UB, 0, acc_[p] + (r * c_.outW() + ow) * accPitch_ * esAcc_};
      MemRef in{Space::UB, 0, inAcc_[p] + (slot * c_.w + iw) * inPitch_ * esAcc_};
      Instruction op;
      op.type = accType_;
      op.dst = acc;
      op.repeat = static_cast<uint16_t>(repeats);
      op.dstRep = static_cast<uint16_t>(dstRep);
      if (c_.reduce == WindowReduce::MultiplyAdd) {
        // dst = in · w + dst, the tap's weights re-read every repeat
        op.op = Opcode::VMla;
        op.src0 = in;
        op.src1 = MemRef{Space::UB, 0, weightsAcc_ + (i * c_.kw + j) * inPitch_ * esAcc_};
        op.src0Rep = static_cast<uint16_t>(srcRep);
        op.src1Rep = 0;
      } else {
        op.op = c_.reduce == WindowReduce::Max ? Opcode::VMax : Opcode::VAdd;
        op.src0 = acc;
        op.src1 = in;
        op.src0Rep = static_cast<uint16_t>(dstRep);
        op.src1Rep = static_cast<uint16_t>(srcRep);
      }
      b_.emit(op);
    }
  }

  const WindowCompute& c_;
  KernelBuilder& b_;
  WindowLayout layout_;
  DType accType_;
  int esIn_, esAcc_, esOut_;
  int64_t inRaw_[2], inAcc_[2], acc_[2], out_[2];
  int64_t weightsRaw_ = 0, weightsAcc_ = 0;
  int64_t weightsChannel_ = -1;
  int64_t inPitch_ = 0, accPitch_ = 0;  // elements per pixel of the current slice
};

}  // namespace

KernelCode lowerWindow(const WindowCompute& c, const WindowSchedule& s, const Target& target) {
  validate(c);
  if (s.channels < 1 || s.channels > maxChannels(c) || s.rows < 1 || s.rows > c.outH() || s.blockDim < 1)
    fail(c, "schedule " + s.str() + " does not describe tiles of this window");
  WindowLayout layout(c, s.channels, s.rows);
  if (layout.ubBytes() > target.buffer(Space::UB).size)
    fail(c, "schedule " + s.str() + " needs " + std::to_string(layout.ubBytes()) + " bytes of UB, which holds " +
                std::to_string(target.buffer(Space::UB).size));
  if (layout.tapStride(c) > isa::kMaxRepeat) fail(c, "schedule " + s.str() + " needs a repeat stride beyond 255 blocks");
  KernelBuilder b(c.name, c.reduce == WindowReduce::MultiplyAdd ? 3 : 2);
  b.setSourceLine(c.sourceLine);
  // channel slice outermost so that each core reloads resident weights rarely
  std::vector<WindowTile> tiles;
  for (int64_t channel = 0; channel < c.c; channel += s.channels)
    for (int64_t image = 0; image < c.n; ++image)
      for (int64_t row = 0; row < c.outH(); row += s.rows)
        tiles.push_back(WindowTile{channel, std::min(s.channels, c.c - channel), image, row, std::min(s.rows, c.outH() - row)});
  WindowEmitter emitter(c, s, b);
  emitter.prologue();
  emitPerCore(b, s.blockDim, tiles, emitter);
  emitter.epilogue();
  return b.finish(s.blockDim);
}

}  // namespace pyasc::codegen
