// A lowered program: GM storages, generated kernels and the execution plan that launches them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codegen/emit/KernelBuilder.h"
#include "sdk/graph/Graph.h"
#include "sdk/model/Model.h"

namespace pyasc::codegen {

// One GM buffer of the program. Several graph values may share one storage (reshapes are views,
// in-place updates write their base).
struct Storage {
  std::string name;
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  model::TensorRole role = model::TensorRole::Intermediate;
  std::vector<uint8_t> constant;  // Constant role: its bytes
  graph::RandomSpec random;       // RandomInput role
  std::optional<DType> declared;  // Input role: the program's dtype where the device's differs (graph::GraphInput)
  SourceLocation loc;               // where the value it holds was defined
  std::vector<ShapeExpr> dims;      // dynamic shapes: its extents over Program::symbols (empty: static)
  // plan-memory: the launches (flattened positions) between which it is live, and its GM offset
  int firstUse = -1, lastUse = -1;
  int64_t gmOffset = -1;

  int64_t elements() const;
  int64_t bytes() const { return elements() * dtypeSize(dtype); }
};

struct Launch {
  int kernel = 0;
  std::vector<int> storages;                 // tensor arguments
  std::vector<model::AffineScalar> scalars;  // byte offsets or values, affine in loop counters
};

struct Step {
  bool isLoop = false;
  Launch launch;
  int64_t tripCount = 0;  // a while loop: the most trips it may run
  uint32_t inductionVar = 0;
  std::vector<int> carried;  // storages the iterations hand on (live through the whole loop)
  int condition = -1;        // a while loop: the carried one-element bool storage the host tests before each trip
  int sourceLine = 0;        // a while loop: its line
  std::vector<Step> body;
};

struct Program {
  std::vector<Storage> storages;
  std::vector<KernelCode> kernels;
  std::vector<Step> steps;
  std::vector<std::pair<std::string, int>> outputs;  // output name -> storage
  std::string sourceFile;
  int64_t gmPeakBytes = 0;  // plan-memory: device memory the plan needs at its peak
  std::vector<model::Symbol> symbols;  // dynamic shapes: the inputs' dynamic dimensions (empty: static)
};

// A text listing of the program (kernels with their schedules, launches, loops) for --dump-after.
std::string printProgram(const Program& program);

}  // namespace pyasc::codegen
