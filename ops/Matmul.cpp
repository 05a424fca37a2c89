// Cube-family references: matmul by its batching rules, einsum by summing over every label.
#include "ops/Matmul.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace pyasc::ops {

std::vector<double> matmulReference(const std::vector<int64_t>& shapeA, const std::vector<double>& a,
                                    const std::vector<int64_t>& shapeB, const std::vector<double>& b) {
  std::vector<int64_t> sa = shapeA, sb = shapeB;
  if (sa.size() == 1) sa.insert(sa.begin(), 1);
  if (sb.size() == 1) sb.push_back(1);
  const int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  // batch dimensions, right-aligned and broadcast
  const size_t rank = std::max(sa.size(), sb.size()) - 2;
  std::vector<int64_t> batchA(rank, 1), batchB(rank, 1), batch(rank);
  std::copy(sa.begin(), sa.end() - 2, batchA.end() - static_cast<std::ptrdiff_t>(sa.size() - 2));
  std::copy(sb.begin(), sb.end() - 2, batchB.end() - static_cast<std::ptrdiff_t>(sb.size() - 2));
  int64_t batches = 1;
  for (size_t d = 0; d < rank; ++d) batches *= batch[d] = std::max(batchA[d], batchB[d]);
  std::vector<double> out(static_cast<size_t>(batches * m * n));
  for (int64_t bi = 0; bi < batches; ++bi) {
    int64_t offA = 0, offB = 0;
    for (size_t d = 0, rem = static_cast<size_t>(bi), stride = static_cast<size_t>(batches); d < rank; ++d) {
      stride /= static_cast<size_t>(batch[d]);
      const int64_t coord = static_cast<int64_t>(rem / stride);
      rem %= stride;
      offA = offA * batchA[d] + (batchA[d] == 1 ? 0 : coord);
      offB = offB * batchB[d] + (batchB[d] == 1 ? 0 : coord);
    }
    const double* pa = a.data() + offA * m * k;
    const double* pb = b.data() + offB * k * n;
    double* po = out.data() + bi * m * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p) {
        const double x = pa[i * k + p];
        for (int64_t j = 0; j < n; ++j) po[i * n + j] += x * pb[p * n + j];
      }
  }
  return out;
}

std::string explicitEinsum(const std::string& equation) {
  std::string eq;
  for (char c : equation)
    if (c != ' ') eq += c;
  if (eq.find("->") != std::string::npos) return eq;
  std::set<char> once;
  for (char c : eq)
    if (std::isalpha(static_cast<unsigned char>(c)) && std::count(eq.begin(), eq.end(), c) == 1) once.insert(c);
  return eq + "->" + std::string(once.begin(), once.end());
}

std::vector<double> einsumReference(const std::string& equation, const std::vector<std::vector<int64_t>>& shapes,
                                    const std::vector<std::vector<double>>& inputs) {
  const std::string eq = explicitEinsum(equation);
  const size_t arrow = eq.find("->");
  std::vector<std::string> terms(1);
  for (char c : eq.substr(0, arrow)) {
    if (c == ',') {
      terms.emplace_back();
    } else {
      terms.back() += c;
    }
  }
  std::map<char, int64_t> extent;
  for (size_t i = 0; i < terms.size(); ++i)
    for (size_t d = 0; d < terms[i].size(); ++d) extent[terms[i][d]] = shapes[i][d];
  const std::string output = eq.substr(arrow + 2);
  // every label, the output's first so that the output index is a prefix
  std::string labels = output;
  for (const auto& [label, e] : extent)
    if (output.find(label) == std::string::npos) labels += label;
  int64_t outCount = 1, total = 1;
  for (char c : output) outCount *= extent[c];
  for (char c : labels) total *= extent[c];
  std::vector<double> out(static_cast<size_t>(outCount));
  std::map<char, int64_t> at;
  for (int64_t k = 0; k < total; ++k) {
    for (size_t d = labels.size(), rem = static_cast<size_t>(k); d-- > 0;) {
      at[labels[d]] = static_cast<int64_t>(rem % static_cast<size_t>(extent[labels[d]]));
      rem /= static_cast<size_t>(extent[labels[d]]);
    }
    double product = 1;
    for (size_t i = 0; i < terms.size(); ++i) {
      int64_t index = 0;
      for (size_t d = 0; d < terms[i].size(); ++d) index = index * shapes[i][d] + at[terms[i][d]];
      product *= inputs[i][static_cast<size_t>(index)];
    }
    int64_t o = 0;
    for (char c : output) o = o * extent[c] + at[c];
    out[static_cast<size_t>(o)] += product;
  }
  return out;
}

ContractionLabels tensordotLabels(int rankA, int rankB, const std::vector<int64_t>& axesA,
                                  const std::vector<int64_t>& axesB) {
  ContractionLabels l;
  char next = 'a';
  for (int i = 0; i < rankA; ++i) l.a += next++;
  for (int i = 0; i < rankB; ++i) l.b += next++;
  for (size_t i = 0; i < axesA.size() && i < axesB.size(); ++i) {
    const int64_t x = axesA[i] < 0 ? axesA[i] + rankA : axesA[i], y = axesB[i] < 0 ? axesB[i] + rankB : axesB[i];
    l.b[static_cast<size_t>(y)] = l.a[static_cast<size_t>(x)];
  }
  for (char c : l.a)
    if (l.b.find(c) == std::string::npos) l.out += c;
  for (char c : l.b)
    if (l.a.find(c) == std::string::npos) l.out += c;
  return l;
}

}  // namespace pyasc::ops
