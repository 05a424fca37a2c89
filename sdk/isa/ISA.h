// The NPU instruction set as data: opcodes, pipes, memory spaces and the decoded instruction.
#pragma once

#include <cstdint>
#include <string>

#include "sdk/support/DType.h"

namespace pyasc::isa {

// Execution pipes of one AI Core. S (scalar) fetches every instruction in program order and
// issues it into the queue of its pipe; each pipe runs its queue in order.
enum class Pipe : uint8_t { S = 0, V = 1, M = 2, MTE1 = 3, MTE2 = 4, MTE3 = 5, FIX = 6, All = 7 };
constexpr int kPipeCount = 7;  // All is only a pipe_barrier operand
const char* pipeName(Pipe p);  // "S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"
bool parsePipe(const std::string& name, Pipe& out);  // case-insensitive

// Memory spaces an address operand can name.
enum class Space : uint8_t { GM = 0, UB = 1, L1 = 2, L0A = 3, L0B = 4, L0C = 5 };
constexpr int kSpaceCount = 6;
const char* spaceName(Space s);  // "gm", "ub", "l1", "l0a", "l0b", "l0c"
bool parseSpace(const std::string& name, Space& out);

// How a line of ISA.def names the pipe: a fixed pipe, or taken from the operands.
enum class PipeRule : uint8_t { Fixed, Src, Dst, Own };

enum class Format : uint8_t {
#define FORMAT(Name) Name,
#include "sdk/isa/ISAFormats.def"
#undef FORMAT
};

enum class Opcode : uint8_t {
#define INST(Enum, Mnemonic, PipeSpec, Fmt) Enum,
#include "sdk/isa/ISA.def"
#undef INST
  Count
};
constexpr int kOpcodeCount = static_cast<int>(Opcode::Count);

struct OpcodeInfo {
  Opcode op;
  const char* mnemonic;
  PipeRule pipeRule;
  Pipe pipe;  // meaningful for PipeRule::Fixed
  Format format;
};
const OpcodeInfo& opcodeInfo(Opcode op);
bool parseMnemonic(const std::string& mnemonic, Opcode& out);

// An address operand: value of scalar register `reg` (x0 reads as 0) plus a byte offset.
struct MemRef {
  Space space = Space::UB;
  uint8_t reg = 0;
  int64_t offset = 0;
  bool operator==(const MemRef& o) const { return space == o.space && reg == o.reg && offset == o.offset; }
};

// Compare modes of vcmp.
enum class CmpMode : uint8_t { EQ = 0, NE = 1, LT = 2, LE = 3, GT = 4, GE = 5 };
constexpr int kCmpModeCount = 6;
const char* cmpModeName(CmpMode m);  // "eq", "ne", "lt", "le", "gt", "ge"
bool parseCmpMode(const std::string& name, CmpMode& out);

// One decoded instruction. Each format uses a subset of the fields (the table in
// sdk/isa/Encoding.cpp lists them, docs/isa.md shows them per format); unused fields stay at
// their defaults so that decode(encode(i)) == i. Operand roles by format:
//   ld: rd <- src0 address; st: ra -> dst address; branches: ra, rb, imm = target index;
//   set_vmask: ra (bits 0-63), rb (bits 64-127); vscalar/vdup: ra or imm (mode 1) is the scalar;
//   vsel: src2 is the selection bits; set_flag/wait_flag: srcPipe, dstPipe, event;
//   pipe_barrier: srcPipe names the pipe (Pipe::All for `all`).
struct Instruction {
  Opcode op = Opcode::End;
  DType type = DType::Float16;   // element type of the operands (source type for vconv/mmad/fixpipe)
  DType type2 = DType::Float16;  // destination type: vconv, mmad accumulator, fixpipe output
  uint8_t mode = 0;  // vconv/fixpipe RoundMode; vcmp CmpMode; mmad 1 = init (C = A·B), 0 = accumulate;
                     // dma 1 = byte mode (burst_len and gm-side gaps in bytes); mask mode 1 = counter;
                     // vcmax/vcmin 1 = write (value, index) pairs; load_l0a/b 1 = transpose;
                     // scalar alu 1 = second operand is imm; vscalar/vdup 1 = scalar is imm
  MemRef dst, src0, src1, src2;
  // scalar registers x0..x31
  uint8_t rd = 0, ra = 0, rb = 0;
  int64_t imm = 0;  // li value, alu immediate, scalar operand bits (vscalar/vdup), branch target
  // vector iteration: repeat count and strides in 32-byte blocks
  uint16_t repeat = 1;
  uint16_t dstBlk = 1, src0Blk = 1, src1Blk = 1;
  uint16_t dstRep = 8, src0Rep = 8, src1Rep = 8;
  // DMA / fractal loads / fixpipe / img2col geometry
  uint16_t nburst = 1, burstLen = 0, srcGap = 0, dstGap = 0;
  // cube / fractal / fixpipe / img2col sizes
  uint16_t m = 0, k = 0, n = 0;
  uint16_t srcStride = 0, dstStride = 0;  // row strides in elements (fractal loads, fixpipe)
  uint16_t validRows = 0, validCols = 0;  // fractal loads, fixpipe: rows/columns kept (0 = all)
  // img2col: input H, W, C and kernel/stride/pad/dilation packed; see docs/isa.md
  uint16_t h = 0, w = 0, c = 0;
  uint8_t kh = 0, kw = 0, strideH = 1, strideW = 1, padT = 0, padB = 0, padL = 0, padR = 0,
          dilH = 1, dilW = 1;
  uint16_t posStart = 0;  // img2col: first output position (row of the patch matrix)
  // sync
  Pipe srcPipe = Pipe::S, dstPipe = Pipe::S;
  uint8_t event = 0;

  bool operator==(const Instruction& o) const;
  bool operator!=(const Instruction& o) const { return !(*this == o); }
};

// The pipe an instruction is queued on (resolves Src/Dst/Own rules; Own is srcPipe).
Pipe issuePipe(const Instruction& inst);

// What a vector instruction costs per repeat, by kind (targets/*.yaml `vector.cycles_per_repeat`):
// one-operand arithmetic (and vector-scalar, vrec, vrsqrt, vdup, vmov), two-operand arithmetic
// (and vcmp, vsel), vmla, transcendental functions (vexp vln vsqrt vdiv), cross-lane reductions
// (vcadd vcmax vcmin), conversions (vconv) and 16x16 transposes (vtranspose).
enum class VectorCost : uint8_t { Unary, Binary, MultiplyAdd, Transcendental, Reduction, Conversion, Transpose };
constexpr int kVectorCostCount = 7;
VectorCost vectorCost(Opcode op);
const char* vectorCostName(VectorCost cost);  // "elementwise", ... as spelled in the target file

constexpr int kInstructionBytes = 32;  // fixed-size little-endian encoding, see docs/isa.md
constexpr int kScalarRegisters = 32;
constexpr int kFlagEvents = 8;  // event ids 0..7 per (source pipe, destination pipe)
constexpr int kBlockBytes = 32;
constexpr int kRepeatBytes = 256;  // 8 blocks per repeat
constexpr int kMaxRepeat = 255;
constexpr int kMaxNBurst = 4095;
constexpr int kMaxBurstLen = 65535;
constexpr int kFractalBytes = 512;

}  // namespace pyasc::isa
