// asc-sim: runs one kernel on the AI Core simulator: loads files into GM, launches, dumps GM ranges,
// prints cycles and per-pipe busy cycles and utilisation, optionally writes a Chrome trace.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sdk/isa/Assembler.h"
#include "sdk/isa/Encoding.h"
#include "sdk/support/Diagnostics.h"
#include "sdk/target/Target.h"
#include "sim/Simulator.h"
#include "tools/CommandLine.h"

namespace {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

uint64_t parseNumber(const std::string& text, const std::string& what) {
  try {
    size_t used = 0;
    uint64_t v = std::stoull(text, &used, 0);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  throw UsageError("invalid " + what + " '" + text + "'");
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  std::string part;
  while (std::getline(in, part, sep)) parts.push_back(part);
  return parts;
}

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A program is assembly text when the file ends in .s, an encoded binary otherwise.
std::vector<pyasc::isa::Instruction> readProgram(const std::string& path) {
  std::vector<uint8_t> bytes = readFile(path);
  if (path.size() > 2 && path.compare(path.size() - 2, 2, ".s") == 0) {
    return pyasc::isa::assemble(std::string(bytes.begin(), bytes.end()), path);
  }
  return pyasc::isa::decodeProgram(bytes);
}

void checkRange(pyasc::sim::Device& dev, uint64_t addr, uint64_t size, const std::string& what) {
  if (addr > dev.gmSize() || size > dev.gmSize() - addr) {
    throw UsageError(what + " [" + std::to_string(addr) + ", +" + std::to_string(size) + ") is outside the " +
                     std::to_string(dev.gmSize()) + "-byte GM");
  }
}

void printStats(const pyasc::sim::LaunchStats& s, int blockDim) {
  std::printf("cycles: %llu\n", static_cast<unsigned long long>(s.cycles));
  std::printf("%-5s %12s %7s %13s\n", "pipe", "busy", "util", "instructions");
  double capacity = static_cast<double>(s.cycles) * blockDim;
  for (int p = 0; p < pyasc::isa::kPipeCount; ++p) {
    const auto& ps = s.pipes[p];
    double util = capacity > 0 ? 100.0 * static_cast<double>(ps.busyCycles) / capacity : 0;
    std::printf("%-5s %12llu %6.1f%% %13llu\n", pyasc::isa::pipeName(static_cast<pyasc::isa::Pipe>(p)),
                static_cast<unsigned long long>(ps.busyCycles), util, static_cast<unsigned long long>(ps.instructions));
  }
  for (int d = 0; d < pyasc::kDmaPathCount; ++d) {
    if (s.bytes[d]) {
      std::printf("bytes %s: %llu\n", pyasc::dmaPathName(static_cast<pyasc::DmaPath>(d)),
                  static_cast<unsigned long long>(s.bytes[d]));
    }
  }
  if (s.macs) std::printf("macs: %llu\n", static_cast<unsigned long long>(s.macs));
  if (s.vectorOps) std::printf("vector lanes: %llu\n", static_cast<unsigned long long>(s.vectorOps));
  std::printf("energy: %.1f pJ\n", s.energyPJ);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Runs an NPU kernel on the pyasc AI Core simulator"};
  std::string kernelPath, targetName = "ascend910b", argsText, tracePath;
  std::string gmSizeText = "0x4000000";
  std::vector<std::string> loads, dumps, regions;
  int blockDim = 1;
  bool noSanitize = false;
  app.add_option("kernel", kernelPath, "kernel: assembly (.s) or a binary from asc-as")->required();
  app.add_option("--target", targetName, "target name or .yaml file")->capture_default_str();
  app.add_option("--gm-size", gmSizeText, "GM bytes (decimal or 0x hex)")->capture_default_str();
  app.add_option("--load", loads, "FILE@ADDR: copy a file's bytes into GM before the launch");
  app.add_option("--dump", dumps, "ADDR:SIZE:FILE: write a GM range to a file after the launch");
  app.add_option("--region", regions, "NAME:ADDR:SIZE[:ro]: a GM region for the sanitizer (default: all of GM)");
  app.add_option("--args", argsText, "A,B,C: GM addresses loaded into x1, x2, ...");
  app.add_option("--block-dim", blockDim, "cores to launch (1 to 65535, as a model file allows)")
      ->check(CLI::Range(1, 65535))
      ->capture_default_str();
  app.add_option("--trace", tracePath, "write a Chrome trace (Perfetto) JSON file");
  app.add_flag("--no-sanitize", noSanitize, "turn the sanitizer off");
  PYASC_PARSE(app, argc, argv);

  try {
    pyasc::Target target = pyasc::loadTarget(targetName);
    pyasc::sim::Kernel kernel{kernelPath, readProgram(kernelPath), {}};
    const uint64_t gmSize = parseNumber(gmSizeText, "--gm-size");
    if (gmSize == 0 || gmSize > static_cast<uint64_t>(pyasc::kMaxGmBytes)) {
      throw UsageError("--gm-size must be 1 byte to 1TB, got '" + gmSizeText + "'");
    }
    pyasc::sim::Device dev(target, gmSize);
    for (const std::string& load : loads) {
      size_t at = load.rfind('@');
      if (at == std::string::npos) throw UsageError("--load expects FILE@ADDR, got '" + load + "'");
      std::vector<uint8_t> bytes = readFile(load.substr(0, at));
      uint64_t addr = parseNumber(load.substr(at + 1), "--load address");
      checkRange(dev, addr, bytes.size(), "--load " + load);
      std::copy(bytes.begin(), bytes.end(), dev.gm() + addr);
    }
    for (const std::string& region : regions) {
      std::vector<std::string> f = split(region, ':');
      if (f.size() < 3 || f.size() > 4 || (f.size() == 4 && f[3] != "ro")) {
        throw UsageError("--region expects NAME:ADDR:SIZE[:ro], got '" + region + "'");
      }
      dev.addRegion({parseNumber(f[1], "region address"), parseNumber(f[2], "region size"), f[0], f.size() == 3});
    }
    pyasc::sim::LaunchOptions options;
    options.blockDim = blockDim;
    options.sanitize = !noSanitize;
    if (!argsText.empty()) {
      for (const std::string& a : split(argsText, ',')) options.args.push_back(parseNumber(a, "--args value"));
    }
    if (!tracePath.empty()) dev.enableTrace();
    pyasc::sim::LaunchStats stats = dev.launch(kernel, options);
    for (const std::string& dump : dumps) {
      std::vector<std::string> f = split(dump, ':');
      if (f.size() != 3) throw UsageError("--dump expects ADDR:SIZE:FILE, got '" + dump + "'");
      uint64_t addr = parseNumber(f[0], "--dump address"), size = parseNumber(f[1], "--dump size");
      checkRange(dev, addr, size, "--dump " + dump);
      std::ofstream out(f[2], std::ios::binary);
      out.write(reinterpret_cast<const char*>(dev.gm() + addr), static_cast<std::streamsize>(size));
      if (!out) throw std::runtime_error("cannot write '" + f[2] + "'");
    }
    if (!tracePath.empty()) dev.writeTrace(tracePath);
    printStats(stats, blockDim);
  } catch (const UsageError& e) {  // a value an option does not take
    std::cerr << "asc-sim: error: " << e.what() << "\n";
    return pyasc::tool::kExitUsage;
  } catch (const pyasc::CompileError& e) {
    std::cerr << (e.diagnostic().range.begin.file.empty() ? "asc-sim: " : "") << e.what() << "\n";
    return 1;
  } catch (const pyasc::sim::SimError& e) {
    std::cerr << "asc-sim: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "asc-sim: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
