// float64 references of the cube family (matmul with NumPy's batching rules, einsum, tensordot) and
// tensordot's einsum labels, shared with kernel selection.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pyasc::ops {

// np.matmul of a (row-major, shapeA) and b (shapeB): 1-D operands promoted and their axis dropped
// from the result, batch dimensions broadcast.
std::vector<double> matmulReference(const std::vector<int64_t>& shapeA, const std::vector<double>& a,
                                    const std::vector<int64_t>& shapeB, const std::vector<double>& b);

// `equation` without spaces and with its output explicit: NumPy's implicit output ("ij,jk") is the
// labels used once, in alphabetical order ("ij,jk->ik").
std::string explicitEinsum(const std::string& equation);

// np.einsum(equation, *inputs) for explicit ("ij,jk->ik") and implicit ("ij,jk") outputs, without
// ellipsis; repeated labels within an operand read its diagonal.
std::vector<double> einsumReference(const std::string& equation, const std::vector<std::vector<int64_t>>& shapes,
                                    const std::vector<std::vector<double>>& inputs);

// np.tensordot(a, b, (axesA, axesB)) as einsum labels: one letter per axis of a, then of b (paired
// axes share a's letter), the output lists a's free axes then b's.
struct ContractionLabels {
  std::string a, b, out;
  std::string equation() const { return a + "," + b + "->" + out; }
};
ContractionLabels tensordotLabels(int rankA, int rankB, const std::vector<int64_t>& axesA,
                                  const std::vector<int64_t>& axesB);

}  // namespace pyasc::ops
