// ascop report: an `ascop bench` report as an HTML page (a roofline chart per target, the table of
// results, regressions and improvements against a baseline) with the charts also as PNG and SVG.
// The roofs and every point's place come from the floor code of the benchmarks
// (sdk/target/Target.h); python/pyasc/report.py draws them (matplotlib).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "sdk/support/AtomicFile.h"
#include "sdk/target/Target.h"
#include "tools/ascop/Command.h"

namespace pyasc::ascop {

namespace fs = std::filesystem;

namespace {

struct ReportOptions {
  std::string results, compare, output;
  double tolerance = 2.0;
};

nlohmann::json readReport(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read");
  try {
    nlohmann::json r = nlohmann::json::parse(in);
    if (r.contains("results") && r["results"].is_array()) return r;
  } catch (const std::exception&) {
  }
  throw std::runtime_error(path + ": not a JSON report of ascop bench");
}

std::string key(const nlohmann::json& r) {
  return r.value("op", "") + "|" + r.value("call", "") + "|" + r.value("target", "") + "|" + r.value("case", "") + "|" +
         r.value("dtype", "");
}

// The roofs of a target: bytes per cycle of GM streaming over every vector core, and MACs per cycle
// of the cube over every cube core per operand dtype (the floors' rates for large amounts of work).
nlohmann::json roofs(const Target& t) {
  const double bytes = 1e9, macs = 1e12;
  nlohmann::json r = {{"bandwidth", 2 * bytes / dataMovementFloor(t, static_cast<int64_t>(bytes), static_cast<int64_t>(bytes), t.vectorCores)}};
  for (DType d : {DType::Float16, DType::Float32, DType::Int8}) r["macs"][dtypeName(d)] = macs / cubeFloor(t, static_cast<uint64_t>(macs), d, t.cubeCores);
  return r;
}

int run(const ReportOptions& o) {
  try {
    nlohmann::json report = readReport(o.results);
    std::map<std::string, nlohmann::json> baseline;
    if (!o.compare.empty()) {
      const nlohmann::json older = readReport(o.compare);
      for (const auto& r : older["results"]) baseline[key(r)] = r;
    }
    nlohmann::json data = {{"source", fs::path(o.results).filename().string()}, {"targets", nlohmann::json::object()},
                           {"results", nlohmann::json::array()}};
    if (!o.compare.empty()) data["baseline"] = fs::path(o.compare).filename().string();
    std::map<std::string, Target> targets;
    for (const auto& r : report["results"]) {
      nlohmann::json row = r;
      const std::string targetName = r.value("target", "");
      if (!targetName.empty() && !targets.count(targetName)) {
        targets.emplace(targetName, loadTarget(targetName));
        data["targets"][targetName] = roofs(targets.at(targetName));
      }
      if (r.contains("cycles") && r.contains("floor_cycles") && r.contains("data_floor_cycles") && targets.count(targetName)) {
        // a point: intensity (MACs per byte) and MACs per cycle, from the floors the row was rated by
        const nlohmann::json& roof = data["targets"][targetName];
        double bandwidth = roof["bandwidth"], peak = roof["macs"].value(r.value("dtype", "float16"), 1.0);
        double bytes = r["data_floor_cycles"].get<double>() * bandwidth;
        double floor = r["floor_cycles"], dataFloor = r["data_floor_cycles"];
        double macs = r.contains("macs") ? r["macs"].get<double>() : floor > dataFloor * 1.000001 ? floor * peak : 0;
        row["intensity"] = bytes > 0 ? macs / bytes : 0;
        row["attained"] = r["cycles"].get<double>() > 0 ? macs / r["cycles"].get<double>() : 0;
      }
      if (auto b = baseline.find(key(r)); b != baseline.end() && b->second.contains("cycles") && r.contains("cycles")) {
        double before = b->second["cycles"], now = r["cycles"];
        row["baseline_cycles"] = before;
        double change = before > 0 ? 100 * (now - before) / before : 0;
        row["change"] = change;
        row["status"] = change > o.tolerance ? "regression" : change < 0 ? "improved" : "unchanged";
      }
      data["results"].push_back(row);
    }
    fs::create_directories(o.output);
    std::string dataPath = (fs::path(o.output) / "report-data.json").string();
    writeFileAtomically(dataPath, data.dump(2) + "\n");
    std::string script = std::string(PYASC_SOURCE_DIR) + "/python/pyasc/report.py";
    std::string command = std::string(PYASC_PYTHON) + " " + shellQuoted(script) + " " + shellQuoted(dataPath) + " " + shellQuoted(o.output);
    if (std::system(command.c_str()) != 0) return reportError("the report's charts could not be drawn (" + script + ")");
    std::printf("report: %s\n", (fs::path(o.output) / "index.html").string().c_str());
    return 0;
  } catch (const CompileError& e) {
    return reportError(e);
  } catch (const std::exception& e) {
    return reportError(e.what());
  }
}

}  // namespace

std::function<int()> setupReport(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  app.add_option("results", o->results, "a JSON report of ascop bench")->required();
  app.add_option("--compare", o->compare, "a baseline report: regressions and improvements are marked");
  app.add_option("--tolerance", o->tolerance, "percent of cycles a result may grow before it is a regression")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("-o,--output", o->output, "the folder to write index.html and the charts (PNG, SVG) into")->required();
  return [o]() { return run(*o); };
}

}  // namespace pyasc::ascop
