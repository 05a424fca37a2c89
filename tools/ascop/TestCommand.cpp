// ascop test: every case × dtype of NAME_cases.yaml compiled, run on the simulator with the
// sanitizer and compared with the NumPy reference within the descriptor's tolerance.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "registry/DescriptorRegistration.h"
#include "sdk/support/ArrayCompare.h"
#include "sdk/support/AtomicFile.h"
#include "tools/ascop/CaseFile.h"
#include "tools/ascop/Command.h"
#include "tools/ascop/WorkerPool.h"

namespace pyasc::ascop {

namespace fs = std::filesystem;

namespace {

struct TestOptions {
  std::string cases, descriptor, target = "ascend910b";
  bool keep = false;
  bool defaultSchedules = false;
  int workers = 0;  // 0: one per core
};

// Runs the NumPy reference on the saved inputs (and the case's attributes) and reads its result.
NpyArray reference(const std::string& refPath, const std::string& function, const OperatorCase& c,
                   const OperatorRun& run, const fs::path& dir) {
  std::string args;
  for (const auto& [name, array] : run.inputs) {
    writeNpy((dir / (name + ".npy")).string(), array);
    args += "np.load(r'" + (dir / (name + ".npy")).string() + "'), ";
  }
  for (const auto& [name, literal] : c.attrs) args += name + "=" + literal + ", ";
  std::string script = "import importlib.util, numpy as np\n"
                       "spec = importlib.util.spec_from_file_location('reference', r'" + refPath + "')\n"
                       "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
                       "np.save(r'" + (dir / "reference.npy").string() + "', np.asarray(m." + function + "(" + args + ")))\n";
  std::string scriptPath = (dir / "reference.py").string(), errors = (dir / "reference.err").string();
  writeFileAtomically(scriptPath, script);
  if (std::system((std::string(PYASC_PYTHON) + " '" + scriptPath + "' 2> '" + errors + "'").c_str()) != 0) {
    // the exception Python raised (its traceback's last line), not the traceback
    std::ifstream in(errors);
    std::string line, last;
    while (std::getline(in, line)) {
      if (!line.empty()) last = line;
    }
    throw CompileError(SourceLocation{refPath}, "the NumPy reference failed" + (last.empty() ? "" : ": " + last));
  }
  return readNpy((dir / "reference.npy").string());
}

int run(const TestOptions& o) {
  try {
    std::string casesPath = caseFileArgument(o.cases, "_cases.yaml");
    CaseFile cases = readCaseFile(casesPath);
    std::string descriptorPath = o.descriptor.empty() ? descriptorBeside(casesPath, "_cases.yaml") : o.descriptor;
    registry::OpRegistry registry = registry::OpRegistry::builtin();
    std::vector<registry::OpDescriptor> descriptors;
    if (!loadCustomOps({descriptorPath}, registry, descriptors)) return 1;
    const registry::OpDescriptor* op = registry::findDescriptor(descriptors, cases.op);
    if (!op) return reportError(casesPath + ": no operator '" + cases.op + "' in " + descriptorPath);
    std::string refPath = (fs::path(casesPath).parent_path() / cases.reference).string();
    if (cases.reference.empty() || !fs::is_regular_file(refPath)) {
      return reportError(casesPath + ": reference: '" + cases.reference + "' is not a file (the NumPy reference module)");
    }
    fs::path dir = fs::temp_directory_path() / ("ascop-test-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::printf("%s: %zu case(s) x %zu dtype(s) on %s, sanitizer on, against %s\n", op->op.c_str(), cases.cases.size(),
                cases.dtypes.size(), o.target.c_str(), cases.reference.c_str());
    int width = caseColumnWidth(cases.cases);
    std::printf("%-*s %-8s %12s %12s %9s %10s\n", width, "case", "dtype", "max abs err", "rel err", "tolerance", "cycles");
    for (const auto& c : cases.cases) {
      for (const auto& input : c.inputs) {
        const std::string& name = input.first;
        bool known = std::any_of(op->inputs.begin(), op->inputs.end(), [&](const auto& in) { return in.name == name; });
        if (!known) return reportError(casesPath + ": case " + caseText(c) + ": '" + name + "' is not an input of " + op->op);
      }
    }
    std::vector<std::pair<const OperatorCase*, DType>> jobs;  // in the order of the table
    for (const auto& c : cases.cases) {
      for (DType dtype : cases.dtypes) jobs.emplace_back(&c, dtype);
    }
    // one case and dtype: its line of the table and whether it passed (its files in a folder of its own)
    auto job = [&](size_t k) {
      const OperatorCase& c = *jobs[k].first;
      const DType dtype = jobs[k].second;
      fs::path caseDir = dir / std::to_string(k);
      fs::create_directories(caseDir);
      OperatorRun r = runOperator(callExpression(op->pythonName, c), registry, c, dtype, o.target, cases.seed, true, true,
                                  std::nullopt, !o.defaultSchedules);
      NpyArray want = reference(refPath, op->pythonName, c, r, caseDir);
      ArrayError err = compareArrays(r.outputs.at(0).second, want);
      auto tol = op->tolerance.count(dtype) ? op->tolerance.at(dtype) : registry::defaultTolerance().at(dtype);
      bool ok = !err.sizesDiffer && err.relative <= tol;
      char line[512];
      std::snprintf(line, sizeof line, "%-*s %-8s %12.3e %12.3e %9.0e %10llu  %s", width, caseText(c).c_str(), dtypeName(dtype),
                    err.maxAbs, err.relative, tol, static_cast<unsigned long long>(r.stats.cycles), ok ? "ok" : "MISMATCH");
      return nlohmann::json{{"line", line}, {"ok", ok}}.dump();
    };
    int passed = 0, failed = 0;
    auto emit = [&](size_t, const std::string& text) {
      nlohmann::json out = nlohmann::json::parse(text);
      (out["ok"].get<bool>() ? passed : failed) += 1;
      std::printf("%s\n", out["line"].get<std::string>().c_str());
      std::fflush(stdout);
    };
    auto died = [&](size_t k, const std::string& why) {  // "its worker died ...": a row that says so
      return nlohmann::json{{"line", caseText(*jobs[k].first) + " " + dtypeName(jobs[k].second) + ": " + why}, {"ok", false}}.dump();
    };
    std::string stopped = runJobs(jobs.size(), o.workers > 0 ? o.workers : defaultWorkers(), job, emit, died, ::isatty(STDERR_FILENO) && jobs.size() > 1);
    if (!stopped.empty()) {
      if (!o.keep) fs::remove_all(dir);
      return reportError(stopped);
    }
    if (o.keep) {
      std::printf("kept: %s\n", dir.string().c_str());
    } else {
      fs::remove_all(dir);
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
  } catch (const CompileError& e) {
    return reportError(e);
  } catch (const std::exception& e) {
    return reportError(e.what());
  }
}

}  // namespace

std::function<int()> setupTest(CLI::App& app) {
  auto o = std::make_shared<TestOptions>();
  app.add_option("cases", o->cases, "NAME_cases.yaml, or the operator's folder (default: this folder)");
  app.add_option("--descriptor", o->descriptor, "descriptor (default: NAME.json or NAME.yaml beside the cases)");
  app.add_option("--target", o->target, "target to simulate")->capture_default_str();
  app.add_flag("--keep", o->keep, "keep the folder with inputs and reference outputs");
  app.add_flag("--default-schedules", o->defaultSchedules,
               "ignore the schedule written in the definition: test the compiler's own schedule");
  app.add_option("-j,--jobs", o->workers, "worker processes testing cases at once (default: one per core)")
      ->check(CLI::PositiveNumber);
  return [o]() { return run(*o); };
}

}  // namespace pyasc::ascop
