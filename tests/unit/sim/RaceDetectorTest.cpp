// The GM range map behind cross-core race detection: later accesses overwrite the attribution of
// exactly the bytes they cover.
#include <gtest/gtest.h>

#include "sim/RaceDetector.h"

namespace pyasc::sim {
namespace {

struct Hit {
  int instruction;
  uint64_t lo, hi;
};

Hit hit(const GmRangeMap& m, uint64_t lo, uint64_t hi) {
  uint64_t olo = 0, ohi = 0;
  GmRangeMap::Touch t = m.firstOverlap(lo, hi, olo, ohi);
  return {t.core >= 0 ? t.instruction : -1, olo, ohi};
}

TEST(GmRangeMap, SplitsAndOverwrites) {
  GmRangeMap m;
  m.assign(0x100, 0x200, {0, 4, 1});
  m.assign(0x140, 0x180, {0, 4, 2});  // splits [0x100, 0x200) in three
  m.assign(0x1f0, 0x300, {0, 4, 3});  // trims the tail, extends past it
  Hit a = hit(m, 0x0, 0x110);
  EXPECT_EQ(a.instruction, 1);
  EXPECT_EQ(a.lo, 0x100u);
  EXPECT_EQ(a.hi, 0x110u);
  Hit b = hit(m, 0x150, 0x400);
  EXPECT_EQ(b.instruction, 2);
  EXPECT_EQ(b.lo, 0x150u);
  EXPECT_EQ(b.hi, 0x180u);
  Hit c = hit(m, 0x180, 0x1f8);
  EXPECT_EQ(c.instruction, 1);
  EXPECT_EQ(c.hi, 0x1f0u);
  EXPECT_EQ(hit(m, 0x1f0, 0x1f1).instruction, 3);
  EXPECT_EQ(hit(m, 0x300, 0x400).instruction, -1);
  EXPECT_EQ(hit(m, 0x0, 0x100).instruction, -1);
  m.assign(0x0, 0x1000, {0, 4, 9});  // swallows everything
  Hit d = hit(m, 0x150, 0x151);
  EXPECT_EQ(d.instruction, 9);
}

TEST(LaunchGmAccesses, ReadsConflictOnlyWithWritesOfOtherCores) {
  LaunchGmAccesses l;
  l.add(0, 0, 0x100, false, {0, 4, 1});    // core 0 reads
  l.add(0, 0x100, 0x108, true, {0, 5, 2});  // core 0 writes 8 bytes
  EXPECT_LT(l.conflict(0, 0x0, 0x200, true).touch.core, 0);  // a core's own accesses never conflict
  EXPECT_LT(l.conflict(1, 0, 0x100, false).touch.core, 0);  // reads of reads
  EXPECT_LT(l.conflict(1, 0x108, 0x110, true).touch.core, 0);  // the neighbouring 8 bytes
  LaunchGmAccesses::Conflict w = l.conflict(1, 0x80, 0x104, true);
  EXPECT_EQ(w.touch.instruction, 1);  // the read at the lower address first
  EXPECT_FALSE(w.write);
  EXPECT_EQ(w.lo, 0x80u);
  LaunchGmAccesses::Conflict r = l.conflict(1, 0x104, 0x200, false);
  EXPECT_EQ(r.touch.instruction, 2);
  EXPECT_TRUE(r.write);
  EXPECT_EQ(r.hi, 0x108u);
}

}  // namespace
}  // namespace pyasc::sim
