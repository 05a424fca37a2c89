// Source locations and clang-style diagnostics shared by every stage.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pyasc {

struct SourceLocation {
  std::string file;
  int line = 0;  // 1-based; 0 means "no line"
  int col = 0;   // 1-based; 0 means "no column"

  bool valid() const { return line > 0; }
  std::string str() const;  // "file:line:col", "file:line" or "file"
};

struct SourceRange {
  SourceLocation begin;
  int length = 1;  // columns covered on the begin line, for the caret line
};

enum class Severity { Note, Remark, Warning, Error };

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceRange range;
  std::string message;
  std::vector<Diagnostic> notes;
};

// Thrown for an error that stops the current stage; carries one rendered-ready diagnostic.
class CompileError : public std::runtime_error {
 public:
  explicit CompileError(Diagnostic diag);
  CompileError(const SourceLocation& loc, const std::string& message);
  const Diagnostic& diagnostic() const { return diag_; }

 private:
  Diagnostic diag_;
};

// Collects diagnostics and renders them as "file:line:col: error: msg", the source line and a caret.
class DiagnosticEngine {
 public:
  // Registers the text of a file so that diagnostics in it can show the source line.
  void addSource(const std::string& file, const std::string& text);

  Diagnostic& report(Severity severity, const SourceRange& range, const std::string& message);
  Diagnostic& error(const SourceRange& range, const std::string& message) {
    return report(Severity::Error, range, message);
  }
  Diagnostic& warning(const SourceRange& range, const std::string& message) {
    return report(Severity::Warning, range, message);
  }
  void add(const Diagnostic& diag) { diags_.push_back(diag); }

  int errorCount() const;
  bool hasErrors() const { return errorCount() > 0; }
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  void clear() { diags_.clear(); }

  std::string render(const Diagnostic& diag) const;
  std::string renderAll() const;

 private:
  std::string sourceLine(const SourceLocation& loc) const;
  void renderInto(std::string& out, const Diagnostic& diag) const;

  std::vector<std::pair<std::string, std::string>> sources_;
  std::vector<Diagnostic> diags_;
};

const char* severityName(Severity severity);

// Formats a byte count in the reference guide's human units ("2GB", "1.5GB", "512KB").
std::string humanBytes(double bytes);

// Runs a tool's command; an exception it did not catch becomes "<program>: error: ..." on stderr
// and exit status 1 instead of an abort.
int runCommand(const std::string& program, const std::function<int()>& run);

}  // namespace pyasc
