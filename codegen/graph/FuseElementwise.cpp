// fuse-elementwise: fusion groups of elementwise nodes, decided in select-templates' walking order
// with the same value classes (codegen/graph/ValueClasses) and the elementwise template's answer to
// how it reads each operand.
#include "codegen/graph/FuseElementwise.h"

#include <algorithm>
#include <set>

#include "codegen/emit/KernelBuilder.h"
#include "codegen/graph/SelectTemplates.h"
#include "codegen/graph/SymbolicShapes.h"
#include "codegen/graph/ValueClasses.h"
#include "codegen/templates/ElementwiseTemplate.h"
#include "codegen/templates/ReduceTemplate.h"
#include "codegen/templates/Template.h"
#include "ops/Elementwise.h"

namespace pyasc::codegen {

using graph::Node;
using graph::ValueId;

namespace {

class Fuser {
 public:
  Fuser(graph::Graph& g, bool fuse, const Target* reductions)
      : g_(g), classes_(g), shapes_(g), fuse_(fuse), reductions_(reductions) {}

  int groups() const { return next_; }

  void walk(graph::Region& r) {
    Group group;
    for (Node& n : r.nodes) {
      if (classes_.foldAffine(n)) {
        classes_.readsDone(n);
        continue;
      }
      if (ops::isElementwiseOp(n.op) && n.outputs.size() == 1) {
        add(group, n);
        classes_.setArray(n.outputs[0]);
      } else {
        if (takesGroup(group, n)) setGroup(n, group.id);
        group = Group{};
        if (n.isLoop()) {
          classes_.enterLoop(n);
          walk(n.body());
          classes_.leaveLoop(n);
        } else {
          classifyNode(templateFor(n.op), n, classes_);
        }
      }
      classes_.readsDone(n);
    }
  }

 private:
  struct Group {
    int id = -1;
    int64_t count = -1;
    std::vector<int64_t> shape;
    std::set<ValueId> members;
    std::vector<const Node*> nodes;
    std::vector<ValueId> inputs;  // the kernel's inputs: graph values, kNoValue for broadcast copies
    ValueId first = graph::kNoValue;  // its first member: dynamic shapes keep members of one shape
  };

  // The group's inputs, `n`'s result, `n`'s new inputs and the group's values read later.
  bool argumentsFit(const Group& group, const Node& n) const {
    size_t args = group.inputs.size() + 1 + (shapes_.dynamic() ? 1 : 0);  // dynamic: the element count
    for (ValueId v : n.inputs) {
      bool external = !group.members.count(v) && classes_.of(v) != ValueClasses::Class::Scalar;
      if (external && std::find(group.inputs.begin(), group.inputs.end(), v) == group.inputs.end()) ++args;
    }
    for (ValueId v : group.members) args += classes_.readsAhead(v) > 0;
    return args <= static_cast<size_t>(KernelBuilder::kMaxArgs);
  }

  void add(Group& group, Node& n) {
    const graph::TensorType& type = g_.type(n.outputs[0]);
    const int64_t count = graph::elementCount(type.shape);
    bool internalBroadcast = false, broadcast = false;
    for (ValueId v : n.inputs) {
      const int64_t k = graph::elementCount(g_.type(v).shape);
      internalBroadcast |= group.members.count(v) && k != count;
      broadcast |= k != 1 && k != count;
    }
    // members share one flat index: an operand broadcast to a member reads at it only when the
    // member's shape is the group's, leading 1s aside
    const bool otherRows = broadcast && !sameBeyondLeadingOnes(graph::extents(type.shape), group.shape);
    if (group.id >= 0 && (count != group.count || !shapes_.sameDims(group.first, n.outputs[0]) || internalBroadcast ||
                          otherRows || !fuse_ || !argumentsFit(group, n))) {
      group = Group{};
    }
    if (group.id < 0) {
      group.id = next_++;
      group.count = count;
      group.shape = graph::extents(type.shape);
      group.first = n.outputs[0];
    }
    for (ValueId v : n.inputs) addOperand(group, v);
    group.members.insert(n.outputs[0]);
    group.nodes.push_back(&n);
    setGroup(n, group.id);
  }

  static void setGroup(Node& n, int id) {
    n.hints.erase(std::remove_if(n.hints.begin(), n.hints.end(), [](const auto& h) { return h.name == kFusionGroupHint; }),
                  n.hints.end());
    n.hints.push_back(graph::NamedAttr{kFusionGroupHint, static_cast<int64_t>(id)});
  }

  // Whether reduction `n` computes the group's value in its own kernel (O2): the group's only value
  // read later, read by `n` alone; every member and array operand of float or boolean type (none
  // runs on the scalar unit), array operands of the reduction's element size; static shapes; and a
  // reduction kernel that fits UB with a tile per member and operand.
  bool takesGroup(const Group& group, const Node& n) const {
    if (!reductions_ || group.id < 0 || shapes_.dynamic() || n.inputs.size() != 1 || !group.members.count(n.inputs[0])) {
      return false;
    }
    for (ValueId v : group.members)
      if (classes_.readsAhead(v) != (v == n.inputs[0] ? 1 : 0)) return false;
    auto vectorType = [&](ValueId v) {
      const DType t = g_.type(v).dtype;
      const ValueClasses::Class c = classes_.of(v);
      return t == DType::Float16 || t == DType::Float32 || t == DType::Bool || c == ValueClasses::Class::Scalar ||
             c == ValueClasses::Class::Counter;
    };
    // array operands have the reduction's element size: the kernel loads their rows at its pitch
    const int elementSize = dtypeSize(g_.type(n.inputs[0]).dtype);
    for (const Node* member : group.nodes) {
      if (!vectorType(member->outputs[0])) return false;
      for (ValueId v : member->inputs) {
        if (!vectorType(v)) return false;
        const ValueClasses::Class c = classes_.of(v);
        const bool array = !group.members.count(v) && c != ValueClasses::Class::Scalar && c != ValueClasses::Class::Counter;
        // (one element is a scalar operand, unless a boolean: vdup has no bytes)
        const bool element = graph::elementCount(g_.type(v).shape) == 1 && g_.type(v).dtype != DType::Bool;
        if (array && !element && dtypeSize(g_.type(v).dtype) != elementSize) return false;
      }
    }
    const int slots = static_cast<int>(group.nodes.size() + group.inputs.size()) + 1;
    return reduceTakesPrologue(n, g_, slots, *reductions_);
  }

  // As the elementwise template reads operands: group values and scalars are no inputs, a loop
  // counter or an array one (each once), an operand it cannot read itself one copy per use.
  void addOperand(Group& group, ValueId v) {
    if (group.members.count(v) || classes_.of(v) == ValueClasses::Class::Scalar) return;
    bool copied = classes_.of(v) != ValueClasses::Class::Counter &&
                  !readsOperand(graph::extents(g_.type(v).shape), group.shape, g_.type(v).dtype);
    if (copied) {
      group.inputs.push_back(graph::kNoValue);
    } else if (std::find(group.inputs.begin(), group.inputs.end(), v) == group.inputs.end()) {
      group.inputs.push_back(v);
    }
  }

  graph::Graph& g_;
  ValueClasses classes_;
  SymbolicShapes shapes_;  // dynamic shapes: members share their extents, not only their largest counts
  bool fuse_;
  const Target* reductions_;  // O2: reductions take the group they read (on this target's UB)
  int next_ = 0;
};

}  // namespace

int fuseElementwise(graph::Graph& graph, bool fuse, const Target* reductions) {
  Fuser f(graph, fuse, reductions);
  f.walk(graph.body);
  return f.groups();
}

}  // namespace pyasc::codegen
