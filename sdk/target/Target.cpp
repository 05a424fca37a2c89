// Loads targets/<name>.yaml into a Target, rejecting unknown keys, missing keys, wrong types
// and impossible values at the file, line and column of the offending key.
#include "sdk/target/Target.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <set>
#include <sstream>

#include "sdk/support/Diagnostics.h"
#include "sdk/support/EditDistance.h"

namespace pyasc {

namespace {

bool touchesGm(DmaPath p) {
  return p == DmaPath::GmToUb || p == DmaPath::GmToL1 || p == DmaPath::UbToGm || p == DmaPath::L0CToGm;
}

}  // namespace

double coreBandwidth(const Target& t, DmaPath path, int cores) {
  double bw = t.bw(path);
  if (touchesGm(path)) {
    double share = std::min(t.l2Bandwidth, t.hbmBandwidth) / std::max(cores, 1);
    bw = bw > 0 ? std::min(bw, share) : share;
  }
  return bw;
}

double gmStreamCycles(const Target& t, double readBytes, double writeBytes, int cores, DmaPath readPath) {
  double shared = std::min(t.l2Bandwidth, t.hbmBandwidth) / std::max(cores, 1);
  return std::max({readBytes / coreBandwidth(t, readPath, cores), writeBytes / coreBandwidth(t, DmaPath::UbToGm, cores),
                   (readBytes + writeBytes) / shared});
}

int64_t gmLinesTouched(const Target& t, int64_t bursts, int64_t burstBytes, int64_t pitchBytes, int64_t start) {
  const int64_t line = std::max<int64_t>(1, t.l2Line);
  if (bursts <= 0 || burstBytes <= 0) return 0;
  auto lines = [&](int64_t offset) { return ((offset % line + line) % line + burstBytes + line - 1) / line; };
  // the bursts' offsets within a line repeat every line / gcd(pitch, line) bursts
  const int64_t period = std::min(bursts, line / std::gcd(pitchBytes % line == 0 ? line : pitchBytes % line, line));
  int64_t perPeriod = 0, tail = 0;
  for (int64_t b = 0; b < period; ++b) {
    const int64_t n = lines(start + b * pitchBytes);
    perPeriod += n;
    if (b < bursts % period) tail += n;
  }
  return bursts / period * perPeriod + tail;
}

double gmBurstCycles(const Target& t, int64_t bursts, int64_t burstBytes, int64_t pitchBytes, DmaPath path, int cores,
                     int64_t start) {
  const int64_t moved = gmLinesTouched(t, bursts, burstBytes, pitchBytes, start) * t.l2Line;
  return t.dmaOverhead + static_cast<double>(moved) / coreBandwidth(t, path, cores);
}

double gmCopyCycles(const Target& t, int64_t rows, int64_t rowBytes, int64_t gapBytes, DmaPath path, int cores, int64_t start) {
  return gapBytes == 0 ? gmBurstCycles(t, 1, rows * rowBytes, 0, path, cores, start)
                       : gmBurstCycles(t, rows, rowBytes, rowBytes + gapBytes, path, cores, start);
}

uint64_t vectorInstructionCycles(const Target& t, int64_t repeats, isa::VectorCost cost) {
  double perRepeat = t.vectorCyclesPerRepeat[static_cast<int>(cost)];
  return static_cast<uint64_t>(t.vectorStartup) + static_cast<uint64_t>(std::max(0.0, std::ceil(static_cast<double>(repeats) * perRepeat - 1e-9)));
}

double dataMovementFloor(const Target& t, int64_t readBytes, int64_t writeBytes, int cores, DmaPath readPath) {
  int n = std::max(cores, 1);
  return gmStreamCycles(t, static_cast<double>(readBytes) / n, static_cast<double>(writeBytes) / n, n, readPath);
}

double cubeFloor(const Target& t, uint64_t macs, DType dtype, int cores) {
  double rate = dtype == DType::Int8 ? t.cubeRateS8 : dtype == DType::Float32 ? t.cubeRateF32 : t.cubeRateF16;
  return static_cast<double>(macs) / (4096.0 * rate * cores);
}

namespace {

const char* const kDmaPathNames[] = {"gm_to_ub", "gm_to_l1", "ub_to_gm", "ub_to_ub", "l1_to_ub",
                                     "l1_to_l0a", "l1_to_l0b", "l0c_to_ub", "l0c_to_gm"};

// "; did you mean 'x'?" for the closest candidate within two edits, or "".
std::string suggestion(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t bestDistance = 3;
  for (const std::string& candidate : candidates) {
    size_t d = editDistance(word, candidate);
    if (d < bestDistance && d < candidate.size()) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best.empty() ? "" : "; did you mean '" + best + "'?";
}

// Reads one mapping of the target file; `path` names it in messages ("buffers.ub").
class Section {
 public:
  Section(const std::string& file, const YAML::Node& node, const std::string& path, const YAML::Mark& fallback,
          const std::vector<std::string>& keys)
      : file_(file), node_(node), path_(path) {
    mark_ = node.Mark().is_null() ? fallback : node.Mark();
    if (!node.IsMap()) throw error(mark_, where() + " must be a mapping of keys to values");
    std::set<std::string> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
      std::string key = it->first.Scalar();
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        throw error(it->first.Mark(), "unknown key '" + key + "' " + in() + suggestion(key, keys));
      }
      if (!seen.insert(key).second) throw error(it->first.Mark(), "duplicate key '" + key + "' " + in());
    }
    for (const std::string& key : keys) {
      if (!seen.count(key)) throw error(mark_, "missing key '" + key + "' " + in());
    }
  }

  Section section(const std::string& key, const std::vector<std::string>& keys) const {
    return Section(file_, node_[key], path_.empty() ? key : path_ + "." + key, keyMark(key), keys);
  }

  double number(const std::string& key) const {
    YAML::Node value = node_[key];
    double result = 0;
    bool ok = value.IsScalar();
    if (ok) {
      try {
        result = value.as<double>();
      } catch (const YAML::BadConversion&) {
        ok = false;
      }
    }
    if (!ok || !std::isfinite(result)) throw wrongType(key, "a number");
    return result;
  }

  double nonNegative(const std::string& key) const {
    double v = number(key);
    if (v < 0) throw impossible(key, "must not be negative");
    return v;
  }

  double positive(const std::string& key) const {
    double v = number(key);
    if (v <= 0) throw impossible(key, "must be positive");
    return v;
  }

  int64_t integer(const std::string& key) const {
    YAML::Node value = node_[key];
    if (value.IsScalar()) {
      try {
        return value.as<int64_t>();
      } catch (const YAML::BadConversion&) {
      }
    }
    throw wrongType(key, "an integer");
  }

  int64_t positiveInteger(const std::string& key) const {
    int64_t v = integer(key);
    if (v <= 0) throw impossible(key, "must be positive");
    return v;
  }

  int64_t nonNegativeInteger(const std::string& key) const {
    int64_t v = integer(key);
    if (v < 0) throw impossible(key, "must not be negative");
    return v;
  }

  // A byte count: an integer, or an integer followed by KB, MB or GB (powers of 1024), up to `max`.
  int64_t bytes(const std::string& key, int64_t max) const {
    YAML::Node value = node_[key];
    std::string text = value.IsScalar() ? value.Scalar() : "";
    size_t digits = 0;
    while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) ||
                                    (digits == 0 && text[0] == '-'))) {
      ++digits;
    }
    std::string unit = text.substr(digits);
    int64_t scale = unit.empty() ? 1 : unit == "KB" ? 1 << 10 : unit == "MB" ? 1 << 20 : unit == "GB" ? 1 << 30 : 0;
    if (digits == 0 || scale == 0 || (digits == 1 && text[0] == '-') || digits > 18) {  // "-KB": no digits
      throw wrongType(key, "a byte count (an integer, or one with a KB, MB or GB suffix)");
    }
    int64_t count = std::stoll(text.substr(0, digits));
    if (count <= 0) throw impossible(key, "must be positive");
    if (count > max / scale) throw impossible(key, "is too large (at most " + humanBytes(static_cast<double>(max)) + ")");
    return count * scale;
  }

  int64_t powerOfTwo(const std::string& key, int64_t max) const {
    int64_t v = integer(key);
    if (v <= 0 || (v & (v - 1)) != 0) throw impossible(key, "must be a power of two");
    if (v > max) throw impossible(key, "is too large (at most " + std::to_string(max) + ")");
    return v;
  }

  std::string string(const std::string& key) const {
    YAML::Node value = node_[key];
    if (!value.IsScalar() || value.Scalar().empty()) throw wrongType(key, "a name");
    return value.Scalar();
  }

  // The value of `key` breaks `rule`: "'key' in 'path' must ..., got V".
  CompileError impossible(const std::string& key, const std::string& rule) const {
    return error(valueMark(key), "'" + key + "' " + in() + " " + rule + ", got " + node_[key].Scalar());
  }

 private:
  std::string where() const { return path_.empty() ? "the target file" : "'" + path_ + "'"; }
  std::string in() const { return path_.empty() ? "at the top level" : "in '" + path_ + "'"; }

  YAML::Mark keyMark(const std::string& key) const {
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      if (it->first.Scalar() == key) return it->first.Mark();
    }
    return mark_;
  }

  YAML::Mark valueMark(const std::string& key) const {
    YAML::Mark mark = node_[key].Mark();
    return mark.is_null() ? keyMark(key) : mark;
  }

  CompileError error(const YAML::Mark& mark, const std::string& message) const {
    return CompileError(SourceLocation{file_, mark.line + 1, mark.column + 1}, message);
  }

  CompileError wrongType(const std::string& key, const std::string& what) const {
    YAML::Node value = node_[key];
    std::string got = value.IsScalar() ? "'" + value.Scalar() + "'" : value.IsNull() ? "nothing" : "a collection";
    return error(valueMark(key), "'" + key + "' " + in() + " must be " + what + ", got " + got);
  }


  std::string file_;
  YAML::Node node_;
  std::string path_;
  YAML::Mark mark_;
};

Target parseTarget(const std::string& path, const YAML::Node& root) {
  Target t;
  t.file = path;
  YAML::Mark start;
  Section top(path, root, "", start,
              {"name", "cores", "clock_mhz", "buffers", "vector", "cube", "dma", "memory", "launch_overhead",
               "scalar_cycles", "flag_latency", "barrier_cycles", "energy"});
  t.name = top.string("name");
  Section cores = top.section("cores", {"cube", "vector"});
  t.cubeCores = static_cast<int>(cores.positiveInteger("cube"));
  t.vectorCores = static_cast<int>(cores.positiveInteger("vector"));
  t.clockMhz = top.positive("clock_mhz");

  std::vector<std::string> spaces;
  for (int s = 0; s < isa::kSpaceCount; ++s) spaces.push_back(isa::spaceName(static_cast<isa::Space>(s)));
  Section buffers = top.section("buffers", spaces);
  for (int s = 0; s < isa::kSpaceCount; ++s) {
    Section buffer = buffers.section(spaces[s], {"size", "align"});
    // addresses must fit the instruction fields: on-chip buffers are KBs to MBs, GM up to 1 TB
    const bool gm = static_cast<isa::Space>(s) == isa::Space::GM;
    t.buffers[s].size = buffer.bytes("size", gm ? kMaxGmBytes : kMaxOnChipBytes);
    t.buffers[s].align = buffer.powerOfTwo("align", 4096);
  }
  t.deviceMemory = t.buffer(isa::Space::GM).size;

  Section vector = top.section("vector", {"cycles_per_repeat", "startup"});
  std::vector<std::string> costs;
  for (int c = 0; c < isa::kVectorCostCount; ++c) costs.push_back(isa::vectorCostName(static_cast<isa::VectorCost>(c)));
  Section perRepeat = vector.section("cycles_per_repeat", costs);
  for (int c = 0; c < isa::kVectorCostCount; ++c) t.vectorCyclesPerRepeat[c] = perRepeat.positive(costs[c]);
  t.vectorStartup = static_cast<int>(vector.nonNegativeInteger("startup"));

  Section cube = top.section("cube", {"rate_f16", "rate_s8", "rate_f32", "startup"});
  t.cubeRateF16 = cube.positive("rate_f16");
  t.cubeRateS8 = cube.positive("rate_s8");
  t.cubeRateF32 = cube.positive("rate_f32");
  t.cubeStartup = static_cast<int>(cube.nonNegativeInteger("startup"));

  Section dma = top.section("dma", std::vector<std::string>(std::begin(kDmaPathNames), std::end(kDmaPathNames)));
  for (int p = 0; p < kDmaPathCount; ++p) {
    Section path = dma.section(kDmaPathNames[p], {"bandwidth", "latency"});
    t.bandwidth[p] = path.positive("bandwidth");
    t.dmaLatency[p] = static_cast<int>(path.nonNegativeInteger("latency"));
  }
  Section memory = top.section("memory", {"hbm_bandwidth", "l2_bandwidth", "l2_size", "l2_line", "dma_overhead",
                                          "scalar_gm_latency"});
  t.hbmBandwidth = memory.positive("hbm_bandwidth");
  t.l2Bandwidth = memory.positive("l2_bandwidth");
  t.l2Size = memory.bytes("l2_size", kMaxGmBytes);
  t.l2Line = memory.powerOfTwo("l2_line", 4096);
  if (t.l2Line < isa::kBlockBytes) throw memory.impossible("l2_line", "must be at least 32");
  if (t.l2Size < t.l2Line) throw memory.impossible("l2_size", "must hold at least one line");
  t.dmaOverhead = static_cast<int>(memory.nonNegativeInteger("dma_overhead"));
  t.scalarGmLatency = static_cast<int>(memory.nonNegativeInteger("scalar_gm_latency"));
  t.launchOverhead = static_cast<int>(top.nonNegativeInteger("launch_overhead"));
  t.scalarCycles = static_cast<int>(top.positiveInteger("scalar_cycles"));
  t.flagLatency = static_cast<int>(top.nonNegativeInteger("flag_latency"));
  t.barrierCycles = static_cast<int>(top.nonNegativeInteger("barrier_cycles"));

  Section energy = top.section("energy", {"mac_f16", "vector_byte", "per_byte"});
  t.energyPerMacF16 = energy.nonNegative("mac_f16");
  t.energyPerVectorByte = energy.nonNegative("vector_byte");
  Section perByte = energy.section("per_byte", spaces);
  for (int s = 0; s < isa::kSpaceCount; ++s) t.energyPerByte[s] = perByte.nonNegative(spaces[s]);
  return t;
}

std::vector<std::string> searchDirs() {
  namespace fs = std::filesystem;
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("PYASC_TARGET_DIR")) {
    if (*env) dirs.push_back(env);
  }
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) dirs.push_back((exe.parent_path() / ".." / "share" / "pyasc" / "targets").lexically_normal().string());
  dirs.push_back(PYASC_SOURCE_DIR "/targets");
  return dirs;
}

}  // namespace

const char* dmaPathName(DmaPath p) { return kDmaPathNames[static_cast<int>(p)]; }

Target parseTargetText(const std::string& path, const std::string& text) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw CompileError(SourceLocation{path, e.mark.line + 1, e.mark.column + 1}, "invalid YAML: " + e.msg);
  }
  return parseTarget(path, root);
}

Target loadTargetFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw CompileError(SourceLocation{path}, "cannot read the target file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CompileError(SourceLocation{path}, "cannot read the target file");
  std::ostringstream text;
  text << in.rdbuf();
  return parseTargetText(path, text.str());
}

Target loadTarget(const std::string& name) {
  namespace fs = std::filesystem;
  if (name.size() > 5 && name.compare(name.size() - 5, 5, ".yaml") == 0) return loadTargetFile(name);
  std::error_code ec;
  for (const std::string& dir : searchDirs()) {
    fs::path file = fs::path(dir) / (name + ".yaml");
    if (fs::is_regular_file(file, ec)) return loadTargetFile(file.string());
  }
  std::vector<std::string> names = targetNames();
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  throw CompileError(SourceLocation{}, "unknown target '" + name + "'" + suggestion(name, names) +
                                           " (available targets: " + (list.empty() ? "none found" : list) + ")");
}

std::vector<std::string> targetNames() {
  namespace fs = std::filesystem;
  std::set<std::string> names;
  std::error_code ec;
  for (const std::string& dir : searchDirs()) {
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().extension() == ".yaml") names.insert(it->path().stem().string());
    }
  }
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace pyasc
