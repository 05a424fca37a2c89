// asc-omcheck: loads .om models and .npy arrays with every load-time check, prints a summary per file.
#include <CLI/CLI.hpp>
#include <iostream>
#include <map>
#include <sstream>

#include "sdk/model/ModelReader.h"
#include "sdk/model/ModelWriter.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/support/Npy.h"
#include "tests/unit/model/SampleModel.h"
#include "tools/CommandLine.h"

namespace {

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

size_t countInstructions(const pyasc::model::Model& model) {
  size_t n = 0;
  for (const auto& k : model.kernels) n += k.instructions.size();
  return n;
}

size_t countSteps(const std::vector<pyasc::model::PlanStep>& steps) {
  size_t n = steps.size();
  for (const auto& s : steps) n += countSteps(s.body);
  return n;
}

// "output.om: model 1.0 for ascend310: 6 tensors (1 input, ...), 2 kernels (9 instructions), ..."
std::string modelSummary(const std::string& path, const pyasc::model::Model& m) {
  std::map<int, int> roles;
  for (const auto& t : m.tensors) roles[static_cast<int>(t.role)]++;
  std::ostringstream out;
  out << path << ": model " << m.formatMajor << "." << m.formatMinor << " for " << m.target << ": " << m.tensors.size()
      << " tensors";
  const char* separator = " (";
  for (const auto& [role, count] : roles) {
    out << separator << count << " " << pyasc::model::tensorRoleName(static_cast<pyasc::model::TensorRole>(role));
    separator = ", ";
  }
  if (!roles.empty()) out << ")";
  size_t constantBytes = 0;
  for (const auto& c : m.constants) constantBytes += c.bytes.size();
  out << ", " << m.kernels.size() << " kernels (" << countInstructions(m) << " instructions), " << countSteps(m.plan)
      << " plan steps, " << constantBytes << " constant bytes, GM peak " << m.memory.gmPeakBytes << " bytes";
  return out.str();
}

std::string npySummary(const std::string& path, const pyasc::NpyArray& a) {
  std::ostringstream out;
  out << path << ": " << pyasc::dtypeName(a.dtype) << " (";
  for (size_t i = 0; i < a.shape.size(); ++i) out << (i ? ", " : "") << a.shape[i];
  out << (a.shape.size() == 1 ? ",)" : ")") << ", " << a.data.size() << " bytes";
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Loads pyasc models (.om) and NumPy arrays (.npy) with every load-time check and prints a summary "
      "of each, or the one-line reason a file is rejected"};
  std::vector<std::string> files;
  std::string samplePath;
  std::string target;
  app.add_option("files", files, ".om or .npy files (by extension)");
  app.add_option("--write-sample", samplePath,
                 "write the unit tests' sample model to this path (the source of tests/error/model fixtures)");
  app.add_option("--target", target, "also require each model to be built for this target");
  PYASC_PARSE(app, argc, argv);
  if (files.empty() && samplePath.empty()) {  // nothing to do: how to call it
    std::cout << app.help();
    return pyasc::tool::kExitUsage;
  }

  try {
    if (!samplePath.empty()) pyasc::model::writeModel(samplePath, pyasc::testing::sampleModel());
    for (const std::string& path : files) {
      if (endsWith(path, ".npy")) {
        std::cout << npySummary(path, pyasc::readNpy(path)) << "\n";
      } else {
        pyasc::model::Model model = pyasc::model::readModel(path);
        if (!target.empty()) pyasc::model::checkTarget(model, path, target);
        std::cout << modelSummary(path, model) << "\n";
      }
    }
  } catch (const pyasc::CompileError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
