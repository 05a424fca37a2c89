// Schedule steps printed one per line ("split i0 2816 -> i0.o i0.i @file:3:5") and parsed back.
#include "sdk/te/Schedule.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace pyasc::te {

namespace {

struct PrimitiveInfo {
  Primitive primitive;
  const char* name;
  PrimitiveShape shape;
};

const PrimitiveInfo kPrimitives[] = {
    {Primitive::Split, "split", {1, 1, false, 2}},
    {Primitive::Tile, "tile", {2, 2, false, 4}},
    {Primitive::Reorder, "reorder", {-1, 0, false, 0}},
    {Primitive::Fuse, "fuse", {2, 0, false, 1}},
    {Primitive::ComputeAt, "compute_at", {2, 0, false, 0}},
    {Primitive::ComputeInline, "compute_inline", {1, 0, false, 0}},
    {Primitive::CacheRead, "cache_read", {1, 0, true, 0}},
    {Primitive::CacheWrite, "cache_write", {1, 0, true, 0}},
    {Primitive::DoubleBuffer, "double_buffer", {0, 1, false, 0}},
    {Primitive::Vectorize, "vectorize", {1, 0, false, 0}},
    {Primitive::Tensorize, "tensorize", {1, 0, true, 0}},
    {Primitive::Bind, "bind", {1, 1, false, 0}},
    {Primitive::Unroll, "unroll", {1, 0, false, 0}},
};

const PrimitiveInfo& info(Primitive p) {
  for (const auto& i : kPrimitives)
    if (i.primitive == p) return i;
  return kPrimitives[0];
}

// Decimal digits only, within T's range.
template <class T>
bool wholeNumber(const std::string& s, T& out) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return false;
  auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), out);
  return error == std::errc() && end == s.data() + s.size();
}

}  // namespace

const char* primitiveName(Primitive p) { return info(p).name; }

bool parsePrimitive(const std::string& name, Primitive& out) {
  for (const auto& i : kPrimitives) {
    if (name == i.name) {
      out = i.primitive;
      return true;
    }
  }
  return false;
}

std::string primitiveNames() {
  std::string s;
  for (const auto& i : kPrimitives) s += (s.empty() ? "" : ", ") + std::string(i.name);
  return s;
}

PrimitiveShape primitiveShape(Primitive p) { return info(p).shape; }

std::string ScheduleStep::str() const {
  std::string s = primitiveName(primitive);
  for (const auto& n : names) s += " " + n;
  for (int64_t v : numbers) s += " " + std::to_string(v);
  if (!scope.empty()) s += " " + scope;
  if (!results.empty()) {
    s += " ->";
    for (const auto& r : results) s += " " + r;
  }
  if (loc.valid()) s += " @" + loc.file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
  return s;
}

std::string Schedule::str() const {
  std::string s;
  for (const auto& step : steps) s += step.str() + "\n";
  return s;
}

std::vector<const ScheduleStep*> Schedule::find(Primitive p) const {
  std::vector<const ScheduleStep*> out;
  for (const auto& s : steps)
    if (s.primitive == p) out.push_back(&s);
  return out;
}

Schedule parseSchedule(const std::string& text, const std::string& origin) {
  Schedule schedule;
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    auto fail = [&](const std::string& message) {
      throw CompileError(SourceLocation{origin, number, 1}, "schedule: " + message + " in '" + line + "'");
    };
    ScheduleStep step;
    if (size_t at = line.find(" @"); at != std::string::npos) {
      // the definition's place: file:line:col, the file possibly holding ':'
      std::string place = line.substr(at + 2);
      line = line.substr(0, at);
      size_t c2 = place.rfind(':'), c1 = c2 == std::string::npos ? c2 : place.rfind(':', c2 - 1);
      int placeLine = 0, placeCol = 0;
      if (c1 == std::string::npos || !wholeNumber(place.substr(c1 + 1, c2 - c1 - 1), placeLine) ||
          !wholeNumber(place.substr(c2 + 1), placeCol)) {
        fail("a place is file:line:col");
      }
      step.loc = SourceLocation{place.substr(0, c1), placeLine, placeCol};
    }
    std::istringstream words(line);
    std::vector<std::string> tokens;
    for (std::string w; words >> w;) tokens.push_back(w);
    if (tokens.empty()) continue;
    if (!parsePrimitive(tokens[0], step.primitive)) fail("unknown primitive '" + tokens[0] + "' (" + primitiveNames() + ")");
    PrimitiveShape shape = primitiveShape(step.primitive);
    size_t arrow = std::find(tokens.begin(), tokens.end(), std::string("->")) - tokens.begin();
    std::vector<std::string> operands(tokens.begin() + 1, tokens.begin() + static_cast<long>(arrow));
    if (arrow < tokens.size()) step.results.assign(tokens.begin() + static_cast<long>(arrow) + 1, tokens.end());
    size_t names = shape.names < 0 ? operands.size() : static_cast<size_t>(shape.names);
    size_t expected = names + static_cast<size_t>(shape.numbers) + (shape.scope ? 1 : 0);
    if (operands.size() != expected || (shape.names < 0 && operands.empty())) {
      fail(std::string(primitiveName(step.primitive)) + " takes " + std::to_string(expected) + " operand(s)");
    }
    step.names.assign(operands.begin(), operands.begin() + static_cast<long>(names));
    for (int i = 0; i < shape.numbers; ++i) {
      const std::string& v = operands[names + static_cast<size_t>(i)];
      int64_t count = 0;
      if (!wholeNumber(v, count)) fail("'" + v + "' is not a count");
      step.numbers.push_back(count);
    }
    if (shape.scope) step.scope = operands.back();
    if (step.results.size() != static_cast<size_t>(shape.results)) {
      fail(std::string(primitiveName(step.primitive)) + " creates " + std::to_string(shape.results) + " axis name(s)");
    }
    schedule.steps.push_back(std::move(step));
  }
  return schedule;
}

}  // namespace pyasc::te
