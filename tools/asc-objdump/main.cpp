// asc-objdump: prints a binary of NPU instructions, one line each: index, bytes, canonical text.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "sdk/isa/Assembler.h"
#include "sdk/isa/Encoding.h"
#include "sdk/support/Diagnostics.h"
#include "tools/CommandLine.h"

int main(int argc, char** argv) {
  CLI::App app{"Prints a binary of pyasc NPU instructions as bytes and canonical assembly"};
  std::string input;
  bool noBytes = false;
  app.add_option("input", input, "binary file")->required();
  app.add_flag("--no-bytes", noBytes, "print only the assembly text, one instruction per line");
  PYASC_PARSE(app, argc, argv);

  std::error_code ec;
  std::ifstream in(input, std::ios::binary);
  if (!in || std::filesystem::is_directory(input, ec)) {
    std::cerr << input << ": error: cannot read the input file\n";
    return 1;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<pyasc::isa::Instruction> program;
  try {
    program = pyasc::isa::decodeProgram(bytes);
  } catch (const pyasc::CompileError& e) {
    std::cerr << input << ": error: " << e.diagnostic().message << "\n";
    return 1;
  }
  for (size_t i = 0; i < program.size(); ++i) {
    std::string text = pyasc::isa::disassemble(program[i]);
    if (noBytes) {
      std::cout << text << "\n";
      continue;
    }
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "%4zu:", i);
    std::cout << prefix;
    for (int b = 0; b < pyasc::isa::kInstructionBytes; ++b) {
      char hex[4];
      std::snprintf(hex, sizeof hex, " %02x", bytes[i * pyasc::isa::kInstructionBytes + b]);
      std::cout << hex;
    }
    std::cout << "  " << text << "\n";
  }
  return 0;
}
