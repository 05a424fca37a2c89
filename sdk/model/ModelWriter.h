// Serialises a Model into the .om format (docs/om-format.md): deterministic bytes, atomic file writes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sdk/model/Model.h"

namespace pyasc::model {

// Validates the model (validateModel; `name` appears in messages) and returns the file bytes of
// format version kFormatMajor.kFormatMinor. The same Model always gives the same bytes.
std::vector<uint8_t> serialize(const Model& model, const std::string& name = "model");

// serialize(), then writeFileAtomically(); errors name `path`.
void writeModel(const std::string& path, const Model& model);

}  // namespace pyasc::model
