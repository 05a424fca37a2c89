// Chrome trace output: metadata per core and pipe, one X event per instruction, launches in sequence.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>

#include "tests/unit/sim/SimHarness.h"

namespace pyasc::sim::test {
namespace {

TEST(Trace, ProcessesThreadsAndEventsOfEveryLaunch) {
  Device dev(target910b(), 1 << 16);
  dev.enableTrace();
  Kernel k = kernelFromAsm("vadd.f16 ub[0x0], ub[0x0], ub[0x4000], repeat=10\nset_flag V, MTE3, 0\n"
                           "wait_flag V, MTE3, 0\ncopy_ub_gm gm[x1+0], ub[0x0], nburst=1, len=1\nend",
                           "trace_me");
  LaunchStats first = dev.launch(k, {2, {0}, false});  // both cores write gm[0..32): no sanitizer
  dev.launch(k, {1, {0}, true});
  std::string path = ::testing::TempDir() + "/sim_trace.json";
  dev.writeTrace(path);
  std::ifstream in(path);
  nlohmann::json j = nlohmann::json::parse(in);
  std::remove(path.c_str());

  int processNames = 0, threadNames = 0, events = 0;
  bool sawVadd = false;
  uint64_t secondLaunchStart = ~0ull;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "process_name") {
      ++processNames;
      EXPECT_EQ(e["args"]["name"], "core " + std::to_string(e["pid"].get<int>()));
    }
    if (e["ph"] == "M" && e["name"] == "thread_name") ++threadNames;
    if (e["ph"] != "X") continue;
    ++events;
    EXPECT_EQ(e["args"]["kernel"], "trace_me");
    if (e["tid"] == 1 && e["name"] == "vadd.f16 ub[0x0], ub[0x0], ub[0x4000], repeat=10, blk=1/1/1, rep=8/8/8") {
      sawVadd = true;
      EXPECT_EQ(e["dur"], 20);
      if (e["ts"].get<uint64_t>() >= first.cycles) secondLaunchStart = e["ts"].get<uint64_t>();
    }
  }
  EXPECT_EQ(processNames, 2);
  EXPECT_EQ(threadNames, 2 * isa::kPipeCount);
  EXPECT_EQ(events, 3 * (5 + 4));  // per core: 5 scalar fetches, 4 pipe instructions
  EXPECT_TRUE(sawVadd);
  EXPECT_EQ(secondLaunchStart, first.cycles + 1);
}

TEST(Trace, DisabledByDefault) {
  Device dev(target910b(), 1 << 16);
  dev.launch(kernelFromAsm("end"), {1, {}, true});
  nlohmann::json j = nlohmann::json::parse(dev.traceJson());
  EXPECT_TRUE(j["traceEvents"].empty());
}

}  // namespace
}  // namespace pyasc::sim::test
