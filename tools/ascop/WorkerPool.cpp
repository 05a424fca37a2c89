// The worker pool of `ascop bench` and `ascop test`: forked processes fed job numbers over pipes,
// each answering with its result's length and bytes.
#include "tools/ascop/WorkerPool.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <thread>
#include <vector>

#include "sdk/support/Diagnostics.h"

namespace pyasc::ascop {

namespace {

// A job's result marked as one ('R') or its error's message ('E').
std::string attempt(const std::function<std::string(size_t)>& job, size_t index) {
  try {
    return "R" + job(index);
  } catch (const CompileError& e) {
    const SourceLocation& where = e.diagnostic().range.begin;
    return "E" + (where.file.empty() ? "" : where.str() + ": ") + e.diagnostic().message;
  } catch (const std::exception& e) {
    return "E" + std::string(e.what());
  }
}

bool writeAll(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t n = ::write(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool readAll(int fd, void* data, size_t size) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    ssize_t n = ::read(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

struct Worker {
  pid_t pid = -1;
  int jobs = -1, results = -1;  // the pipes' ends this process writes to and reads from
  long job = -1;                // the job it runs, or -1
};

// A process that answers job numbers with results until it reads -1.
Worker spawn(const std::function<std::string(size_t)>& job) {
  int down[2], up[2];
  if (::pipe2(down, O_CLOEXEC) != 0) throw std::runtime_error("cannot create a pipe for a worker");
  if (::pipe2(up, O_CLOEXEC) != 0) {
    ::close(down[0]);
    ::close(down[1]);
    throw std::runtime_error("cannot create a pipe for a worker");
  }
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    for (int fd : {down[0], down[1], up[0], up[1]}) ::close(fd);
    throw std::runtime_error("cannot start a worker process");
  }
  if (pid == 0) {
    ::close(down[1]);
    ::close(up[0]);
    int64_t index;
    while (readAll(down[0], &index, sizeof index) && index >= 0) {
      std::string result = attempt(job, static_cast<size_t>(index));
      uint64_t size = result.size();
      if (!writeAll(up[1], &size, sizeof size) || !writeAll(up[1], result.data(), result.size())) break;
    }
    std::fflush(nullptr);
    ::_exit(0);
  }
  ::close(down[0]);
  ::close(up[1]);
  return Worker{pid, down[1], up[0], -1};
}

std::string minutes(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%d:%02d", static_cast<int>(seconds) / 60, static_cast<int>(seconds) % 60);
  return text;
}

}  // namespace

int defaultWorkers() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

std::string runJobs(size_t count, int workers, const std::function<std::string(size_t)>& job,
                    const std::function<void(size_t, const std::string&)>& emit,
                    const std::function<std::string(size_t, const std::string&)>& failed, bool progress) {
  std::string stopped;
  const auto start = std::chrono::steady_clock::now();
  std::map<size_t, std::string> finished;  // results not emitted yet
  size_t next = 0, emitted = 0, done = 0;
  auto report = [&] {
    if (!progress) return;
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double left = done ? elapsed / static_cast<double>(done) * static_cast<double>(count - done) : 0;
    std::fprintf(stderr, "\r[%zu/%zu] %s elapsed, about %s left ", done, count, minutes(elapsed).c_str(), minutes(left).c_str());
  };
  auto finish = [&](size_t index, std::string result) {
    finished[index] = std::move(result);
    ++done;
    report();
    for (auto it = finished.find(emitted); it != finished.end(); it = finished.find(emitted)) {
      if (progress) std::fprintf(stderr, "\r%*s\r", 60, "");
      if (stopped.empty() && it->second[0] == 'E') stopped = it->second.substr(1);
      if (stopped.empty()) emit(emitted, it->second.substr(1));
      finished.erase(it);
      ++emitted;
      if (progress && emitted < count) report();
    }
  };
  if (workers <= 1 || count <= 1) {
    for (size_t i = 0; i < count && stopped.empty(); ++i) finish(i, attempt(job, i));
    return stopped;
  }
  std::vector<Worker> pool;
  for (int w = 0; w < workers && static_cast<size_t>(w) < count; ++w) pool.push_back(spawn(job));
  // the next job, or -1 (the worker stops) when there is none or the run stopped
  auto assign = [&](Worker& w) {
    int64_t index = next < count && stopped.empty() ? static_cast<int64_t>(next++) : -1;
    w.job = index;
    if (!writeAll(w.jobs, &index, sizeof index) && index >= 0) {
      w.job = -1;
      finish(static_cast<size_t>(index), "R" + failed(static_cast<size_t>(index), "its worker could not be reached"));
    }
  };
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);  // a dead worker's pipe fails a write instead of killing ascop
  for (auto& w : pool) assign(w);
  auto busy = [&] {
    for (const auto& w : pool) {
      if (w.job >= 0) return true;
    }
    return false;
  };
  while (busy()) {
    std::vector<pollfd> fds;
    for (const auto& w : pool) fds.push_back(pollfd{w.job >= 0 ? w.results : -1, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0) continue;
    for (size_t k = 0; k < pool.size(); ++k) {
      Worker& w = pool[k];
      if (w.job < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const size_t index = static_cast<size_t>(w.job);
      uint64_t size = 0;
      std::string result;
      bool ok = readAll(w.results, &size, sizeof size);
      if (ok) {
        result.resize(size);
        ok = readAll(w.results, result.data(), size);
      }
      if (ok) {
        finish(index, std::move(result));
        assign(w);
        continue;
      }
      // the worker died during the job: the job fails, a new worker takes its place
      int status = 0;
      ::close(w.jobs);
      ::close(w.results);
      ::waitpid(w.pid, &status, 0);
      std::string why = WIFSIGNALED(status) ? "its worker died of signal " + std::to_string(WTERMSIG(status))
                                            : "its worker stopped with status " + std::to_string(WEXITSTATUS(status));
      finish(index, "R" + failed(index, why));
      w = Worker{};
      if (next < count && stopped.empty()) {
        w = spawn(job);
        assign(w);
      }
    }
  }
  for (auto& w : pool) {
    if (w.pid < 0) continue;
    if (w.job >= 0) {
      int64_t stop = -1;
      writeAll(w.jobs, &stop, sizeof stop);
    }
    ::close(w.jobs);
    ::close(w.results);
    int status = 0;
    ::waitpid(w.pid, &status, 0);
  }
  ::sigaction(SIGPIPE, &previous, nullptr);
  return stopped;
}

}  // namespace pyasc::ascop
