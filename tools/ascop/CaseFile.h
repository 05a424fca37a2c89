// The YAML files `ascop new` writes beside an operator: test cases and the benchmark sweep.
#pragma once

#include <string>
#include <vector>

#include "sdk/support/DType.h"
#include "tools/ascop/OperatorRun.h"

namespace pyasc::ascop {

struct CaseFile {
  std::string path, op, reference, report;
  std::vector<std::string> targets;
  std::vector<DType> dtypes;
  uint32_t seed = 0;
  std::vector<OperatorCase> cases;
};

// Reads NAME_cases.yaml or NAME_bench.yaml; throws CompileError at the offending line.
CaseFile readCaseFile(const std::string& path);
// The only file in `folder` ending in `suffix`; throws std::runtime_error when there is none or several.
std::string findOneFile(const std::string& folder, const std::string& suffix);
// `given` when it names a file; the one file ending in `suffix` in it (or here, when empty) otherwise.
std::string caseFileArgument(const std::string& given, const std::string& suffix);
// "x=[3,130]" (then " axes=[0]" per attribute) for a table row.
std::string caseText(const OperatorCase& c);
// The width of the case column: the longest caseText, at least 24.
int caseColumnWidth(const std::vector<OperatorCase>& cases);

}  // namespace pyasc::ascop
