// asc-as: assembles NPU assembly text (docs/isa.md) into a binary of 32-byte instructions.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include "sdk/isa/Assembler.h"
#include "sdk/isa/Encoding.h"
#include "sdk/support/AtomicFile.h"
#include "sdk/support/Diagnostics.h"
#include "tools/CommandLine.h"


int main(int argc, char** argv) {
  CLI::App app{"Assembles pyasc NPU assembly into a binary of 32-byte instructions"};
  std::string input;
  std::string output;
  app.add_option("input", input, "assembly file (.s)")->required();
  app.add_option("-o,--output", output, "binary file to write")->required();
  PYASC_PARSE(app, argc, argv);

  try {
    std::error_code ec;
    std::ifstream in(input, std::ios::binary);
    if (!in || std::filesystem::is_directory(input, ec)) {
      throw pyasc::CompileError(pyasc::SourceLocation{input}, "cannot read the input file");
    }
    std::stringstream text;
    text << in.rdbuf();
    std::vector<pyasc::isa::Instruction> program = pyasc::isa::assemble(text.str(), input);
    pyasc::writeFileAtomically(output, pyasc::isa::encodeProgram(program));
  } catch (const pyasc::CompileError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
