// Options shared by every driver of the frontend (asc-fe, pyasc) and the parsing of their specs.
#pragma once

#include <string>
#include <vector>

#include "sdk/graph/Graph.h"

namespace pyasc::registry {
class OpRegistry;
}

namespace pyasc::frontend {

// --input=NAME:DTYPE[D0,D1,...]: an array parameter's dtype and shape (dims may be names).
struct InputSpec {
  std::string name;
  DType dtype = DType::Float32;
  graph::Shape shape;
  std::string text;  // as written, for messages
};

// --const=NAME=VALUE: a compile-time Python scalar.
struct ConstSpec {
  enum class Kind { Int, Float, Bool };
  std::string name;
  Kind kind = Kind::Int;
  int64_t intValue = 0;
  double floatValue = 0;
  bool boolValue = false;
  std::string text;
};

struct FrontendOptions {
  std::string entry;  // --entry=FUNC; empty: the module is a script
  std::vector<InputSpec> inputs;
  std::vector<ConstSpec> consts;
  // pyasc check --output: top-level script arrays that are outputs even when later statements read
  // them (their final values)
  std::vector<std::string> outputs;
  bool strictDtypes = false;       // --strict-dtypes: no weak Python scalars next to arrays
  // --max-while-trips: the most trips a while loop on array data runs (one more is a run-time
  // error); the bound lets the values it counts narrow to int32
  int64_t maxWhileTrips = 1000000;
  // Element loops over arrays run as array operations when the dependence test allows it (pyasc:
  // at O2); `# pragma: parallelize` asks for it at every level.
  bool vectorizeLoops = true;
  bool reportVectorize = false;  // --report=vectorize: a remark per range loop, vectorised or why not
  std::string target = "ascend310";  // --target; every bundled target is an NPU (float64 demoted)
  // The operators programs may call; null means registry::OpRegistry::builtin(). Drivers pass a
  // copy with the --custom-op-config operators registered, which programs call by their Python
  // name (the alias "custom.NAME").
  const registry::OpRegistry* registry = nullptr;
};

// A dynamic dimension: a symbol the inputs' shapes name (`--input=x:float32[N,H,W,3]`) and its
// range from --dynamic-dims.
struct DynamicDim {
  std::string name;
  int64_t min = 0, max = 0;
};

// Matches --dynamic-dims ("1-4,224-256,224-256" or "N=1-4,H=224-256,W=224-256") with the symbolic
// dimensions of the inputs: positional ranges go to the symbols in order of first appearance,
// named ones to their symbol; every symbol needs one range. Empty `text`: no dynamic dimensions
// (then a symbolic dimension is left to the frontend). False with `error` set on a mismatch.
bool parseDynamicDims(const std::string& text, const std::vector<InputSpec>& inputs, std::vector<DynamicDim>& out,
                      std::string& error);

// Gives a graph the frontend built from symbolic input dimensions its dynamic dimensions: the
// symbols, each input's dims over them, and every value's type at the symbols' largest values (what
// the compiler plans memory and chooses tiles for). A dimension neither known nor one of `dims`
// is a CompileError at its value.
void bindDynamicDims(graph::Graph& g, const std::vector<DynamicDim>& dims);

// Parses "a:float32[64,128]"; false with `error` set to the exact message on a bad spec.
bool parseInputSpec(const std::string& text, InputSpec& out, std::string& error);
// Parses "n=1024", "alpha=0.5", "flag=True"; false with `error` set on a bad spec.
bool parseConstSpec(const std::string& text, ConstSpec& out, std::string& error);
// Parses every spec into `options`; returns the messages of the bad ones (empty when all parse).
std::vector<std::string> parseSpecs(const std::vector<std::string>& inputs, const std::vector<std::string>& consts,
                                    FrontendOptions& options);

}  // namespace pyasc::frontend
