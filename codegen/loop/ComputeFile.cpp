// The .te file reader: compute line, schedule lines, to a loop nest.
#include "codegen/loop/ComputeFile.h"

#include <sstream>
#include <stdexcept>
#include <vector>

#include "codegen/loop/DefaultSchedule.h"
#include "codegen/loop/ScheduleToLoops.h"
#include "sdk/te/Compute.h"
#include "sdk/te/ExprText.h"
#include "sdk/te/Schedule.h"

namespace pyasc::codegen {

loop::Kernel readComputeFile(const std::string& path, const std::string& text, const Target& target) {
  std::istringstream in(text);
  std::string line, computeLine, scheduleText;
  int lineNo = 0, computeLineNo = 0, computeIndent = 0;
  std::vector<int> stepLines;
  bool useDefault = false;
  while (std::getline(in, line)) {
    ++lineNo;
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line.compare(start, 2, "//") == 0) continue;
    line = line.substr(start);
    if (computeLine.empty()) {
      computeLine = line;
      computeLineNo = lineNo;
      computeIndent = static_cast<int>(start);
    } else if (line == "default") {
      useDefault = true;
    } else {
      scheduleText += line + "\n";
      stepLines.push_back(lineNo);
    }
  }
  if (computeLine.empty()) throw CompileError(SourceLocation{path, 1, 1}, "no compute line (the file is empty)");
  te::ComputeDef def;
  try {
    def = te::parseComputeDef(computeLine);
  } catch (const te::TextError& e) {
    throw CompileError(SourceLocation{path, computeLineNo, computeIndent + e.column}, e.message);
  } catch (const std::invalid_argument& e) {
    throw CompileError(SourceLocation{path, computeLineNo, 1}, e.what());
  }
  te::Schedule schedule;
  try {
    schedule = useDefault ? defaultComputeSchedule(def, target) : te::parseSchedule(scheduleText, path);
  } catch (const CompileError& e) {  // its line counts the schedule's lines: the file's is stepLines'
    Diagnostic d = e.diagnostic();
    const int index = d.range.begin.line - 1;
    if (d.range.begin.file == path && index >= 0 && static_cast<size_t>(index) < stepLines.size())
      d.range.begin.line = stepLines[static_cast<size_t>(index)];
    throw CompileError(d);
  }
  for (size_t i = 0; i < schedule.steps.size() && i < stepLines.size(); ++i) {
    if (schedule.steps[i].loc.file.empty()) schedule.steps[i].loc = SourceLocation{path, stepLines[i], 1};
  }
  return scheduleToLoops(def, schedule, target, SourceLocation{path, computeLineNo, 1});
}

}  // namespace pyasc::codegen
