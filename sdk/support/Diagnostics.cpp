// Renders diagnostics in clang style with the source line and a caret.
#include "sdk/support/Diagnostics.h"

#include <cmath>
#include <cstdio>
#include <iostream>

namespace pyasc {

std::string SourceLocation::str() const {
  std::string s = file;
  if (line > 0) {
    s += ":" + std::to_string(line);
    if (col > 0) s += ":" + std::to_string(col);
  }
  return s;
}

CompileError::CompileError(Diagnostic diag)
    : std::runtime_error((diag.range.begin.file.empty() ? "" : diag.range.begin.str() + ": ") + "error: " + diag.message),
      diag_(std::move(diag)) {}

CompileError::CompileError(const SourceLocation& loc, const std::string& message)
    : CompileError(Diagnostic{Severity::Error, SourceRange{loc, 1}, message, {}}) {}

const char* severityName(Severity severity) {
  switch (severity) {
    case Severity::Note: return "note";
    case Severity::Remark: return "remark";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

void DiagnosticEngine::addSource(const std::string& file, const std::string& text) {
  for (auto& entry : sources_) {
    if (entry.first == file) {
      entry.second = text;
      return;
    }
  }
  sources_.emplace_back(file, text);
}

Diagnostic& DiagnosticEngine::report(Severity severity, const SourceRange& range, const std::string& message) {
  diags_.push_back(Diagnostic{severity, range, message, {}});
  return diags_.back();
}

int DiagnosticEngine::errorCount() const {
  int n = 0;
  for (const auto& d : diags_) n += d.severity == Severity::Error;
  return n;
}

std::string DiagnosticEngine::sourceLine(const SourceLocation& loc) const {
  for (const auto& entry : sources_) {
    if (entry.first != loc.file) continue;
    const std::string& text = entry.second;
    size_t pos = 0;
    for (int line = 1; line < loc.line; ++line) {
      pos = text.find('\n', pos);
      if (pos == std::string::npos) return "";
      ++pos;
    }
    size_t end = text.find('\n', pos);
    std::string s = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (!s.empty() && s.back() == '\r') s.pop_back();
    return s;
  }
  return "";
}

void DiagnosticEngine::renderInto(std::string& out, const Diagnostic& diag) const {
  const SourceLocation& loc = diag.range.begin;
  if (!loc.file.empty()) out += loc.str() + ": ";
  out += severityName(diag.severity);
  out += ": " + diag.message + "\n";
  if (loc.valid() && loc.col > 0) {
    std::string line = sourceLine(loc);
    if (!line.empty()) {
      out += line + "\n";
      std::string caret;
      for (int i = 1; i < loc.col && i <= static_cast<int>(line.size()); ++i) caret += line[i - 1] == '\t' ? '\t' : ' ';
      caret += '^';
      for (int i = 1; i < diag.range.length; ++i) caret += '~';
      out += caret + "\n";
    }
  }
  for (const auto& note : diag.notes) renderInto(out, note);
}

std::string DiagnosticEngine::render(const Diagnostic& diag) const {
  std::string out;
  renderInto(out, diag);
  return out;
}

std::string DiagnosticEngine::renderAll() const {
  std::string out;
  for (const auto& d : diags_) renderInto(out, d);
  return out;
}

std::string humanBytes(double bytes) {
  static const char* units[] = {"B", "KB", "MB", "GB", "TB"};
  int unit = 0;
  while (bytes >= 1024.0 && unit < 4) {
    bytes /= 1024.0;
    ++unit;
  }
  char buf[32];
  double rounded = std::round(bytes * 10.0) / 10.0;
  if (rounded == std::floor(rounded)) {
    std::snprintf(buf, sizeof buf, "%.0f%s", rounded, units[unit]);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f%s", rounded, units[unit]);
  }
  return buf;
}

int runCommand(const std::string& program, const std::function<int()>& run) {
  try {
    return run();
  } catch (const std::bad_alloc&) {
    std::cerr << program << ": error: out of host memory\n";
  } catch (const std::exception& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
  }
  return 1;
}

}  // namespace pyasc
