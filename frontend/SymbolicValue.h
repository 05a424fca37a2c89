// What a Python name or expression stands for during analysis: a compile-time Python value, an
// array in the graph (possibly a view of another), a loop index, a module, a function or a dtype.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/Ast.h"
#include "registry/Promotion.h"
#include "sdk/graph/Graph.h"

namespace pyasc::frontend {

// The array behind one or more names; in-place updates replace `current` and bump `version`
// so that names and views that share it see the update (NumPy reference semantics).
struct ArrayStorage {
  graph::ValueId current = graph::kNoValue;
  int version = 0;
};

// A basic-indexing view a[...] of a storage: reads re-slice when the storage changed, writes
// go through to the storage as a SliceUpdate.
struct ArrayView {
  std::shared_ptr<ArrayStorage> root;
  std::vector<int64_t> axes, begin, end, step;  // Slice attributes, in root coordinates
  std::vector<int64_t> dynamicAxes;
  std::vector<graph::ValueId> offsets;  // one per dynamic axis
  std::vector<int64_t> squeezedAxes;    // integer-indexed axes, in sliced coordinates
  std::vector<int64_t> newAxes;         // np.newaxis positions, in result coordinates
  std::string text;                     // the source spelling, for messages ("data[i:i+128]")
  // The last read, valid while the root keeps `cachedVersion` and its region is still open.
  graph::ValueId cachedValue = graph::kNoValue;
  int cachedVersion = -1;
  int cachedRegion = -1;
};

enum class SymKind {
  Poison,     // the result of an error already reported; every use is silent
  None,
  Bool,
  Int,
  Float,
  String,
  Tuple,      // also Python lists
  DType,
  Module,     // "numpy", "numpy.random", "pyasc", "pyasc.nn", "math"
  Function,   // a def in the program
  Builtin,    // range, len, int, float, print...
  Callable,   // a module member resolved later ("numpy.sum"), or a bound method
  Tensor,
  LoopIndex,  // scale * index + offset for the induction variable of a kept loop
  SymbolicDim,  // a dimension known only by name (N); usable only where a graph shape is
  TensorType,   // the pyasc.Tensor annotation helper
  Selection,    // a boolean-mask selection: items are the values and the mask (frontend/Selections.cpp)
  Complex,      // a complex number or array: items are its real and imaginary planes (frontend/Complex.cpp)
};

struct SymValue {
  SymKind kind = SymKind::None;
  bool boolValue = false;
  int64_t intValue = 0;
  double floatValue = 0;
  // string value, module path, callable path, builtin name, dimension symbol; for an array, the
  // loop index it was computed from (so conditions on it get the loop-index message)
  std::string text;
  DType dtype = DType::Float32;  // for DType (with text "complex": the complex dtype of these planes)
  std::vector<SymValue> items;   // Tuple
  const Stmt* function = nullptr;  // Function
  std::shared_ptr<SymValue> self;  // Callable: the array a method is bound to

  // Tensor
  std::shared_ptr<ArrayStorage> storage;
  std::shared_ptr<ArrayView> view;
  std::optional<registry::ScalarKind> weak;  // a runtime Python scalar: promotes like a literal
  bool untyped = false;                      // a parameter with no declared dtype
  std::string paramName;                     // the parameter an untyped tensor came from
  bool demotedFloat64 = false;  // float64 random values rounded to float32: warn when computed with
  std::string copyOfView;  // a slice of a view ("row[1:]"): a copy, so writes into it are refused

  // LoopIndex
  graph::ValueId indexVar = graph::kNoValue;
  int64_t scale = 1;
  int64_t offset = 0;
  int64_t minIndex = 0, maxIndex = 0;  // range of the induction variable itself

  SourceRange range;  // where the value was written, for notes

  static SymValue poison() { return make(SymKind::Poison); }
  static SymValue none() { return make(SymKind::None); }
  static SymValue ofBool(bool b) {
    SymValue v = make(SymKind::Bool);
    v.boolValue = b;
    return v;
  }
  static SymValue ofInt(int64_t i) {
    SymValue v = make(SymKind::Int);
    v.intValue = i;
    return v;
  }
  static SymValue ofFloat(double f) {
    SymValue v = make(SymKind::Float);
    v.floatValue = f;
    return v;
  }
  static SymValue ofString(std::string s) {
    SymValue v = make(SymKind::String);
    v.text = std::move(s);
    return v;
  }
  static SymValue ofDType(DType t) {
    SymValue v = make(SymKind::DType);
    v.dtype = t;
    return v;
  }
  static SymValue named(SymKind kind, std::string text) {
    SymValue v = make(kind);
    v.text = std::move(text);
    return v;
  }
  static SymValue tuple(std::vector<SymValue> items) {
    SymValue v = make(SymKind::Tuple);
    v.items = std::move(items);
    return v;
  }
  static SymValue make(SymKind kind) {
    SymValue v;
    v.kind = kind;
    return v;
  }

  bool isScalarConstant() const { return kind == SymKind::Bool || kind == SymKind::Int || kind == SymKind::Float; }
  double number() const {
    return kind == SymKind::Float ? floatValue : kind == SymKind::Int ? static_cast<double>(intValue) : boolValue;
  }
};

}  // namespace pyasc::frontend
