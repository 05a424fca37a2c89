// --input and --const spec parsing with messages that show the expected form.
#include "frontend/FrontendOptions.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <algorithm>

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

bool parseDynamicDims(const std::string& text, const std::vector<InputSpec>& inputs, std::vector<DynamicDim>& out,
                      std::string& error) {
  out.clear();
  if (trim(text).empty()) return true;
  const std::string prefix = "--dynamic-dims='" + text + "': ";
  for (const auto& in : inputs)
    for (const auto& d : in.shape)
      if (d.isSymbolic() && std::none_of(out.begin(), out.end(), [&](const DynamicDim& s) { return s.name == d.symbol; }))
        out.push_back(DynamicDim{d.symbol, 0, 0});
  if (out.empty()) {
    error = prefix + "no input has a symbolic dimension to give a range; name the dynamic dimensions in --input, e.g. "
                     "--input=x:float32[N,H,W,3]";
    return false;
  }
  std::string names;
  for (const auto& s : out) names += (names.empty() ? "" : ", ") + s.name;
  size_t start = 0, position = 0;
  bool named = false, positional = false;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = trim(text.substr(start, comma - start));
    start = comma + 1;
    std::string name, range = item;
    if (const size_t eq = item.find('='); eq != std::string::npos) {
      name = trim(item.substr(0, eq));
      range = trim(item.substr(eq + 1));
    }
    const size_t dash = range.find('-', 1);
    char* end = nullptr;
    errno = 0;
    const long long lo = std::strtoll(range.c_str(), &end, 10);
    const bool loOk = dash != std::string::npos && end == range.c_str() + dash;
    const long long hi = loOk ? std::strtoll(range.c_str() + dash + 1, &end, 10) : 0;
    if (!loOk || *end != '\0' || dash + 1 == range.size() || errno == ERANGE) {
      error = prefix + "'" + item + "' is not a range LO-HI (or NAME=LO-HI), e.g. 1-4";
      return false;
    }
    if (lo < 1 || lo > hi) {
      error = prefix + "the range " + range + " must have 1 <= LO <= HI";
      return false;
    }
    DynamicDim* target = nullptr;
    if (!name.empty()) {
      named = true;
      for (auto& s : out)
        if (s.name == name) target = &s;
      if (!target) {
        error = prefix + "'" + name + "' is not a symbolic dimension of an input (they are " + names + ")";
        return false;
      }
    } else {
      positional = true;
      if (position == out.size()) {
        error = prefix + "more ranges than the inputs' symbolic dimensions (" + names + ")";
        return false;
      }
      target = &out[position++];
    }
    if (named && positional) {
      error = prefix + "give every range a name (N=1-4) or none";
      return false;
    }
    if (target->max != 0) {
      error = prefix + "'" + target->name + "' has two ranges";
      return false;
    }
    target->min = lo;
    target->max = hi;
  }
  for (const auto& s : out) {
    if (s.max == 0) {
      error = prefix + "the symbolic dimension '" + s.name + "' has no range (the inputs name " + names + ", in that order)";
      return false;
    }
  }
  return true;
}

void bindDynamicDims(graph::Graph& g, const std::vector<DynamicDim>& dims) {
  auto indexOf = [&](const std::string& name) {
    for (size_t i = 0; i < dims.size(); ++i)
      if (dims[i].name == name) return static_cast<int>(i);
    return -1;
  };
  g.symbols.clear();
  for (const auto& d : dims) g.symbols.push_back(graph::GraphSymbol{d.name, d.min, d.max});
  for (auto& in : g.inputs) {
    const graph::Shape& shape = g.value(in.value).type.shape;
    if (graph::isStaticShape(shape)) continue;
    in.dims.clear();
    for (const auto& d : shape) in.dims.push_back(d.isKnown() ? shape::constant(d.extent) : shape::symbol(indexOf(d.symbol)));
  }
  // every other extent over them (an expression such as a convolution's "(H-1)//2+1") at their largest
  std::vector<std::string> names;
  std::vector<int64_t> largest;
  for (const auto& d : dims) {
    names.push_back(d.name);
    largest.push_back(d.max);
  }
  for (auto& v : g.values) {
    for (auto& d : v.type.shape) {
      if (d.isKnown()) continue;
      const ShapeExpr e = d.isSymbolic() ? shape::parse(d.symbol, names, false) : nullptr;
      if (!e) {
        throw CompileError(v.loc, "the shape " + graph::shapeString(v.type.shape) + " of '" + v.name +
                                      "' depends on the dynamic dimensions in a way pyasc does not compile; compile one "
                                      "model per shape");
      }
      d = graph::Dim::known(shape::evaluate(e, largest));
    }
  }
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
