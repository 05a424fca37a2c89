// The progress line of long simulations on stderr: kernel, launch i/N, time so far, time left.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "runtime/Model.h"

namespace pyasc {

// Shows nothing until a run has taken `delaySeconds`, then at most a few updates a second. On a
// terminal the line is rewritten in place and erased at the end; elsewhere each update is a line.
class ProgressLine {
 public:
  ProgressLine(std::FILE* out, bool terminal, double delaySeconds, uint64_t totalLaunches);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Launch `launch` (1-based) of kernel `kernel` has run `coresDone` of its `cores` cores.
  void update(const std::string& kernel, uint64_t launch, int coresDone, int cores);

  // "simulating add_0: launch 3/10, 2.5 s elapsed, about 5.8 s left" (the estimate scales the time
  // so far by the launches and cores left; "" when nothing has finished yet). A total of 0 is
  // unknown (a while loop): the line has no total and no estimate.
  static std::string text(const std::string& kernel, uint64_t launch, uint64_t totalLaunches, int coresDone,
                          int cores, double elapsedSeconds);

 private:
  using Clock = std::chrono::steady_clock;
  std::FILE* out_;
  bool terminal_;
  double delay_;
  uint64_t total_;
  Clock::time_point start_;
  double lastShown_ = -1;  // seconds since start of the last update shown
  bool shown_ = false;
};

// The progress settings of a command-line run: shown when stderr is a terminal, or always with
// `forced` (--progress); PYASC_PROGRESS_AFTER=SECONDS replaces the 2 s delay (for tests).
void setProgressOptions(RunOptions& options, bool forced);

}  // namespace pyasc
