// Descriptor loading, registration and definition parsing in one call.
#include "frontend/CustomOps.h"

#include "frontend/TbeDefinition.h"
#include "registry/DescriptorLoader.h"
#include "registry/DescriptorRegistration.h"
#include "sdk/support/AtomicFile.h"

namespace pyasc::frontend {

bool attachDefinition(registry::OpRegistry& registry, const registry::OpDescriptor& d, const std::string& text,
                      DiagnosticEngine& diags) {
  auto impl = parseTbeDefinition(d.implPath, text, d, diags);
  if (!impl) return false;
  registry.attachImplementation(d.op, impl);
  if (d.shapeRule.kind == registry::ShapeRuleKind::Compute) {  // the output's shape is the definition's result's
    registry::InferFn byDescriptor = registry.find(d.op)->infer;
    registry.setInfer(d.op, [byDescriptor, impl, &registry](registry::InferContext& ctx) {
      if (!byDescriptor(ctx)) return false;
      ctx.outputs[0].shape = impl->inferShape(registry, ctx.node, ctx.inputs);
      return true;
    });
  }
  return true;
}

std::vector<registry::OpDescriptor> loadCustomOps(const std::vector<std::string>& configs,
                                                  registry::OpRegistry& registry, std::string& errors) {
  std::vector<Diagnostic> problems;
  std::vector<registry::OpDescriptor> descriptors;
  for (const auto& file : configs)
    for (auto& d : registry::loadDescriptorFile(file, problems)) descriptors.push_back(std::move(d));
  if (problems.empty()) registry::registerDescriptors(descriptors, registry, problems);
  for (const auto& p : problems) errors += registry::descriptorErrorLine(p) + "\n";
  if (!problems.empty()) return {};
  DiagnosticEngine diags;
  for (const auto& d : descriptors) {
    std::vector<uint8_t> bytes;
    try {
      bytes = readFileBytes(d.implPath);
    } catch (const CompileError& e) {
      errors += diags.render(e.diagnostic());
      return {};
    }
    attachDefinition(registry, d, std::string(bytes.begin(), bytes.end()), diags);
  }
  errors += diags.renderAll();
  if (diags.hasErrors()) return {};
  return descriptors;
}

}  // namespace pyasc::frontend
