// The .om writer: little-endian fields, one buffer per section, a section table and header CRCs.
#include "sdk/model/ModelWriter.h"

#include <algorithm>
#include <cstring>

#include "sdk/isa/Encoding.h"
#include "sdk/model/Crc32.h"
#include "sdk/model/ModelFormat.h"
#include "sdk/model/ModelValidator.h"
#include "sdk/support/AtomicFile.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::model {

namespace {

class ByteWriter {
 public:
  void u8(uint8_t v) { bytes.push_back(v); }
  void u16(uint16_t v) { little(v, 2); }
  void u32(uint32_t v) { little(v, 4); }
  void u64(uint64_t v) { little(v, 8); }
  void i64(int64_t v) { little(static_cast<uint64_t>(v), 8); }
  void f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    little(bits, 8);
  }
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  void raw(const uint8_t* data, size_t size) { bytes.insert(bytes.end(), data, data + size); }

  std::vector<uint8_t> bytes;

 private:
  void little(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
};

void patch32(std::vector<uint8_t>& bytes, size_t offset, uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[offset + i] = static_cast<uint8_t>(v >> (8 * i));
}

std::vector<uint8_t> tensorsSection(const Model& model) {
  ByteWriter w;
  w.u32(static_cast<uint32_t>(model.tensors.size()));
  for (const Tensor& t : model.tensors) {
    w.str(t.name);
    w.u8(static_cast<uint8_t>(t.dtype));
    w.u8(static_cast<uint8_t>(t.layout));
    w.u8(static_cast<uint8_t>(t.role));
    w.u8(static_cast<uint8_t>(t.shape.size()));
    for (const Dim& d : t.shape) {
      w.i64(d.min);
      w.i64(d.max);
    }
    w.i64(t.gmOffset);
    w.i64(t.gmSize);
    if (t.role == TensorRole::RandomInput) {
      w.u8(static_cast<uint8_t>(t.random.distribution));
      w.u8(t.random.seeded ? 1 : 0);
      w.u32(t.random.seed);
      w.u32(t.random.stream);
      w.i64(t.random.offset);
    }
  }
  return w.bytes;
}

std::vector<uint8_t> kernelsSection(const Model& model, const std::string& name) {
  ByteWriter w;
  w.u32(static_cast<uint32_t>(model.kernels.size()));
  for (const KernelImage& k : model.kernels) {
    w.str(k.name);
    w.u32(k.blockDim);
    w.u32(k.tensorArgCount);
    w.u32(k.scalarArgCount);
    for (int64_t b : {k.buffers.ub, k.buffers.l1, k.buffers.l0a, k.buffers.l0b, k.buffers.l0c}) w.i64(b);
    w.str(k.sourceFile);
    w.u32(static_cast<uint32_t>(k.instructions.size()));
    for (size_t i = 0; i < k.instructions.size(); ++i) {
      try {
        auto encoded = isa::encode(k.instructions[i]);
        w.raw(encoded.data(), encoded.size());
      } catch (const CompileError& e) {
        throw CompileError(SourceLocation{name},
                           "kernel '" + k.name + "' instruction " + std::to_string(i) + ": " + e.diagnostic().message);
      }
    }
    for (uint32_t line : k.sourceLines) w.u32(line);
  }
  return w.bytes;
}

void writeSteps(ByteWriter& w, const std::vector<PlanStep>& steps) {
  w.u32(static_cast<uint32_t>(steps.size()));
  for (const PlanStep& step : steps) {
    w.u8(static_cast<uint8_t>(step.kind));
    if (step.kind == StepKind::Launch) {
      w.u32(step.kernel);
      w.u32(static_cast<uint32_t>(step.tensorArgs.size()));
      for (uint32_t t : step.tensorArgs) w.u32(t);
      w.u32(static_cast<uint32_t>(step.scalarArgs.size()));
      for (const AffineScalar& s : step.scalarArgs) {
        w.i64(s.base);
        w.u32(static_cast<uint32_t>(s.terms.size()));
        for (const AffineTerm& term : s.terms) {
          w.u32(term.inductionVar);
          w.i64(term.coeff);
        }
      }
    } else {
      w.i64(step.tripCount);
      w.u32(step.inductionVar);
      if (step.kind == StepKind::While) {
        w.u32(step.condition);
        w.u32(step.sourceLine);
      }
      writeSteps(w, step.body);
    }
  }
}

std::vector<uint8_t> planSection(const Model& model) {
  ByteWriter w;
  writeSteps(w, model.plan);
  return w.bytes;
}

std::vector<uint8_t> constantsSection(const Model& model) {
  ByteWriter w;
  w.u32(static_cast<uint32_t>(model.constants.size()));
  for (const Constant& c : model.constants) {
    w.u32(c.tensor);
    w.u64(c.bytes.size());
    w.raw(c.bytes.data(), c.bytes.size());
  }
  return w.bytes;
}

// list<(u32 tensor, u8 dtype)>: the inputs whose declared dtype differs from the device's
std::vector<uint8_t> hostDTypesSection(const Model& model) {
  ByteWriter w;
  uint32_t count = 0;
  for (const Tensor& t : model.tensors) count += t.declared ? 1 : 0;
  w.u32(count);
  for (size_t i = 0; i < model.tensors.size(); ++i) {
    if (!model.tensors[i].declared) continue;
    w.u32(static_cast<uint32_t>(i));
    w.u8(static_cast<uint8_t>(*model.tensors[i].declared));
  }
  return w.bytes;
}

// list<(u32 tensor, f64 scale, f64 shift)>: the random inputs whose draws are scaled and shifted
std::vector<uint8_t> randomTransformsSection(const Model& model) {
  ByteWriter w;
  uint32_t count = 0;
  for (const Tensor& t : model.tensors) count += t.role == TensorRole::RandomInput && t.random.transformed() ? 1 : 0;
  w.u32(count);
  for (size_t i = 0; i < model.tensors.size(); ++i) {
    const Tensor& t = model.tensors[i];
    if (t.role != TensorRole::RandomInput || !t.random.transformed()) continue;
    w.u32(static_cast<uint32_t>(i));
    w.f64(t.random.scale);
    w.f64(t.random.shift);
  }
  return w.bytes;
}

// A shape expression in prefix form: u8 op, then i64 (constant), u32 (symbol) or two expressions.
void writeShapeExpr(ByteWriter& w, const ShapeExpr& e) {
  w.u8(static_cast<uint8_t>(e->op));
  if (e->op == ShapeOp::Const) {
    w.i64(e->value);
  } else if (e->op == ShapeOp::Symbol) {
    w.u32(static_cast<uint32_t>(e->value));
  } else {
    writeShapeExpr(w, e->a);
    writeShapeExpr(w, e->b);
  }
}

// Launch steps in plan order (depth first), for the launch indices of section 9.
void collectLaunches(const std::vector<PlanStep>& steps, std::vector<const PlanStep*>& out) {
  for (const PlanStep& step : steps) {
    if (step.kind == StepKind::Launch) out.push_back(&step);
    else collectLaunches(step.body, out);
  }
}

// Symbols; dynamic tensors' dimensions; launch scalars' shape parts (docs/om-format.md section 9).
std::vector<uint8_t> dynamicShapesSection(const Model& model) {
  ByteWriter w;
  w.u32(static_cast<uint32_t>(model.symbols.size()));
  for (const Symbol& s : model.symbols) {
    w.str(s.name);
    w.i64(s.min);
    w.i64(s.max);
  }
  uint32_t count = 0;
  for (const Tensor& t : model.tensors) count += t.dims.empty() ? 0 : 1;
  w.u32(count);
  for (size_t i = 0; i < model.tensors.size(); ++i) {
    if (model.tensors[i].dims.empty()) continue;
    w.u32(static_cast<uint32_t>(i));
    for (const ShapeExpr& d : model.tensors[i].dims) writeShapeExpr(w, d);
  }
  std::vector<const PlanStep*> launches;
  collectLaunches(model.plan, launches);
  ByteWriter scalars;
  count = 0;
  for (size_t l = 0; l < launches.size(); ++l) {
    for (size_t j = 0; j < launches[l]->scalarArgs.size(); ++j) {
      if (!launches[l]->scalarArgs[j].shape) continue;
      ++count;
      scalars.u32(static_cast<uint32_t>(l));
      scalars.u32(static_cast<uint32_t>(j));
      writeShapeExpr(scalars, launches[l]->scalarArgs[j].shape);
    }
  }
  w.u32(count);
  w.raw(scalars.bytes.data(), scalars.bytes.size());
  return w.bytes;
}

std::vector<uint8_t> memorySection(const Model& model) {
  ByteWriter w;
  w.i64(model.memory.gmPeakBytes);
  return w.bytes;
}

}  // namespace

std::vector<uint8_t> serialize(const Model& model, const std::string& name) {
  validateModel(model, name);
  using format::SectionKind;
  std::vector<std::pair<SectionKind, std::vector<uint8_t>>> sections;
  sections.emplace_back(SectionKind::Tensors, tensorsSection(model));
  sections.emplace_back(SectionKind::Kernels, kernelsSection(model, name));
  sections.emplace_back(SectionKind::Plan, planSection(model));
  sections.emplace_back(SectionKind::Constants, constantsSection(model));
  sections.emplace_back(SectionKind::Memory, memorySection(model));
  if (!model.graph.empty()) sections.emplace_back(SectionKind::Graph, std::vector<uint8_t>(model.graph.begin(), model.graph.end()));
  const bool declared = std::any_of(model.tensors.begin(), model.tensors.end(), [](const Tensor& t) { return t.declared.has_value(); });
  if (declared) sections.emplace_back(SectionKind::HostDTypes, hostDTypesSection(model));
  const bool transformed = std::any_of(model.tensors.begin(), model.tensors.end(), [](const Tensor& t) {
    return t.role == TensorRole::RandomInput && t.random.transformed();
  });
  if (transformed) sections.emplace_back(SectionKind::RandomTransforms, randomTransformsSection(model));
  if (model.isDynamic()) sections.emplace_back(SectionKind::DynamicShapes, dynamicShapesSection(model));

  uint64_t tableEnd = format::kHeaderSize + format::kSectionEntrySize * sections.size();
  uint64_t fileSize = tableEnd;
  for (const auto& section : sections) fileSize += section.second.size();

  ByteWriter w;
  w.raw(reinterpret_cast<const uint8_t*>(format::kMagic), sizeof format::kMagic);
  w.u16(kFormatMajor);
  w.u16(kFormatMinor);
  w.u32(0);  // header CRC, patched below
  w.u64(fileSize);
  w.u32(model.flags);
  w.u32(static_cast<uint32_t>(sections.size()));
  uint8_t target[format::kTargetFieldSize] = {};
  std::memcpy(target, model.target.data(), model.target.size());
  w.raw(target, sizeof target);
  uint64_t offset = tableEnd;
  for (const auto& [kind, bytes] : sections) {
    w.u32(static_cast<uint32_t>(kind));
    w.u32(crc32(bytes.data(), bytes.size()));
    w.u64(offset);
    w.u64(bytes.size());
    offset += bytes.size();
  }
  patch32(w.bytes, format::kHeaderCrcOffset, crc32(w.bytes.data(), w.bytes.size()));
  for (const auto& section : sections) w.raw(section.second.data(), section.second.size());
  return w.bytes;
}

void writeModel(const std::string& path, const Model& model) { writeFileAtomically(path, serialize(model, path)); }

}  // namespace pyasc::model
