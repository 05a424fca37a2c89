// ascop bench: operators over a bench file's (or a suite's) targets × dtypes × cases: simulated
// cycles, % of the roofline, bytes moved, energy and host time; a table, a JSON report and a
// comparison with a baseline report.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "registry/DescriptorRegistration.h"
#include "sdk/support/AtomicFile.h"
#include "tools/ascop/CaseFile.h"
#include "tools/ascop/Command.h"
#include "tools/ascop/WorkerPool.h"

namespace pyasc::ascop {

namespace fs = std::filesystem;

namespace {

struct BenchOptions {
  std::string config, descriptor, json, compare;
  std::vector<std::string> targets, customConfigs;
  double tolerance = 2.0;  // percent of cycles a result may grow before it is a regression
  bool dryRun = false;
  bool progress = false;
  bool defaultSchedules = false;
  int workers = 0;         // 0: one per core
  int shard = 1, shards = 1;  // this run measures every shards-th row from the shard-th
  std::vector<std::string> merge;  // reports of shards to combine into `output`
  std::string output;
  std::string scheduler;  // a Dask distributed scheduler's address: the rows run on its workers
  bool rowsOnly = false;  // print the rows' lines only (a shard run by a distributed sweep)
  int killWorkerAfter = 0;  // tests: stop one worker once this many rows have arrived
};

// What one entry measures: the expression each case evaluates.
std::string expressionFor(const CaseFile& entry, const std::vector<registry::OpDescriptor>& custom, const OperatorCase& c) {
  if (!entry.call.empty()) return entry.call;
  if (const registry::OpDescriptor* d = registry::findDescriptor(custom, entry.op)) return callExpression(d->pythonName, c);
  throw CompileError(SourceLocation{entry.path}, "operator '" + entry.op +
                                                     "' is not a custom operator of the descriptors given; a built-in "
                                                     "operator needs a 'call'");
}

// Every custom operator of a suite run, measured over the bench file `ascop new` wrote beside its
// definition (NAME_bench.yaml), or skipped with the reason.
std::vector<CaseFile> customEntries(const std::vector<registry::OpDescriptor>& custom, const CaseFile& shared) {
  std::vector<CaseFile> entries;
  for (const auto& d : custom) {
    fs::path bench = fs::path(d.implPath).parent_path() / (d.pythonName + "_bench.yaml");
    if (fs::exists(bench)) {
      CaseFile f = readCaseFile(bench.string());
      if (f.op == d.op) {
        f.targets = shared.targets;
        entries.push_back(f);
        continue;
      }
    }
    CaseFile skipped = shared;
    skipped.op = d.op;
    skipped.skip = "no " + bench.string() + " beside its definition";
    entries.push_back(skipped);
  }
  return entries;
}

// The built-in operators a suite neither measures nor skips.
std::string uncovered(const std::vector<CaseFile>& entries, const registry::OpRegistry& builtins) {
  std::set<std::string> listed;
  for (const auto& e : entries) listed.insert(e.op);
  std::string missing;
  for (const auto& name : builtins.opNames())
    if (!listed.count(name)) missing += (missing.empty() ? "" : ", ") + name;
  return missing;
}

// What identifies a result: an operator measured through several calls (np.sum over different
// axes) is told apart by its call.
std::string resultKey(const nlohmann::json& r) {
  std::string call = r.value("call", "");
  return r.value("op", "") + (call.empty() ? "" : " " + call) + " " + r.value("target", "") + " " + r.value("case", "") +
         " " + r.value("dtype", "");
}

// Compares cycles with a baseline report: regressions above `tolerance` percent fail the run.
int compareWithBaseline(const nlohmann::json& report, const std::string& baselinePath, double tolerance) {
  std::ifstream in(baselinePath);
  if (!in) return reportError(baselinePath + ": cannot read");
  nlohmann::json baseline;
  try {
    in >> baseline;
  } catch (const nlohmann::json::exception& e) {
    return reportError(baselinePath + ": not a JSON report: " + e.what());
  }
  // a report is {"results": [{"op", "target", "case", "dtype", "cycles", ...}, ...]}
  if (!baseline.is_object() || !baseline.contains("results") || !baseline["results"].is_array()) {
    return reportError(baselinePath + ": not a report of ascop bench (expected an object with a 'results' list)");
  }
  std::map<std::string, double> before;
  const nlohmann::json& results = baseline["results"];
  for (size_t i = 0; i < results.size(); ++i) {
    const nlohmann::json& r = results[i];
    bool named = r.is_object() && r.contains("op") && r["op"].is_string() && r.value("target", nlohmann::json()).is_string() &&
                 r.value("case", nlohmann::json()).is_string() && r.value("dtype", nlohmann::json()).is_string();
    if (!named || (r.contains("cycles") && !r["cycles"].is_number())) {
      return reportError(baselinePath + ": result " + std::to_string(i + 1) +
                         " is not {op, target, case, dtype, cycles} with a number of cycles");
    }
    if (r.contains("cycles")) before[resultKey(r)] = r["cycles"].get<double>();
  }
  int regressions = 0, improvements = 0, unchanged = 0, fresh = 0;
  for (const auto& r : report["results"]) {
    if (!r.contains("cycles")) continue;
    auto it = before.find(resultKey(r));
    if (it == before.end()) {
      ++fresh;
      continue;
    }
    double now = r["cycles"].get<double>(), change = 100.0 * (now - it->second) / std::max(it->second, 1.0);
    if (change > tolerance) {
      ++regressions;
      std::printf("REGRESSION  %-48s %10.0f -> %10.0f cycles (%+.1f%%)\n", resultKey(r).c_str(), it->second, now, change);
    } else if (change < -tolerance) {
      ++improvements;
      std::printf("improved    %-48s %10.0f -> %10.0f cycles (%+.1f%%)\n", resultKey(r).c_str(), it->second, now, change);
    } else {
      ++unchanged;
    }
  }
  std::printf("against %s (tolerance %.1f%%): %d regression(s), %d improvement(s), %d unchanged, %d new\n",
              baselinePath.c_str(), tolerance, regressions, improvements, unchanged, fresh);
  return regressions ? 1 : 0;
}

// The reports of --shard runs as one: their rows (and skipped entries) in the order of the run
// they split.
int merge(const std::vector<std::string>& files, const std::string& output) {
  if (output.empty()) return reportError("--merge needs -o FILE for the merged report");
  nlohmann::json merged;
  std::map<int64_t, nlohmann::json> rows, skipped;
  for (const auto& f : files) {
    std::ifstream in(f);
    if (!in) return reportError(f + ": cannot read");
    nlohmann::json part;
    try {
      part = nlohmann::json::parse(in);
    } catch (const std::exception&) {
      return reportError(f + ": not a JSON report of ascop bench");
    }
    if (!part.contains("results") || !part["results"].is_array()) return reportError(f + ": not a JSON report of ascop bench");
    for (const auto& [key, value] : part.items()) {
      if (key != "results" && key != "skipped") merged[key] = value;
    }
    for (const auto& r : part["results"]) {
      if (!r.contains("index")) return reportError(f + ": a result without its index (written before --shard existed)");
      rows[r["index"].get<int64_t>()] = r;
    }
    if (part.contains("skipped")) {
      for (const auto& r : part["skipped"]) skipped[r.value("index", int64_t{-1})] = r;
    }
  }
  merged["results"] = nlohmann::json::array();
  for (const auto& [index, r] : rows) merged["results"].push_back(r);
  for (const auto& [index, r] : skipped) merged["skipped"].push_back(r);
  writeFileAtomically(output, merged.dump(2) + "\n");
  std::printf("merged %zu result(s) of %zu report(s): %s\n", rows.size(), files.size(), output.c_str());
  return 0;
}

// The rows `share` of a run of `rows` as tasks of the Dask cluster at o.scheduler
// (python/pyasc/dask_bench.py): each a `--shard i/N` run of this ascop on a worker, printed in
// order as they arrive; `merged` gets their report.
int runOnCluster(const BenchOptions& o, const std::string& benchPath, size_t rows, const std::vector<size_t>& share,
                 nlohmann::json& merged) {
  if (o.dryRun) return reportError("--dry-run compiles here; it does not go to a cluster (--scheduler)");
  std::vector<std::string> args{benchPath};
  if (!o.descriptor.empty()) args.insert(args.end(), {"--descriptor", o.descriptor});
  for (const auto& c : o.customConfigs) args.insert(args.end(), {"--custom-op-config", c});
  for (const auto& t : o.targets) args.insert(args.end(), {"--target", t});
  if (o.defaultSchedules) args.push_back("--default-schedules");
  auto quoted = shellQuoted;
  fs::path out = fs::temp_directory_path() / ("ascop-cluster-" + std::to_string(::getpid()) + ".json");
  std::string only;  // the rows of this run (a shard's, with --shard)
  for (size_t i : share) only += (only.empty() ? "" : ",") + std::to_string(i);
  std::string command = std::string(PYASC_PYTHON) + " " + quoted(std::string(PYASC_SOURCE_DIR) + "/python/pyasc/dask_bench.py") +
                        " --scheduler " + quoted(o.scheduler) + " --ascop " + quoted(fs::read_symlink("/proc/self/exe").string()) +
                        " --rows " + std::to_string(rows) + " --out " + quoted(out.string()) + " --only " + only +
                        (o.killWorkerAfter > 0 ? " --kill-worker-after " + std::to_string(o.killWorkerAfter) : "") + " --";
  for (const auto& a : args) command += " " + quoted(fs::absolute(a).string() == a || a.rfind("--", 0) == 0 || !fs::exists(a) ? a : fs::absolute(a).string());
  std::fflush(stdout);
  int status = std::system(command.c_str());
  if (status != 0) return 1;
  std::ifstream in(out);
  merged = nlohmann::json::parse(in);
  fs::remove(out);
  return 0;
}

int run(const BenchOptions& o) {
  if (!o.merge.empty()) return merge(o.merge, o.output);
  try {
    std::string benchPath = caseFileArgument(o.config, "_bench.yaml");
    std::vector<CaseFile> entries = readCaseFiles(benchPath);
    const bool suite = entries[0].inSuite || !o.customConfigs.empty();
    registry::OpRegistry registry = registry::OpRegistry::builtin();
    std::vector<std::string> configs = o.customConfigs;
    if (!o.descriptor.empty()) configs.push_back(o.descriptor);
    if (!suite && configs.empty() && !registry.find(entries[0].op)) configs.push_back(descriptorBeside(benchPath, "_bench.yaml"));
    std::vector<registry::OpDescriptor> custom;
    if (!loadCustomOps(configs, registry, custom)) return 1;
    if (suite) {
      std::string missing = entries[0].complete ? uncovered(entries, registry::OpRegistry::builtin()) : "";
      if (!missing.empty()) {
        return reportError(benchPath + ": built-in operator(s) neither measured nor skipped: " + missing);
      }
      for (auto& e : customEntries(custom, entries[0])) entries.push_back(e);
    }
    std::vector<std::string> targets = o.targets.empty() ? entries[0].targets : o.targets;
    if (targets.empty()) targets = {"ascend910b"};

    int width = 24, opWidth = 4;
    for (const auto& e : entries) {
      width = std::max(width, caseColumnWidth(e.cases));
      opWidth = std::max(opWidth, static_cast<int>(e.op.size()));
    }
    nlohmann::json report;
    if (!suite) report["op"] = entries[0].op;
    report["results"] = nlohmann::json::array();
    // a suite's rows start with the operator
    auto lead = [&](const std::string& op) { return suite ? op + std::string(opWidth + 1 - op.size(), ' ') : std::string(); };
    if (!o.rowsOnly) {
      std::printf("%s%-11s %-*s %-8s %10s %9s %12s %11s %10s %10s\n", lead("op").c_str(), "target", width, "case", "dtype",
                  "cycles", "roofline", "bytes moved", "energy uJ", "compile ms", "sim ms");
      std::fflush(stdout);
    }
    // every row in the order a serial run measures them: skipped entries, and cases
    struct Item {
      const CaseFile* entry;
      std::string target;
      DType dtype = DType::Float32;
      const OperatorCase* c = nullptr;  // null: the entry is skipped
    };
    std::vector<Item> items;
    for (const auto& entry : entries) {
      if (!entry.skip.empty()) {
        items.push_back(Item{&entry, "", DType::Float32, nullptr});
        continue;
      }
      for (const auto& targetName : targets) {
        for (DType dtype : entry.dtypes) {
          for (const auto& c : entry.cases) items.push_back(Item{&entry, targetName, dtype, &c});
        }
      }
    }
    std::vector<size_t> share;  // the items this run measures (a shard's)
    for (size_t i = 0; i < items.size(); ++i) {
      if (o.shards <= 1 || static_cast<int>(i % static_cast<size_t>(o.shards)) == o.shard - 1) share.push_back(i);
    }
    std::map<std::string, Target> loadedTargets;  // read once, before the workers start
    for (const auto& name : targets) loadedTargets.emplace(name, loadTarget(name));
    // one item measured: its row of the report and its line of the table
    auto measure = [&](size_t k) {
      const Item& item = items[share[k]];
      const CaseFile& entry = *item.entry;
      nlohmann::json out = {{"index", share[k]}};
      if (!item.c) {
        out["skipped"] = {{"op", entry.op}, {"reason", entry.skip}};
        out["line"] = lead(entry.op) + "skipped: " + entry.skip;
        return out.dump();
      }
      const OperatorCase& c = *item.c;
      const std::string& targetName = item.target;
      const Target& target = loadedTargets.at(targetName);
      nlohmann::json row = {{"op", entry.op}, {"target", targetName}, {"case", caseText(c)}, {"dtype", dtypeName(item.dtype)}};
      if (!entry.call.empty()) row["call"] = entry.call;
      char line[1024];
      OperatorRun r;
      try {
        r = runOperator(expressionFor(entry, custom, c), registry, c, item.dtype, targetName, entry.seed, false, !o.dryRun,
                        o.progress, !o.defaultSchedules);
      } catch (const CompileError& e) {
        if (!suite) throw;
        // an operator this target cannot run yet: a row saying why, not the end of the suite
        std::snprintf(line, sizeof line, "%s%-11s %-*s %-8s unsupported: %s", lead(entry.op).c_str(), targetName.c_str(), width,
                      caseText(c).c_str(), dtypeName(item.dtype), e.diagnostic().message.c_str());
        row["error"] = e.diagnostic().message;
        out["row"] = row;
        out["line"] = line;
        return out.dump();
      }
      if (o.dryRun) {
        std::snprintf(line, sizeof line, "%s%-11s %-*s %-8s compiled in %.1f ms", lead(entry.op).c_str(), targetName.c_str(),
                      width, caseText(c).c_str(), dtypeName(item.dtype), r.compileMillis);
        out["line"] = line;
        return out.dump();
      }
      // floors of the call's unavoidable work: the bytes it must move, its MACs without padding
      double dataFloor = dataMovementFloor(target, r.work.readBytes, r.work.writeBytes, target.vectorCores);
      double floor = std::max(dataFloor, cubeFloor(target, r.work.macs, item.dtype, target.cubeCores));
      double roofline = r.stats.cycles ? floor / static_cast<double>(r.stats.cycles) : 0;
      uint64_t moved = 0;
      for (uint64_t b : r.stats.bytes) moved += b;
      std::snprintf(line, sizeof line, "%s%-11s %-*s %-8s %10llu %8.1f%% %12llu %11.3f %10.1f %10.1f", lead(entry.op).c_str(),
                    targetName.c_str(), width, caseText(c).c_str(), dtypeName(item.dtype),
                    static_cast<unsigned long long>(r.stats.cycles), 100 * roofline, static_cast<unsigned long long>(moved),
                    r.stats.energyPJ * 1e-6, r.compileMillis, r.runMillis);
      row.update({{"cycles", r.stats.cycles}, {"data_floor_cycles", dataFloor}, {"floor_cycles", floor}, {"macs", r.work.macs},
                  {"roofline", roofline}, {"bytes_moved", moved}, {"energy_pj", r.stats.energyPJ},
                  {"compile_ms", r.compileMillis}, {"simulate_ms", r.runMillis}});
      out["row"] = row;
      out["line"] = line;
      return out.dump();
    };
    auto failed = [&](size_t k, const std::string& why) {
      const Item& item = items[share[k]];
      nlohmann::json row = {{"op", item.entry->op}, {"target", item.target}, {"dtype", dtypeName(item.dtype)}, {"error", why}};
      if (item.c) row["case"] = caseText(*item.c);
      return nlohmann::json{{"index", share[k]}, {"row", row}, {"line", lead(item.entry->op) + item.target + " " + why}}.dump();
    };
    int failures = 0;
    auto emit = [&](size_t, const std::string& text) {
      nlohmann::json out = nlohmann::json::parse(text);
      std::printf("%s\n", out["line"].get<std::string>().c_str());
      std::fflush(stdout);
      if (out.contains("skipped")) {
        nlohmann::json skipped = out["skipped"];
        skipped["index"] = out["index"];
        report["skipped"].push_back(skipped);
      }
      if (!out.contains("row")) return;
      nlohmann::json row = out["row"];
      row["index"] = out["index"];
      if (row.contains("error")) ++failures;
      report["results"].push_back(row);
    };
    std::string stopped;  // a compile error outside a suite ends the run, as in a serial one
    if (!o.scheduler.empty()) {  // every row a task of the cluster; they come back merged
      nlohmann::json merged;
      if (int code = runOnCluster(o, benchPath, items.size(), share, merged); code != 0) return code;
      for (const auto& r : merged["results"]) {
        failures += r.contains("error") ? 1 : 0;
        report["results"].push_back(r);
      }
      if (merged.contains("skipped")) report["skipped"] = merged["skipped"];
    } else {
      bool progress = ::isatty(STDERR_FILENO) && share.size() > 1;
      stopped = runJobs(share.size(), o.workers > 0 ? o.workers : defaultWorkers(), measure, emit, failed, progress);
    }
    if (!stopped.empty()) return reportError(stopped);
    if (suite && !o.rowsOnly) std::printf("%zu operator(s), %d case(s) unsupported\n", entries.size(), failures);
    if (o.dryRun) return 0;
    std::string jsonPath = !o.json.empty() ? o.json
                           : !entries[0].report.empty() ? (fs::path(benchPath).parent_path() / entries[0].report).string()
                                                        : "";
    if (!jsonPath.empty()) {
      writeFileAtomically(jsonPath, report.dump(2) + "\n");
      if (!o.rowsOnly) std::printf("report: %s\n", jsonPath.c_str());
    }
    return o.compare.empty() ? 0 : compareWithBaseline(report, o.compare, o.tolerance);
  } catch (const CompileError& e) {
    return reportError(e);
  } catch (const std::exception& e) {
    return reportError(e.what());
  }
}

}  // namespace

std::function<int()> setupBench(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  app.add_option("config", o->config,
                 "NAME_bench.yaml, a suite of operators (`ops:`), or the operator's folder (default: this folder)");
  app.add_option("--descriptor", o->descriptor, "descriptor (default: NAME.json or NAME.yaml beside the config)");
  app.add_option("--custom-op-config", o->customConfigs,
                 "with a suite: also measure every operator of this descriptor, over the NAME_bench.yaml beside it; "
                 "repeatable")
      ->allow_extra_args(false);
  app.add_option("--target", o->targets, "targets to measure (default: the config's)")->allow_extra_args(false);
  app.add_option("--json", o->json, "write the JSON report here (default: the config's `report`)");
  app.add_option("--compare", o->compare, "a JSON report to compare cycles with; a regression makes the exit status 1");
  app.add_option("--tolerance", o->tolerance, "percent of cycles a result may grow before it is a regression")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--dry-run", o->dryRun, "compile every case without simulating it, and write no report");
  app.add_flag("--default-schedules", o->defaultSchedules,
               "ignore schedules written in definitions: measure the compiler's own schedules");
  app.add_flag("--progress", o->progress, "show the simulator's progress line for cases over 2 s even when stderr is not a terminal");
  app.add_option("-j,--jobs", o->workers, "worker processes measuring cases at once (default: one per core)")
      ->check(CLI::PositiveNumber);
  app.add_option_function<std::string>(
      "--shard",
      [o](const std::string& text) {
        int i = 0, n = 0;
        char slash = 0;
        if (std::sscanf(text.c_str(), "%d%c%d", &i, &slash, &n) != 3 || slash != '/' || n < 1 || i < 1 || i > n) {
          throw CLI::ValidationError("--shard", "expected I/N with 1 <= I <= N, e.g. 2/3");
        }
        o->shard = i;
        o->shards = n;
      },
      "I/N: measure the I-th of N shares of the rows (every N-th from the I-th), for --merge");
  app.add_option("--merge", o->merge, "combine the JSON reports of --shard runs into one (-o), rows in the unsharded order");
  app.add_option("-o,--output", o->output, "with --merge: the merged report");
  app.add_option("--scheduler", o->scheduler,
                 "tcp://HOST:PORT of a Dask distributed scheduler: every row a task on its workers (docs/operator-sdk.md)");
  app.add_flag("--rows-only", o->rowsOnly, "print the rows' lines only, no heading or summary (for a sweep's shard runs)");
  app.add_option("--kill-worker-after", o->killWorkerAfter, "tests of --scheduler: stop one worker once this many rows arrived")
      ->group("");
  return [o]() { return run(*o); };
}

}  // namespace pyasc::ascop
