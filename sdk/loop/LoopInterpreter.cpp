// The loop-nest interpreter.
#include "sdk/loop/LoopInterpreter.h"

#include <cmath>
#include <deque>
#include <stdexcept>

namespace pyasc::loop {

namespace {

using te::Op;

class Interpreter {
 public:
  Interpreter(const Kernel& k, std::vector<std::vector<double>>& params) : k_(k), vars_(k.vars.size(), 0) {
    size_t p = 0;
    for (const auto& b : k.buffers) {
      if (b.role == Buffer::Role::Local) {
        locals_.emplace_back(static_cast<size_t>(b.elements), 0.0);
        data_.push_back(&locals_.back());
      } else {
        if (p >= params.size()) throw std::runtime_error("missing parameter '" + b.name + "'");
        if (static_cast<int64_t>(params[p].size()) != b.elements) throw std::runtime_error("parameter '" + b.name + "' has the wrong size");
        data_.push_back(&params[p++]);
      }
    }
  }

  void run() {
    if (k_.body) stmt(*k_.body);
  }

 private:
  double& at(int buffer, int64_t index, const char* what) {
    std::vector<double>& d = *data_.at(static_cast<size_t>(buffer));
    if (index < 0 || index >= static_cast<int64_t>(d.size())) {
      throw std::runtime_error(std::string(what) + ": " + k_.buffers[static_cast<size_t>(buffer)].name + "[" +
                               std::to_string(index) + "] is outside its " + std::to_string(d.size()) + " elements");
    }
    return d[static_cast<size_t>(index)];
  }

  double eval(const Expr& e) {
    te::ExprEnvironment env;
    env.var = [&](int v) { return static_cast<double>(vars_[static_cast<size_t>(v)]); };
    env.load = [&](int buffer, const std::vector<int64_t>& indices) { return at(buffer, indices.at(0), "load"); };
    env.reduce = [](const te::ComputeNode&) -> double { throw std::runtime_error("a reduction must be lowered to loops first"); };
    return te::evaluateExpr(e, env);
  }

  int64_t integer(const Expr& e) { return static_cast<int64_t>(eval(e)); }

  void stmts(const std::vector<StmtPtr>& list) {
    for (const auto& s : list) stmt(*s);
  }

  void stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Block: stmts(s.body); return;
      case StmtKind::For: {
        int64_t lo = integer(s.min), n = integer(s.extent);
        for (int64_t i = lo; i < lo + n; ++i) {
          vars_[static_cast<size_t>(s.var)] = i;
          stmts(s.body);
        }
        return;
      }
      case StmtKind::Store: {
        double v = eval(s.value);
        at(s.buffer, integer(s.index), "store") = te::castValue(v, k_.buffers[static_cast<size_t>(s.buffer)].dtype);
        return;
      }
      case StmtKind::If:
        if (eval(s.cond) != 0) {
          stmts(s.body);
        } else {
          stmts(s.orelse);
        }
        return;
      case StmtKind::Dma: {
        int64_t rows = integer(s.rows), len = integer(s.len), ds = integer(s.dstStride), ss = integer(s.srcStride);
        int64_t d0 = integer(s.dst.offset), s0 = integer(s.srcs[0].offset);
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t i = 0; i < len; ++i) at(s.dst.buffer, d0 + r * ds + i, "dma") = at(s.srcs[0].buffer, s0 + r * ss + i, "dma");
        }
        return;
      }
      case StmtKind::Vector: vector(s); return;
      case StmtKind::Cube: cube(s); return;
      case StmtKind::Sync: return;  // ordering only: the interpreter runs statements in program order
    }
  }

  // L0A, L0B and L0C hold their tiles row by row here (the cube's fractal order is the simulator's).
  void cube(const Stmt& s) {
    const int64_t d0 = integer(s.dst.offset), rows = integer(s.validRows), cols = integer(s.validCols);
    if (s.op == "mmad") {
      int64_t a0 = integer(s.srcs[0].offset), b0 = integer(s.srcs[1].offset);
      for (int64_t i = 0; i < s.m; ++i) {
        for (int64_t j = 0; j < s.n; ++j) {
          double acc = s.init ? 0.0 : at(s.dst.buffer, d0 + i * s.n + j, "mmad");
          for (int64_t t = 0; t < s.k; ++t) acc += at(s.srcs[0].buffer, a0 + i * s.k + t, "mmad") * at(s.srcs[1].buffer, b0 + t * s.n + j, "mmad");
          at(s.dst.buffer, d0 + i * s.n + j, "mmad") = acc;
        }
      }
      return;
    }
    const int64_t s0 = integer(s.srcs[0].offset);
    if (s.op == "fix") {
      const int64_t stride = integer(s.dstStride);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
          at(s.dst.buffer, d0 + r * stride + c, "fix") =
              te::castValue(at(s.srcs[0].buffer, s0 + r * s.n + c, "fix"), k_.buffers[static_cast<size_t>(s.dst.buffer)].dtype);
        }
      }
      return;
    }
    const int64_t stride = integer(s.srcStride);
    const bool a = s.op == "load_l0a";
    const int64_t tileRows = a ? s.m : s.k, tileCols = a ? s.k : s.n;
    for (int64_t r = 0; r < tileRows; ++r) {
      for (int64_t c = 0; c < tileCols; ++c) {
        bool valid = r < rows && c < cols;
        int64_t from = s.transposed ? c * stride + r : r * stride + c;
        at(s.dst.buffer, d0 + r * tileCols + c, s.op.c_str()) = valid ? at(s.srcs[0].buffer, s0 + from, s.op.c_str()) : 0.0;
      }
    }
  }

  void vector(const Stmt& s) {
    int64_t n = integer(s.count), d0 = integer(s.dst.offset);
    if (s.op == "vcadd" || s.op == "vcmax" || s.op == "vcmin") {  // every element folded into dst[0]
      int64_t s0 = integer(s.srcs.at(0).offset);
      double acc = at(s.srcs[0].buffer, s0, "vector");
      for (int64_t i = 1; i < n; ++i) {
        double x = at(s.srcs[0].buffer, s0 + i, "vector");
        acc = s.op == "vcadd" ? acc + x : s.op == "vcmax" ? std::max(acc, x) : std::min(acc, x);
      }
      at(s.dst.buffer, d0, "vector") = te::castValue(acc, k_.buffers[static_cast<size_t>(s.dst.buffer)].dtype);
      return;
    }
    std::vector<int64_t> src;
    for (const auto& r : s.srcs) src.push_back(integer(r.offset));
    double scalar = s.scalar ? eval(s.scalar) : 0;
    DType t = k_.buffers[static_cast<size_t>(s.dst.buffer)].dtype;
    for (int64_t i = 0; i < n; ++i) {
      auto x = [&](size_t k) { return at(s.srcs.at(k).buffer, src[k] + i, "vector"); };
      double v;
      const std::string& op = s.op;
      if (op == "vadd") v = x(0) + x(1);
      else if (op == "vsub") v = x(0) - x(1);
      else if (op == "vmul") v = x(0) * x(1);
      else if (op == "vdiv") v = x(0) / x(1);
      else if (op == "vmax") v = std::max(x(0), x(1));
      else if (op == "vmin") v = std::min(x(0), x(1));
      else if (op == "vadds") v = x(0) + scalar;
      else if (op == "vmuls") v = x(0) * scalar;
      else if (op == "vmaxs") v = std::max(x(0), scalar);
      else if (op == "vmins") v = std::min(x(0), scalar);
      else if (op == "vexp") v = std::exp(x(0));
      else if (op == "vln") v = std::log(x(0));
      else if (op == "vsqrt") v = std::sqrt(x(0));
      else if (op == "vabs") v = std::fabs(x(0));
      else if (op == "vrelu") v = std::max(x(0), 0.0);
      else if (op == "vrec") v = 1 / x(0);
      else if (op == "vdup") v = scalar;
      else if (op == "vmov" || op == "vconv") v = x(0);
      else throw std::runtime_error("vector operation '" + op + "' is not interpreted");
      at(s.dst.buffer, d0 + i, "vector") = te::castValue(v, t);
    }
  }

  const Kernel& k_;
  std::vector<int64_t> vars_;
  std::deque<std::vector<double>> locals_;  // local buffers (a deque keeps their addresses)
  std::vector<std::vector<double>*> data_;  // every buffer's elements, by index
};

}  // namespace

void interpretKernel(const Kernel& k, std::vector<std::vector<double>>& params) { Interpreter(k, params).run(); }

}  // namespace pyasc::loop
