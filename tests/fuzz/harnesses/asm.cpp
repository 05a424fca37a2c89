// Fuzz harness: assembly text → instructions (asc-as); every instruction assembled encodes, decodes
// to the same encoding, and disassembles to text that assembles to it again.
#include "sdk/isa/Assembler.h"
#include "sdk/isa/Encoding.h"
#include "sdk/support/Diagnostics.h"
#include "tests/fuzz/Harness.h"

using namespace pyasc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<isa::Instruction> program;
  try {
    program = isa::assemble(fuzz::text(data, size), "fuzz.s");
  } catch (const CompileError&) {
    return 0;
  }
  std::vector<uint8_t> bytes = isa::encodeProgram(program);
  if (isa::encodeProgram(isa::decodeProgram(bytes)) != bytes) __builtin_trap();
  std::string text;
  for (const auto& inst : program) text += isa::disassemble(inst) + "\n";
  if (isa::encodeProgram(isa::assemble(text, "disassembled.s")) != bytes) __builtin_trap();
  return 0;
}
