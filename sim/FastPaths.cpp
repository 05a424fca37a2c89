// The bulk-path switch (a process-wide setting for tests).
#include "sim/FastPaths.h"

namespace pyasc::sim {

namespace {
bool enabled = true;
}  // namespace

void setFastPaths(bool on) { enabled = on; }
bool fastPaths() { return enabled; }

}  // namespace pyasc::sim
