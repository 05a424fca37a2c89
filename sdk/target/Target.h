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
  // vector unit: cycles per 256-byte repeat for each kind of instruction (isa::VectorCost), and
  // the startup every instruction pays
  std::array<double, isa::kVectorCostCount> vectorCyclesPerRepeat{1, 1, 1, 4, 1, 1, 1};
  int vectorStartup = 10;
  // cube: fractal MACs per cycle at f16 (16*16*16 = 4096), relative rates
  double cubeRateF16 = 1.0, cubeRateS8 = 2.0, cubeRateF32 = 0.25;
  int cubeStartup = 20;
  // data movement: a core's own rate and startup per path
  std::array<double, kDmaPathCount> bandwidth{};  // bytes / cycle / core
  std::array<int, kDmaPathCount> dmaLatency{};    // cycles from issue to the first byte's arrival
  // the memory system behind GM, shared by every core of a launch (docs/simulator.md)
  double hbmBandwidth = 0;  // bytes / cycle of device memory, reads and writes together
  double l2Bandwidth = 0;   // bytes / cycle the L2 serves to all cores together
  int64_t l2Size = 0;       // bytes of L2, cold at the start of each launch
  int64_t l2Line = 128;     // bytes: the unit of every GM transfer and of the L2
  int dmaOverhead = 0;      // cycles a GM transfer holds its pipe besides moving its lines
  int scalarGmLatency = 0;  // cycles a scalar ld/st of GM stalls the scalar unit
  int launchOverhead = 0;   // cycles from a kernel launch to its cores' first instruction
  int scalarCycles = 1;     // per scalar instruction
  int flagLatency = 1;      // set_flag -> wait_flag wake-up
  int barrierCycles = 0;    // a pipe_barrier's own cost once its pipe has drained
  // energy model (picojoules)
  double energyPerMacF16 = 0, energyPerVectorByte = 0;
  std::array<double, isa::kSpaceCount> energyPerByte{};  // per byte read or written in that space

  const BufferSpec& buffer(isa::Space s) const { return buffers[static_cast<int>(s)]; }
  double bw(DmaPath p) const { return bandwidth[static_cast<int>(p)]; }
};

// The largest device memory a target may declare (1 TB); on-chip buffers stop at 64 MB.
constexpr int64_t kMaxGmBytes = int64_t{1} << 40;
constexpr int64_t kMaxOnChipBytes = int64_t{64} << 20;

// Bytes per cycle one of `cores` cores streaming cold data moves on `path`: the path's rate, capped
// on GM paths by an even share of the L2's and the device memory's bandwidth.
double coreBandwidth(const Target& target, DmaPath path, int cores);

// Cycles one of `cores` cores streaming cold data needs to read `readBytes` and write `writeBytes`
// of GM: each direction at its path's rate, both together within the core's share of the device
// memory's bandwidth (reads and writes share it).
double gmStreamCycles(const Target& target, double readBytes, double writeBytes, int cores,
                      DmaPath readPath = DmaPath::GmToUb);

// The L2 lines `bursts` bursts of `burstBytes`, starting `pitchBytes` apart from byte `start` of
// GM, touch: each burst its own lines from its offset in its line (a 96-byte burst starting 96
// bytes into a 128-byte line touches two), as the simulator counts them.
int64_t gmLinesTouched(const Target& target, int64_t bursts, int64_t burstBytes, int64_t pitchBytes, int64_t start = 0);

// Cycles one of `cores` cores streaming cold data holds its pipe for one GM copy of `bursts` bursts
// of `burstBytes`, `pitchBytes` apart, from byte `start`: the per-copy overhead and the lines.
double gmBurstCycles(const Target& target, int64_t bursts, int64_t burstBytes, int64_t pitchBytes, DmaPath path,
                     int cores, int64_t start = 0);

// gmBurstCycles of a copy of `rows` rows of `rowBytes`, `gapBytes` apart in GM: contiguous rows
// as one burst, otherwise a burst per row.
double gmCopyCycles(const Target& target, int64_t rows, int64_t rowBytes, int64_t gapBytes, DmaPath path, int cores,
                    int64_t start = 0);

// Cycles one vector instruction of `repeats` repeats holds the vector pipe.
uint64_t vectorInstructionCycles(const Target& target, int64_t repeats, isa::VectorCost cost);

// The data-movement floor of a workload in cycles: the bytes it must read and write at the rate
// `cores` cores can draw together, min(device memory bandwidth, cores × per-core rates), with
// reads and writes sharing the device memory's bandwidth.
double dataMovementFloor(const Target& target, int64_t readBytes, int64_t writeBytes, int cores,
                         DmaPath readPath = DmaPath::GmToUb);

// The cube floor of `macs` multiply-accumulates of `dtype` operands on `cores` cube cores, in cycles.
double cubeFloor(const Target& target, uint64_t macs, DType dtype, int cores);

// Loads and validates a target file; throws CompileError naming file, line and key.
Target loadTargetFile(const std::string& path);
// The same for target YAML already in memory; `path` names it in messages.
Target parseTargetText(const std::string& path, const std::string& text);
// Finds targets/<name>.yaml (PYASC_TARGET_DIR, then beside the executable, then the source tree).
Target loadTarget(const std::string& name);
std::vector<std::string> targetNames();  // names of every bundled target file, sorted

}  // namespace pyasc
