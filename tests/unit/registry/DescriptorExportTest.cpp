// Export to msopgen JSON and to the op-info .ini, byte for byte against Inputs/expected/.
#include "registry/DescriptorExport.h"
#include "tests/unit/registry/DescriptorTestSupport.h"

using namespace pyasc::registry;
using namespace pyasc::registry::testing;

namespace {

TEST(DescriptorExport, MsopgenJsonIsByteExact) {
  const auto ops = parseValid("ops.yaml", readInput("ops.yaml"));
  EXPECT_EQ(exportMsopgenJson(ops), readInput("expected/ops.msopgen.json"));
}

TEST(DescriptorExport, TbeIniIsByteExact) {
  const auto ops = parseValid("ops.json", readInput("ops.json"));
  EXPECT_EQ(exportTbeIni(ops), readInput("expected/ops.ini"));
}

TEST(DescriptorExport, MsopgenJsonKeepsOnlyMsopgenFields) {
  const std::string json = exportMsopgenJson(parseValid("ops.yaml", readInput("ops.yaml")));
  for (const char* field : {"impl", "python_name", "shape_rule", "tolerance", "override", "pattern"}) {
    EXPECT_EQ(json.find(std::string("\"") + field + "\""), std::string::npos) << field;
  }
}

TEST(DescriptorExport, MsopgenJsonReadsBackToTheSameOps) {
  const auto ops = parseValid("ops.yaml", readInput("ops.yaml"));
  std::vector<OpDescriptor> leakyOnly = {ops[0]};
  const std::string json = exportMsopgenJson(leakyOnly);
  // LeakyScale's default impl, leaky_scale.py, sits next to the descriptor, so the export loads as is.
  EXPECT_EQ(exportMsopgenJson(parseValid("exported.json", json)), json);
}

}  // namespace
