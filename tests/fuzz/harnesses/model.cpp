// Fuzz harness: .om bytes → model (sections, CRCs) → validation → runtime load, as `pyasc run` and
// Model::load take a file; never simulated.
#include "runtime/Model.h"
#include "sdk/model/ModelReader.h"
#include "sdk/model/ModelValidator.h"
#include "tests/fuzz/Harness.h"

using namespace pyasc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    model::Model m = model::parseModel(std::vector<uint8_t>(data, data + size), "fuzz.om");
    model::validateModel(m, "fuzz.om");
    Model net = Model::fromImage(std::move(m), "fuzz.om");
    for (const auto* t : net.inputs()) (void)t->name;
    for (const auto* t : net.outputs()) (void)t->name;
  } catch (const CompileError&) {
  }
  return 0;
}
