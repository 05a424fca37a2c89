// The YAML files `ascop new` writes beside an operator: test cases and the benchmark sweep.
#pragma once

#include <string>
#include <vector>

#include "sdk/support/DType.h"
#include "tools/ascop/OperatorRun.h"

namespace pyasc::ascop {

// One operator's cases. In a suite (`ops:` list), every entry inherits the file's targets, seed,
// dtypes and report; `call` is a Python expression over the inputs for a built-in operator,
// `skip` the reason an operator is not measured.
struct CaseFile {
  std::string path, op, reference, report, call, skip;
  std::vector<std::string> targets;
  std::vector<DType> dtypes;
  uint32_t seed = 0;
  std::vector<OperatorCase> cases;
  bool inSuite = false;   // an entry of a suite's `ops:` list
  bool complete = false;  // a suite that must measure or skip every built-in operator
};

// Reads NAME_cases.yaml or NAME_bench.yaml (one operator); throws CompileError at the offending line.
CaseFile readCaseFile(const std::string& path);
// Reads a bench file or a suite of them (`ops:`), one CaseFile per operator.
std::vector<CaseFile> readCaseFiles(const std::string& path);
// The only file in `folder` ending in `suffix`; throws std::runtime_error when there is none or several.
std::string findOneFile(const std::string& folder, const std::string& suffix);
// NAME.json (or NAME.yaml) beside NAME<suffix>; throws CompileError asking for --descriptor.
std::string descriptorBeside(const std::string& casePath, const std::string& suffix);
// `given` when it names a file; the one file ending in `suffix` in it (or here, when empty) otherwise.
std::string caseFileArgument(const std::string& given, const std::string& suffix);
// "x=[3,130]" (then " axes=[0]" per attribute) for a table row.
std::string caseText(const OperatorCase& c);
// The width of the case column: the longest caseText, at least 24.
int caseColumnWidth(const std::vector<OperatorCase>& cases);

}  // namespace pyasc::ascop
