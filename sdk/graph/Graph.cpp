// Graph IR helpers: names of enums, type strings, attribute access, use counts and constant encoding.
#include "sdk/graph/Graph.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>

#include "sdk/support/Float16.h"

namespace pyasc::graph {

namespace {
const char* const kLayoutNames[] = {"ND", "NCHW", "NHWC", "NC1HWC0", "FRACTAL_Z", "FRACTAL_NZ"};

bool sameInType(double a, double b, DType dtype) {
  if (dtype == DType::Float16) return doubleToHalf(a) == doubleToHalf(b);
  if (dtype == DType::Float32) return static_cast<float>(a) == static_cast<float>(b);
  return a == b;
}
}  // namespace

const char* layoutName(Layout layout) { return kLayoutNames[static_cast<int>(layout)]; }

bool parseLayout(const std::string& name, Layout& out) {
  for (int i = 0; i < 6; ++i) {
    if (name == kLayoutNames[i]) {
      out = static_cast<Layout>(i);
      return true;
    }
  }
  return false;
}

std::string Dim::str() const {
  if (isKnown()) return std::to_string(extent);
  return symbol.empty() ? "?" : symbol;
}

Shape knownShape(const std::vector<int64_t>& extents) {
  Shape shape;
  shape.reserve(extents.size());
  for (int64_t e : extents) shape.push_back(Dim::known(e));
  return shape;
}

bool isStaticShape(const Shape& shape) {
  for (const Dim& d : shape) {
    if (!d.isKnown()) return false;
  }
  return true;
}

std::vector<int64_t> extents(const Shape& shape) {
  std::vector<int64_t> e;
  for (const Dim& d : shape) e.push_back(d.extent);
  return e;
}

int64_t elementCount(const Shape& shape) {
  int64_t n = 1;
  bool overflow = false;
  for (const Dim& d : shape) {
    if (!d.isKnown()) return -1;
    overflow = overflow || __builtin_mul_overflow(n, d.extent, &n);
  }
  return overflow ? INT64_MAX : n;
}

std::string shapeString(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ",";
    s += shape[i].str();
  }
  return s + "]";
}

std::string TensorType::str() const {
  std::string s = dtypeShortName(dtype) + (ranked ? shapeString(shape) : std::string("[*]"));
  if (layout != Layout::ND) s += std::string("@") + layoutName(layout);
  return s;
}

std::string formatFloat(double value, DType dtype) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char buf[40];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.1f", value);  // 10.0 rather than 1e+01
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (sameInType(std::strtod(buf, nullptr), value, dtype)) break;
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

AttrKind attrKind(const Attribute& attr) { return static_cast<AttrKind>(attr.index()); }

const char* attrKindName(AttrKind kind) {
  static const char* const names[] = {"int", "float", "bool", "string", "int-list"};
  return names[static_cast<int>(kind)];
}

namespace {

std::string quote(const std::string& text) {
  std::string s = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') s += '\\';
    if (c == '\n') {
      s += "\\n";
      continue;
    }
    s += c;
  }
  return s + "\"";
}
}  // namespace

std::string attrString(const Attribute& attr) {
  switch (attrKind(attr)) {
    case AttrKind::Int: return std::to_string(std::get<int64_t>(attr));
    case AttrKind::Float: return formatFloat(std::get<double>(attr), DType::Float64);
    case AttrKind::Bool: return std::get<bool>(attr) ? "true" : "false";
    case AttrKind::String: return quote(std::get<std::string>(attr));
    case AttrKind::IntList: {
      std::string s = "[";
      const auto& list = std::get<std::vector<int64_t>>(attr);
      for (size_t i = 0; i < list.size(); ++i) s += (i ? ", " : "") + std::to_string(list[i]);
      return s + "]";
    }
  }
  return "";
}

const Attribute* Node::attr(const std::string& name) const {
  for (const auto& a : attrs) {
    if (a.name == name) return &a.value;
  }
  return nullptr;
}

int64_t Node::intAttr(const std::string& name, int64_t fallback) const {
  const Attribute* a = attr(name);
  return a && std::holds_alternative<int64_t>(*a) ? std::get<int64_t>(*a) : fallback;
}

double Node::floatAttr(const std::string& name, double fallback) const {
  const Attribute* a = attr(name);
  if (a && std::holds_alternative<double>(*a)) return std::get<double>(*a);
  if (a && std::holds_alternative<int64_t>(*a)) return static_cast<double>(std::get<int64_t>(*a));
  return fallback;
}

std::string whileTripLimitMessage(int64_t maxTrips) {
  return "the while loop did not end within " + std::to_string(maxTrips) +
         " trips (compile with a larger --max-while-trips if it needs more)";
}

bool Node::boolAttr(const std::string& name, bool fallback) const {
  const Attribute* a = attr(name);
  return a && std::holds_alternative<bool>(*a) ? std::get<bool>(*a) : fallback;
}

std::string Node::stringAttr(const std::string& name, const std::string& fallback) const {
  const Attribute* a = attr(name);
  return a && std::holds_alternative<std::string>(*a) ? std::get<std::string>(*a) : fallback;
}

std::vector<int64_t> Node::intListAttr(const std::string& name) const {
  const Attribute* a = attr(name);
  return a && std::holds_alternative<std::vector<int64_t>>(*a) ? std::get<std::vector<int64_t>>(*a)
                                                               : std::vector<int64_t>{};
}

std::vector<int64_t> Node::intListAttr(const std::string& name, std::vector<int64_t> fallback) const {
  std::vector<int64_t> list = intListAttr(name);
  return list.empty() ? fallback : list;
}

void Node::setAttr(const std::string& name, Attribute value) {
  for (auto& a : attrs) {
    if (a.name == name) {
      a.value = std::move(value);
      return;
    }
  }
  attrs.push_back(NamedAttr{name, std::move(value)});
}

const char* inputRoleName(InputRole role) {
  static const char* const names[] = {"array", "scalar", "random"};
  return names[static_cast<int>(role)];
}

const char* randomDistributionName(RandomDistribution dist) {
  return dist == RandomDistribution::Uniform ? "rand" : "randn";
}

ValueId Graph::addValue(const std::string& name, const TensorType& type, const SourceLocation& loc) {
  // a value name is printed bare after '%' (Printer.h): characters the parser does not take become '_'
  std::string base = name.empty() ? "v" : name;
  for (char& c : base) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.') c = '_';
  }
  std::string unique = base;
  auto it = nameUses_.find(base);
  if (it != nameUses_.end()) {
    do {
      unique = base + "_" + std::to_string(it->second++);
    } while (nameUses_.count(unique));
  } else {
    nameUses_[base] = 1;
  }
  nameUses_.emplace(unique, 1);
  values.push_back(Value{unique, type, loc});
  return static_cast<ValueId>(values.size() - 1);
}

const GraphInput* Graph::findInput(ValueId id) const {
  for (const auto& in : inputs) {
    if (in.value == id) return &in;
  }
  return nullptr;
}

const GraphConstant* Graph::findConstant(ValueId id) const {
  for (const auto& c : constants) {
    if (c.value == id) return &c;
  }
  return nullptr;
}

namespace {

// A float to an integer type without undefined behaviour: truncated toward zero, nan as 0, values
// beyond int64 as INT64_MIN (the x86 conversion's "integer indefinite"), then wrapped to T's width.
template <class T>
T wrappedInt(double v) {
  if (std::isnan(v)) return 0;
  const int64_t wide = std::fabs(v) < 9223372036854775808.0 ? static_cast<int64_t>(v) : INT64_MIN;
  return static_cast<T>(static_cast<uint64_t>(wide));
}

}  // namespace

std::map<ValueId, int> useCounts(const Graph& graph) {
  std::map<ValueId, int> uses;
  std::function<void(const Region&)> count = [&](const Region& region) {
    for (const Node& n : region.nodes) {
      for (ValueId v : n.inputs) ++uses[v];
      for (const auto& sub : n.regions) count(sub);
    }
    for (ValueId v : region.yields) ++uses[v];
  };
  count(graph.body);
  for (const auto& o : graph.outputs) ++uses[o.value];
  return uses;
}

bool isZeroConstant(const Graph& graph, ValueId value) {
  const GraphConstant* c = graph.findConstant(value);
  if (!c || elementCount(graph.type(value).shape) != 1) return false;
  const std::vector<double> values = decodeConstant(graph.type(value).dtype, c->bytes);
  return values.size() == 1 && values[0] == 0.0;
}

std::vector<uint8_t> encodeConstant(DType dtype, const std::vector<double>& numbers) {
  const int size = dtypeSize(dtype);
  std::vector<uint8_t> bytes(numbers.size() * static_cast<size_t>(size));
  for (size_t i = 0; i < numbers.size(); ++i) {
    uint8_t* p = bytes.data() + i * static_cast<size_t>(size);
    const double v = numbers[i];
    switch (dtype) {
      case DType::Bool: p[0] = v != 0; break;
      case DType::Int8: { int8_t x = wrappedInt<int8_t>(v); std::memcpy(p, &x, 1); break; }
      case DType::UInt8: { uint8_t x = wrappedInt<uint8_t>(v); std::memcpy(p, &x, 1); break; }
      case DType::Int16: { int16_t x = wrappedInt<int16_t>(v); std::memcpy(p, &x, 2); break; }
      case DType::Int32: { int32_t x = wrappedInt<int32_t>(v); std::memcpy(p, &x, 4); break; }
      case DType::Int64: { int64_t x = wrappedInt<int64_t>(v); std::memcpy(p, &x, 8); break; }
      case DType::Float16: { uint16_t x = doubleToHalf(v); std::memcpy(p, &x, 2); break; }
      case DType::Float32: { float x = static_cast<float>(v); std::memcpy(p, &x, 4); break; }
      case DType::Float64: std::memcpy(p, &v, 8); break;
    }
  }
  return bytes;
}

std::vector<double> decodeConstant(DType dtype, const std::vector<uint8_t>& bytes) {
  const size_t size = static_cast<size_t>(dtypeSize(dtype));
  std::vector<double> numbers(bytes.size() / size);
  for (size_t i = 0; i < numbers.size(); ++i) {
    const uint8_t* p = bytes.data() + i * size;
    switch (dtype) {
      case DType::Bool: numbers[i] = p[0] != 0; break;
      case DType::Int8: { int8_t x; std::memcpy(&x, p, 1); numbers[i] = x; break; }
      case DType::UInt8: numbers[i] = p[0]; break;
      case DType::Int16: { int16_t x; std::memcpy(&x, p, 2); numbers[i] = x; break; }
      case DType::Int32: { int32_t x; std::memcpy(&x, p, 4); numbers[i] = x; break; }
      case DType::Int64: { int64_t x; std::memcpy(&x, p, 8); numbers[i] = static_cast<double>(x); break; }
      case DType::Float16: { uint16_t x; std::memcpy(&x, p, 2); numbers[i] = halfToFloat(x); break; }
      case DType::Float32: { float x; std::memcpy(&x, p, 4); numbers[i] = x; break; }
      case DType::Float64: std::memcpy(&numbers[i], p, 8); break;
    }
  }
  return numbers;
}

}  // namespace pyasc::graph
