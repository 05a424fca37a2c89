// .npy reading against files NumPy writes (every version, byte order, memory order and dtype),
// np.save-identical writing, exact messages for malformed files, and truncation/bit-flip fuzzing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "sdk/support/AtomicFile.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/support/Npy.h"
#include "tests/unit/support/RunPython.h"

using namespace pyasc;
using pyasc::testing::runPython;

namespace {

std::string makeTempDir() {
  char dir[] = "/tmp/pyasc-npy-XXXXXX";
  EXPECT_NE(mkdtemp(dir), nullptr);
  return dir;
}

std::vector<uint8_t> bytesOf(const std::string& text) { return std::vector<uint8_t>(text.begin(), text.end()); }

// A .npy file with the given version and header text (no padding added) followed by `dataBytes` zeros.
std::vector<uint8_t> handMadeNpy(int major, const std::string& header, size_t dataBytes) {
  std::vector<uint8_t> out = bytesOf(std::string("\x93NUMPY", 6));
  out.push_back(static_cast<uint8_t>(major));
  out.push_back(0);
  int lengthBytes = major == 1 ? 2 : 4;
  for (int i = 0; i < lengthBytes; ++i) out.push_back(static_cast<uint8_t>(header.size() >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), dataBytes, 0);
  return out;
}

std::string errorOf(const std::vector<uint8_t>& bytes) {
  try {
    parseNpy(bytes, "a.npy");
  } catch (const CompileError& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST(Npy, ReadsEveryVersionByteOrderMemoryOrderAndDtype) {
  std::string dir = makeTempDir();
  std::string listing = runPython(R"(
import numpy as np
dir = ")" + dir + R"("
for code, name in [('f2', 'float16'), ('f4', 'float32'), ('f8', 'float64'), ('i1', 'int8'), ('u1', 'uint8'),
                   ('i2', 'int16'), ('i4', 'int32'), ('i8', 'int64'), ('b1', 'bool')]:
    values = (np.arange(24).reshape(2, 3, 4) - 7) * 3
    array = (values % 3 == 0) if code == 'b1' else values.astype(code) / (4 if code[0] == 'f' else 1)
    array = array.astype(code)
    for version in [(1, 0), (2, 0), (3, 0)]:
        for order in '<>':
            for fortran in [False, True]:
                typed = array.astype(array.dtype.newbyteorder(order))
                if fortran:
                    typed = np.asfortranarray(typed)
                stem = f"{dir}/{name}-{version[0]}-{'big' if order == '>' else 'little'}-{'F' if fortran else 'C'}"
                with open(stem + '.npy', 'wb') as f:
                    np.lib.format.write_array(f, typed, version=version)
                with open(stem + '.raw', 'wb') as f:
                    f.write(array.astype(array.dtype.newbyteorder('<')).tobytes(order='C'))
                print(stem, name)
)");
  std::istringstream lines(listing);
  std::string stem, dtypeName;
  int files = 0;
  while (lines >> stem >> dtypeName) {
    SCOPED_TRACE(stem);
    NpyArray array = readNpy(stem + ".npy");
    DType expected;
    ASSERT_TRUE(parseDType(dtypeName, expected));
    EXPECT_EQ(array.dtype, expected);
    EXPECT_EQ(array.shape, (std::vector<int64_t>{2, 3, 4}));
    const std::vector<uint8_t> raw = readFileBytes(stem + ".raw");
    EXPECT_EQ(array.data, ArrayBytes(raw.begin(), raw.end()));
    ++files;
  }
  EXPECT_EQ(files, 9 * 3 * 2 * 2);
  std::system(("rm -rf " + dir).c_str());
}

TEST(Npy, WritesExactlyWhatNpSaveWrites) {
  std::string dir = makeTempDir();
  std::vector<NpyArray> arrays = {
      {DType::Float32, {}, ArrayBytes(4, 1)},
      {DType::Float16, {5}, ArrayBytes(10, 2)},
      {DType::Int64, {2, 3}, ArrayBytes(48, 3)},
      {DType::Bool, {0, 4}, {}},
      {DType::UInt8, {1000000, 1}, ArrayBytes(1000000, 4)},
      {DType::Int16, {1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2}, ArrayBytes(128, 5)},
  };
  std::string paths;
  for (size_t i = 0; i < arrays.size(); ++i) {
    std::string path = dir + "/a" + std::to_string(i) + ".npy";
    writeNpy(path, arrays[i]);
    NpyArray back = readNpy(path);
    EXPECT_EQ(back.dtype, arrays[i].dtype);
    EXPECT_EQ(back.shape, arrays[i].shape);
    EXPECT_EQ(back.data, arrays[i].data);
    paths += "'" + path + "',";
  }
  std::string verdict = runPython(R"(
import io, numpy as np
for path in [)" + paths + R"(]:
    saved = io.BytesIO()
    np.save(saved, np.load(path))
    print('same' if saved.getvalue() == open(path, 'rb').read() else 'differs: ' + path)
)");
  EXPECT_EQ(verdict, "same\nsame\nsame\nsame\nsame\nsame\n");
  std::system(("rm -rf " + dir).c_str());
}

TEST(Npy, RejectsMalformedFilesWithOneLineReasons) {
  const std::string good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }\n";
  EXPECT_EQ(errorOf(bytesOf("PK\x03\x04 not numpy at all")), "a.npy: error: not a .npy file (bad magic)");
  EXPECT_EQ(errorOf({}), "a.npy: error: truncated: file has 0 bytes, a .npy preamble needs at least 10");
  EXPECT_EQ(errorOf(bytesOf(std::string("\x93NUMPY\x01", 7))),
            "a.npy: error: truncated: file has 7 bytes, a .npy preamble needs at least 10");
  EXPECT_EQ(errorOf(handMadeNpy(4, good, 16)),
            "a.npy: error: unsupported .npy format version 4.0 (reads 1.0, 2.0 and 3.0)");
  std::vector<uint8_t> shortHeader = handMadeNpy(1, good, 0);
  shortHeader.resize(40);
  EXPECT_EQ(errorOf(shortHeader), "a.npy: error: truncated: header says 60 header bytes, file has 30");
  EXPECT_EQ(errorOf(handMadeNpy(1, good, 10)), "a.npy: error: truncated: header says 16 data bytes, file has 10");
  EXPECT_EQ(errorOf(handMadeNpy(1, good, 20)),
            "a.npy: error: unexpected 4 bytes after the data (header says 16 data bytes)");
  EXPECT_EQ(errorOf(handMadeNpy(2, "{'descr': '<c16', 'fortran_order': False, 'shape': (2,), }", 32)),
            "a.npy: error: unsupported dtype '<c16'");
  EXPECT_EQ(errorOf(handMadeNpy(1, "{'descr': '<f4', 'fortran_order': Flase, 'shape': (2,), }", 8)),
            "a.npy: error: header is not a valid dictionary at byte 44");
  EXPECT_EQ(errorOf(handMadeNpy(1, "{'descr': '<f4', 'shape': (2,), }", 8)),
            "a.npy: error: header has no 'fortran_order' key");
  EXPECT_EQ(errorOf(handMadeNpy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", 8)),
            "a.npy: error: header has an unexpected key 'x'");
  EXPECT_EQ(errorOf(handMadeNpy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1), }", 8)),
            "a.npy: error: header's 'shape' is not a tuple of non-negative integers");
  EXPECT_EQ(errorOf(handMadeNpy(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", 8)),
            "a.npy: error: unsupported dtype: structured arrays are not supported");
  EXPECT_EQ(errorOf(handMadeNpy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", 8)),
            "a.npy: error: shape (4294967296, 4294967296) is too large");
  EXPECT_EQ(errorOf(handMadeNpy(3,
                                "{'descr': '<f4', 'fortran_order': False, 'shape': "
                                "((((((((((((((((((1,),),),),),),),),),),),),),),),),),),), }",
                                4)),
            "a.npy: error: header is not a valid dictionary at byte 78");
}

TEST(Npy, MissingFileNamesPathAndReason) {
  try {
    readNpy("/nonexistent/x.npy");
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/x.npy: error: cannot read: No such file or directory");
  }
}

// Every truncation and every single-bit flip of real files is either accepted or rejected with a
// CompileError; random multi-byte damage too. Nothing else may happen.
TEST(Npy, SurvivesTruncationsAndBitFlips) {
  std::vector<std::vector<uint8_t>> seeds = {
      serializeNpy({DType::Float32, {3, 4}, ArrayBytes(48, 7)}),
      handMadeNpy(2, "{'descr': '>i2', 'fortran_order': True, 'shape': (2, 3), }\n", 12),
      handMadeNpy(3, "{'descr': '|b1', 'fortran_order': False, 'shape': (), }\n", 1),
  };
  int accepted = 0, rejected = 0;
  auto attempt = [&](const std::vector<uint8_t>& bytes) {
    try {
      NpyArray a = parseNpy(bytes, "fuzz.npy");
      EXPECT_EQ(static_cast<int64_t>(a.data.size()), a.elementCount() * dtypeSize(a.dtype));
      ++accepted;
    } catch (const CompileError&) {
      ++rejected;
    }
  };
  std::mt19937 rng(12345);
  for (const auto& file : seeds) {
    for (size_t n = 0; n < file.size(); ++n) attempt(std::vector<uint8_t>(file.begin(), file.begin() + n));
    for (size_t bit = 0; bit < file.size() * 8; ++bit) {
      std::vector<uint8_t> damaged = file;
      damaged[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      attempt(damaged);
    }
    for (int i = 0; i < 3000; ++i) {
      std::vector<uint8_t> damaged = file;
      int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits; ++e) damaged[rng() % damaged.size()] = static_cast<uint8_t>(rng());
      attempt(damaged);
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(accepted, 0);
}

// Array storage: small blocks 64-byte aligned; blocks of 4 MiB or more on 2 MiB boundaries (huge
// pages); a released block of 256 KiB or more comes back for the next request of its size, its
// bytes as they were left; other sizes get other blocks.
TEST(Npy, ArrayStorageAlignsAndKeepsLargeBlocks) {
  void* small = allocateArrayStorage(100);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small) % 64, 0u);
  releaseArrayStorage(small);
  const size_t huge = (size_t{4} << 20) + 12345;
  auto* first = static_cast<uint8_t*>(allocateArrayStorage(huge));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % (size_t{1} << 21), 0u);
  first[huge - 1] = 7;
  releaseArrayStorage(first);
  auto* again = static_cast<uint8_t*>(allocateArrayStorage(huge));
  EXPECT_EQ(again, first);
  EXPECT_EQ(again[huge - 1], 7);
  void* other = allocateArrayStorage(huge + (size_t{2} << 20));
  EXPECT_NE(other, static_cast<void*>(again));
  releaseArrayStorage(other);
  releaseArrayStorage(again);
  auto* medium = static_cast<uint8_t*>(allocateArrayStorage(size_t{300} << 10));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(medium) % 64, 0u);
  releaseArrayStorage(medium);
  EXPECT_EQ(allocateArrayStorage(size_t{300} << 10), static_cast<void*>(medium));
  releaseArrayStorage(medium);
  releaseArrayStorage(nullptr);
  // an array's bytes live there: a vector of them grows and shrinks through the same storage
  ArrayBytes bytes(huge, 3);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(bytes.data()) % (size_t{1} << 21), 0u);
  EXPECT_EQ(bytes[huge / 2], 3);
}
