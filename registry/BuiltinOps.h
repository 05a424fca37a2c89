// Registration of the built-in operator families; OpRegistry::builtin() calls each once.
#pragma once

#include "registry/OpRegistry.h"

namespace pyasc::registry {

void registerElementwiseOps(OpRegistry& registry);
void registerReduceOps(OpRegistry& registry);
void registerCubeOps(OpRegistry& registry);
void registerDataMovementOps(OpRegistry& registry);
void registerCreationOps(OpRegistry& registry);
void registerNNOps(OpRegistry& registry);
void registerConvOps(OpRegistry& registry);
void registerPoolOps(OpRegistry& registry);
void registerComputeOps(OpRegistry& registry);

}  // namespace pyasc::registry
