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
#include "sdk/support/Diagnostics.h"

namespace {

// Writes through a temporary file in the same folder and a rename, so readers never see a
// partial binary. Paths that are not regular files (/dev/null, pipes) are written directly.
void writeAtomically(const std::string& path, const std::vector<uint8_t>& bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  bool special = fs::exists(path, ec) && !fs::is_regular_file(path, ec);
  std::string target = special ? path : path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      if (!special) fs::remove(target, ec);
      throw pyasc::CompileError(pyasc::SourceLocation{path}, "cannot write the output file");
    }
  }
  if (special) return;
  fs::rename(target, path, ec);
  if (ec) {
    fs::remove(target, ec);
    throw pyasc::CompileError(pyasc::SourceLocation{path}, "cannot write the output file");
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Assembles pyasc NPU assembly into a binary of 32-byte instructions"};
  std::string input;
  std::string output;
  app.add_option("input", input, "assembly file (.s)")->required();
  app.add_option("-o,--output", output, "binary file to write")->required();
  CLI11_PARSE(app, argc, argv);

  try {
    std::error_code ec;
    std::ifstream in(input, std::ios::binary);
    if (!in || std::filesystem::is_directory(input, ec)) {
      throw pyasc::CompileError(pyasc::SourceLocation{input}, "cannot read the input file");
    }
    std::stringstream text;
    text << in.rdbuf();
    std::vector<pyasc::isa::Instruction> program = pyasc::isa::assemble(text.str(), input);
    writeAtomically(output, pyasc::isa::encodeProgram(program));
  } catch (const pyasc::CompileError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
