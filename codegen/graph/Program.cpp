// A lowered program: storage sizes, and its text listing for --dump-after=select-templates.
#include <sstream>

#include "codegen/graph/Program.h"
#include "sdk/model/Model.h"

namespace pyasc::codegen {

int64_t Storage::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

namespace {

void printSteps(std::ostringstream& os, const Program& p, const std::vector<Step>& steps, int indent) {
  std::string pad(static_cast<size_t>(indent) * 2, ' ');
  for (const auto& s : steps) {
    if (s.isLoop && s.condition >= 0) {
      os << pad << "while %" << p.storages[static_cast<size_t>(s.condition)].name << " %iv" << s.inductionVar
         << " in [0, " << s.tripCount << ") {\n";
      printSteps(os, p, s.body, indent + 1);
      os << pad << "}\n";
      continue;
    }
    if (s.isLoop) {
      os << pad << "loop %iv" << s.inductionVar << " in [0, " << s.tripCount << ") {\n";
      printSteps(os, p, s.body, indent + 1);
      os << pad << "}\n";
      continue;
    }
    const KernelCode& k = p.kernels[static_cast<size_t>(s.launch.kernel)];
    os << pad << "launch " << k.name << " block_dim=" << k.blockDim << " (";
    for (size_t i = 0; i < s.launch.storages.size(); ++i) os << (i ? ", " : "") << "%" << p.storages[s.launch.storages[i]].name;
    for (const auto& a : s.launch.scalars) {
      os << ", " << a.base;
      for (const auto& t : a.terms) os << " + " << t.coeff << "*%iv" << t.inductionVar;
    }
    os << ") ; " << k.program.size() << " instructions\n";
    std::istringstream trace(k.schedule);
    for (std::string line; std::getline(trace, line);) os << pad << "  " << line << "\n";
  }
}

}  // namespace

std::string printProgram(const Program& p) {
  std::ostringstream os;
  os << "program {\n";
  for (const auto& s : p.storages) {
    os << "  storage %" << s.name << " : " << dtypeShortName(s.dtype) << "[";
    for (size_t i = 0; i < s.shape.size(); ++i) os << (i ? "," : "") << s.shape[i];
    os << "] " << model::tensorRoleName(s.role) << "\n";
  }
  printSteps(os, p, p.steps, 1);
  for (const auto& [name, storage] : p.outputs) os << "  output " << name << " = %" << p.storages[storage].name << "\n";
  os << "}\n";
  return os.str();
}

}  // namespace pyasc::codegen
