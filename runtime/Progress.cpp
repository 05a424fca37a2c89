// Progress line formatting and pacing.
#include "runtime/Progress.h"

#include <unistd.h>

#include <cstdlib>

namespace pyasc {

namespace {
constexpr double kTerminalInterval = 0.25, kLineInterval = 1.0;  // seconds between updates shown
}  // namespace

ProgressLine::ProgressLine(std::FILE* out, bool terminal, double delaySeconds, uint64_t totalLaunches)
    : out_(out), terminal_(terminal), delay_(delaySeconds), total_(totalLaunches), start_(Clock::now()) {}

ProgressLine::~ProgressLine() {
  if (shown_ && terminal_) {
    std::fputs("\r\033[K", out_);
    std::fflush(out_);
  }
}

std::string ProgressLine::text(const std::string& kernel, uint64_t launch, uint64_t totalLaunches, int coresDone,
                               int cores, double elapsed) {
  char buf[256];
  double done = static_cast<double>(launch - 1) + (cores > 0 ? static_cast<double>(coresDone) / cores : 0);
  std::string left = "estimating";
  if (done > 0 && totalLaunches > 0) {
    double remaining = elapsed * (static_cast<double>(totalLaunches) - done) / done;
    std::snprintf(buf, sizeof buf, "about %.1f s left", remaining < 0 ? 0.0 : remaining);
    left = buf;
  }
  if (totalLaunches == 0) {  // a while loop decides how many
    std::snprintf(buf, sizeof buf, "simulating %s: launch %llu, core %d/%d, %.1f s elapsed", kernel.c_str(),
                  static_cast<unsigned long long>(launch), coresDone, cores, elapsed);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "simulating %s: launch %llu/%llu, core %d/%d, %.1f s elapsed, ", kernel.c_str(),
                static_cast<unsigned long long>(launch), static_cast<unsigned long long>(totalLaunches), coresDone,
                cores, elapsed);
  return buf + left;
}

void ProgressLine::update(const std::string& kernel, uint64_t launch, int coresDone, int cores) {
  double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  if (elapsed < delay_) return;
  if (shown_ && elapsed - lastShown_ < (terminal_ ? kTerminalInterval : kLineInterval)) return;
  std::string line = text(kernel, launch, total_, coresDone, cores, elapsed);
  if (terminal_) {
    std::fprintf(out_, "\r%s\033[K", line.c_str());
  } else {
    std::fprintf(out_, "%s\n", line.c_str());
  }
  std::fflush(out_);
  shown_ = true;
  lastShown_ = elapsed;
}

void setProgressOptions(RunOptions& options, bool forced) {
  options.progressTerminal = ::isatty(STDERR_FILENO) != 0;
  options.progress = forced || options.progressTerminal;
  if (const char* after = std::getenv("PYASC_PROGRESS_AFTER")) options.progressAfterSeconds = std::atof(after);
}

}  // namespace pyasc
