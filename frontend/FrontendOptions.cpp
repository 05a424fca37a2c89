// --input and --const spec parsing with messages that show the expected form.
#include "frontend/FrontendOptions.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "registry/NameSuggestion.h"

namespace pyasc::frontend {

namespace {

bool isIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

bool parseInputSpec(const std::string& text, InputSpec& out, std::string& error) {
  const std::string prefix = "invalid --input '" + text + "': ";
  const size_t colon = text.find(':');
  const size_t open = text.find('[');
  if (colon == std::string::npos || open == std::string::npos || open < colon || text.back() != ']') {
    error = prefix + "expected NAME:DTYPE[D0,D1,...], e.g. a:float32[64,128]";
    return false;
  }
  out = InputSpec{};
  out.text = text;
  out.name = text.substr(0, colon);
  if (!isIdentifier(out.name)) {
    error = prefix + "'" + out.name + "' is not a parameter name";
    return false;
  }
  const std::string dtype = text.substr(colon + 1, open - colon - 1);
  if (dtype.rfind("complex", 0) == 0) {
    error = prefix + "complex inputs are not supported; pass the real and imaginary parts as two float arrays and "
                     "combine them in the program (re + 1j * im)";
    return false;
  }
  if (!parseDType(dtype, out.dtype)) {
    std::vector<std::string> names;
    for (int i = 0; i < kDTypeCount; ++i) names.push_back(dtypeName(static_cast<DType>(i)));
    const std::string guess = registry::closestName(dtype, names);
    error = prefix + "unknown dtype '" + dtype + "'" + (guess.empty() ? "" : "; did you mean '" + guess + "'?");
    return false;
  }
  const std::string dims = text.substr(open + 1, text.size() - open - 2);
  size_t start = 0;
  while (!trim(dims).empty() && start <= dims.size()) {
    size_t comma = dims.find(',', start);
    if (comma == std::string::npos) comma = dims.size();
    const std::string dim = trim(dims.substr(start, comma - start));
    char* end = nullptr;
    errno = 0;
    const long long extent = std::strtoll(dim.c_str(), &end, 10);
    if (!dim.empty() && *end == '\0' && errno == 0 && extent >= 0) {
      out.shape.push_back(graph::Dim::known(extent));
    } else if (isIdentifier(dim)) {
      out.shape.push_back(graph::Dim::symbolic(dim));
    } else {
      error = prefix + "dimension '" + dim + "' is not a non-negative integer or a name";
      return false;
    }
    start = comma + 1;
  }
  return true;
}

bool parseConstSpec(const std::string& text, ConstSpec& out, std::string& error) {
  const std::string prefix = "invalid --const '" + text + "': ";
  const size_t eq = text.find('=');
  if (eq == std::string::npos) {
    error = prefix + "expected NAME=VALUE, e.g. n=1024";
    return false;
  }
  out = ConstSpec{};
  out.text = text;
  out.name = text.substr(0, eq);
  if (!isIdentifier(out.name)) {
    error = prefix + "'" + out.name + "' is not a name";
    return false;
  }
  const std::string value = text.substr(eq + 1);
  if (value == "True" || value == "False") {
    out.kind = ConstSpec::Kind::Bool;
    out.boolValue = value == "True";
    return true;
  }
  char* end = nullptr;
  errno = 0;
  const long long i = std::strtoll(value.c_str(), &end, 10);
  if (!value.empty() && *end == '\0' && errno == 0) {
    out.kind = ConstSpec::Kind::Int;
    out.intValue = i;
    return true;
  }
  const double f = std::strtod(value.c_str(), &end);
  if (!value.empty() && *end == '\0') {
    out.kind = ConstSpec::Kind::Float;
    out.floatValue = f;
    return true;
  }
  error = prefix + "VALUE must be an integer, a float, True or False";
  return false;
}

std::vector<std::string> parseSpecs(const std::vector<std::string>& inputs, const std::vector<std::string>& consts,
                                    FrontendOptions& options) {
  std::vector<std::string> errors;
  for (const auto& text : inputs) {
    InputSpec spec;
    std::string error;
    if (parseInputSpec(text, spec, error)) {
      options.inputs.push_back(std::move(spec));
    } else {
      errors.push_back(error);
    }
  }
  for (const auto& text : consts) {
    ConstSpec spec;
    std::string error;
    if (parseConstSpec(text, spec, error)) {
      options.consts.push_back(std::move(spec));
    } else {
      errors.push_back(error);
    }
  }
  return errors;
}

}  // namespace pyasc::frontend
