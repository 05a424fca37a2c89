// Integer expressions over shape symbols (the dynamic dimensions a model was compiled for): the
// extents of tensors and the tiling values kernels take, evaluated when the shapes are bound.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pyasc {

struct ShapeExprNode;
using ShapeExpr = std::shared_ptr<const ShapeExprNode>;

enum class ShapeOp : uint8_t { Const = 0, Symbol = 1, Add = 2, Sub = 3, Mul = 4, FloorDiv = 5, CeilDiv = 6, Min = 7, Max = 8 };
constexpr int kShapeOpCount = 9;

struct ShapeExprNode {
  ShapeOp op = ShapeOp::Const;
  int64_t value = 0;    // Const: the value; Symbol: the symbol's index
  ShapeExpr a, b;       // the operands of the binary operators
};

namespace shape {

ShapeExpr constant(int64_t v);
ShapeExpr symbol(int index);
// The operators fold constants and the identities x+0, x*1, x*0, x//1 as they build.
ShapeExpr add(const ShapeExpr& a, const ShapeExpr& b);
ShapeExpr sub(const ShapeExpr& a, const ShapeExpr& b);
ShapeExpr mul(const ShapeExpr& a, const ShapeExpr& b);
ShapeExpr floorDiv(const ShapeExpr& a, const ShapeExpr& b);  // Python's //
ShapeExpr ceilDiv(const ShapeExpr& a, const ShapeExpr& b);
ShapeExpr min(const ShapeExpr& a, const ShapeExpr& b);
ShapeExpr max(const ShapeExpr& a, const ShapeExpr& b);
ShapeExpr product(const std::vector<ShapeExpr>& dims);  // 1 for none

bool isConst(const ShapeExpr& e);
bool same(const ShapeExpr& a, const ShapeExpr& b);
// The value with symbol i bound to symbols[i]; throws std::domain_error on a division by zero.
int64_t evaluate(const ShapeExpr& e, const std::vector<int64_t>& symbols);
// The least and greatest values over every binding with symbol i in [lo[i], hi[i]] (interval
// arithmetic: exact for the monotone expressions shapes are).
int64_t lowest(const ShapeExpr& e, const std::vector<int64_t>& lo, const std::vector<int64_t>& hi);
int64_t highest(const ShapeExpr& e, const std::vector<int64_t>& lo, const std::vector<int64_t>& hi);
// Python-like text with the symbols' names: "N*H*W*3", "(H + 1)//2".
std::string text(const ShapeExpr& e, const std::vector<std::string>& names);
// The expression `text` writes (the form text() prints, spaces optional; min, max and ceil(a / b)
// too), its names looked up in `names`; with `addNames`, a name not there is appended. Null when the
// text is not such an expression or names an unknown symbol.
ShapeExpr parse(const std::string& text, std::vector<std::string>& names, bool addNames);
// Without spaces, as dimensions print in tensor types: "(H-1)//2+1".
std::string compactText(const ShapeExpr& e, const std::vector<std::string>& names);
// Whether the expression reads symbol `index` (any symbol when index < 0).
bool reads(const ShapeExpr& e, int index = -1);

}  // namespace shape
}  // namespace pyasc
