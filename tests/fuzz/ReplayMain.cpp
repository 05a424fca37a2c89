// The standalone driver of the normal build: runs a harness once on every file it is given (folders
// recursively, in name order), as libFuzzer replays a corpus, and fails on the first crash.
//   fuzz_npy tests/fuzz/regressions/npy seeds/npy [--only=.npy,.NPY]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/fuzz/Harness.h"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));

namespace {

namespace fs = std::filesystem;

bool wanted(const fs::path& file, const std::vector<std::string>& extensions) {
  if (extensions.empty()) return true;
  const std::string name = file.filename().string();
  for (const auto& ext : extensions) {
    if (name.size() >= ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> extensions;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--only=", 0) == 0) {
      for (size_t start = 7; start <= arg.size();) {
        size_t comma = std::min(arg.find(',', start), arg.size());
        if (comma > start) extensions.push_back(arg.substr(start, comma - start));
        start = comma + 1;
      }
      continue;
    }
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      std::vector<fs::path> found;
      for (const auto& e : fs::recursive_directory_iterator(arg))
        if (e.is_regular_file()) found.push_back(e.path());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(arg, ec)) {
      files.emplace_back(arg);
    } else {
      std::fprintf(stderr, "%s: error: '%s' is neither a file nor a folder\n", argv[0], arg.c_str());
      return 2;
    }
  }
  size_t run = 0;
  double slowest = 0;
  std::string slowestName;
  for (const auto& file : files) {
    if (!wanted(file, extensions)) continue;
    std::ifstream in(file, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "%s\n", file.string().c_str());  // the input a crash belongs to is the last named
    auto start = std::chrono::steady_clock::now();
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (seconds > slowest) {
      slowest = seconds;
      slowestName = file.string();
    }
    ++run;
  }
  if (run == 0) {
    std::fprintf(stderr, "%s: error: no inputs to replay\n", argv[0]);
    return 2;
  }
  std::fprintf(stderr, "replayed %zu inputs; slowest %.3f s (%s)\n", run, slowest, slowestName.c_str());
  return 0;
}
