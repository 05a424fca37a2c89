// Shape rules shared by the operator entries and the frontend: broadcasting, axes, NumPy spelling.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sdk/graph/Graph.h"

namespace pyasc::registry {

// NumPy broadcasting of two shapes; false when a pair of dimensions differs and neither is 1.
bool broadcastShapes(const graph::Shape& a, const graph::Shape& b, graph::Shape& out);
// Shapes the way NumPy prints them: "(3, 4)", "(5,)", "()".
std::string numpyShape(const graph::Shape& shape);
// Maps a possibly negative axis into [0, rank); false when out of range.
bool normalizeAxis(int64_t axis, int rank, int64_t& out);
// "axis 2 is out of bounds for array of dimension 2" (NumPy's AxisError wording).
std::string axisError(int64_t axis, int rank);
// The number of elements of begin:end:step once begin and end are clamped into the axis
// (end may be -1 with a negative step: "down to and including index 0").
int64_t sliceLength(int64_t begin, int64_t end, int64_t step);

}  // namespace pyasc::registry
