// Field lookup and kind names of the positioned descriptor tree.
#include "registry/DescriptorTree.h"

namespace pyasc::registry {

const DescriptorNode* DescriptorNode::field(const std::string& key) const {
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i].text == key) return &items[i];
  }
  return nullptr;
}

const char* nodeKindName(DescriptorNode::Kind kind) {
  static const char* const names[] = {"null", "a boolean", "an integer", "a number", "a string", "a list",
                                      "an object"};
  return names[static_cast<int>(kind)];
}

}  // namespace pyasc::registry
