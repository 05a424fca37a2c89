// Semantic validation of a Model: ranges, uniqueness and cross-references between its parts.
#include "sdk/model/ModelValidator.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "sdk/model/ModelFormat.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::model {

namespace {

class Validator {
 public:
  Validator(const Model& model, const std::string& fileName) : model_(model), fileName_(fileName) {}

  void run() {
    if (!isValidTargetName(model_.target)) fail("invalid target name '" + model_.target + "'");
    if (model_.memory.gmPeakBytes < 0)
      fail("memory plan has a negative GM peak (" + std::to_string(model_.memory.gmPeakBytes) + ")");
    checkTensors();
    checkSymbols();
    checkSymbolsBound();
    checkRandomStreams();
    checkKernels();
    std::vector<uint32_t> enclosingLoops;
    checkSteps(model_.plan, enclosingLoops, "plan");
    checkConstants();
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { throw CompileError(SourceLocation{fileName_}, message); }

  std::string tensorLabel(size_t i) const {
    return "tensor " + std::to_string(i) + " ('" + escapeForMessage(model_.tensors[i].name) + "')";
  }
  std::string kernelLabel(size_t i) const {
    return "kernel " + std::to_string(i) + " ('" + escapeForMessage(model_.kernels[i].name) + "')";
  }
  void checkName(const std::string& name, const std::string& label) const {
    if (name.empty()) fail(label + " has no name");
    if (escapeForMessage(name) != name) fail(label + " has control characters in its name");
  }

  void checkTensors() const {
    // An output may share its name with one input: a parameter the program updates in place.
    std::map<std::string, TensorRole> firstRole;
    std::set<std::string> inPlacePairs;
    for (size_t i = 0; i < model_.tensors.size(); ++i) {
      const Tensor& t = model_.tensors[i];
      std::string label = tensorLabel(i);
      checkName(t.name, "tensor " + std::to_string(i));
      auto [first, fresh] = firstRole.emplace(t.name, t.role);
      if (!fresh) {
        bool inPlace = (first->second == TensorRole::Input && t.role == TensorRole::Output) ||
                       (first->second == TensorRole::Output && t.role == TensorRole::Input);
        if (!inPlace || !inPlacePairs.insert(t.name).second) fail(label + " repeats the name of an earlier tensor");
      }
      if (static_cast<int>(t.dtype) >= kDTypeCount)
        fail(label + " has an invalid dtype " + std::to_string(static_cast<int>(t.dtype)));
      if (static_cast<int>(t.layout) >= kLayoutCount)
        fail(label + " has an invalid layout " + std::to_string(static_cast<int>(t.layout)));
      if (static_cast<int>(t.role) >= kTensorRoleCount)
        fail(label + " has an invalid role " + std::to_string(static_cast<int>(t.role)));
      if (t.shape.size() > static_cast<size_t>(format::kMaxRank))
        fail(label + " has " + std::to_string(t.shape.size()) + " dimensions, at most " +
             std::to_string(format::kMaxRank) + " are allowed");
      for (size_t d = 0; d < t.shape.size(); ++d)
        if (t.shape[d].min < 0 || t.shape[d].min > t.shape[d].max)
          fail(label + " dimension " + std::to_string(d) + " has an invalid range [" + std::to_string(t.shape[d].min) +
               ", " + std::to_string(t.shape[d].max) + "]");
      int64_t bytes = t.maxByteSize();
      if (bytes == std::numeric_limits<int64_t>::max()) fail(label + " is too large");
      if (t.gmOffset < 0 || t.gmSize < 0)
        fail(label + " has a negative GM offset or size (" + std::to_string(t.gmOffset) + ", " +
             std::to_string(t.gmSize) + ")");
      if (t.gmSize < bytes)
        fail(label + " reserves " + std::to_string(t.gmSize) + " GM bytes but needs " + std::to_string(bytes));
      if (t.gmOffset > model_.memory.gmPeakBytes || t.gmSize > model_.memory.gmPeakBytes - t.gmOffset)
        fail(label + " GM range [" + std::to_string(t.gmOffset) + ", +" + std::to_string(t.gmSize) +
             ") exceeds the memory plan's peak of " + std::to_string(model_.memory.gmPeakBytes) + " bytes");
      if (t.role == TensorRole::RandomInput) {
        if (static_cast<int>(t.random.distribution) >= kRandomDistributionCount)
          fail(label + " has an invalid random distribution " +
               std::to_string(static_cast<int>(t.random.distribution)));
        if (!t.isStatic()) fail(label + " is a random input with a dynamic shape");
        if (!isFloat(t.dtype)) fail(label + " is a random input of non-float dtype " + dtypeName(t.dtype));
        if (t.random.offset < 0) fail(label + " has a negative random stream offset");
      }
      // the conversions the runtime makes when binding: float64 arrays rounded to float32 (float64
      // demotion), float32 or float64 arrays rounded to float16 (automatic mixed precision)
      const bool demoted = t.dtype == DType::Float32 && t.declared == DType::Float64;
      const bool halved = t.dtype == DType::Float16 && (t.declared == DType::Float32 || t.declared == DType::Float64);
      if (t.declared && (t.role != TensorRole::Input || !(demoted || halved)))
        fail(label + " (" + dtypeName(t.dtype) + ", " + tensorRoleName(t.role) + ") cannot be bound from " + dtypeName(*t.declared) +
             " (only a float32 input from float64, or a float16 input from float32 or float64)");
    }
  }

  // Symbols: unique names, ranges 1 ≤ min ≤ max; each dynamic tensor's dimension expressions stay
  // within its [min, max] over every binding; a dynamic model's tensors with dynamic ranges have them.
  void checkSymbols() const {
    std::set<std::string> names;
    std::vector<int64_t> lo, hi;
    for (size_t i = 0; i < model_.symbols.size(); ++i) {
      const Symbol& s = model_.symbols[i];
      const std::string label = "symbol " + std::to_string(i);
      checkName(s.name, label);
      if (!names.insert(s.name).second) fail(label + " repeats the name '" + escapeForMessage(s.name) + "'");
      if (s.min < 1 || s.min > s.max)
        fail(label + " ('" + escapeForMessage(s.name) + "') has an invalid range [" + std::to_string(s.min) + ", " +
             std::to_string(s.max) + "]");
      lo.push_back(s.min);
      hi.push_back(s.max);
    }
    std::vector<std::string> symbolNames;
    for (const Symbol& s : model_.symbols) symbolNames.push_back(s.name);
    for (size_t i = 0; i < model_.tensors.size(); ++i) {
      const Tensor& t = model_.tensors[i];
      if (t.dims.empty()) {
        if (model_.isDynamic() && !t.isStatic()) fail(tensorLabel(i) + " has dynamic dimensions but no expressions");
        continue;
      }
      if (!model_.isDynamic()) fail(tensorLabel(i) + " has dimension expressions in a static model");
      if (t.dims.size() != t.shape.size())
        fail(tensorLabel(i) + " has " + std::to_string(t.dims.size()) + " dimension expressions for " +
             std::to_string(t.shape.size()) + " dimensions");
      if (t.role == TensorRole::Constant || t.role == TensorRole::RandomInput)
        fail(tensorLabel(i) + " is a " + tensorRoleName(t.role) + " with dynamic dimensions");
      for (size_t d = 0; d < t.dims.size(); ++d) {
        int64_t low = 0, high = 0;
        try {
          low = shape::lowest(t.dims[d], lo, hi);
          high = shape::highest(t.dims[d], lo, hi);
        } catch (const std::domain_error&) {
          fail(tensorLabel(i) + " dimension " + std::to_string(d) + " may divide by zero or overflow");
        } catch (const std::out_of_range&) {
          fail(tensorLabel(i) + " dimension " + std::to_string(d) + " names a symbol the model does not have");
        }
        if (low < t.shape[d].min || high > t.shape[d].max)
          fail(tensorLabel(i) + " dimension " + std::to_string(d) + " (" + shape::text(t.dims[d], symbolNames) +
               ") takes values in [" + std::to_string(low) + ", " + std::to_string(high) + "], outside its range [" +
               std::to_string(t.shape[d].min) + ", " + std::to_string(t.shape[d].max) + "]");
      }
    }
  }

  // The runtime binds each symbol from an input's dimension that is that symbol alone.
  void checkSymbolsBound() const {
    for (size_t i = 0; i < model_.symbols.size(); ++i) {
      bool bound = false;
      for (const Tensor& t : model_.tensors)
        for (const ShapeExpr& d : t.dims)
          bound = bound || (t.role == TensorRole::Input && d->op == ShapeOp::Symbol && d->value == static_cast<int64_t>(i));
      if (!bound)
        fail("symbol " + std::to_string(i) + " ('" + escapeForMessage(model_.symbols[i].name) + "') is no input's dimension");
    }
  }

  // The runtime replays a stream's draws in offset order, so they must tile it from 0 without gaps.
  void checkRandomStreams() const {
    std::map<uint32_t, std::vector<size_t>> streams;
    for (size_t i = 0; i < model_.tensors.size(); ++i)
      if (model_.tensors[i].role == TensorRole::RandomInput) streams[model_.tensors[i].random.stream].push_back(i);
    for (auto& [stream, members] : streams) {
      std::sort(members.begin(), members.end(),
                [&](size_t a, size_t b) { return model_.tensors[a].random.offset < model_.tensors[b].random.offset; });
      int64_t next = 0;
      const RandomSource& first = model_.tensors[members[0]].random;
      for (size_t i : members) {
        const RandomSource& r = model_.tensors[i].random;
        if (r.seeded != first.seeded || r.seed != first.seed)
          fail(tensorLabel(i) + " disagrees with other tensors of random stream " + std::to_string(stream) +
               " about the seed");
        if (r.offset != next)
          fail(tensorLabel(i) + " starts at offset " + std::to_string(r.offset) + " of random stream " +
               std::to_string(stream) + ", expected " + std::to_string(next));
        next += model_.tensors[i].maxElementCount();
      }
    }
  }

  void checkKernels() const {
    std::set<std::string> names;
    for (size_t i = 0; i < model_.kernels.size(); ++i) {
      const KernelImage& k = model_.kernels[i];
      std::string label = kernelLabel(i);
      checkName(k.name, "kernel " + std::to_string(i));
      if (escapeForMessage(k.sourceFile) != k.sourceFile)
        fail(label + " has control characters in its source file name");
      if (!names.insert(k.name).second) fail(label + " repeats the name of an earlier kernel");
      if (k.blockDim < 1 || k.blockDim > format::kMaxBlockDim)
        fail(label + " has block_dim " + std::to_string(k.blockDim) + ", expected 1.." +
             std::to_string(format::kMaxBlockDim));
      const BufferUsage& b = k.buffers;
      if (b.ub < 0 || b.l1 < 0 || b.l0a < 0 || b.l0b < 0 || b.l0c < 0) fail(label + " has a negative buffer usage");
      if (k.sourceLines.size() != k.instructions.size())
        fail(label + " has " + std::to_string(k.sourceLines.size()) + " source lines for " +
             std::to_string(k.instructions.size()) + " instructions");
    }
  }

  void checkScalar(const AffineScalar& s, const std::vector<uint32_t>& enclosingLoops, const std::string& where) const {
    for (const AffineTerm& term : s.terms)
      if (std::find(enclosingLoops.begin(), enclosingLoops.end(), term.inductionVar) == enclosingLoops.end())
        fail(where + " uses induction variable " + std::to_string(term.inductionVar) + " outside its loop");
    if (s.shape && !model_.isDynamic()) fail(where + " has a shape expression in a static model");
    if (!s.shape) return;
    std::vector<int64_t> lo, hi;
    for (const Symbol& sym : model_.symbols) {
      lo.push_back(sym.min);
      hi.push_back(sym.max);
    }
    try {
      // a tiling value: an extent or a count, never negative
      if (shape::lowest(s.shape, lo, hi) < 0) fail(where + " has a shape expression that may be negative");
      shape::highest(s.shape, lo, hi);
    } catch (const std::out_of_range&) {
      fail(where + " has a shape expression naming a symbol the model does not have");
    } catch (const std::domain_error&) {
      fail(where + " has a shape expression that may divide by zero or overflow");
    }
  }

  void checkSteps(const std::vector<PlanStep>& steps, std::vector<uint32_t>& enclosingLoops,
                  const std::string& where) const {
    for (size_t i = 0; i < steps.size(); ++i) {
      const PlanStep& step = steps[i];
      std::string label = where + " step " + std::to_string(i);
      if (step.kind == StepKind::Launch) {
        if (step.kernel >= model_.kernels.size())
          fail(label + " launches kernel " + std::to_string(step.kernel) + " but the model has " +
               std::to_string(model_.kernels.size()) + " kernels");
        const KernelImage& k = model_.kernels[step.kernel];
        if (step.tensorArgs.size() != k.tensorArgCount || step.scalarArgs.size() != k.scalarArgCount)
          fail(label + " passes " + std::to_string(step.tensorArgs.size()) + " tensors and " +
               std::to_string(step.scalarArgs.size()) + " scalars to kernel '" + k.name + "', which takes " +
               std::to_string(k.tensorArgCount) + " and " + std::to_string(k.scalarArgCount));
        for (uint32_t t : step.tensorArgs)
          if (t >= model_.tensors.size())
            fail(label + " passes tensor " + std::to_string(t) + " but the model has " +
                 std::to_string(model_.tensors.size()) + " tensors");
        for (const AffineScalar& s : step.scalarArgs) checkScalar(s, enclosingLoops, label);
      } else if (step.isLoop()) {
        if (step.tripCount < 0) fail(label + " has a negative trip count " + std::to_string(step.tripCount));
        if (step.kind == StepKind::While) {
          if (step.condition >= model_.tensors.size())
            fail(label + " tests tensor " + std::to_string(step.condition) + " but the model has " +
                 std::to_string(model_.tensors.size()) + " tensors");
          const Tensor& c = model_.tensors[step.condition];
          if (c.dtype != DType::Bool || c.maxElementCount() != 1)
            fail(label + " tests tensor '" + escapeForMessage(c.name) + "', which is not a bool of one element");
        }
        if (std::find(enclosingLoops.begin(), enclosingLoops.end(), step.inductionVar) != enclosingLoops.end())
          fail(label + " reuses induction variable " + std::to_string(step.inductionVar) + " of an enclosing loop");
        if (enclosingLoops.size() >= static_cast<size_t>(format::kMaxPlanDepth))
          fail(label + " nests loops deeper than " + std::to_string(format::kMaxPlanDepth));
        enclosingLoops.push_back(step.inductionVar);
        checkSteps(step.body, enclosingLoops, label);
        enclosingLoops.pop_back();
      } else {
        fail(label + " has an invalid kind " + std::to_string(static_cast<int>(step.kind)));
      }
    }
  }

  void checkConstants() const {
    std::vector<bool> hasData(model_.tensors.size(), false);
    for (size_t i = 0; i < model_.constants.size(); ++i) {
      const Constant& c = model_.constants[i];
      std::string label = "constant " + std::to_string(i);
      if (c.tensor >= model_.tensors.size())
        fail(label + " belongs to tensor " + std::to_string(c.tensor) + " but the model has " +
             std::to_string(model_.tensors.size()) + " tensors");
      const Tensor& t = model_.tensors[c.tensor];
      if (t.role != TensorRole::Constant)
        fail(label + " belongs to " + tensorLabel(c.tensor) + ", whose role is " + tensorRoleName(t.role));
      if (hasData[c.tensor]) fail(label + " repeats the data of " + tensorLabel(c.tensor));
      hasData[c.tensor] = true;
      if (!t.isStatic()) fail(tensorLabel(c.tensor) + " is a constant with a dynamic shape");
      if (static_cast<int64_t>(c.bytes.size()) != t.maxByteSize())
        fail(label + " has " + std::to_string(c.bytes.size()) + " bytes but " + tensorLabel(c.tensor) + " needs " +
             std::to_string(t.maxByteSize()));
    }
    for (size_t i = 0; i < model_.tensors.size(); ++i)
      if (model_.tensors[i].role == TensorRole::Constant && !hasData[i])
        fail(tensorLabel(i) + " is a constant without data");
  }

  const Model& model_;
  const std::string& fileName_;
};

}  // namespace

std::string escapeForMessage(const std::string& text) {
  std::string out;
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

bool isValidTargetName(const std::string& name) {
  if (name.empty() || name.size() >= format::kTargetFieldSize) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
          c == '-'))
      return false;
  return true;
}

void validateModel(const Model& model, const std::string& fileName) { Validator(model, fileName).run(); }

}  // namespace pyasc::model
