// The simulator's progress line: its text and estimate, the delay, in-place and line-per-update output.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "runtime/Progress.h"

namespace pyasc {
namespace {

std::string contents(std::FILE* f) {
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s += static_cast<char>(c);
  return s;
}

TEST(ProgressLine, TextEstimatesFromLaunchesAndCoresDone) {
  EXPECT_EQ(ProgressLine::text("add_0", 1, 4, 0, 8, 0.5), "simulating add_0: launch 1/4, core 0/8, 0.5 s elapsed, estimating");
  // 2.5 launches of 4 done in 5 s: 3 s left
  EXPECT_EQ(ProgressLine::text("add_0", 3, 4, 4, 8, 5.0), "simulating add_0: launch 3/4, core 4/8, 5.0 s elapsed, about 3.0 s left");
}

TEST(ProgressLine, NothingBeforeTheDelay) {
  std::FILE* f = std::tmpfile();
  {
    ProgressLine line(f, true, 3600, 10);
    line.update("k", 1, 0, 1);
  }
  EXPECT_EQ(contents(f), "");
  std::fclose(f);
}

TEST(ProgressLine, TerminalRewritesInPlaceAndErasesAtTheEnd) {
  std::FILE* f = std::tmpfile();
  {
    ProgressLine line(f, true, 0, 2);
    line.update("k", 1, 0, 1);
  }
  std::string s = contents(f);
  EXPECT_EQ(s.rfind("\rsimulating k: launch 1/2, core 0/1, ", 0), 0u) << s;
  EXPECT_EQ(s.substr(s.size() - 4), "\r\033[K");
  std::fclose(f);
}

TEST(ProgressLine, ElsewhereOneLinePerUpdate) {
  std::FILE* f = std::tmpfile();
  {
    ProgressLine line(f, false, 0, 2);
    line.update("k", 2, 1, 2);
  }
  std::string s = contents(f);
  EXPECT_EQ(s.rfind("simulating k: launch 2/2, core 1/2, ", 0), 0u) << s;
  EXPECT_EQ(s.back(), '\n');
  EXPECT_EQ(s.find('\r'), std::string::npos);
  std::fclose(f);
}

}  // namespace
}  // namespace pyasc
