// Descriptor -> OpEntry + NumpyAlias, and registration with the built-in clash rules.
#include "registry/DescriptorRegistration.h"

#include "registry/DescriptorInference.h"
#include "registry/EntryBuilders.h"

namespace pyasc::registry {

namespace {

Diagnostic errorAt(const SourceLocation& loc, const std::string& message) {
  Diagnostic diag;
  diag.range.begin = loc;
  diag.message = message;
  return diag;
}

OpCategory categoryOf(const OpDescriptor& d) {
  switch (d.pattern) {
    case OpPattern::Reduce: return OpCategory::Reduce;
    case OpPattern::Matmul: return OpCategory::Cube;
    case OpPattern::Compute: return OpCategory::Compute;
    case OpPattern::Elementwise:
    case OpPattern::Composite: break;
  }
  switch (d.shapeRule.kind) {
    case ShapeRuleKind::SameAs: return OpCategory::Elementwise;
    case ShapeRuleKind::Broadcast: return OpCategory::Broadcast;
    case ShapeRuleKind::Reduce: return OpCategory::Reduce;
    case ShapeRuleKind::Matmul: return OpCategory::Cube;
    case ShapeRuleKind::Compute: return OpCategory::Compute;
    case ShapeRuleKind::Explicit: break;
  }
  return OpCategory::DataMovement;
}

DTypeSet dtypeSet(const TensorDesc& t) {
  DTypeSet set = 0;
  for (DType type : t.types) set |= dtypeBit(type);
  return set;
}

// The graph attribute kind of a descriptor attribute type; false for the list types graphs cannot hold.
bool graphKind(AttrType type, graph::AttrKind& kind) {
  switch (type) {
    case AttrType::Int: kind = graph::AttrKind::Int; return true;
    case AttrType::Float: kind = graph::AttrKind::Float; return true;
    case AttrType::Bool: kind = graph::AttrKind::Bool; return true;
    case AttrType::Str: kind = graph::AttrKind::String; return true;
    case AttrType::ListInt: kind = graph::AttrKind::IntList; return true;
    default: return false;
  }
}

graph::Attribute graphValue(const AttrValue& value) {
  switch (value.index()) {
    case 0: return std::get<int64_t>(value);
    case 1: return std::get<double>(value);
    case 2: return std::get<bool>(value);
    case 3: return std::get<std::string>(value);
    default: return std::get<std::vector<int64_t>>(value);
  }
}

ParamKind paramKind(const OpDescriptor& d, const AttrDesc& a) {
  const bool axes = d.shapeRule.kind == ShapeRuleKind::Reduce && d.shapeRule.operand == a.name;
  switch (a.type) {
    case AttrType::Int: return axes ? ParamKind::Axis : ParamKind::Int;
    case AttrType::Float: return ParamKind::Float;
    case AttrType::Bool: return ParamKind::Bool;
    case AttrType::Str: return ParamKind::String;
    default: return axes ? ParamKind::Axes : ParamKind::IntList;
  }
}

}  // namespace

std::string customCallName(const std::string& pythonName) { return "custom." + pythonName; }

bool descriptorEntry(const OpDescriptor& d, OpEntry& entry, std::vector<Diagnostic>& errors) {
  entry = OpEntry{};
  entry.name = d.op;
  entry.category = categoryOf(d);
  entry.summary = "custom operator defined in " + d.impl + ", called " + d.pythonName + "(...)";
  for (const auto& in : d.inputs) {
    entry.inputs.push_back(in.paramType == ParamType::Dynamic ? variadicOperand(in.name, dtypeSet(in))
                                                              : operand(in.name, dtypeSet(in)));
  }
  for (const auto& out : d.outputs) entry.outputs.push_back(operand(out.name, dtypeSet(out)));
  bool ok = true;
  for (const auto& a : d.attrs) {
    AttrSpec spec;
    spec.name = a.name;
    if (!graphKind(a.type, spec.kind)) {
      errors.push_back(errorAt(a.loc, "op '" + d.op + "': attr '" + a.name + "': type: " + attrTypeName(a.type) +
                                          " attributes cannot be passed from pyasc programs (use int, float, "
                                          "bool, str or list_int)"));
      ok = false;
      continue;
    }
    if (a.defaultValue) spec.defaultValue = graphValue(*a.defaultValue);
    spec.optional = a.paramType == ParamType::Optional && !a.defaultValue;
    entry.attrs.push_back(spec);
  }
  entry.infer = descriptorInfer(d);
  return ok;
}

NumpyAlias descriptorAlias(const OpDescriptor& d) {
  std::vector<NumpyParam> params;
  for (const auto& in : d.inputs) {
    params.push_back(in.paramType == ParamType::Dynamic ? tensorVarargsParam(in.name) : tensorParam(in.name));
  }
  for (const auto& a : d.attrs) {
    const ParamKind kind = paramKind(d, a);
    if (a.defaultValue) {
      params.push_back(attrParam(a.name, kind, a.name, graphValue(*a.defaultValue)));
    } else if (a.paramType == ParamType::Optional) {
      params.push_back(optionalParam(a.name, kind, a.name));
    } else {
      params.push_back(attrParam(a.name, kind, a.name));
    }
  }
  return functionAlias(customCallName(d.pythonName), d.op, params, {}, "custom operator (" + d.impl + ")");
}

bool registerDescriptors(const std::vector<OpDescriptor>& descriptors, OpRegistry& registry,
                         std::vector<Diagnostic>& errors) {
  const size_t errorsBefore = errors.size();
  for (const auto& d : descriptors) {
    const std::string label = "op '" + d.op + "': ";
    if (OpRegistry::builtin().find(d.op) && registry.find(d.op)) {
      if (!d.override) {
        errors.push_back(errorAt(d.loc, label + "op: clashes with the built-in operator '" + d.op +
                                            "'; rename the op or set \"override\": true to replace it"));
        continue;
      }
    } else if (registry.find(d.op)) {
      errors.push_back(errorAt(d.loc, label + "op: already registered by another descriptor"));
      continue;
    }
    if (const NumpyAlias* taken = registry.findAlias(customCallName(d.pythonName), AliasForm::Function)) {
      errors.push_back(errorAt(d.loc, label + "python_name: '" + d.pythonName + "' is already the name of op '" +
                                          taken->op + "'"));
      continue;
    }
    OpEntry entry;
    if (!descriptorEntry(d, entry, errors)) continue;
    registry.add(std::move(entry));
    registry.addAlias(descriptorAlias(d));
  }
  return errors.size() == errorsBefore;
}

const OpDescriptor* findDescriptor(const std::vector<OpDescriptor>& descriptors, const std::string& opName) {
  for (const auto& d : descriptors) {
    if (d.op == opName) return &d;
  }
  return nullptr;
}

}  // namespace pyasc::registry
