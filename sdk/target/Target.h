// A target description (targets/<name>.yaml): capacities, rates, latencies and energy of one chip model.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sdk/isa/ISA.h"

namespace pyasc {

struct BufferSpec {
  int64_t size = 0;   // bytes
  int64_t align = 0;  // bytes
};

// Data-movement paths with a bandwidth of their own (bytes per cycle per core).
enum class DmaPath : uint8_t { GmToUb, GmToL1, UbToGm, UbToUb, L1ToUb, L1ToL0A, L1ToL0B, L0CToUb, L0CToGm, Count };
constexpr int kDmaPathCount = static_cast<int>(DmaPath::Count);
const char* dmaPathName(DmaPath p);  // "gm_to_ub", ... as spelled in the target file

struct Target {
  std::string name;
  std::string file;  // where it was loaded from
  int cubeCores = 1;    // AI cores with a cube unit
  int vectorCores = 1;  // cores that run vector-only kernels (equal to cubeCores on coupled chips)
  double clockMhz = 1000;
  int64_t deviceMemory = 0;  // bytes of GM
  // buffers, indexed by isa::Space; the GM entry is the device memory (size == deviceMemory)
  std::array<BufferSpec, isa::kSpaceCount> buffers{};
  // vector unit: cycles per repeat per dtype class, and startup latency
  double vectorCyclesPerRepeat = 1.0;       // add/mul/max... on 256 bytes
  double vectorTranscendentalFactor = 4.0;  // exp/ln/sqrt/rsqrt/rec/div cost multiple
  int vectorStartup = 10;
  // cube: fractal MACs per cycle at f16 (16*16*16 = 4096), relative rates
  double cubeRateF16 = 1.0, cubeRateS8 = 2.0, cubeRateF32 = 0.25;
  int cubeStartup = 20;
  // data movement
  std::array<double, kDmaPathCount> bandwidth{};  // bytes / cycle / core
  std::array<int, kDmaPathCount> dmaLatency{};    // cycles of startup per instruction
  double gmTotalBandwidth = 0;                    // bytes / cycle shared by all cores
  int scalarCycles = 1;                           // per scalar instruction
  int flagLatency = 1;                            // set_flag -> wait_flag wake-up
  // energy model (picojoules)
  double energyPerMacF16 = 0, energyPerVectorByte = 0;
  std::array<double, isa::kSpaceCount> energyPerByte{};  // per byte read or written in that space

  const BufferSpec& buffer(isa::Space s) const { return buffers[static_cast<int>(s)]; }
  double bw(DmaPath p) const { return bandwidth[static_cast<int>(p)]; }
};

// The largest device memory a target may declare (1 TB); on-chip buffers stop at 64 MB.
constexpr int64_t kMaxGmBytes = int64_t{1} << 40;
constexpr int64_t kMaxOnChipBytes = int64_t{64} << 20;

// Bytes per cycle one of `cores` cores moves on `path`: the path's rate, capped on GM paths by an
// even share of gm_total_bandwidth.
double coreBandwidth(const Target& target, DmaPath path, int cores);

// Cycles one vector instruction of `repeats` repeats holds the vector pipe.
uint64_t vectorInstructionCycles(const Target& target, int64_t repeats, bool transcendental);

// The data-movement floor of a workload in cycles: reads and writes each limited by the GM
// bandwidth `cores` cores can draw together, min(cores × path bandwidth, gm_total_bandwidth).
double dataMovementFloor(const Target& target, int64_t readBytes, int64_t writeBytes, int cores,
                         DmaPath readPath = DmaPath::GmToUb);

// The cube floor of `macs` multiply-accumulates of `dtype` operands on `cores` cube cores, in cycles.
double cubeFloor(const Target& target, uint64_t macs, DType dtype, int cores);

// Loads and validates a target file; throws CompileError naming file, line and key.
Target loadTargetFile(const std::string& path);
// Finds targets/<name>.yaml (PYASC_TARGET_DIR, then beside the executable, then the source tree).
Target loadTarget(const std::string& name);
std::vector<std::string> targetNames();  // names of every bundled target file, sorted

}  // namespace pyasc
