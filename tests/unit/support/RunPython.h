// Runs a Python script under /usr/bin/python3 (with NumPy) and returns its standard output.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace pyasc::testing {

inline std::string runPython(const std::string& script) {
  char path[] = "/tmp/pyasc-oracle-XXXXXX";
  int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  FILE* file = fdopen(fd, "w");
  fputs(script.c_str(), file);
  fclose(file);
  std::string output;
  FILE* pipe = popen((std::string("/usr/bin/python3 ") + path).c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << "python script failed:\n" << script;
  remove(path);
  return output;
}

}  // namespace pyasc::testing
