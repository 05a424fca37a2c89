// The compiled model (.om, DESIGN.md §6, docs/om-format.md): tensors, kernels, execution plan, constants.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sdk/isa/ISA.h"
#include "sdk/support/DType.h"
#include "sdk/support/ShapeExpr.h"

namespace pyasc::model {

// Format version written by this pyasc; it reads every file of this major version, of 2.x (a 2.x
// file is a 3.x file without section 9) and of 1.x (a 1.x file is a 2.x file without section 8).
constexpr uint16_t kFormatMajor = 3;
constexpr uint16_t kFormatMinor = 0;  // 1.1: the optional graph section; 1.2: the optional host dtypes section;
                                     // 1.3: while steps; 2.0: the optional random transforms section,
                                     // which changes what the runtime draws (a 1.x reader would skip it);
                                     // 3.0: the optional dynamic shapes section, which changes the launch
                                     // scalars and shapes (a 2.x reader would skip it)
constexpr uint16_t kLastMinorOf1 = 3;
constexpr uint16_t kLastMinorOf2 = 0;

// Header flags: how the model was compiled (informational for `pyasc info`).
enum ModelFlag : uint32_t {
  kFlagMemoryOpt = 1u << 0,       // --enable-memory-opt
  kFlagMemoryReuse = 1u << 1,     // --enable-memory-reuse
  kFlagMixedPrecision = 1u << 2,  // auto mixed precision rewrote float32 paths to float16
};
constexpr uint32_t kKnownFlags = kFlagMemoryOpt | kFlagMemoryReuse | kFlagMixedPrecision;

// One dimension: static when min == max; a dynamic dimension takes any value in [min, max],
// and the memory plan reserves room for max.
struct Dim {
  int64_t min = 0;
  int64_t max = 0;

  static Dim fixed(int64_t n) { return Dim{n, n}; }
  bool isStatic() const { return min == max; }
  bool operator==(const Dim& o) const { return min == o.min && max == o.max; }
};

enum class TensorRole : uint8_t { Input = 0, Output = 1, Constant = 2, Intermediate = 3, RandomInput = 4 };
constexpr int kTensorRoleCount = 5;
const char* tensorRoleName(TensorRole role);  // "input", "output", "constant", "intermediate", "random-input"

// Data layout of a tensor in GM (Ascend format names).
enum class Layout : uint8_t { ND = 0, NCHW = 1, NHWC = 2, NC1HWC0 = 3, FractalNZ = 4, FractalZ = 5 };
constexpr int kLayoutCount = 6;
const char* layoutName(Layout layout);  // "ND", "NCHW", "NHWC", "NC1HWC0", "FRACTAL_NZ", "FRACTAL_Z"

enum class RandomDistribution : uint8_t {
  Uniform = 0,  // np.random.rand / random_sample
  Normal = 1,   // np.random.randn / standard_normal
};
constexpr int kRandomDistributionCount = 2;
const char* randomDistributionName(RandomDistribution dist);  // "rand", "randn"

// Replay recipe of a random input (the graph's RandomSpec): after np.random.seed(seed) the program
// drew `offset` values of earlier random inputs of the same stream before this one. The runtime
// regenerates a stream's random inputs in increasing offset order from one generator.
struct RandomSource {
  RandomDistribution distribution = RandomDistribution::Uniform;
  bool seeded = false;  // an unseeded stream may use any seed
  uint32_t seed = 0;
  uint32_t stream = 0;  // increments at every np.random.seed call
  int64_t offset = 0;
  double scale = 1.0, shift = 0.0;  // then v · scale + shift in the tensor's dtype (section 8, format 1.4)
  bool transformed() const { return scale != 1.0 || shift != 0.0; }
  bool operator==(const RandomSource& o) const;
};

struct Tensor {
  std::string name;
  DType dtype = DType::Float32;
  std::vector<Dim> shape;
  Layout layout = Layout::ND;
  TensorRole role = TensorRole::Intermediate;
  int64_t gmOffset = 0;  // bytes from the start of the model's GM area (memory plan)
  int64_t gmSize = 0;    // bytes reserved, at least the size at the largest shape
  RandomSource random;   // meaningful for TensorRole::RandomInput
  // Input role: the dtype the program declared where the device computes another (float64 in
  // float32, format 1.2's `host dtypes` section); the runtime converts arrays of it when binding.
  std::optional<DType> declared;
  // A tensor with dynamic dimensions: each dimension's extent over the model's symbols (section 9),
  // within `shape`'s [min, max]; empty for a static tensor.
  std::vector<ShapeExpr> dims;

  bool isStatic() const;
  int64_t maxElementCount() const;  // with every dynamic dimension at its max
  int64_t maxByteSize() const;
  bool operator==(const Tensor& o) const;
};

// Bytes of each on-chip buffer a kernel uses (per core).
struct BufferUsage {
  int64_t ub = 0, l1 = 0, l0a = 0, l0b = 0, l0c = 0;
  bool operator==(const BufferUsage& o) const;
};

struct KernelImage {
  std::string name;
  uint32_t blockDim = 1;        // cores the kernel runs on
  uint32_t tensorArgCount = 0;  // GM tensor arguments of every launch
  uint32_t scalarArgCount = 0;  // scalar arguments of every launch
  BufferUsage buffers;
  std::vector<isa::Instruction> instructions;
  std::vector<uint32_t> sourceLines;  // sourceLines[i]: line of instructions[i] in sourceFile, 0 = none
  std::string sourceFile;
  bool operator==(const KernelImage& o) const;
};

// base + Σ coeff · iv over the induction variables of enclosing plan loops.
struct AffineTerm {
  uint32_t inductionVar = 0;
  int64_t coeff = 0;
  bool operator==(const AffineTerm& o) const { return inductionVar == o.inductionVar && coeff == o.coeff; }
};
// A launch scalar: base + Σ coeff · iv, plus (dynamic models, section 9) an expression over the
// shape symbols, evaluated when the shapes are bound (a tiling value of the launch).
struct AffineScalar {
  int64_t base = 0;
  std::vector<AffineTerm> terms;
  ShapeExpr shape;  // null: none
  bool operator==(const AffineScalar& o) const;
};

// A dynamic dimension of the inputs: a name (`N`, or `x.0` for an unnamed one) and its range.
struct Symbol {
  std::string name;
  int64_t min = 0, max = 0;
  bool operator==(const Symbol& o) const { return name == o.name && min == o.min && max == o.max; }
};

enum class StepKind : uint8_t { Launch = 0, Loop = 1, While = 2 };
constexpr int kStepKindCount = 3;
const char* stepKindName(StepKind kind);  // "launch", "loop", "while"

// One step of the execution plan: launch a kernel, or run a body `tripCount` times with the
// induction variable `inductionVar` = 0, 1, ... tripCount-1. A while step runs its body while the
// one-element bool tensor `condition` holds true (the host reads it before each trip), with the
// induction variable counting the trips; more than `tripCount` trips is a run-time error.
struct PlanStep {
  StepKind kind = StepKind::Launch;
  uint32_t kernel = 0;                   // Launch: index into Model::kernels
  std::vector<uint32_t> tensorArgs;      // Launch: indices into Model::tensors
  std::vector<AffineScalar> scalarArgs;  // Launch
  int64_t tripCount = 0;                 // Loop; While: the most trips it may run
  uint32_t inductionVar = 0;             // Loop, While: id unique among enclosing loops
  uint32_t condition = 0;                // While: index into Model::tensors
  uint32_t sourceLine = 0;               // While: the loop's line in the kernels' source file, 0 = none
  std::vector<PlanStep> body;            // Loop, While

  static PlanStep launch(uint32_t kernel, std::vector<uint32_t> tensors, std::vector<AffineScalar> scalars = {});
  static PlanStep loop(int64_t tripCount, uint32_t inductionVar, std::vector<PlanStep> body);
  static PlanStep whileLoop(int64_t maxTrips, uint32_t inductionVar, uint32_t condition, uint32_t sourceLine,
                            std::vector<PlanStep> body);
  bool isLoop() const { return kind == StepKind::Loop || kind == StepKind::While; }
  bool operator==(const PlanStep& o) const;
};

// The bytes of one constant tensor (C order, little-endian, its static shape).
struct Constant {
  uint32_t tensor = 0;
  std::vector<uint8_t> bytes;
  bool operator==(const Constant& o) const { return tensor == o.tensor && bytes == o.bytes; }
};

struct MemoryPlan {
  int64_t gmPeakBytes = 0;  // device memory the plan needs; every tensor lies below it
  bool operator==(const MemoryPlan& o) const { return gmPeakBytes == o.gmPeakBytes; }
};

struct Model {
  uint16_t formatMajor = kFormatMajor;  // as read from a file; the writer always writes its own
  uint16_t formatMinor = kFormatMinor;
  std::string target;  // target name, e.g. "ascend310"
  uint32_t flags = 0;  // ModelFlag bits
  std::vector<Tensor> tensors;
  std::vector<KernelImage> kernels;
  std::vector<PlanStep> plan;
  std::vector<Constant> constants;
  MemoryPlan memory;
  // The program as graph IR text (sdk/graph/Printer.h) after the graph stages: what the kernels
  // compute, which the CPU backend compiles for the host. Empty in a 1.0 model.
  std::string graph;
  // The dynamic dimensions, in the order the program's inputs declare them (section 9); empty for
  // a static model.
  std::vector<Symbol> symbols;

  bool isDynamic() const { return !symbols.empty(); }
  // Index of the first tensor called `name` (of `role`), or -1. Only an input and the output of
  // the same parameter updated in place share a name.
  int findTensor(const std::string& name) const;
  int findTensor(const std::string& name, TensorRole role) const;
  bool operator==(const Model& o) const;  // compares content, not the format version
};

}  // namespace pyasc::model
