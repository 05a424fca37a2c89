// Jobs run on a pool of forked worker processes (one per core by default), their results handed
// back in job order, with a progress line: how `ascop bench` and `ascop test` spread their cases.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace pyasc::ascop {

// The default number of workers: the cores this process may run on.
int defaultWorkers();

// Runs job(0) … job(count - 1), each returning its result as text, on `workers` processes forked
// from this one (in this process when workers is 1 or count is 1), and calls emit(i, result) for
// every job in order of i, each as soon as it and every job before it are done. A job that throws
// (CompileError or another exception) stops the emission there, as a serial run would stop: the
// error's message ("file:line:col: message" for a located one) is returned, "" when every job
// ended. A worker that dies during a job gives that job the result failed(i, why) and is replaced.
// With `progress`, a line on stderr counts the jobs done, the time elapsed and an estimate of the
// time left.
std::string runJobs(size_t count, int workers, const std::function<std::string(size_t)>& job,
                    const std::function<void(size_t, const std::string&)>& emit,
                    const std::function<std::string(size_t, const std::string&)>& failed, bool progress);

}  // namespace pyasc::ascop
