// Target files: the four bundled targets load with their sourced numbers, and every kind of
// mistake in a target file is reported at its line and column, naming the key.
#include "sdk/target/Target.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "sdk/support/Diagnostics.h"

using namespace pyasc;
using isa::Space;

namespace {

std::string bundledText(const std::string& name) {
  std::ifstream in(std::string(PYASC_SOURCE_DIR) + "/targets/" + name + ".yaml");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The per-process temporary folder of these tests, removed when the test program exits.
const std::filesystem::path& tempDir() {
  struct Folder {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("pyasc-target-test-" + std::to_string(::getpid()));
    Folder() { std::filesystem::create_directories(path); }
    ~Folder() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Folder folder;
  return folder.path;
}

// Writes `text` to `name` in the temporary folder and returns its path.
std::string writeTemp(const std::string& name, const std::string& text) {
  std::string path = (tempDir() / name).string();
  std::ofstream(path) << text;
  return path;
}

// Loads the 910B file with the first line that starts with `line` replaced by `replacement`
// (removed when empty) and returns the error, from the file name on.
std::string errorWith(const std::string& line, const std::string& replacement) {
  std::string text = bundledText("ascend910b");
  size_t at = text.find("\n" + line);
  if (at == std::string::npos) return "line not found: " + line;
  size_t end = text.find('\n', at + 1);
  text.replace(at + 1, end - at, replacement.empty() ? "" : replacement + "\n");
  std::string path = writeTemp("bad.yaml", text);
  try {
    loadTargetFile(path);
  } catch (const CompileError& e) {
    std::string what = e.what();
    size_t name = what.find("bad.yaml");
    return name == std::string::npos ? what : what.substr(name);
  }
  return "no error";
}

}  // namespace

TEST(Target, BundledTargetsAreListed) {
  std::vector<std::string> names = targetNames();
  for (const char* name : {"ascend310", "ascend310p", "ascend910", "ascend910b"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST(Target, EveryBundledTargetLoads) {
  for (const char* name : {"ascend310", "ascend310p", "ascend910", "ascend910b"}) {
    Target t = loadTarget(name);
    EXPECT_EQ(t.name, name);
    EXPECT_GT(t.clockMhz, 0);
    EXPECT_EQ(t.deviceMemory, t.buffer(Space::GM).size);
    EXPECT_EQ(t.buffer(Space::UB).align, 32);
    EXPECT_EQ(t.buffer(Space::L1).align, 32);
    EXPECT_EQ(t.buffer(Space::L0A).align, 512);
    EXPECT_EQ(t.buffer(Space::L0B).align, 512);
    EXPECT_EQ(t.buffer(Space::L0C).align, 64);
    for (int p = 0; p < kDmaPathCount; ++p) EXPECT_GT(t.bandwidth[p], 0) << name << " " << dmaPathName(DmaPath(p));
    EXPECT_GT(t.hbmBandwidth, 0);
    EXPECT_GE(t.l2Bandwidth, t.hbmBandwidth);
    EXPECT_GE(t.l2Size, t.l2Line);
  }
}

TEST(Target, Ascend910BUsesThe910B1Numbers) {
  Target t = loadTarget("ascend910b");
  EXPECT_EQ(t.cubeCores, 24);
  EXPECT_EQ(t.vectorCores, 48);
  EXPECT_EQ(t.clockMhz, 1850);
  EXPECT_EQ(t.deviceMemory, int64_t{64} << 30);
  EXPECT_EQ(t.buffer(Space::UB).size, 192 * 1024);
  EXPECT_EQ(t.buffer(Space::L1).size, 512 * 1024);
  EXPECT_EQ(t.buffer(Space::L0A).size, 64 * 1024);
  EXPECT_EQ(t.buffer(Space::L0B).size, 64 * 1024);
  EXPECT_EQ(t.buffer(Space::L0C).size, 128 * 1024);
  EXPECT_EQ(t.bw(DmaPath::GmToUb), 110);  // the .ini l2 read rate: a core's link to the L2
  EXPECT_EQ(t.bw(DmaPath::UbToGm), 86);   // the .ini l2 write rate
  EXPECT_EQ(t.hbmBandwidth, 865);         // 1.6 TB/s at 1.85 GHz, shared by reads and writes
  EXPECT_EQ(t.l2Size, int64_t{192} << 20);
  // 48 cores streaming share the HBM: 865 / 48 B/cycle each, well below their 110 B/cycle link
  EXPECT_NEAR(coreBandwidth(t, DmaPath::GmToUb, 48), 865.0 / 48, 1e-9);
  EXPECT_EQ(t.bw(DmaPath::L1ToL0A), 512);
  EXPECT_EQ(t.bw(DmaPath::L1ToL0B), 256);
  EXPECT_EQ(t.bw(DmaPath::L1ToUb), 128);
  EXPECT_EQ(t.bw(DmaPath::L0CToUb), 256);
  // cores x 4096 MACs x 2 FLOP x clock: ~364 TFLOPS fp16 (derived).
  EXPECT_NEAR(t.cubeCores * 4096.0 * 2 * t.clockMhz * 1e6 / 1e12, 364, 1);
}

TEST(Target, Ascend310ClockIsDerivedFromItsPeak) {
  Target t = loadTarget("ascend310");
  EXPECT_EQ(t.cubeCores, 2);
  EXPECT_NEAR(t.cubeCores * 4096.0 * 2 * t.clockMhz * 1e6 / 1e12, 8.0, 1e-9);
  EXPECT_EQ(t.deviceMemory, int64_t{8} << 30);
}

TEST(Target, Ascend310PUsesThe310P3Numbers) {
  Target t = loadTarget("ascend310p");
  EXPECT_EQ(t.cubeCores, 8);
  EXPECT_EQ(t.clockMhz, 1060);
  EXPECT_EQ(t.buffer(Space::L0C).size, 256 * 1024);
  EXPECT_EQ(t.buffer(Space::L1).size, 1024 * 1024);
  EXPECT_EQ(t.bw(DmaPath::GmToUb), 114);  // the per-core l2 rate: GM traffic goes through the L2
  EXPECT_EQ(t.l2Size, int64_t{16} << 20);
}

TEST(Target, UnknownTargetListsTheAvailableOnes) {
  try {
    loadTarget("ascend920");
    FAIL() << "no error";
  } catch (const CompileError& e) {
    std::string message = e.diagnostic().message;
    EXPECT_EQ(message.rfind("unknown target 'ascend920'; did you mean 'ascend910'? (available targets: ", 0), 0u)
        << message;
    EXPECT_NE(message.find("ascend310, ascend310p, ascend910, ascend910b"), std::string::npos) << message;
  }
}

TEST(Target, LoadsAPathEndingInYaml) {
  std::string path = writeTemp("custom.yaml", bundledText("ascend310"));
  Target t = loadTarget(path);
  EXPECT_EQ(t.name, "ascend310");
  EXPECT_EQ(t.file, path);
}

TEST(Target, ValidationErrorsNameFileLineColumnAndKey) {
  EXPECT_EQ(errorWith("    size: 192KB", "    sise: 192KB"),
            "bad.yaml:14:5: error: unknown key 'sise' in 'buffers.ub'; did you mean 'size'?");
  EXPECT_EQ(errorWith("clock_mhz:", "clok_mhz: 1850"),
            "bad.yaml:8:1: error: unknown key 'clok_mhz' at the top level; did you mean 'clock_mhz'?");
  EXPECT_EQ(errorWith("  vector: 48", "  vectors: 48"),
            "bad.yaml:7:3: error: unknown key 'vectors' in 'cores'; did you mean 'vector'?");
  EXPECT_EQ(errorWith("scalar_cycles:", ""), "bad.yaml:4:1: error: missing key 'scalar_cycles' at the top level");
  EXPECT_EQ(errorWith("    align: 512", ""), "bad.yaml:20:5: error: missing key 'align' in 'buffers.l0a'");
  EXPECT_EQ(errorWith("clock_mhz:", "clock_mhz: fast"),
            "bad.yaml:8:12: error: 'clock_mhz' at the top level must be a number, got 'fast'");
  EXPECT_EQ(errorWith("  cube: 24", "  cube: 2.5"),
            "bad.yaml:6:9: error: 'cube' in 'cores' must be an integer, got '2.5'");
  EXPECT_EQ(errorWith("  cube: 24", "  cube: [24]"),
            "bad.yaml:6:9: error: 'cube' in 'cores' must be an integer, got a collection");
  EXPECT_EQ(errorWith("    size: 192KB", "    size: 192kb"),
            "bad.yaml:14:11: error: 'size' in 'buffers.ub' must be a byte count (an integer, or one with a KB, "
            "MB or GB suffix), got '192kb'");
  EXPECT_EQ(errorWith("    size: 192KB", "    size: 0"),
            "bad.yaml:14:11: error: 'size' in 'buffers.ub' must be positive, got 0");
  EXPECT_EQ(errorWith("    size: 192KB", "    size: 99999999999GB"),
            "bad.yaml:14:11: error: 'size' in 'buffers.ub' is too large (at most 64MB), got 99999999999GB");
  EXPECT_EQ(errorWith("    align: 512", "    align: 500"),
            "bad.yaml:21:12: error: 'align' in 'buffers.l0a' must be a power of two, got 500");
  EXPECT_EQ(errorWith("    bandwidth: 110", "    bandwidth: -110"),
            "bad.yaml:45:16: error: 'bandwidth' in 'dma.gm_to_ub' must be positive, got -110");
  EXPECT_EQ(errorWith("  mac_f16:", "  mac_f16: -0.2"),
            "bad.yaml:83:12: error: 'mac_f16' in 'energy' must not be negative, got -0.2");
  EXPECT_EQ(errorWith("  startup: 20", "  startup: 20\n  startup: 21"),
            "bad.yaml:43:3: error: duplicate key 'startup' in 'cube'");
  EXPECT_EQ(errorWith("    latency: 236", ""), "bad.yaml:45:5: error: missing key 'latency' in 'dma.gm_to_ub'");
  EXPECT_EQ(errorWith("  l2_line: 128", "  l2_line: 16"), "bad.yaml:75:12: error: 'l2_line' in 'memory' must be at least 32, got 16");
  EXPECT_EQ(errorWith("    reduction: 7", "    reductions: 7"),
            "bad.yaml:35:5: error: unknown key 'reductions' in 'vector.cycles_per_repeat'; did you mean 'reduction'?");
  EXPECT_EQ(errorWith("name:", "name: [ascend910b"),
            "bad.yaml:5:6: error: invalid YAML: end of sequence flow not found");
}

TEST(Target, EmptyOrMissingFile) {
  try {
    loadTargetFile(writeTemp("empty.yaml", ""));
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.diagnostic().message, "the target file must be a mapping of keys to values");
  }
  try {
    loadTargetFile("/nonexistent/pyasc.yaml");
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/pyasc.yaml: error: cannot read the target file");
  }
  std::filesystem::create_directories(tempDir() / "folder.yaml");
  try {
    loadTargetFile((tempDir() / "folder.yaml").string());
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.diagnostic().message, "cannot read the target file");
  }
}

TEST(Target, MangledFilesFailOnlyWithDiagnostics) {
  std::mt19937_64 rng(3);
  const std::string original = bundledText("ascend310");
  const std::string alphabet = "abc:-{}[]#\n 0123456789.\"'&*!|>%@`,?";
  for (int trial = 0; trial < 400; ++trial) {
    std::string text = original;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text.erase(at, 1 + rng() % 8); break;
        case 1: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        default: text[at] = alphabet[rng() % alphabet.size()]; break;
      }
    }
    std::string path = writeTemp("mangled.yaml", text);
    try {
      loadTargetFile(path);
    } catch (const CompileError&) {
    } catch (const std::exception& e) {
      FAIL() << "trial " << trial << " threw " << e.what() << "\n" << text;
    }
  }
}
