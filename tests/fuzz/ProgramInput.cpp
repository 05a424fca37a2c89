// The `# e2e:` options line of a Python harness input.
#include "tests/fuzz/ProgramInput.h"

#include <sstream>
#include <vector>

namespace pyasc::fuzz {

bool programOptions(const std::string& text, frontend::FrontendOptions& options) {
  std::istringstream lines(text);
  std::string line;
  std::vector<std::string> inputs, consts;
  for (int n = 0; n < 5 && std::getline(lines, line); ++n) {
    if (line.rfind("# e2e:", 0) != 0) continue;
    std::istringstream words(line.substr(6));
    std::string w;
    while (words >> w) {
      if (w.rfind("--entry=", 0) == 0) options.entry = w.substr(8);
      else if (w.rfind("--input=", 0) == 0) inputs.push_back(w.substr(8));
      else if (w.rfind("--const=", 0) == 0) consts.push_back(w.substr(8));
      else if (w == "--strict-dtypes") options.strictDtypes = true;
    }
  }
  return frontend::parseSpecs(inputs, consts, options).empty();
}

bool smallEnough(const graph::Graph& g) {
  for (const auto& v : g.values) {
    if (v.type.ranked && graph::elementCount(v.type.shape) > (int64_t{1} << 16)) return false;
  }
  return true;
}

}  // namespace pyasc::fuzz
