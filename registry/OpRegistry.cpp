// Registry storage, attribute completion, inference dispatch, describe and the NumPy support table.
#include "registry/OpRegistry.h"

#include <algorithm>

#include "registry/BuiltinOps.h"

namespace pyasc::registry {

const char* categoryName(OpCategory category) {
  static const char* const names[] = {"elementwise", "broadcast", "reduce", "cube", "conv", "data movement",
                                      "creation", "pool", "compute"};
  return names[static_cast<int>(category)];
}

std::string dtypeSetString(DTypeSet set) {
  if (set == kAllTypes) return "any";
  std::string s;
  for (int i = 0; i < kDTypeCount; ++i) {
    if (set & dtypeBit(static_cast<DType>(i))) s += (s.empty() ? "" : "|") + std::string(dtypeName(static_cast<DType>(i)));
  }
  return s;
}

const AttrSpec* OpEntry::findAttr(const std::string& attrName) const {
  for (const auto& a : attrs) {
    if (a.name == attrName) return &a;
  }
  return nullptr;
}

const OpRegistry& OpRegistry::builtin() {
  static const OpRegistry registry = [] {
    OpRegistry r;
    registerElementwiseOps(r);
    registerReduceOps(r);
    registerCubeOps(r);
    registerDataMovementOps(r);
    registerCreationOps(r);
    registerNNOps(r);
    registerConvOps(r);
    registerPoolOps(r);
    registerComputeOps(r);
    return r;
  }();
  return registry;
}

void OpRegistry::add(OpEntry entry) {
  std::string name = entry.name;
  entries_[name] = std::move(entry);
}

void OpRegistry::addAlias(NumpyAlias alias) {
  auto key = std::make_pair(static_cast<int>(alias.form), alias.name);
  aliases_[key] = std::move(alias);
}

bool OpRegistry::attachImplementation(const std::string& opName, std::shared_ptr<const OpImplementation> impl) {
  auto it = entries_.find(opName);
  if (it == entries_.end()) return false;
  it->second.implementation = std::move(impl);
  return true;
}

bool OpRegistry::setInfer(const std::string& opName, InferFn infer) {
  auto it = entries_.find(opName);
  if (it == entries_.end()) return false;
  it->second.infer = std::move(infer);
  return true;
}

const OpEntry* OpRegistry::find(const std::string& opName) const {
  auto it = entries_.find(opName);
  return it == entries_.end() ? nullptr : &it->second;
}

const NumpyAlias* OpRegistry::findAlias(const std::string& name, AliasForm form) const {
  auto it = aliases_.find(std::make_pair(static_cast<int>(form), name));
  return it == aliases_.end() ? nullptr : &it->second;
}

std::vector<std::string> OpRegistry::opNames() const {
  std::vector<std::string> names;
  for (const auto& e : entries_) names.push_back(e.first);
  return names;
}

std::vector<const NumpyAlias*> OpRegistry::aliases() const {
  std::vector<const NumpyAlias*> list;
  for (const auto& a : aliases_) list.push_back(&a.second);
  return list;
}

std::vector<std::string> OpRegistry::aliasNames(AliasForm form, const std::string& prefix) const {
  std::vector<std::string> names;
  for (const auto& a : aliases_) {
    if (a.first.first != static_cast<int>(form)) continue;
    const std::string& n = a.second.name;
    const bool isNN = n.rfind("nn.", 0) == 0;
    if (prefix.empty() ? !isNN : n.rfind(prefix, 0) == 0) names.push_back(n.substr(prefix.size()));
  }
  return names;
}

std::string OpRegistry::completeAttrs(graph::Node& node) const {
  const OpEntry* entry = find(node.op);
  if (!entry) return "unknown operator '" + node.op + "'";
  for (const auto& spec : entry->attrs) {
    const graph::Attribute* value = node.attr(spec.name);
    if (!value) {
      if (spec.defaultValue) {
        node.setAttr(spec.name, *spec.defaultValue);
      } else if (!spec.optional) {
        return node.op + " needs the attribute '" + spec.name + "'";
      }
      continue;
    }
    graph::AttrKind kind = graph::attrKind(*value);
    if (kind == graph::AttrKind::Int && spec.kind == graph::AttrKind::Float) {
      node.setAttr(spec.name, static_cast<double>(std::get<int64_t>(*value)));
    } else if (kind != spec.kind) {
      return node.op + " attribute '" + spec.name + "' must be " + graph::attrKindName(spec.kind) + ", found " +
             graph::attrKindName(kind);
    }
  }
  for (const auto& a : node.attrs) {
    if (!entry->findAttr(a.name)) return node.op + " has no attribute '" + a.name + "'";
  }
  return "";
}

namespace {
constexpr int64_t kMaxIntAttr = int64_t{1} << 31;
}  // namespace

bool OpRegistry::infer(const graph::Node& node, const std::vector<graph::TensorType>& inputs,
                       std::vector<graph::TensorType>& outputs, std::string& error) const {
  const OpEntry* entry = find(node.op);
  if (!entry) {
    error = "unknown operator '" + node.op + "'";
    return false;
  }
  const bool variadic = !entry->inputs.empty() && entry->inputs.back().variadic;
  const size_t fixed = entry->inputs.size() - (variadic ? 1 : 0);
  if (variadic ? inputs.size() < fixed : inputs.size() != fixed) {
    error = node.op + " takes " + (variadic ? "at least " : "") + std::to_string(fixed) +
            " operand(s), found " + std::to_string(inputs.size());
    return false;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const OperandSpec& spec = entry->inputs[std::min(i, entry->inputs.size() - 1)];
    if (!(spec.dtypes & dtypeBit(inputs[i].dtype))) {
      error = node.op + " operand '" + spec.name + "' must be " + dtypeSetString(spec.dtypes) + ", found " +
              dtypeName(inputs[i].dtype);
      return false;
    }
  }
  // An operand of unknown rank: elementwise rules still give the dtype (computed on scalars of
  // the same dtypes) and the result has unknown rank; other operators need the rank.
  std::vector<graph::TensorType> ranked = inputs;
  bool unranked = false;
  for (size_t i = 0; i < ranked.size(); ++i) {
    if (ranked[i].ranked) continue;
    if (entry->category != OpCategory::Elementwise && entry->category != OpCategory::Broadcast) {
      error = node.op + " needs the rank of operand " + std::to_string(i) + " (" + ranked[i].str() +
              "); declare its shape, e.g. Tensor[float32, 64, 128]";
      return false;
    }
    unranked = true;
    ranked[i] = graph::TensorType{ranked[i].dtype, {}, graph::Layout::ND, true};
  }
  if (unranked) {
    for (auto& t : ranked) t.shape.clear();
  }
  // integer attributes within ±2^31 (an extent, pad, stride or axis of any real program), so that
  // inference computes products of two without overflow; results of at most graph::kMaxElements elements
  for (const auto& a : node.attrs) {
    std::vector<int64_t> ints;
    if (const auto* i = std::get_if<int64_t>(&a.value)) ints.push_back(*i);
    if (const auto* list = std::get_if<std::vector<int64_t>>(&a.value)) ints = *list;
    for (int64_t v : ints) {
      if (v > kMaxIntAttr || v < -kMaxIntAttr) {
        error = node.op + " attribute '" + a.name + "' = " + std::to_string(v) + " is out of range (at most 2^31 in magnitude)";
        return false;
      }
    }
  }
  InferContext ctx{node, ranked, {}, {}};
  if (!entry->infer(ctx)) {
    error = ctx.error;
    return false;
  }
  outputs = std::move(ctx.outputs);
  for (const auto& out : outputs) {
    if (out.ranked && graph::elementCount(out.shape) > graph::kMaxElements) {
      error = node.op + " would give an array of shape " + graph::shapeString(out.shape) +
              ", more than 2^40 elements (more than any device holds)";
      return false;
    }
  }
  for (auto& out : outputs) {
    if (unranked) out = graph::TensorType{out.dtype, {}, graph::Layout::ND, false};
  }
  return true;
}

std::string OpRegistry::describe(const std::string& opName) const {
  const OpEntry* entry = find(opName);
  if (!entry) return "";
  std::string s = entry->name + " (" + categoryName(entry->category) + "): " + entry->summary + "\n";
  for (const auto& in : entry->inputs) {
    s += "  input " + in.name + (in.variadic ? "..." : "") + ": " + dtypeSetString(in.dtypes) + "\n";
  }
  for (const auto& out : entry->outputs) s += "  output " + out.name + ": " + dtypeSetString(out.dtypes) + "\n";
  for (const auto& a : entry->attrs) {
    s += "  attr " + a.name + ": " + graph::attrKindName(a.kind);
    if (a.defaultValue) s += " = " + graph::attrString(*a.defaultValue);
    if (a.optional) s += " (optional)";
    if (!a.doc.empty()) s += "  -- " + a.doc;
    s += "\n";
  }
  std::string spellings;
  for (const auto& a : aliases_) {
    if (a.second.op != opName) continue;
    const NumpyAlias& alias = a.second;
    std::string shown = alias.form == AliasForm::Operator ? "'" + alias.name + "'"
                        : alias.form == AliasForm::Method ? "ndarray." + alias.name
                        : alias.name.rfind("nn.", 0) == 0 ? "pyasc." + alias.name
                                                           : "np." + alias.name;
    spellings += (spellings.empty() ? "" : ", ") + shown;
  }
  if (!spellings.empty()) s += "  spelled " + spellings + "\n";
  return s;
}

std::string OpRegistry::numpySupportMarkdown() const {
  std::string s =
      "# Supported NumPy surface\n\n"
      "Generated from the operator registry (`asc-fe --print-numpy-support`); a unit test keeps it in sync.\n"
      "Each row is a spelling the frontend accepts and the registry operator it becomes.\n";
  const char* headings[] = {"## Functions (`np.NAME`)", "## Array methods (`a.NAME(...)`)", "## Operators"};
  for (int form = 0; form < 3; ++form) {
    s += std::string("\n") + headings[form] + "\n\n| spelling | operator | category | parameters | notes |\n"
         "|---|---|---|---|---|\n";
    for (const auto& a : aliases_) {
      const NumpyAlias& alias = a.second;
      if (static_cast<int>(alias.form) != form) continue;
      const bool unary = alias.name.rfind("unary ", 0) == 0;
      std::string spelling = alias.form == AliasForm::Operator
                                 ? (unary ? "`" + alias.name.substr(6) + "a`" : "`a " + alias.name + " b`")
                             : alias.form == AliasForm::Method ? "`a." + alias.name + "`"
                             : alias.name.rfind("nn.", 0) == 0 ? "`pyasc." + alias.name + "`"
                                                                : "`np." + alias.name + "`";
      const OpEntry* entry = alias.op.empty() ? nullptr : find(alias.op);
      std::string params;
      for (const auto& p : alias.params) {
        std::string shown = p.varargs ? "*" + p.name : p.name;
        if (!p.required && !p.varargs) {
          const graph::Attribute* d = p.defaultValue ? &*p.defaultValue : nullptr;
          shown += "=" + (!d ? std::string("None")
                          : std::holds_alternative<bool>(*d) ? std::string(std::get<bool>(*d) ? "True" : "False")
                          : std::holds_alternative<std::string>(*d) ? "'" + std::get<std::string>(*d) + "'"
                                                                    : graph::attrString(*d));
        }
        params += (params.empty() ? "" : ", ") + shown;
      }
      s += "| " + spelling + " | " + (alias.op.empty() ? "—" : "`" + alias.op + "`") + " | " +
           (entry ? categoryName(entry->category) : "—") + " | " + params + " | " + alias.note + " |\n";
    }
  }
  return s;
}

std::string RegistryTypeChecker::check(const graph::Graph& graph, const graph::Node& node) const {
  graph::Node completed = node;
  std::string problem = registry_.completeAttrs(completed);
  if (!problem.empty()) return problem;
  std::vector<graph::TensorType> inputs;
  for (graph::ValueId in : node.inputs) inputs.push_back(graph.type(in));
  std::vector<graph::TensorType> outputs;
  if (!registry_.infer(completed, inputs, outputs, problem)) return node.op + ": " + problem;
  if (outputs.size() != node.outputs.size()) {
    return node.op + " has " + std::to_string(node.outputs.size()) + " result(s), expected " +
           std::to_string(outputs.size());
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const graph::TensorType& declared = graph.type(node.outputs[i]);
    graph::TensorType expected = outputs[i];
    expected.layout = declared.layout;
    if (declared != expected) {
      return node.op + " result " + std::to_string(i) + " is declared " + declared.str() + " but infers to " +
             expected.str();
    }
  }
  return "";
}

}  // namespace pyasc::registry
