// Atomic file writes through a same-directory temporary file and rename(2), and whole-file reads.
#include "sdk/support/AtomicFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "sdk/support/Diagnostics.h"

namespace pyasc {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int err) {
  throw CompileError(SourceLocation{path}, what + ": " + std::strerror(err));
}

std::string directoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Opens a fresh temporary file beside `path` with O_EXCL (the umask applies, unlike mkstemp's 0600).
int openTemporary(const std::string& path, std::string& tempPath) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    tempPath = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);
    int fd = ::open(tempPath.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

bool writeAll(int fd, const uint8_t* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// Makes the rename itself durable; a directory that cannot be opened or synced is not an error.
void syncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::vector<uint8_t>& bytes) {
  // an existing device or pipe (/dev/null, /dev/stdout) is written in place: renaming over it
  // would replace the device with a regular file
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) fail(path, "cannot write", errno);
    bool ok = writeAll(fd, bytes.data(), bytes.size());
    int err = errno;
    ::close(fd);
    if (!ok) fail(path, "cannot write", err);
    return;
  }
  std::string tempPath;
  int fd = openTemporary(path, tempPath);
  if (fd < 0) fail(path, "cannot write", errno);
  bool ok = writeAll(fd, bytes.data(), bytes.size()) && ::fsync(fd) == 0;
  int err = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && ::rename(tempPath.c_str(), path.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(tempPath.c_str());
    fail(path, "cannot write", err);
  }
  syncDirectory(directoryOf(path));
}

void writeFileAtomically(const std::string& path, const std::string& text) {
  writeFileAtomically(path, std::vector<uint8_t>(text.begin(), text.end()));
}

std::vector<uint8_t> readFileBytes(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, "cannot read", errno);
  struct stat st;
  bool known = ::fstat(fd, &st) == 0;
  if (known && S_ISDIR(st.st_mode)) {
    ::close(fd);
    fail(path, "cannot read", EISDIR);
  }
  if (known && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) && !::isatty(fd)) {  // /dev/zero never ends
    ::close(fd);
    throw CompileError(SourceLocation{path}, "cannot read: a device, not a file");
  }
  std::vector<uint8_t> bytes;
  if (known && S_ISREG(st.st_mode)) bytes.reserve(static_cast<size_t>(st.st_size));
  uint8_t buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      fail(path, "cannot read", err);
    }
    if (n == 0) break;
    bytes.insert(bytes.end(), buffer, buffer + n);
  }
  ::close(fd);
  return bytes;
}

}  // namespace pyasc
