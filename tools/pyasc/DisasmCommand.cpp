// pyasc disasm MODEL.om: every kernel's instructions with the source line each came from.
#include <iostream>
#include <memory>

#include "runtime/Model.h"
#include "sdk/isa/Assembler.h"
#include "tools/pyasc/Command.h"

namespace pyasc::tool {

std::function<int()> setupDisasm(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  app.add_option("model", *path, "model file (.om)")->required();
  return [path]() -> int {
    try {
      pyasc::Model net = pyasc::Model::load(*path);
      for (const auto& k : net.image().kernels) {
        std::printf("%s:  ; block_dim=%u, %zu instructions\n", k.name.c_str(), k.blockDim, k.instructions.size());
        uint32_t lastLine = 0;
        for (size_t i = 0; i < k.instructions.size(); ++i) {
          uint32_t line = i < k.sourceLines.size() ? k.sourceLines[i] : 0;
          std::string text = isa::disassemble(k.instructions[i]);
          if (line != 0 && line != lastLine) {
            std::printf("  %5zu: %-72s ; %s:%u\n", i, text.c_str(), k.sourceFile.c_str(), line);
          } else {
            std::printf("  %5zu: %s\n", i, text.c_str());
          }
          lastLine = line;
        }
        std::printf("\n");
      }
    } catch (const CompileError& e) {
      return reportError(e);
    }
    return 0;
  };
}

}  // namespace pyasc::tool
