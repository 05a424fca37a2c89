// .om round trip, determinism, forward compatibility and the exact message of every damage kind.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "sdk/model/Crc32.h"
#include "sdk/model/ModelFormat.h"
#include "sdk/model/ModelReader.h"
#include "sdk/model/ModelWriter.h"
#include "sdk/support/AtomicFile.h"
#include "sdk/support/Diagnostics.h"
#include "tests/unit/model/ModelBytes.h"
#include "tests/unit/model/SampleModel.h"
#include "tests/unit/support/RunPython.h"

using namespace pyasc;
using namespace pyasc::model;
using pyasc::testing::sampleModel;

namespace {

std::string errorOf(const std::vector<uint8_t>& bytes) {
  try {
    parseModel(bytes, "output.om");
  } catch (const CompileError& e) {
    return e.what();
  }
  return "(accepted)";
}

std::string writeError(const Model& model) {
  try {
    serialize(model);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST(ModelFile, Crc32MatchesZlib) {
  const char* check = "123456789";
  EXPECT_EQ(crc32(reinterpret_cast<const uint8_t*>(check), 9), 0xCBF43926u);
  EXPECT_EQ(crc32(nullptr, 0), 0u);
}

TEST(ModelFile, RoundTripsEveryField) {
  Model original = sampleModel();
  Model back = parseModel(serialize(original), "output.om");
  EXPECT_TRUE(back == original);
  EXPECT_EQ(back.formatMajor, kFormatMajor);
  EXPECT_EQ(back.formatMinor, kFormatMinor);
  EXPECT_EQ(back.tensors[0].shape[0], (Dim{1, 64}));
  EXPECT_EQ(back.tensors[3].random.offset, 8);
  EXPECT_EQ(back.plan[1].body[0].body[0].scalarArgs[0].terms[1].coeff, 16);
  EXPECT_EQ(back.kernels[0].instructions[5].op, isa::Opcode::VAdd);
  EXPECT_EQ(back.kernels[0].sourceLines[3], 4u);

  Model empty;
  empty.target = "ascend910b";
  EXPECT_TRUE(parseModel(serialize(empty), "empty.om") == empty);
}

TEST(ModelFile, SameModelGivesIdenticalBytes) {
  Model a = sampleModel();
  Model b = sampleModel();
  std::vector<uint8_t> bytes = serialize(a);
  EXPECT_EQ(bytes, serialize(b));
  EXPECT_EQ(bytes, serialize(parseModel(bytes, "x.om")));
  char dir[] = "/tmp/pyasc-om-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/output.om";
  writeModel(path, a);
  EXPECT_EQ(readFileBytes(path), bytes);
  EXPECT_TRUE(readModel(path) == a);
  std::remove(path.c_str());
  rmdir(dir);
}

TEST(ModelFile, HeaderLayoutIsPinned) {
  std::vector<uint8_t> bytes = serialize(sampleModel());
  EXPECT_EQ(std::memcmp(bytes.data(), "PYASCOM\0", 8), 0);
  EXPECT_EQ(bytes[8], 3);
  EXPECT_EQ(bytes[10], 0);
  EXPECT_EQ(pyasc::testing::load64(bytes, 16), bytes.size());
  EXPECT_EQ(pyasc::testing::load32(bytes, 28), 5u);
  EXPECT_STREQ(reinterpret_cast<const char*>(&bytes[32]), "ascend310");
  EXPECT_EQ(pyasc::testing::load64(bytes, 64 + 8), 64u + 5 * 24);  // first section right after the table
}

// The graph section (format 1.1) is optional: a model with it has six sections and reads back its
// text; one without it (as a 1.0 writer made it) has five and reads with an empty graph.
TEST(ModelFile, GraphSectionIsOptional) {
  Model withGraph = sampleModel();
  withGraph.graph = "graph {\n  output out0 = %a\n}\n";
  std::vector<uint8_t> bytes = serialize(withGraph);
  EXPECT_EQ(pyasc::testing::load32(bytes, 28), 6u);
  EXPECT_EQ(parseModel(bytes, "output.om").graph, withGraph.graph);
  std::vector<uint8_t> without = serialize(sampleModel());
  EXPECT_EQ(pyasc::testing::load32(without, 28), 5u);
  EXPECT_EQ(parseModel(without, "output.om").graph, "");
}

// The random transforms section (format 1.4) is optional: written only when a random input's draws
// are scaled or shifted, read back into RandomSource; its damage has messages.
TEST(ModelFile, RandomTransformsSectionIsOptional) {
  Model scaled = sampleModel();
  scaled.tensors[3].random.scale = 0.05;  // jitter
  scaled.tensors[3].random.shift = -1.0;
  std::vector<uint8_t> bytes = serialize(scaled);
  EXPECT_EQ(pyasc::testing::load32(bytes, 28), 6u);
  EXPECT_EQ(pyasc::testing::load32(bytes, 64 + 5 * 24), 8u);  // the last section's kind
  Model back = parseModel(bytes, "output.om");
  EXPECT_TRUE(back == scaled);
  EXPECT_EQ(back.tensors[3].random.scale, 0.05);
  EXPECT_EQ(back.tensors[3].random.shift, -1.0);
  EXPECT_FALSE(parseModel(serialize(sampleModel()), "output.om").tensors[3].random.transformed());

  std::vector<uint8_t> damaged = bytes;  // entry: u32 tensor, f64 scale, f64 shift
  damaged[damaged.size() - 20] = 0;      // tensor 0, an input
  pyasc::testing::fixChecksums(damaged);
  EXPECT_EQ(errorOf(damaged), "output.om: error: section 'random transforms': random transform 0 names tensor 0, not a random input");
  damaged = bytes;
  damaged[damaged.size() - 20] = 9;
  pyasc::testing::fixChecksums(damaged);
  EXPECT_EQ(errorOf(damaged), "output.om: error: section 'random transforms': random transform 0 names tensor 9 of 6");
  damaged = bytes;
  std::fill(damaged.end() - 16, damaged.end(), 0xff);  // NaN scale and shift
  pyasc::testing::fixChecksums(damaged);
  EXPECT_EQ(errorOf(damaged), "output.om: error: section 'random transforms': random transform 0 is not a finite transform other than the identity");
}

// The host dtypes section (format 1.2) is optional: written only when an input has a declared dtype,
// read back into Tensor::declared; its damage and its semantics have their messages.
TEST(ModelFile, HostDTypesSectionIsOptional) {
  Model declared = sampleModel();
  declared.tensors[0].declared = DType::Float64;
  std::vector<uint8_t> bytes = serialize(declared);
  EXPECT_EQ(pyasc::testing::load32(bytes, 28), 6u);
  EXPECT_EQ(pyasc::testing::load32(bytes, 64 + 5 * 24), 7u);  // the last section's kind
  EXPECT_EQ(std::vector<uint8_t>(bytes.end() - 9, bytes.end()), (std::vector<uint8_t>{1, 0, 0, 0, 0, 0, 0, 0, 8}));
  Model back = parseModel(bytes, "output.om");
  EXPECT_TRUE(back == declared);
  EXPECT_EQ(back.tensors[0].declared, DType::Float64);
  EXPECT_FALSE(back.tensors[5].declared.has_value());
  EXPECT_FALSE(parseModel(serialize(sampleModel()), "output.om").tensors[0].declared.has_value());

  std::vector<uint8_t> damaged = bytes;
  damaged[damaged.size() - 5] = 9;  // tensor 9 of 6
  pyasc::testing::fixChecksums(damaged);
  EXPECT_EQ(errorOf(damaged), "output.om: error: section 'host dtypes': host dtype 0 names tensor 9 of 6");
  damaged = bytes;
  damaged.back() = 42;
  pyasc::testing::fixChecksums(damaged);
  EXPECT_EQ(errorOf(damaged), "output.om: error: section 'host dtypes': host dtype 0 has an invalid dtype 42");

  damaged = bytes;  // the count becomes 0 (the entry's 5 bytes then are left over)
  damaged[damaged.size() - 9] = 0;
  pyasc::testing::fixChecksums(damaged);
  EXPECT_EQ(errorOf(damaged), "output.om: error: section 'host dtypes': it lists no tensor (a model without declared dtypes has no such section)");

  Model wrong = sampleModel();
  wrong.tensors[5].declared = DType::Float64;
  EXPECT_EQ(writeError(wrong), "model: error: tensor 5 ('out0') (float32, output) cannot be bound from float64 (only a float32 input from float64, or a float16 input from float32 or float64)");
  wrong = sampleModel();
  wrong.tensors[0].declared = DType::Int64;
  EXPECT_EQ(writeError(wrong), "model: error: tensor 0 ('a') (float32, input) cannot be bound from int64 (only a float32 input from float64, or a float16 input from float32 or float64)");
}

// A second, independent reading of docs/om-format.md in Python (struct + zlib) agrees with the writer.
TEST(ModelFile, PythonReadingOfTheSpecAgrees) {
  char dir[] = "/tmp/pyasc-om-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/sample.om";
  writeModel(path, sampleModel());
  std::string out = pyasc::testing::runPython(R"(
import struct, zlib
b = open(")" + path + R"(", "rb").read()
magic, major, minor, crc, size, flags, count, target = struct.unpack_from("<8sHHIQII32s", b, 0)
assert magic == b"PYASCOM\0" and size == len(b)
table_end = 64 + 24 * count
assert zlib.crc32(b[:12] + bytes(4) + b[16:table_end]) == crc
sections, at = {}, table_end
for i in range(count):
    kind, scrc, offset, ssize = struct.unpack_from("<IIQQ", b, 64 + 24 * i)
    assert offset == at and zlib.crc32(b[offset:offset + ssize]) == scrc
    sections[kind] = b[offset:offset + ssize]
    at = offset + ssize
assert at == len(b)
peak, = struct.unpack("<q", sections[5])
t = sections[1]
n, = struct.unpack_from("<I", t, 0)
pos, names = 4, []
for _ in range(n):
    length, = struct.unpack_from("<I", t, pos)
    name = t[pos + 4:pos + 4 + length].decode()
    pos += 4 + length
    dtype, layout, role, rank = struct.unpack_from("<BBBB", t, pos)
    pos += 4 + 16 * rank + 16
    if role == 4:
        dist, seeded, seed, stream, offset = struct.unpack_from("<BBIIq", t, pos)
        pos += 18
        name += f"/{dist}/{seed}/{stream}/{offset}"
    names.append(f"{name}:{dtype}:{layout}:{role}:{rank}")
assert pos == len(t)
print(target.rstrip(b"\0").decode(), major, minor, flags, peak, " ".join(names))
)");
  EXPECT_EQ(out,
            "ascend310 3 0 1 1048576 a:7:0:0:2 bias:6:0:2:1 noise/0/42/1/0:7:0:4:1 jitter/1/42/1/8:7:0:4:2 "
            "tmp:7:4:3:2 out0:7:0:1:2\n");
  std::remove(path.c_str());
  rmdir(dir);
}

TEST(ModelFile, EveryDamageKindHasItsMessage) {
  const std::vector<uint8_t> good = serialize(sampleModel());
  auto cut = [&](size_t n) { return std::vector<uint8_t>(good.begin(), good.begin() + n); };
  EXPECT_EQ(errorOf({}), "output.om: error: truncated: file has 0 bytes, the header needs 64");
  EXPECT_EQ(errorOf(cut(40)), "output.om: error: truncated: file has 40 bytes, the header needs 64");
  EXPECT_EQ(errorOf(cut(100)), "output.om: error: truncated: section table needs 120 bytes at offset 64, file has 100");
  EXPECT_EQ(errorOf(cut(good.size() - 1)), "output.om: error: truncated: header says " + std::to_string(good.size()) +
                                               " bytes, file has " + std::to_string(good.size() - 1));
  std::vector<uint8_t> longer = good;
  longer.push_back(0);
  EXPECT_EQ(errorOf(longer), "output.om: error: 1 unexpected bytes after the end of the model (header says " +
                                 std::to_string(good.size()) + " bytes)");

  std::vector<uint8_t> zip = good;
  std::memcpy(zip.data(), "PK\x03\x04", 4);
  EXPECT_EQ(errorOf(zip), "output.om: error: not a pyasc model file (bad magic)");

  std::vector<uint8_t> future = good;
  future[format::kMajorOffset] = 4;
  EXPECT_EQ(errorOf(future), "output.om: error: model format version 4.0 is not supported by this pyasc (reads 1.x to 3.x)");

  std::vector<uint8_t> headerFlip = good;
  headerFlip[format::kFlagsOffset] ^= 0x02;
  EXPECT_EQ(errorOf(headerFlip), "output.om: error: header checksum mismatch (file damaged)");

  std::vector<uint8_t> sectionFlip = good;
  size_t kernels = pyasc::testing::sectionOffset(good, format::SectionKind::Kernels);
  sectionFlip[kernels + 10] ^= 0x10;
  EXPECT_EQ(errorOf(sectionFlip), "output.om: error: section 'kernels' checksum mismatch (file damaged)");

  std::vector<uint8_t> flags = good;
  flags[format::kFlagsOffset] |= 0x08;
  pyasc::testing::fixChecksums(flags);
  EXPECT_EQ(errorOf(flags), "output.om: error: header has unknown flags 0x8");

  std::vector<uint8_t> target = good;
  target[format::kTargetOffset] = '/';
  pyasc::testing::fixChecksums(target);
  EXPECT_EQ(errorOf(target), "output.om: error: header has an invalid target name");

  std::vector<uint8_t> dtype = good;
  size_t tensors = pyasc::testing::sectionOffset(good, format::SectionKind::Tensors);
  dtype[tensors + 4 + 4 + 1] = 99;  // count, name length, "a", dtype
  pyasc::testing::fixChecksums(dtype);
  EXPECT_EQ(errorOf(dtype), "output.om: error: tensor 0 ('a') has an invalid dtype 99");

  std::vector<uint8_t> role = good;
  role[tensors + 4 + 4 + 1 + 2] = 7;
  pyasc::testing::fixChecksums(role);
  EXPECT_EQ(errorOf(role), "output.om: error: section 'tensors': tensor 0 ('a') has an invalid role 7");

  std::vector<uint8_t> count = good;
  count[tensors] = 7;  // seven tensors announced, six present
  pyasc::testing::fixChecksums(count);
  EXPECT_EQ(errorOf(count),
            "output.om: error: section 'tensors': tensor 6 runs past the end of the section at byte " +
                std::to_string(tensors + pyasc::testing::sectionSize(good, format::SectionKind::Tensors)));

  std::vector<uint8_t> instruction = good;
  instruction[kernels + 4 + 4 + 8 + 12 + 40 + 4 + 8 + 4] = 0xff;  // opcode of the first instruction
  pyasc::testing::fixChecksums(instruction);
  EXPECT_NE(errorOf(instruction).find("output.om: error: section 'kernels': kernel 0 ('add_bias'): "),
            std::string::npos);

  std::vector<uint8_t> table = good;
  table[format::kHeaderSize + 8] += 1;  // first section starts one byte late
  pyasc::testing::fixChecksums(table);
  EXPECT_EQ(errorOf(table), "output.om: error: section 'tensors' starts at byte 185, expected 184");

  std::vector<uint8_t> kind = good;
  kind[format::kHeaderSize + 24] = 10;  // second entry: an unknown kind
  pyasc::testing::fixChecksums(kind);
  EXPECT_EQ(errorOf(kind), "output.om: error: section table entry 1 has an unknown kind 10");

  std::vector<uint8_t> duplicate = good;
  duplicate[format::kHeaderSize + 24] = 1;
  pyasc::testing::fixChecksums(duplicate);
  EXPECT_EQ(errorOf(duplicate), "output.om: error: section 'tensors' appears twice");
}

TEST(ModelFile, NewerMinorVersionsMaySkipUnknownSectionsAndFlags) {
  std::vector<uint8_t> bytes = serialize(sampleModel());
  bytes[format::kMinorOffset] = 7;
  bytes[format::kFlagsOffset] |= 0x80;
  bytes[format::kHeaderSize + 24] = 42;  // the kernels section becomes an unknown kind...
  pyasc::testing::fixChecksums(bytes);
  EXPECT_EQ(errorOf(bytes), "output.om: error: missing section 'kernels'");  // ...so it is missing
  std::vector<uint8_t> extended = pyasc::testing::appendSection(serialize(sampleModel()), 42, {1, 2, 3});
  extended[format::kMinorOffset] = 7;
  pyasc::testing::fixChecksums(extended);
  Model m = parseModel(extended, "newer.om");
  EXPECT_EQ(m.formatMinor, 7);
  EXPECT_TRUE(m == sampleModel());
  extended[format::kMinorOffset] = 0;
  pyasc::testing::fixChecksums(extended);
  EXPECT_EQ(errorOf(extended), "output.om: error: section table entry 5 has an unknown kind 42");
}

TEST(ModelFile, WriterRejectsInconsistentModels) {
  Model m = sampleModel();
  m.plan.push_back(PlanStep::launch(5, {}));
  EXPECT_EQ(writeError(m), "model: error: plan step 3 launches kernel 5 but the model has 2 kernels");
  m = sampleModel();
  m.plan[1].body[0].body[0].tensorArgs[1] = 17;
  EXPECT_EQ(writeError(m), "model: error: plan step 1 step 0 step 0 passes tensor 17 but the model has 6 tensors");
  m = sampleModel();
  m.plan[0].scalarArgs[0].terms.push_back(AffineTerm{0, 1});
  EXPECT_EQ(writeError(m), "model: error: plan step 0 uses induction variable 0 outside its loop");
  m = sampleModel();
  m.plan[1].body[0].inductionVar = 0;
  EXPECT_EQ(writeError(m), "model: error: plan step 1 step 0 reuses induction variable 0 of an enclosing loop");
  m = sampleModel();
  m.plan[2].tensorArgs.push_back(0);
  EXPECT_EQ(writeError(m),
            "model: error: plan step 2 passes 3 tensors and 0 scalars to kernel 'copy_out', which takes 2 and 0");
  m = sampleModel();
  m.tensors[5].gmOffset = (1 << 20) - 16;
  EXPECT_EQ(
      writeError(m),
      "model: error: tensor 5 ('out0') GM range [1048560, +4096) exceeds the memory plan's peak of 1048576 bytes");
  m = sampleModel();
  m.tensors[0].gmSize = 100;
  EXPECT_EQ(writeError(m), "model: error: tensor 0 ('a') reserves 100 GM bytes but needs 4096");
  m = sampleModel();
  m.tensors[0].shape[0] = Dim{9, 3};
  EXPECT_EQ(writeError(m), "model: error: tensor 0 ('a') dimension 0 has an invalid range [9, 3]");
  m = sampleModel();
  m.tensors[3].random.offset = 9;
  EXPECT_EQ(writeError(m), "model: error: tensor 3 ('jitter') starts at offset 9 of random stream 1, expected 8");
  m = sampleModel();
  m.constants[0].bytes.pop_back();
  EXPECT_EQ(writeError(m), "model: error: constant 0 has 31 bytes but tensor 1 ('bias') needs 32");
  m = sampleModel();
  m.constants.clear();
  EXPECT_EQ(writeError(m), "model: error: tensor 1 ('bias') is a constant without data");
  m = sampleModel();
  m.kernels[1].sourceLines.pop_back();
  EXPECT_EQ(writeError(m), "model: error: kernel 1 ('copy_out') has 1 source lines for 2 instructions");
  m = sampleModel();
  m.kernels[1].name = "add_bias";
  EXPECT_EQ(writeError(m), "model: error: kernel 1 ('add_bias') repeats the name of an earlier kernel");
  m = sampleModel();
  m.tensors[2].name = "a";
  EXPECT_EQ(writeError(m), "model: error: tensor 2 ('a') repeats the name of an earlier tensor");
  m = sampleModel();
  m.target = "a/b";
  EXPECT_EQ(writeError(m), "model: error: invalid target name 'a/b'");
}

// A while step (format 1.3) keeps its trip limit, counter, condition tensor and line; its condition
// must be a bool of one element.
TEST(ModelFile, WhileStepsRoundTripAndTestABoolScalar) {
  Model m = sampleModel();
  Tensor condition;
  condition.name = "more";
  condition.dtype = DType::Bool;
  condition.gmOffset = 49152;
  condition.gmSize = 32;
  m.tensors.push_back(condition);
  m.plan.push_back(PlanStep::whileLoop(1000, 2, 6, 12, {PlanStep::launch(1, {4, 5})}));
  Model back = parseModel(serialize(m), "output.om");
  EXPECT_TRUE(back == m);
  EXPECT_EQ(back.plan[3].kind, StepKind::While);
  EXPECT_EQ(back.plan[3].tripCount, 1000);
  EXPECT_EQ(back.plan[3].condition, 6u);
  EXPECT_EQ(back.plan[3].sourceLine, 12u);
  m.plan[3].condition = 5;
  EXPECT_EQ(writeError(m), "model: error: plan step 3 tests tensor 'out0', which is not a bool of one element");
  m.plan[3].condition = 9;
  EXPECT_EQ(writeError(m), "model: error: plan step 3 tests tensor 9 but the model has 7 tensors");
}

TEST(ModelFile, AnInPlaceParameterIsAnInputAndAnOutputOfTheSameName) {
  Model m = sampleModel();
  m.tensors[5].name = "a";  // out0 becomes the in-place update of input a
  Model back = parseModel(serialize(m), "inplace.om");
  EXPECT_EQ(back.findTensor("a", TensorRole::Input), 0);
  EXPECT_EQ(back.findTensor("a", TensorRole::Output), 5);
  EXPECT_EQ(back.findTensor("a"), 0);
  EXPECT_EQ(back.findTensor("a", TensorRole::Constant), -1);
  m.tensors[4].role = TensorRole::Output;
  m.tensors[4].name = "a";  // a second output of the same name
  EXPECT_EQ(writeError(m), "model: error: tensor 5 ('a') repeats the name of an earlier tensor");
}

TEST(ModelFile, CheckTargetNamesBothTargets) {
  Model m = sampleModel();
  checkTarget(m, "output.om", "ascend310");
  try {
    checkTarget(m, "output.om", "ascend910b");
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_STREQ(e.what(), "output.om: error: built for target 'ascend310', not 'ascend910b'");
  }
}

// The dynamic shapes section (format 2.1): symbols, dimension expressions of dynamic tensors and the
// shape parts of launch scalars round-trip; a static model has none; damage and inconsistency have
// their messages.
TEST(ModelFile, DynamicShapesSectionRoundTripsAndIsChecked) {
  Model dynamic = sampleModel();
  dynamic.symbols = {Symbol{"N", 1, 64}};
  const ShapeExpr n = shape::symbol(0);
  for (int t : {0, 4, 5}) dynamic.tensors[t].dims = {n, shape::constant(16)};
  dynamic.plan[0].scalarArgs[0].shape = shape::mul(n, shape::constant(16));
  std::vector<uint8_t> bytes = serialize(dynamic);
  EXPECT_EQ(pyasc::testing::load32(bytes, 64 + 5 * 24), 9u);  // the last section's kind
  Model back = parseModel(bytes, "output.om");
  EXPECT_TRUE(back == dynamic);
  EXPECT_EQ(shape::text(back.plan[0].scalarArgs[0].shape, {"N"}), "N*16");
  EXPECT_EQ(shape::evaluate(back.tensors[5].dims[0], {7}), 7);
  EXPECT_FALSE(parseModel(serialize(sampleModel()), "output.om").isDynamic());

  std::vector<uint8_t> damaged = bytes;  // the last expression: mul, symbol 0 (u8 1, u32 0), constant 16
  damaged[damaged.size() - 13] = 3;      // symbol 3
  pyasc::testing::fixChecksums(damaged);
  EXPECT_EQ(errorOf(damaged), "output.om: error: section 'dynamic shapes': launch scalar 0 names symbol 3 of 1");
  damaged = bytes;
  damaged[damaged.size() - 15] = 40;  // an unknown operation
  pyasc::testing::fixChecksums(damaged);
  EXPECT_EQ(errorOf(damaged), "output.om: error: section 'dynamic shapes': launch scalar 0 has an unknown operation 40");

  Model outside = dynamic;
  outside.symbols[0].max = 65;
  EXPECT_EQ(writeError(outside),
            "model: error: tensor 0 ('a') dimension 0 (N) takes values in [1, 65], outside its range [1, 64]");
  Model missing = dynamic;
  missing.tensors[4].dims.clear();
  EXPECT_EQ(writeError(missing), "model: error: tensor 4 ('tmp') has dynamic dimensions but no expressions");
  Model staticScalar = sampleModel();
  staticScalar.plan[0].scalarArgs[0].shape = n;
  EXPECT_EQ(writeError(staticScalar), "model: error: plan step 0 has a shape expression in a static model");
}
