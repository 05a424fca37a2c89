// No byte sequence crashes the .om reader: every truncation and every single-bit flip of a real
// model is rejected, and random damage behind repaired checksums is accepted or rejected cleanly.
#include <gtest/gtest.h>

#include <random>

#include "sdk/model/ModelReader.h"
#include "sdk/model/ModelWriter.h"
#include "sdk/support/Diagnostics.h"
#include "tests/unit/model/ModelBytes.h"
#include "tests/unit/model/SampleModel.h"

using namespace pyasc;
using namespace pyasc::model;

namespace {
// An accepted model must also survive being written again and read back unchanged.
bool rejects(const std::vector<uint8_t>& bytes) {
  try {
    Model model = parseModel(bytes, "fuzz.om");
    EXPECT_TRUE(parseModel(serialize(model), "again.om") == model);
  } catch (const CompileError& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    return true;
  }
  return false;
}
}  // namespace

TEST(ModelFuzz, EveryTruncationIsRejected) {
  const std::vector<uint8_t> good = serialize(pyasc::testing::sampleModel());
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_TRUE(rejects(std::vector<uint8_t>(good.begin(), good.begin() + n))) << "length " << n;
}

TEST(ModelFuzz, EverySingleBitFlipIsRejected) {
  const std::vector<uint8_t> good = serialize(pyasc::testing::sampleModel());
  for (size_t bit = 0; bit < good.size() * 8; ++bit) {
    std::vector<uint8_t> damaged = good;
    damaged[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    EXPECT_TRUE(rejects(damaged)) << "bit " << bit;
  }
}

// Checksums are repaired after each edit, so the damage reaches every structural check.
TEST(ModelFuzz, RandomDamageBehindValidChecksumsNeverCrashes) {
  const std::vector<uint8_t> good = serialize(pyasc::testing::sampleModel());
  std::mt19937 rng(20261130);
  int accepted = 0, rejected = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> damaged = good;
    int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      size_t at = format::kHeaderSize + rng() % (damaged.size() - format::kHeaderSize);
      switch (rng() % 3) {
        case 0: damaged[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
        case 1: damaged[at] = static_cast<uint8_t>(rng()); break;
        default: damaged[at] = rng() % 2 ? 0xff : 0x00; break;
      }
    }
    pyasc::testing::fixChecksums(damaged);
    if (rejects(damaged))
      ++rejected;
    else
      ++accepted;
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(accepted, 0);  // e.g. a changed GM offset or constant byte is still a valid model
}
