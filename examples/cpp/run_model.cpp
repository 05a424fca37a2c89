// The runtime's C++ API in one program: load a model, bind inputs, run it, read the outputs.
//   run_model MODEL.om [NAME=FILE.npy]...
#include <cstdio>
#include <string>

#include "runtime/Model.h"
#include "sdk/support/Diagnostics.h"

int main(int argc, char** argv) {
  const char* usage = "usage: run_model MODEL.om [NAME=FILE.npy]...\n";
  if (argc >= 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::printf("%s", usage);
    return 0;
  }
  if (argc < 2 || argv[1][0] == '-') {  // exit status 2: a command line it cannot use (docs/cli.md)
    if (argc >= 2) std::fprintf(stderr, "run_model: unknown option '%s'\n", argv[1]);
    std::fprintf(stderr, "%s", usage);
    return 2;
  }
  try {
    pyasc::Model net = pyasc::Model::load(argv[1]);  // checks every offset, the version and the target
    for (int i = 2; i < argc; ++i) {
      std::string spec = argv[i];
      size_t eq = spec.find('=');
      if (eq == std::string::npos) {
        std::fprintf(stderr, "run_model: '%s' is not NAME=FILE.npy\n", argv[i]);
        return 2;
      }
      net.setInput(spec.substr(0, eq), pyasc::readNpy(spec.substr(eq + 1)));  // dtype and shape are checked
    }
    pyasc::RunResult result = net.run();  // unbound np.random inputs are generated as NumPy would
    for (const auto& [name, array] : result.outputs) {
      pyasc::writeNpy(name + ".npy", array);
      std::printf("%s: %lld elements -> %s.npy\n", name.c_str(), static_cast<long long>(array.elementCount()),
                  name.c_str());
    }
    std::printf("%llu cycles on %s\n", static_cast<unsigned long long>(result.stats.cycles), net.target().name.c_str());
  } catch (const pyasc::CompileError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
