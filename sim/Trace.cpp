// Writes the Chrome trace event format: metadata names processes ("core N") and threads (pipes).
#include "sim/Trace.h"

#include <sstream>

#include "sdk/isa/ISA.h"
#include "sim/InstructionTable.h"

namespace pyasc::sim {

namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

void TraceRecorder::beginLaunch(const std::string& kernelName) { kernels_.push_back(kernelName); }

void TraceRecorder::add(int core, int pipe, uint64_t start, uint64_t duration, std::string name, int instruction) {
  if (core > maxCore_) maxCore_ = core;
  events_.push_back({core, pipe, base_ + start, duration, std::move(name), instruction,
                     static_cast<int>(kernels_.size()) - 1});
}

std::string TraceRecorder::json() const {
  std::ostringstream out;
  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"unit\":\"cycles\"},\"traceEvents\":[";
  bool first = true;
  auto sep = [&] {
    if (!first) out << ",";
    first = false;
    out << "\n";
  };
  for (int core = 0; core <= maxCore_; ++core) {
    sep();
    out << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << core << ",\"args\":{\"name\":\"core " << core << "\"}}";
    for (int p = 0; p < isa::kPipeCount; ++p) {
      sep();
      out << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << core << ",\"tid\":" << p << ",\"args\":{\"name\":\""
          << isa::pipeName(static_cast<isa::Pipe>(p)) << "\"}}";
      sep();
      out << "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" << core << ",\"tid\":" << p
          << ",\"args\":{\"sort_index\":" << p << "}}";
    }
  }
  for (const TraceEvent& e : events_) {
    sep();
    out << "{\"ph\":\"X\",\"name\":\"" << escape(e.name) << "\",\"cat\":\"" << isa::pipeName(static_cast<isa::Pipe>(e.pipe))
        << "\",\"pid\":" << e.core << ",\"tid\":" << e.pipe << ",\"ts\":" << e.start << ",\"dur\":" << e.duration
        << ",\"args\":{\"instruction\":" << e.instruction << ",\"kernel\":\"" << escape(kernels_[e.kernel]) << "\"}}";
  }
  out << "\n]}\n";
  return out.str();
}

}  // namespace pyasc::sim
