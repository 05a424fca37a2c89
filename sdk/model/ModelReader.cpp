// The .om reader: header and section-table checks, bounds-checked section parsing, then validateModel.
#include "sdk/model/ModelReader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>

#include "sdk/isa/Encoding.h"
#include "sdk/model/Crc32.h"
#include "sdk/model/ModelFormat.h"
#include "sdk/model/ModelValidator.h"
#include "sdk/support/AtomicFile.h"
#include "sdk/support/Diagnostics.h"

namespace pyasc::model {

namespace {

using format::SectionKind;

uint64_t loadLittle(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

// Reads little-endian fields from one section; every read is bounds-checked against the section end.
class SectionReader {
 public:
  SectionReader(const std::vector<uint8_t>& file, size_t begin, size_t end, const std::string& fileName,
                SectionKind kind)
      : file_(file), pos_(begin), end_(end), fileName_(fileName), section_(format::sectionName(kind)) {}

  [[noreturn]] void fail(const std::string& message) const {
    throw CompileError(SourceLocation{fileName_}, "section '" + section_ + "': " + message);
  }

  uint8_t u8() { return static_cast<uint8_t>(take(1)); }
  uint32_t u32() { return static_cast<uint32_t>(take(4)); }
  uint64_t u64() { return take(8); }
  int64_t i64() { return static_cast<int64_t>(take(8)); }
  double f64() {
    uint64_t bits = take(8);
    double v;
    std::memcpy(&v, &bits, 8);
    return v;
  }
  std::string str() {
    uint32_t size = u32();
    need(size);
    std::string s(reinterpret_cast<const char*>(&file_[pos_]), size);
    pos_ += size;
    return s;
  }
  std::vector<uint8_t> bytes(uint64_t size) {
    need(size);
    std::vector<uint8_t> out(file_.begin() + pos_, file_.begin() + pos_ + size);
    pos_ += size;
    return out;
  }
  // Fails unless `count` records of at least `recordBytes` each can still fit.
  void needRecords(uint64_t count, uint64_t recordBytes) {
    if (count > (end_ - pos_) / recordBytes) runsPastEnd();
  }
  void finish() const {
    if (pos_ != end_) fail(std::to_string(end_ - pos_) + " unexpected bytes at its end");
  }

  std::string item = "its count";  // what is being read, for messages

 private:
  [[noreturn]] void runsPastEnd() const {
    fail(item + " runs past the end of the section at byte " + std::to_string(end_));
  }
  void need(uint64_t size) const {
    if (size > end_ - pos_) runsPastEnd();
  }
  uint64_t take(int n) {
    need(static_cast<uint64_t>(n));
    uint64_t v = loadLittle(&file_[pos_], n);
    pos_ += static_cast<size_t>(n);
    return v;
  }

  const std::vector<uint8_t>& file_;
  size_t pos_;
  size_t end_;
  const std::string& fileName_;
  std::string section_;
};

void readTensors(SectionReader& r, Model& model) {
  uint32_t count = r.u32();
  for (uint32_t i = 0; i < count; ++i) {
    r.item = "tensor " + std::to_string(i);
    Tensor t;
    t.name = r.str();
    t.dtype = static_cast<DType>(r.u8());
    t.layout = static_cast<Layout>(r.u8());
    uint8_t role = r.u8();
    if (role >= kTensorRoleCount)
      r.fail(r.item + " ('" + escapeForMessage(t.name) + "') has an invalid role " + std::to_string(role));
    t.role = static_cast<TensorRole>(role);
    uint8_t rank = r.u8();
    if (rank > format::kMaxRank)
      r.fail(r.item + " ('" + escapeForMessage(t.name) + "') has " + std::to_string(rank) + " dimensions");
    for (uint8_t d = 0; d < rank; ++d) {
      Dim dim;
      dim.min = r.i64();
      dim.max = r.i64();
      t.shape.push_back(dim);
    }
    t.gmOffset = r.i64();
    t.gmSize = r.i64();
    if (t.role == TensorRole::RandomInput) {
      t.random.distribution = static_cast<RandomDistribution>(r.u8());
      uint8_t seeded = r.u8();
      if (seeded > 1)
        r.fail(r.item + " ('" + escapeForMessage(t.name) + "') has an invalid seeded flag " + std::to_string(seeded));
      t.random.seeded = seeded == 1;
      t.random.seed = r.u32();
      t.random.stream = r.u32();
      t.random.offset = r.i64();
    }
    model.tensors.push_back(std::move(t));
  }
}

void readKernels(SectionReader& r, Model& model) {
  uint32_t count = r.u32();
  for (uint32_t i = 0; i < count; ++i) {
    r.item = "kernel " + std::to_string(i);
    KernelImage k;
    k.name = r.str();
    k.blockDim = r.u32();
    k.tensorArgCount = r.u32();
    k.scalarArgCount = r.u32();
    for (int64_t* b : {&k.buffers.ub, &k.buffers.l1, &k.buffers.l0a, &k.buffers.l0b, &k.buffers.l0c}) *b = r.i64();
    k.sourceFile = r.str();
    uint32_t instructions = r.u32();
    r.needRecords(instructions, isa::kInstructionBytes + 4);
    std::vector<uint8_t> code = r.bytes(static_cast<uint64_t>(instructions) * isa::kInstructionBytes);
    try {
      k.instructions = isa::decodeProgram(code);
    } catch (const CompileError& e) {
      r.fail(r.item + " ('" + escapeForMessage(k.name) + "'): " + e.diagnostic().message);
    }
    for (uint32_t n = 0; n < instructions; ++n) k.sourceLines.push_back(r.u32());
    model.kernels.push_back(std::move(k));
  }
}

void readSteps(SectionReader& r, std::vector<PlanStep>& steps, int depth, const std::string& where) {
  uint32_t count = r.u32();
  for (uint32_t i = 0; i < count; ++i) {
    std::string label = where + " step " + std::to_string(i);
    r.item = label;
    PlanStep step;
    uint8_t kind = r.u8();
    if (kind == static_cast<uint8_t>(StepKind::Launch)) {
      step.kind = StepKind::Launch;
      step.kernel = r.u32();
      uint32_t tensors = r.u32();
      r.needRecords(tensors, 4);
      for (uint32_t t = 0; t < tensors; ++t) step.tensorArgs.push_back(r.u32());
      uint32_t scalars = r.u32();
      r.needRecords(scalars, 12);
      for (uint32_t s = 0; s < scalars; ++s) {
        AffineScalar scalar;
        scalar.base = r.i64();
        uint32_t terms = r.u32();
        r.needRecords(terms, 12);
        for (uint32_t t = 0; t < terms; ++t) {
          AffineTerm term;
          term.inductionVar = r.u32();
          term.coeff = r.i64();
          scalar.terms.push_back(term);
        }
        step.scalarArgs.push_back(std::move(scalar));
      }
    } else if (kind == static_cast<uint8_t>(StepKind::Loop) || kind == static_cast<uint8_t>(StepKind::While)) {
      if (depth >= format::kMaxPlanDepth)
        r.fail(label + " nests loops deeper than " + std::to_string(format::kMaxPlanDepth));
      step.kind = static_cast<StepKind>(kind);
      step.tripCount = r.i64();
      step.inductionVar = r.u32();
      if (step.kind == StepKind::While) {
        step.condition = r.u32();
        step.sourceLine = r.u32();
      }
      readSteps(r, step.body, depth + 1, label);
    } else {
      r.fail(label + " has an invalid kind " + std::to_string(kind));
    }
    steps.push_back(std::move(step));
  }
}

void readConstants(SectionReader& r, Model& model) {
  uint32_t count = r.u32();
  for (uint32_t i = 0; i < count; ++i) {
    r.item = "constant " + std::to_string(i);
    Constant c;
    c.tensor = r.u32();
    c.bytes = r.bytes(r.u64());
    model.constants.push_back(std::move(c));
  }
}

// A section of entries that each start with a tensor id: at least one (the writer omits an empty
// section), in increasing tensor order so that a model reads back to the same bytes, each naming a
// tensor of the table; `entry` reads the rest of one.
void readTensorEntries(SectionReader& r, Model& model, const std::string& item, const std::string& absent,
                       const std::function<void(Tensor& t, const std::string& named)>& entry) {
  uint32_t count = r.u32();
  if (count == 0) r.fail("it lists no tensor (" + absent + ")");
  int64_t previous = -1;
  for (uint32_t i = 0; i < count; ++i) {
    r.item = item + " " + std::to_string(i);
    uint32_t tensor = r.u32();
    const std::string named = r.item + " names tensor " + std::to_string(tensor);
    if (tensor >= model.tensors.size()) r.fail(named + " of " + std::to_string(model.tensors.size()));
    if (static_cast<int64_t>(tensor) <= previous)
      r.fail(named + " after tensor " + std::to_string(previous) + " (entries are in increasing tensor order)");
    previous = tensor;
    entry(model.tensors[tensor], named);
  }
}

void readHostDTypes(SectionReader& r, Model& model) {
  readTensorEntries(r, model, "host dtype", "a model without declared dtypes has no such section",
                    [&](Tensor& t, const std::string&) {
                      uint8_t dtype = r.u8();
                      if (dtype > static_cast<uint8_t>(DType::Float64)) r.fail(r.item + " has an invalid dtype " + std::to_string(dtype));
                      t.declared = static_cast<DType>(dtype);
                    });
}

// Each a float32 or float16 random input, with a finite transform other than the identity.
void readRandomTransforms(SectionReader& r, Model& model) {
  readTensorEntries(r, model, "random transform", "a model without random transforms has no such section",
                    [&](Tensor& t, const std::string& named) {
                      double scale = r.f64(), shift = r.f64();
                      if (t.role != TensorRole::RandomInput) r.fail(named + ", not a random input");
                      if (t.dtype != DType::Float32 && t.dtype != DType::Float16) r.fail(named + ", which is not float32 or float16");
                      if (!std::isfinite(scale) || !std::isfinite(shift) || (scale == 1.0 && shift == 0.0))
                        r.fail(r.item + " is not a finite transform other than the identity");
                      t.random.scale = scale;
                      t.random.shift = shift;
                    });
}

ShapeExpr readShapeExpr(SectionReader& r, const Model& model, int depth) {
  if (depth > format::kMaxShapeExprDepth)
    r.fail(r.item + " nests deeper than " + std::to_string(format::kMaxShapeExprDepth) + " operations");
  const uint8_t op = r.u8();
  if (op >= kShapeOpCount) r.fail(r.item + " has an unknown operation " + std::to_string(op));
  switch (static_cast<ShapeOp>(op)) {
    case ShapeOp::Const: return shape::constant(r.i64());
    case ShapeOp::Symbol: {
      const uint32_t s = r.u32();
      if (s >= model.symbols.size())
        r.fail(r.item + " names symbol " + std::to_string(s) + " of " + std::to_string(model.symbols.size()));
      return shape::symbol(static_cast<int>(s));
    }
    default: break;
  }
  auto n = std::make_shared<ShapeExprNode>();
  n->op = static_cast<ShapeOp>(op);
  n->a = readShapeExpr(r, model, depth + 1);
  n->b = readShapeExpr(r, model, depth + 1);
  return n;
}

void collectLaunches(std::vector<PlanStep>& steps, std::vector<PlanStep*>& out) {
  for (PlanStep& step : steps) {
    if (step.kind == StepKind::Launch) out.push_back(&step);
    else collectLaunches(step.body, out);
  }
}

// Section 9: symbols, then dynamic tensors' dimensions (increasing tensor order), then launch
// scalars' shape parts (increasing launch, then scalar order).
void readDynamicShapes(SectionReader& r, Model& model) {
  const uint32_t symbols = r.u32();
  if (symbols == 0) r.fail("it lists no symbol (a static model has no such section)");
  r.needRecords(symbols, 20);
  for (uint32_t i = 0; i < symbols; ++i) {
    r.item = "symbol " + std::to_string(i);
    Symbol s;
    s.name = r.str();
    s.min = r.i64();
    s.max = r.i64();
    model.symbols.push_back(std::move(s));
  }
  readTensorEntries(r, model, "dynamic tensor", "a dynamic model has a dynamic input", [&](Tensor& t, const std::string&) {
    for (size_t d = 0; d < t.shape.size(); ++d) t.dims.push_back(readShapeExpr(r, model, 0));
  });
  std::vector<PlanStep*> launches;
  collectLaunches(model.plan, launches);
  const uint32_t scalars = r.u32();
  std::pair<int64_t, int64_t> previous{-1, -1};
  for (uint32_t i = 0; i < scalars; ++i) {
    r.item = "launch scalar " + std::to_string(i);
    const uint32_t launch = r.u32(), index = r.u32();
    if (launch >= launches.size())
      r.fail(r.item + " names launch " + std::to_string(launch) + " of " + std::to_string(launches.size()));
    if (index >= launches[launch]->scalarArgs.size())
      r.fail(r.item + " names scalar " + std::to_string(index) + " of launch " + std::to_string(launch) + ", which has " +
             std::to_string(launches[launch]->scalarArgs.size()));
    if (std::make_pair<int64_t, int64_t>(launch, index) <= previous) r.fail(r.item + " is out of order");
    previous = {launch, index};
    launches[launch]->scalarArgs[index].shape = readShapeExpr(r, model, 0);
  }
}

struct SectionEntry {
  uint32_t kind = 0;
  uint32_t crc = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
};

class ModelParser {
 public:
  ModelParser(const std::vector<uint8_t>& bytes, const std::string& name) : bytes_(bytes), name_(name) {}

  Model parse() {
    std::vector<SectionEntry> table = readHeader();
    const SectionEntry* known[format::kLastSectionKind + 1] = {};
    for (const SectionEntry& entry : table)
      if (entry.kind >= format::kFirstSectionKind && entry.kind <= format::kLastSectionKind) known[entry.kind] = &entry;
    for (uint32_t kind = format::kFirstSectionKind; kind <= format::kLastRequiredSectionKind; ++kind)
      if (!known[kind])
        fail(std::string("missing section '") + format::sectionName(static_cast<SectionKind>(kind)) + "'");
    // Memory first: its peak bounds the tensors' GM ranges checked by validateModel.
    for (SectionKind kind :
         {SectionKind::Memory, SectionKind::Tensors, SectionKind::Kernels, SectionKind::Plan, SectionKind::Constants}) {
      const SectionEntry& entry = *known[static_cast<uint32_t>(kind)];
      SectionReader r(bytes_, entry.offset, entry.offset + entry.size, name_, kind);
      switch (kind) {
        case SectionKind::Memory: model_.memory.gmPeakBytes = r.i64(); break;
        case SectionKind::Tensors: readTensors(r, model_); break;
        case SectionKind::Kernels: readKernels(r, model_); break;
        case SectionKind::Plan: readSteps(r, model_.plan, 0, "plan"); break;
        case SectionKind::Constants: readConstants(r, model_); break;
        case SectionKind::Graph: case SectionKind::HostDTypes: case SectionKind::RandomTransforms:
        case SectionKind::DynamicShapes: break;
      }
      r.finish();
    }
    if (const SectionEntry* host = known[static_cast<uint32_t>(SectionKind::HostDTypes)]) {
      SectionReader r(bytes_, host->offset, host->offset + host->size, name_, SectionKind::HostDTypes);
      readHostDTypes(r, model_);
      r.finish();
    }
    if (const SectionEntry* random = known[static_cast<uint32_t>(SectionKind::RandomTransforms)]) {
      SectionReader r(bytes_, random->offset, random->offset + random->size, name_, SectionKind::RandomTransforms);
      readRandomTransforms(r, model_);
      r.finish();
    }
    if (const SectionEntry* dynamic = known[static_cast<uint32_t>(SectionKind::DynamicShapes)]) {
      if (model_.formatMajor < 3) fail("section 'dynamic shapes' in a format " + std::to_string(model_.formatMajor) + ".x file (it is 3.0's)");
      SectionReader r(bytes_, dynamic->offset, dynamic->offset + dynamic->size, name_, SectionKind::DynamicShapes);
      readDynamicShapes(r, model_);
      r.finish();
    }
    if (const SectionEntry* graph = known[static_cast<uint32_t>(SectionKind::Graph)]) {
      model_.graph.assign(reinterpret_cast<const char*>(&bytes_[graph->offset]), graph->size);
    }
    validateModel(model_, name_);
    return std::move(model_);
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { throw CompileError(SourceLocation{name_}, message); }
  uint64_t field(size_t offset, int n) const { return loadLittle(&bytes_[offset], n); }
  std::string truncatedHeader() const {
    return "truncated: file has " + std::to_string(bytes_.size()) + " bytes, the header needs " +
           std::to_string(format::kHeaderSize);
  }

  std::vector<SectionEntry> readHeader() {
    size_t size = bytes_.size();
    size_t magic = std::min(size, sizeof format::kMagic);
    if (size == 0) fail(truncatedHeader());
    if (std::memcmp(bytes_.data(), format::kMagic, magic) != 0) fail("not a pyasc model file (bad magic)");
    if (size < format::kMinorOffset + 2) fail(truncatedHeader());
    model_.formatMajor = static_cast<uint16_t>(field(format::kMajorOffset, 2));
    model_.formatMinor = static_cast<uint16_t>(field(format::kMinorOffset, 2));
    if (model_.formatMajor < 1 || model_.formatMajor > kFormatMajor)
      fail("model format version " + std::to_string(model_.formatMajor) + "." + std::to_string(model_.formatMinor) +
           " is not supported by this pyasc (reads 1.x to " + std::to_string(kFormatMajor) + ".x)");
    if (size < format::kHeaderSize) fail(truncatedHeader());

    uint64_t declaredSize = field(format::kFileSizeOffset, 8);
    uint32_t count = static_cast<uint32_t>(field(format::kSectionCountOffset, 4));
    if (count == 0 || count > format::kMaxSections)
      fail("header is damaged: it lists " + std::to_string(count) + " sections");
    uint64_t tableSize = static_cast<uint64_t>(count) * format::kSectionEntrySize;
    uint64_t tableEnd = format::kHeaderSize + tableSize;
    if (size < tableEnd) {
      if (declaredSize == size) fail("header is damaged: its section table ends after the end of the file");
      fail("truncated: section table needs " + std::to_string(tableSize) + " bytes at offset " +
           std::to_string(format::kHeaderSize) + ", file has " + std::to_string(size));
    }
    uint32_t storedCrc = static_cast<uint32_t>(field(format::kHeaderCrcOffset, 4));
    const uint8_t zero[4] = {};
    uint32_t crc = crc32(bytes_.data(), format::kHeaderCrcOffset);
    crc = crc32(zero, 4, crc);
    crc = crc32(&bytes_[format::kHeaderCrcOffset + 4], tableEnd - format::kHeaderCrcOffset - 4, crc);
    if (crc != storedCrc) fail("header checksum mismatch (file damaged)");
    if (size < declaredSize)
      fail("truncated: header says " + std::to_string(declaredSize) + " bytes, file has " + std::to_string(size));
    if (size > declaredSize)
      fail(std::to_string(size - declaredSize) + " unexpected bytes after the end of the model (header says " +
           std::to_string(declaredSize) + " bytes)");

    readTarget();
    model_.flags = static_cast<uint32_t>(field(format::kFlagsOffset, 4));
    const uint16_t lastMinor = model_.formatMajor == kFormatMajor ? kFormatMinor
                               : model_.formatMajor == 2     ? kLastMinorOf2
                                                             : kLastMinorOf1;
    bool newerMinor = model_.formatMinor > lastMinor;
    if ((model_.flags & ~kKnownFlags) != 0 && !newerMinor) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%x", model_.flags & ~kKnownFlags);
      fail(std::string("header has unknown flags ") + hex);
    }
    return readSectionTable(count, tableEnd, newerMinor);
  }

  void readTarget() {
    const char* field = reinterpret_cast<const char*>(&bytes_[format::kTargetOffset]);
    size_t length = strnlen(field, format::kTargetFieldSize);
    model_.target.assign(field, length);
    bool padded = length < format::kTargetFieldSize;
    for (size_t i = length; i < format::kTargetFieldSize; ++i) padded = padded && field[i] == '\0';
    if (!padded || !isValidTargetName(model_.target)) fail("header has an invalid target name");
  }

  std::vector<SectionEntry> readSectionTable(uint32_t count, uint64_t tableEnd, bool newerMinor) {
    std::vector<SectionEntry> table;
    uint64_t expectedOffset = tableEnd;
    uint64_t fileSize = bytes_.size();
    bool seen[format::kLastSectionKind + 1] = {};
    for (uint32_t i = 0; i < count; ++i) {
      size_t at = format::kHeaderSize + i * format::kSectionEntrySize;
      SectionEntry e{static_cast<uint32_t>(field(at, 4)), static_cast<uint32_t>(field(at + 4, 4)), field(at + 8, 8),
                     field(at + 16, 8)};
      bool isKnown = e.kind >= format::kFirstSectionKind && e.kind <= format::kLastSectionKind;
      if (!isKnown && !newerMinor)
        fail("section table entry " + std::to_string(i) + " has an unknown kind " + std::to_string(e.kind));
      std::string label = isKnown
                              ? std::string("section '") + format::sectionName(static_cast<SectionKind>(e.kind)) + "'"
                              : "section " + std::to_string(i) + " (kind " + std::to_string(e.kind) + ")";
      if (isKnown && seen[e.kind]) fail(label + " appears twice");
      if (isKnown) seen[e.kind] = true;
      if (e.offset != expectedOffset)
        fail(label + " starts at byte " + std::to_string(e.offset) + ", expected " + std::to_string(expectedOffset));
      if (e.size > fileSize - e.offset)
        fail(label + " (" + std::to_string(e.size) + " bytes at offset " + std::to_string(e.offset) +
             ") runs past the end of the file (" + std::to_string(fileSize) + " bytes)");
      expectedOffset = e.offset + e.size;
      if (crc32(&bytes_[e.offset], e.size) != e.crc) fail(label + " checksum mismatch (file damaged)");
      table.push_back(e);
    }
    if (expectedOffset != fileSize)
      fail("section table leaves " + std::to_string(fileSize - expectedOffset) + " bytes at offset " +
           std::to_string(expectedOffset) + " unaccounted for");
    return table;
  }

  const std::vector<uint8_t>& bytes_;
  const std::string& name_;
  Model model_;
};

}  // namespace

Model parseModel(const std::vector<uint8_t>& bytes, const std::string& name) {
  return ModelParser(bytes, name).parse();
}

Model readModel(const std::string& path) { return parseModel(readFileBytes(path), path); }

void checkTarget(const Model& model, const std::string& name, const std::string& runtimeTarget) {
  if (model.target != runtimeTarget)
    throw CompileError(SourceLocation{name}, "built for target '" + model.target + "', not '" + runtimeTarget + "'");
}

}  // namespace pyasc::model
