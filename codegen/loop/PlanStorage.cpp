// Stage plan-storage: offsets of local buffers, first fit in declaration order.
#include "codegen/loop/PlanStorage.h"

#include <map>

namespace pyasc::codegen {

loop::Kernel planStorage(const loop::Kernel& k, const Target& target, const SourceLocation& where) {
  loop::Kernel out = k;
  std::map<isa::Space, int64_t> used;
  std::map<isa::Space, std::string> listed;
  for (auto& b : out.buffers) {
    if (b.role != loop::Buffer::Role::Local) continue;
    int64_t align = std::max<int64_t>(b.align, target.buffer(b.scope).align);
    int64_t bytes = (b.elements * dtypeSize(b.dtype) + align - 1) / align * align;
    int64_t& at = used[b.scope];
    at = (at + align - 1) / align * align;
    b.offset = at;
    at += bytes;
    listed[b.scope] += (listed[b.scope].empty() ? "" : ", ") + b.name + " " + std::to_string(bytes);
  }
  for (const auto& [scope, bytes] : used) {
    int64_t capacity = target.buffer(scope).size;
    if (bytes > capacity) {
      throw CompileError(where, "te.compute '" + k.name + "': its " + isa::spaceName(scope) + " buffers need " +
                                    std::to_string(bytes) + " bytes (" + listed[scope] + "), but " +
                                    isa::spaceName(scope) + " holds " + std::to_string(capacity) +
                                    " bytes; split the vectorized axis by a smaller factor");
    }
  }
  return out;
}

}  // namespace pyasc::codegen
