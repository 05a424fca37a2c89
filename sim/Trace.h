// Chrome trace (Perfetto) recording: one process per core, one thread per pipe, one "X" event per
// instruction with ts/dur in cycles.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pyasc::sim {

struct TraceEvent {
  int core = 0;
  int pipe = 0;
  uint64_t start = 0, duration = 0;  // cycles since the first recorded launch
  std::string name;                  // instruction text
  int instruction = 0;
  int kernel = 0;  // index into the recorder's kernel names
};

class TraceRecorder {
 public:
  // Starts a launch; its events are shifted to begin where the previous launch ended.
  void beginLaunch(const std::string& kernelName);
  void add(int core, int pipe, uint64_t start, uint64_t duration, std::string name, int instruction);
  void endLaunch(uint64_t cycles) { base_ += cycles; }
  std::string json() const;

 private:
  uint64_t base_ = 0;
  std::vector<std::string> kernels_;
  std::vector<TraceEvent> events_;
  int maxCore_ = -1;
};

}  // namespace pyasc::sim
