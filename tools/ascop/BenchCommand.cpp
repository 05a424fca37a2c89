// ascop bench: the operator over NAME_bench.yaml's targets × dtypes × cases: simulated cycles, % of
// the data-movement floor, bytes moved, energy and host time; a table and a JSON report.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "registry/DescriptorRegistration.h"
#include "sdk/support/AtomicFile.h"
#include "tools/ascop/CaseFile.h"
#include "tools/ascop/Command.h"

namespace pyasc::ascop {

namespace fs = std::filesystem;

namespace {

struct BenchOptions {
  std::string config, descriptor, json;
  std::vector<std::string> targets;
};

std::string descriptorFor(const std::string& benchPath) {
  std::string stem = benchPath.substr(0, benchPath.size() - std::string("_bench.yaml").size());
  for (const char* ext : {".json", ".yaml"})
    if (fs::exists(stem + ext)) return stem + ext;
  throw CompileError(SourceLocation{benchPath}, "no descriptor beside it; pass --descriptor");
}

int run(const BenchOptions& o) {
  try {
    std::string benchPath = caseFileArgument(o.config, "_bench.yaml");
    CaseFile bench = readCaseFile(benchPath);
    std::vector<std::string> targets = o.targets.empty() ? bench.targets : o.targets;
    if (targets.empty()) targets = {"ascend910b"};
    std::string descriptorPath = o.descriptor.empty() ? descriptorFor(benchPath) : o.descriptor;
    registry::OpRegistry registry = registry::OpRegistry::builtin();
    std::vector<registry::OpDescriptor> descriptors;
    if (!loadCustomOps({descriptorPath}, registry, descriptors)) return 1;
    const registry::OpDescriptor* op = registry::findDescriptor(descriptors, bench.op);
    if (!op) return reportError(benchPath + ": no operator '" + bench.op + "' in " + descriptorPath);
    size_t total = targets.size() * bench.dtypes.size() * bench.cases.size(), done = 0;
    bool progress = ::isatty(STDERR_FILENO) && total > 1;
    nlohmann::json report;
    report["op"] = op->op;
    int width = caseColumnWidth(bench.cases);
    std::printf("%-11s %-*s %-8s %10s %9s %12s %11s %10s %10s\n", "target", width, "case", "dtype", "cycles", "roofline",
                "bytes moved", "energy uJ", "compile ms", "sim ms");
    for (const auto& targetName : targets) {
      Target target = loadTarget(targetName);
      for (DType dtype : bench.dtypes) {
        for (const auto& c : bench.cases) {
          if (progress) std::fprintf(stderr, "\r[%zu/%zu] %s %s %s ...", done + 1, total, targetName.c_str(),
                                     dtypeName(dtype), caseText(c).c_str());
          OperatorRun r = runOperator(*op, registry, c, dtype, targetName, bench.seed, false);
          double floor = dataMovementFloor(target, r.inputBytes, r.outputBytes, target.vectorCores);
          double roofline = r.stats.cycles ? floor / static_cast<double>(r.stats.cycles) : 0;
          uint64_t moved = 0;
          for (uint64_t b : r.stats.bytes) moved += b;
          if (progress) std::fprintf(stderr, "\r%*s\r", 80, "");
          std::printf("%-11s %-*s %-8s %10llu %8.1f%% %12llu %11.3f %10.1f %10.1f\n", targetName.c_str(),
                      width, caseText(c).c_str(), dtypeName(dtype), static_cast<unsigned long long>(r.stats.cycles),
                      100 * roofline, static_cast<unsigned long long>(moved), r.stats.energyPJ * 1e-6, r.compileMillis,
                      r.runMillis);
          report["results"].push_back({{"target", targetName}, {"case", caseText(c)}, {"dtype", dtypeName(dtype)},
                                       {"cycles", r.stats.cycles}, {"data_floor_cycles", floor},
                                       {"roofline", roofline}, {"bytes_moved", moved},
                                       {"energy_pj", r.stats.energyPJ}, {"compile_ms", r.compileMillis},
                                       {"simulate_ms", r.runMillis}});
          ++done;
        }
      }
    }
    std::string jsonPath = !o.json.empty() ? o.json
                           : !bench.report.empty() ? (fs::path(benchPath).parent_path() / bench.report).string()
                                                   : "";
    if (!jsonPath.empty()) {
      writeFileAtomically(jsonPath, report.dump(2) + "\n");
      std::printf("report: %s\n", jsonPath.c_str());
    }
    return 0;
  } catch (const CompileError& e) {
    return reportError(e);
  } catch (const std::exception& e) {
    return reportError(e.what());
  }
}

}  // namespace

std::function<int()> setupBench(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  app.add_option("config", o->config, "NAME_bench.yaml, or the operator's folder (default: this folder)");
  app.add_option("--descriptor", o->descriptor, "descriptor (default: NAME.json or NAME.yaml beside the config)");
  app.add_option("--target", o->targets, "targets to measure (default: the config's)")->allow_extra_args(false);
  app.add_option("--json", o->json, "write the JSON report here (default: the config's `report`)");
  return [o]() { return run(*o); };
}

}  // namespace pyasc::ascop
