// Broadcasting with symbolic dimensions and axis normalisation.
#include "registry/ShapeInference.h"

#include <algorithm>

namespace pyasc::registry {

using graph::Dim;
using graph::Shape;

bool broadcastShapes(const Shape& a, const Shape& b, Shape& out) {
  const size_t rank = std::max(a.size(), b.size());
  out.assign(rank, Dim::known(1));
  for (size_t i = 0; i < rank; ++i) {
    const Dim da = i < rank - a.size() ? Dim::known(1) : a[i - (rank - a.size())];
    const Dim db = i < rank - b.size() ? Dim::known(1) : b[i - (rank - b.size())];
    if (da == db || db == Dim::known(1)) {
      out[i] = da;
    } else if (da == Dim::known(1)) {
      out[i] = db;
    } else if (!da.isKnown() && db.isKnown()) {
      out[i] = db;  // a symbolic extent meeting a known one must equal it (or be 1)
    } else if (da.isKnown() && !db.isKnown()) {
      out[i] = da;
    } else {
      return false;
    }
  }
  return true;
}

std::string numpyShape(const Shape& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + shape[i].str();
  if (shape.size() == 1) s += ",";
  return s + ")";
}

bool normalizeAxis(int64_t axis, int rank, int64_t& out) {
  if (axis < -rank || axis >= rank) return false;
  out = axis < 0 ? axis + rank : axis;
  return true;
}

std::string axisError(int64_t axis, int rank) {
  return "axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(rank);
}

int64_t sliceLength(int64_t begin, int64_t end, int64_t step) {
  if (step > 0) return end > begin ? (end - begin + step - 1) / step : 0;
  return begin > end ? (begin - end - step - 1) / -step : 0;
}

}  // namespace pyasc::registry
