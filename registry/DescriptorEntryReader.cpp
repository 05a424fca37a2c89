// Field-by-field reading of one op entry: msopgen's fields, then pyasc's, then the checks across fields.
#include "registry/DescriptorEntryReader.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "registry/NameSuggestion.h"

namespace pyasc::registry {

namespace {

using Kind = DescriptorNode::Kind;

const std::vector<std::string> kOpFields = {"op",         "input_desc", "output_desc", "attr",     "impl",
                                            "python_name", "shape_rule", "tolerance",   "override", "pattern"};
const std::vector<std::string> kTensorFields = {"name", "param_type", "format", "type"};
const std::vector<std::string> kAttrFields = {"name", "param_type", "type", "default_value"};

std::vector<std::string> formatNames() {
  std::vector<std::string> names;
  for (int i = 0; i <= static_cast<int>(graph::Layout::FRACTAL_NZ); ++i) {
    names.push_back(graph::layoutName(static_cast<graph::Layout>(i)));
  }
  return names;
}

std::string listed(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
  return s;
}

std::string counted(size_t n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

std::string suggestion(const std::string& name, const std::vector<std::string>& candidates) {
  const std::string guess = closestName(name, candidates);
  return guess.empty() ? "" : "; did you mean '" + guess + "'?";
}

// "; did you mean 'x'?" when a candidate is close, else the full list: " (what: a, b, c)".
std::string suggestionOrList(const std::string& name, const std::vector<std::string>& candidates, const char* what) {
  const std::string s = suggestion(name, candidates);
  return s.empty() ? std::string(" (") + what + ": " + listed(candidates) + ")" : s;
}

// The spelling of a scalar as the user wrote it, for messages.
std::string spelled(const DescriptorNode& node) {
  switch (node.kind) {
    case Kind::String: return "'" + node.text + "'";
    case Kind::List: return "a list";
    case Kind::Map: return "an object";
    case Kind::Null: return "null";
    default: return node.text;
  }
}

// Whether a scalar node holds a value of a scalar attribute type (an int is a float too).
bool matchesScalar(const DescriptorNode& node, AttrType type) {
  switch (type) {
    case AttrType::Int: return node.kind == Kind::Int;
    case AttrType::Float: return node.isNumber();
    case AttrType::Bool: return node.kind == Kind::Bool;
    default: return node.kind == Kind::String;
  }
}

// The element type of a list attribute type; false for a scalar type.
bool listElementType(AttrType type, AttrType& element) {
  switch (type) {
    case AttrType::ListInt: element = AttrType::Int; return true;
    case AttrType::ListFloat: element = AttrType::Float; return true;
    case AttrType::ListBool: element = AttrType::Bool; return true;
    case AttrType::ListStr: element = AttrType::Str; return true;
    default: return false;
  }
}

template <typename T, typename Get>
std::vector<T> collect(const std::vector<DescriptorNode>& nodes, Get get) {
  std::vector<T> values;
  for (const auto& n : nodes) values.push_back(get(n));
  return values;
}

class EntryReader {
 public:
  EntryReader(size_t index, const std::string& file, const std::string& folder, std::vector<Diagnostic>& errors)
      : file_(file), folder_(folder), errors_(errors), label_("op #" + std::to_string(index + 1)) {}

  bool read(const DescriptorNode& entry, OpDescriptor& d) {
    errorsBefore_ = errors_.size();
    if (entry.kind != Kind::Map) {
      fail(entry, "", std::string("an op must be an object, found ") + nodeKindName(entry.kind));
      return false;
    }
    if (!readOpName(entry, d)) return false;
    checkFields(entry, kOpFields, "");
    readTensors(entry, "input_desc", d.inputs);
    readTensors(entry, "output_desc", d.outputs);
    readAttrs(entry, d);
    checkTensors(entry, d);
    readPythonName(entry, d);
    readImpl(entry, d);
    readShapeRule(entry, d);
    readTolerance(entry, d);
    if (const DescriptorNode* o = entry.field("override")) {
      if (o->kind == Kind::Bool) {
        d.override = o->boolValue;
      } else {
        fail(*o, "override", "expected true or false, found " + spelled(*o));
      }
    }
    readPattern(entry, d);
    return soundSoFar();
  }

 private:
  void fail(const DescriptorNode& at, const std::string& field, const std::string& problem) {
    fail(at.location(file_), field, problem);
  }
  void fail(const SourceLocation& at, const std::string& field, const std::string& problem) {
    Diagnostic diag;
    diag.range.begin = at;
    diag.message = label_ + ": " + (field.empty() ? "" : field + ": ") + problem;
    errors_.push_back(diag);
  }

  bool readOpName(const DescriptorNode& entry, OpDescriptor& d) {
    const DescriptorNode* op = entry.field("op");
    if (!op) {
      fail(entry, "op", "missing; every op needs its type name, e.g. \"op\": \"AddCustom\"");
      return false;
    }
    if (op->kind != Kind::String || !isPythonIdentifier(op->text)) {
      fail(*op, "op", spelled(*op) + " is not an operator type name (letters, digits and '_')");
      return false;
    }
    d.op = op->text;
    d.loc = op->location(file_);
    label_ = "op '" + d.op + "'";
    return true;
  }

  // Reports each key of `node` that is not in `known`, with the closest known one.
  void checkFields(const DescriptorNode& node, const std::vector<std::string>& known, const std::string& where) {
    std::set<std::string> seen;
    for (const auto& key : node.keys) {
      const std::string field = where.empty() ? key.text : where + ": " + key.text;
      if (!seen.insert(key.text).second) {
        fail(key, field, "appears twice");
      } else if (std::find(known.begin(), known.end(), key.text) == known.end()) {
        fail(key, field, "unknown field" + suggestionOrList(key.text, known, "fields"));
      }
    }
  }

  // The string nodes of a list of strings; a single string stands for a one-entry list.
  std::vector<const DescriptorNode*> stringList(const DescriptorNode& node, const std::string& field) {
    std::vector<const DescriptorNode*> items;
    if (node.kind == Kind::String) return {&node};
    if (node.kind != Kind::List) {
      fail(node, field, std::string("expected a list of strings, found ") + nodeKindName(node.kind));
      return items;
    }
    for (const auto& item : node.items) {
      if (item.kind == Kind::String) {
        items.push_back(&item);
      } else {
        fail(item, field, std::string("expected a string, found ") + nodeKindName(item.kind));
      }
    }
    return items;
  }

  bool readParamType(const DescriptorNode& owner, const std::string& where, ParamType& out) {
    const DescriptorNode* p = owner.field("param_type");
    if (!p) return true;
    if (p->kind == Kind::String && parseParamType(p->text, out)) return true;
    fail(*p, where + ": param_type",
         spelled(*p) + " is not required, optional or dynamic" +
             (p->kind == Kind::String ? suggestion(p->text, {"required", "optional", "dynamic"}) : ""));
    return false;
  }

  // The `name` of an input, output or attribute entry; `role` is "input_desc", "output_desc" or "attr".
  bool readEntryName(const DescriptorNode& e, const std::string& role, size_t index, std::string& name) {
    name = role + "[" + std::to_string(index) + "]";
    if (e.kind != Kind::Map) {
      fail(e, name, std::string("expected an object, found ") + nodeKindName(e.kind));
      return false;
    }
    const DescriptorNode* n = e.field("name");
    if (!n) {
      fail(e, name, "missing field 'name'");
      return false;
    }
    if (n->kind != Kind::String || !isPythonIdentifier(n->text)) {
      fail(*n, name + ": name", spelled(*n) + " is not an identifier");
      return false;
    }
    name = n->text;
    return true;
  }

  void readTensors(const DescriptorNode& entry, const std::string& role, std::vector<TensorDesc>& tensors) {
    const DescriptorNode* list = entry.field(role);
    if (!list) return;
    if (list->kind != Kind::List) {
      fail(*list, role, std::string("expected a list, found ") + nodeKindName(list->kind));
      return;
    }
    for (size_t i = 0; i < list->items.size(); ++i) {
      const DescriptorNode& e = list->items[i];
      TensorDesc t;
      if (!readEntryName(e, role, i, t.name)) continue;
      const std::string where = role + " '" + t.name + "'";
      t.loc = e.location(file_);
      checkFields(e, kTensorFields, where);
      readParamType(e, where, t.paramType);
      const DescriptorNode* format = e.field("format");
      const DescriptorNode* type = e.field("type");
      if (!format || !type) {
        fail(e, where, std::string("missing field '") + (format ? "type" : "format") +
                           "'; format and type list the supported combinations");
        continue;
      }
      for (const DescriptorNode* f : stringList(*format, where + ": format")) {
        graph::Layout layout;
        if (graph::parseLayout(f->text, layout)) {
          t.formats.push_back(layout);
        } else {
          fail(*f, where + ": format",
               "unknown format '" + f->text + "'" + suggestionOrList(f->text, formatNames(), "formats"));
        }
      }
      for (const DescriptorNode* ty : stringList(*type, where + ": type")) {
        DType dtype;
        if (parseDescriptorDType(ty->text, dtype)) {
          t.types.push_back(dtype);
        } else {
          fail(*ty, where + ": type",
               "unknown type '" + ty->text + "'" + suggestionOrList(ty->text, descriptorDTypeNames(), "types"));
        }
      }
      const size_t formats = format->kind == Kind::List ? format->items.size() : 1;
      const size_t types = type->kind == Kind::List ? type->items.size() : 1;
      if (formats != types) {
        fail(*format, where + ": format",
             counted(formats, "format") + " but " + counted(types, "type") + "; format and type pair one to one");
      }
      tensors.push_back(t);
    }
  }

  // Checks a default value against its attribute type; sets `out` when it matches.
  bool readDefault(const DescriptorNode& v, AttrType type, const std::string& where, AttrValue& out) {
    auto mismatch = [&](const DescriptorNode& at) {
      fail(at, where + ": default_value", spelled(at) + " does not match type " + attrTypeName(type));
      return false;
    };
    AttrType element;
    if (!listElementType(type, element)) {
      if (!matchesScalar(v, type)) return mismatch(v);
    } else {
      if (v.kind != Kind::List) return mismatch(v);
      for (const auto& item : v.items) {
        if (!matchesScalar(item, element)) return mismatch(item);
      }
    }
    const std::vector<DescriptorNode>& values = v.items;
    switch (type) {
      case AttrType::Int: out = v.intValue; break;
      case AttrType::Float: out = v.number(); break;
      case AttrType::Bool: out = v.boolValue; break;
      case AttrType::Str: out = v.text; break;
      case AttrType::ListInt: out = collect<int64_t>(values, [](const DescriptorNode& n) { return n.intValue; }); break;
      case AttrType::ListFloat: out = collect<double>(values, [](const DescriptorNode& n) { return n.number(); }); break;
      case AttrType::ListBool: out = collect<bool>(values, [](const DescriptorNode& n) { return n.boolValue; }); break;
      case AttrType::ListStr: out = collect<std::string>(values, [](const DescriptorNode& n) { return n.text; }); break;
    }
    return true;
  }

  void readAttrs(const DescriptorNode& entry, OpDescriptor& d) {
    const DescriptorNode* list = entry.field("attr");
    if (!list) return;
    if (list->kind != Kind::List) {
      fail(*list, "attr", std::string("expected a list, found ") + nodeKindName(list->kind));
      return;
    }
    for (size_t i = 0; i < list->items.size(); ++i) {
      const DescriptorNode& e = list->items[i];
      AttrDesc a;
      if (!readEntryName(e, "attr", i, a.name)) continue;
      const std::string where = "attr '" + a.name + "'";
      a.loc = e.location(file_);
      checkFields(e, kAttrFields, where);
      if (d.findAttr(a.name)) fail(*e.field("name"), where + ": name", "duplicate attribute name '" + a.name + "'");
      if (readParamType(e, where, a.paramType) && a.paramType == ParamType::Dynamic) {
        fail(*e.field("param_type"), where + ": param_type", "an attribute is required or optional, not dynamic");
      }
      const DescriptorNode* type = e.field("type");
      if (!type) {
        fail(e, where, "missing field 'type'");
        continue;
      }
      if (type->kind != Kind::String || !parseAttrType(type->text, a.type)) {
        fail(*type, where + ": type",
             spelled(*type) + " is not an attribute type" +
                 (type->kind == Kind::String ? suggestion(type->text, attrTypeNames()) : "") + " (types: " +
                 listed(attrTypeNames()) + ")");
        continue;
      }
      if (const DescriptorNode* v = e.field("default_value")) {
        AttrValue value;
        if (readDefault(*v, a.type, where, value)) a.defaultValue = value;
      }
      d.attrs.push_back(a);
    }
  }

  // Checks across inputs and outputs: names, dynamic operands, combination counts.
  void checkTensors(const DescriptorNode& entry, const OpDescriptor& d) {
    const DescriptorNode* outputs = entry.field("output_desc");
    if (!outputs || (outputs->kind == Kind::List && outputs->items.empty())) {
      fail(outputs ? *outputs : entry, "output_desc", "an op needs at least one output");
    }
    std::set<std::string> names;
    const TensorDesc* first = nullptr;
    auto check = [&](const std::vector<TensorDesc>& tensors, const std::string& role, const std::string& listName) {
      for (size_t i = 0; i < tensors.size(); ++i) {
        const TensorDesc& t = tensors[i];
        const std::string where = listName + " '" + t.name + "'";
        if (!names.insert(t.name).second) fail(t.loc, where + ": name", "duplicate " + role + " name '" + t.name + "'");
        if (t.paramType == ParamType::Dynamic && (role == "output" || i + 1 != tensors.size())) {
          fail(t.loc, where + ": param_type",
               role == "output" ? "outputs cannot be dynamic; list each output" : "only the last input may be dynamic");
        }
        if (!first) {
          first = &t;
        } else if (t.types.size() != first->types.size() && soundSoFar()) {
          fail(t.loc, where + ": type",
               counted(t.types.size(), "type") + " but '" + first->name + "' has " + std::to_string(first->types.size()) +
                   "; column i of every input and output is one supported combination");
        }
      }
    };
    check(d.inputs, "input", "input_desc");
    check(d.outputs, "output", "output_desc");
  }

  void readPythonName(const DescriptorNode& entry, OpDescriptor& d) {
    d.pythonName = snakeCaseName(d.op);
    const DescriptorNode* p = entry.field("python_name");
    if (!p) return;
    if (p->kind != Kind::String || !isPythonIdentifier(p->text) || isPythonKeyword(p->text)) {
      fail(*p, "python_name", spelled(*p) + " is not a Python identifier");
      return;
    }
    d.pythonName = p->text;
  }

  void readImpl(const DescriptorNode& entry, OpDescriptor& d) {
    d.impl = d.pythonName + ".py";
    const DescriptorNode* impl = entry.field("impl");
    if (impl) {
      if (impl->kind != Kind::String || impl->text.empty()) {
        fail(*impl, "impl", "expected the path of the definition .py, found " + spelled(*impl));
        return;
      }
      d.impl = impl->text;
    } else if (!soundSoFar()) {
      return;  // the default impl follows python_name, which may be the field in error
    }
    d.implPath = (std::filesystem::path(folder_) / d.impl).lexically_normal().string();
    std::error_code ec;  // a path the system refuses (too long, ...) is a file not found
    if (!std::filesystem::is_regular_file(d.implPath, ec)) {
      fail(impl ? *impl : entry, "impl",
           "file '" + d.impl + "' not found" +
               (impl ? " (impl is relative to the descriptor's folder)"
                     : " (the default impl is <python_name>.py next to the descriptor)"));
    }
  }

  bool readRuleDim(const DescriptorNode& node, const OpDescriptor& d, ShapeRuleDim& dim) {
    if (node.kind == Kind::Int && node.intValue >= 0) {
      dim.extent = node.intValue;
      return true;
    }
    const size_t dot = node.kind == Kind::String ? node.text.rfind('.') : std::string::npos;
    if (dot != std::string::npos && d.findInput(node.text.substr(0, dot))) {
      try {
        size_t used = 0;
        dim.input = node.text.substr(0, dot);
        dim.axis = std::stoll(node.text.substr(dot + 1), &used);
        if (used == node.text.size() - dot - 1) return true;
      } catch (const std::exception&) {
      }
    }
    fail(node, "shape_rule", spelled(node) + " is not a dimension: use an extent (16) or <input>.<axis> (x.0)");
    return false;
  }

  void readShapeRule(const DescriptorNode& entry, OpDescriptor& d) {
    ShapeRule& rule = d.shapeRule;
    const DescriptorNode* r = entry.field("shape_rule");
    if (!r) {
      if (!d.inputs.empty()) {
        rule.kind = ShapeRuleKind::SameAs;
        rule.operand = d.inputs[0].name;
      } else if (soundSoFar()) {
        fail(entry, "shape_rule", "an op without inputs needs an explicit list of output dimensions");
      }
      return;
    }
    if (r->kind == Kind::List) {
      rule.kind = ShapeRuleKind::Explicit;
      const bool perOutput = !r->items.empty() && r->items[0].kind == Kind::List;
      if (perOutput && r->items.size() != d.outputs.size()) {
        fail(*r, "shape_rule", std::to_string(r->items.size()) + " shapes for " + std::to_string(d.outputs.size()) +
                                   " outputs");
        return;
      }
      for (const DescriptorNode& shape : perOutput ? r->items : std::vector<DescriptorNode>{*r}) {
        if (shape.kind != Kind::List) {
          fail(shape, "shape_rule", "expected a list of dimensions, found " + spelled(shape));
          return;
        }
        std::vector<ShapeRuleDim> dims;
        for (const auto& item : shape.items) {
          ShapeRuleDim dim;
          if (!readRuleDim(item, d, dim)) return;
          dims.push_back(dim);
        }
        rule.outputShapes.push_back(dims);
      }
      return;
    }
    const std::string text = r->kind == Kind::String ? r->text : "";
    const size_t colon = text.find(':');
    const std::string head = text.substr(0, colon);
    const std::string arg = colon == std::string::npos ? "" : text.substr(colon + 1);
    if (head == "same_as" && d.findInput(arg)) {
      rule.kind = ShapeRuleKind::SameAs;
    } else if (head == "reduce" && d.findAttr(arg) &&
               (d.findAttr(arg)->type == AttrType::Int || d.findAttr(arg)->type == AttrType::ListInt)) {
      rule.kind = ShapeRuleKind::Reduce;
    } else if (text == "broadcast") {
      rule.kind = ShapeRuleKind::Broadcast;
    } else if (text == "matmul" && d.inputs.size() >= 2) {
      rule.kind = ShapeRuleKind::Matmul;
    } else if (text == "compute" && d.outputs.size() == 1) {
      rule.kind = ShapeRuleKind::Compute;
    } else {
      std::string why = "is not same_as:<input>, broadcast, reduce:<axes attr>, matmul, compute or a list of dimensions";
      if (head == "same_as") why = "names no input";
      if (head == "reduce") why = "needs an int or list_int attribute holding the axes";
      if (text == "matmul") why = "needs two inputs";
      if (text == "compute") why = "needs exactly one output";
      fail(*r, "shape_rule", spelled(*r) + " " + why);
      return;
    }
    rule.operand = arg;
  }

  void readTolerance(const DescriptorNode& entry, OpDescriptor& d) {
    d.tolerance = defaultTolerance();
    const DescriptorNode* t = entry.field("tolerance");
    if (!t) return;
    if (t->kind != Kind::Map) {
      fail(*t, "tolerance", "expected an object like {float16: 2e-3, float32: 1e-5}, found " + spelled(*t));
      return;
    }
    for (size_t i = 0; i < t->keys.size(); ++i) {
      DType dtype;
      if (!parseDescriptorDType(t->keys[i].text, dtype)) {
        fail(t->keys[i], "tolerance", "unknown type '" + t->keys[i].text + "'" +
                                          suggestion(t->keys[i].text, descriptorDTypeNames()));
      } else if (!t->items[i].isNumber() || t->items[i].number() < 0) {
        fail(t->items[i], "tolerance: " + t->keys[i].text, spelled(t->items[i]) + " is not a non-negative number");
      } else {
        d.tolerance[dtype] = t->items[i].number();
      }
    }
  }

  void readPattern(const DescriptorNode& entry, OpDescriptor& d) {
    // by shape rule: same_as, broadcast, reduce, matmul, a list, compute
    static const OpPattern byRule[] = {OpPattern::Elementwise, OpPattern::Elementwise, OpPattern::Reduce,
                                       OpPattern::Matmul,      OpPattern::Composite,   OpPattern::Compute};
    d.pattern = byRule[static_cast<int>(d.shapeRule.kind)];
    const DescriptorNode* p = entry.field("pattern");
    if (!p || (p->kind == Kind::String && p->text == "auto")) return;
    if (p->kind != Kind::String || !parsePattern(p->text, d.pattern)) {
      fail(*p, "pattern",
           spelled(*p) + " is not auto, elementwise, reduce, matmul, composite or compute" +
               (p->kind == Kind::String
                    ? suggestion(p->text, {"auto", "elementwise", "reduce", "matmul", "composite", "compute"})
                    : ""));
    }
  }

  // Checks across fields run only while the fields they read are sound, so one typo gives one error.
  bool soundSoFar() const { return errors_.size() == errorsBefore_; }

  const std::string& file_;
  const std::string& folder_;
  std::vector<Diagnostic>& errors_;
  std::string label_;
  size_t errorsBefore_ = 0;
};

}  // namespace

bool readOpEntry(const DescriptorNode& entry, size_t index, const std::string& file, const std::string& folder,
                 OpDescriptor& out, std::vector<Diagnostic>& errors) {
  return EntryReader(index, file, folder, errors).read(entry, out);
}

}  // namespace pyasc::registry
