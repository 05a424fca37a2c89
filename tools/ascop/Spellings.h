// How a program spells a registry operator: np.add, a.sum(), '+', pyasc.nn.relu, custom_relu.
#pragma once

#include <string>

#include "registry/OpRegistry.h"

namespace pyasc::ascop {

// Every spelling of `opName`, comma-separated, in the registry's alias order.
std::string spellingsOf(const registry::OpRegistry& registry, const std::string& opName);

}  // namespace pyasc::ascop
