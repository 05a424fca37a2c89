// Names of the model enums, tensor sizes and structural equality.
#include "sdk/model/Model.h"

#include <limits>

namespace pyasc::model {

const char* tensorRoleName(TensorRole role) {
  switch (role) {
    case TensorRole::Input: return "input";
    case TensorRole::Output: return "output";
    case TensorRole::Constant: return "constant";
    case TensorRole::Intermediate: return "intermediate";
    case TensorRole::RandomInput: return "random-input";
  }
  return "?";
}

const char* layoutName(Layout layout) {
  switch (layout) {
    case Layout::ND: return "ND";
    case Layout::NCHW: return "NCHW";
    case Layout::NHWC: return "NHWC";
    case Layout::NC1HWC0: return "NC1HWC0";
    case Layout::FractalNZ: return "FRACTAL_NZ";
    case Layout::FractalZ: return "FRACTAL_Z";
  }
  return "?";
}

const char* randomDistributionName(RandomDistribution dist) {
  switch (dist) {
    case RandomDistribution::Uniform: return "rand";
    case RandomDistribution::Normal: return "randn";
  }
  return "?";
}

const char* stepKindName(StepKind kind) {
  switch (kind) {
    case StepKind::Launch: return "launch";
    case StepKind::Loop: return "loop";
    case StepKind::While: return "while";
  }
  return "?";
}

bool RandomSource::operator==(const RandomSource& o) const {
  return distribution == o.distribution && seeded == o.seeded && seed == o.seed && stream == o.stream &&
         offset == o.offset && scale == o.scale && shift == o.shift;
}

bool Tensor::isStatic() const {
  for (const Dim& d : shape)
    if (!d.isStatic()) return false;
  return true;
}

// Saturates at INT64_MAX so that absurd shapes compare as "too large" instead of overflowing.
int64_t Tensor::maxElementCount() const {
  int64_t count = 1;
  for (const Dim& d : shape) {
    if (d.max <= 0) return 0;
    if (count > std::numeric_limits<int64_t>::max() / d.max) return std::numeric_limits<int64_t>::max();
    count *= d.max;
  }
  return count;
}

int64_t Tensor::maxByteSize() const {
  int64_t count = maxElementCount();
  int64_t size = dtypeSize(dtype);
  if (count > std::numeric_limits<int64_t>::max() / size) return std::numeric_limits<int64_t>::max();
  return count * size;
}

namespace {
bool sameDims(const std::vector<ShapeExpr>& a, const std::vector<ShapeExpr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!shape::same(a[i], b[i])) return false;
  return true;
}
}  // namespace

bool Tensor::operator==(const Tensor& o) const {
  return name == o.name && dtype == o.dtype && shape == o.shape && layout == o.layout && role == o.role &&
         gmOffset == o.gmOffset && gmSize == o.gmSize && (role != TensorRole::RandomInput || random == o.random) &&
         declared == o.declared && sameDims(dims, o.dims);
}

bool AffineScalar::operator==(const AffineScalar& o) const {
  return base == o.base && terms == o.terms && (shape && o.shape ? shape::same(shape, o.shape) : shape == o.shape);
}

bool BufferUsage::operator==(const BufferUsage& o) const {
  return ub == o.ub && l1 == o.l1 && l0a == o.l0a && l0b == o.l0b && l0c == o.l0c;
}

bool KernelImage::operator==(const KernelImage& o) const {
  return name == o.name && blockDim == o.blockDim && tensorArgCount == o.tensorArgCount &&
         scalarArgCount == o.scalarArgCount && buffers == o.buffers && instructions == o.instructions &&
         sourceLines == o.sourceLines && sourceFile == o.sourceFile;
}

PlanStep PlanStep::launch(uint32_t kernel, std::vector<uint32_t> tensors, std::vector<AffineScalar> scalars) {
  PlanStep step;
  step.kind = StepKind::Launch;
  step.kernel = kernel;
  step.tensorArgs = std::move(tensors);
  step.scalarArgs = std::move(scalars);
  return step;
}

PlanStep PlanStep::loop(int64_t tripCount, uint32_t inductionVar, std::vector<PlanStep> body) {
  PlanStep step;
  step.kind = StepKind::Loop;
  step.tripCount = tripCount;
  step.inductionVar = inductionVar;
  step.body = std::move(body);
  return step;
}

PlanStep PlanStep::whileLoop(int64_t maxTrips, uint32_t inductionVar, uint32_t condition, uint32_t sourceLine,
                             std::vector<PlanStep> body) {
  PlanStep step = loop(maxTrips, inductionVar, std::move(body));
  step.kind = StepKind::While;
  step.condition = condition;
  step.sourceLine = sourceLine;
  return step;
}

bool PlanStep::operator==(const PlanStep& o) const {
  if (kind != o.kind) return false;
  if (kind == StepKind::Launch) return kernel == o.kernel && tensorArgs == o.tensorArgs && scalarArgs == o.scalarArgs;
  return tripCount == o.tripCount && inductionVar == o.inductionVar && condition == o.condition &&
         sourceLine == o.sourceLine && body == o.body;
}

int Model::findTensor(const std::string& name) const {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == name) return static_cast<int>(i);
  return -1;
}

int Model::findTensor(const std::string& name, TensorRole role) const {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == name && tensors[i].role == role) return static_cast<int>(i);
  return -1;
}

bool Model::operator==(const Model& o) const {
  return target == o.target && flags == o.flags && tensors == o.tensors && kernels == o.kernels && plan == o.plan &&
         constants == o.constants && memory == o.memory && graph == o.graph && symbols == o.symbols;
}

}  // namespace pyasc::model
