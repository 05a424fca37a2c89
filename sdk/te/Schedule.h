// Schedules as data: the TVM/TBE primitives that build a kernel's schedule, one step per line,
// printable and parsed back, so that a schedule can be read, written by hand and replayed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sdk/support/Diagnostics.h"

namespace pyasc::te {

enum class Primitive {
  Split,         // split AXIS FACTOR -> AXIS.o AXIS.i
  Tile,          // tile AXIS0 AXIS1 F0 F1 -> AXIS0.o AXIS1.o AXIS0.i AXIS1.i
  Reorder,       // reorder AXIS...
  Fuse,          // fuse AXIS AXIS -> AXIS
  ComputeAt,     // compute_at TENSOR AXIS
  ComputeInline, // compute_inline TENSOR
  CacheRead,     // cache_read TENSOR SCOPE
  CacheWrite,    // cache_write TENSOR SCOPE
  DoubleBuffer,  // double_buffer BUFFERS
  Vectorize,     // vectorize AXIS
  Tensorize,     // tensorize AXIS INTRINSIC
  Bind,          // bind AXIS CORES
  Unroll,        // unroll AXIS
};

const char* primitiveName(Primitive p);  // "split", "cache_read", ...
bool parsePrimitive(const std::string& name, Primitive& out);
std::string primitiveNames();            // "split, tile, ..." for messages

// One primitive: axis and tensor names, numbers, a memory scope or intrinsic, the axes it creates,
// and where a definition wrote it (printed as " @file:line:col").
struct ScheduleStep {
  Primitive primitive = Primitive::Split;
  std::vector<std::string> names;     // axes or tensors, in the primitive's order
  std::vector<int64_t> numbers;       // factors, buffer or core counts
  std::string scope;                  // cache_read/cache_write: UB, L1, L0A, L0B, L0C; tensorize: mmad
  std::vector<std::string> results;   // the axes split, tile and fuse create
  SourceLocation loc;

  std::string str() const;
};

struct Schedule {
  std::vector<ScheduleStep> steps;

  std::string str() const;  // one step per line
  // The steps of one primitive, in order.
  std::vector<const ScheduleStep*> find(Primitive p) const;
};

// Parses Schedule::str() text; a malformed line throws CompileError naming `origin` and the line.
Schedule parseSchedule(const std::string& text, const std::string& origin);

// The number of operands each primitive takes: names, then numbers, then a scope when it has one.
struct PrimitiveShape {
  int names, numbers;
  bool scope;
  int results;
};
PrimitiveShape primitiveShape(Primitive p);

}  // namespace pyasc::te
