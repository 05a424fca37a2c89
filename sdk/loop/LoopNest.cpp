// Construction helpers of the loop-nest IR.
#include "sdk/loop/LoopNest.h"

#include <algorithm>
#include <unordered_set>

namespace pyasc::loop {

const char* forKindName(ForKind k) {
  switch (k) {
    case ForKind::Serial: return "serial";
    case ForKind::Unrolled: return "unrolled";
    case ForKind::Vectorized: return "vectorized";
    case ForKind::Cores: return "cores";
    case ForKind::Pipelined: return "pipelined";
  }
  return "?";
}

namespace {

// base, base.1, base.2, ...: the first `names` does not hold (base itself in one pass; the numbered
// ones through a set, however many exist: unrolled loops make thousands).
template <typename Names, typename NameOf>
std::string firstFree(const std::string& base, const Names& names, NameOf nameOf) {
  if (std::none_of(names.begin(), names.end(), [&](const auto& n) { return nameOf(n) == base; })) return base;
  std::unordered_set<std::string> taken;
  for (const auto& n : names) taken.insert(nameOf(n));
  std::string name = base;
  for (int k = 1; taken.count(name); ++k) name = base + "." + std::to_string(k);
  return name;
}

}  // namespace

int Kernel::addVar(const std::string& base) {
  vars.push_back(firstFree(base, vars, [](const std::string& v) -> const std::string& { return v; }));
  return static_cast<int>(vars.size()) - 1;
}

int Kernel::findBuffer(const std::string& name) const {
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::string Kernel::freshBufferName(const std::string& base) const {
  return firstFree(base, buffers, [](const Buffer& b) -> const std::string& { return b.name; });
}

te::ExprNames Kernel::names() const {
  te::ExprNames n;
  n.vars = vars;
  for (const auto& b : buffers) n.tensors.push_back(b.name);
  return n;
}

StmtPtr block(std::vector<StmtPtr> body) {
  auto s = std::make_shared<Stmt>();
  s->kind = StmtKind::Block;
  s->body = std::move(body);
  return s;
}

StmtPtr forLoop(int var, Expr min, Expr extent, ForKind kind, std::vector<StmtPtr> body) {
  auto s = std::make_shared<Stmt>();
  s->kind = StmtKind::For;
  s->var = var;
  s->min = std::move(min);
  s->extent = std::move(extent);
  s->forKind = kind;
  s->body = std::move(body);
  return s;
}

StmtPtr store(int buffer, Expr index, Expr value) {
  auto s = std::make_shared<Stmt>();
  s->kind = StmtKind::Store;
  s->buffer = buffer;
  s->index = std::move(index);
  s->value = std::move(value);
  return s;
}

StmtPtr ifThen(Expr cond, std::vector<StmtPtr> body, std::vector<StmtPtr> orelse) {
  auto s = std::make_shared<Stmt>();
  s->kind = StmtKind::If;
  s->cond = std::move(cond);
  s->body = std::move(body);
  s->orelse = std::move(orelse);
  return s;
}

StmtPtr clone(const StmtPtr& s) {
  auto c = std::make_shared<Stmt>(*s);
  for (auto& b : c->body) b = clone(b);
  for (auto& b : c->orelse) b = clone(b);
  return c;
}

}  // namespace pyasc::loop
