// Printing and parsing the loop-nest IR.
#include "sdk/loop/LoopText.h"

#include <stdexcept>

#include "sdk/te/ExprText.h"

namespace pyasc::loop {

namespace {

const char* roleName(Buffer::Role r) {
  switch (r) {
    case Buffer::Role::Input: return "input";
    case Buffer::Role::Output: return "output";
    case Buffer::Role::Local: return "local";
  }
  return "?";
}

class Printer {
 public:
  explicit Printer(const Kernel& k) : k_(k), names_(k.names()) {}

  std::string run() {
    out_ = "kernel " + k_.name + " {\n";
    for (const auto& b : k_.buffers) {
      out_ += "  " + std::string(roleName(b.role)) + " " + b.name + " : " + isa::spaceName(b.scope) + " " +
              dtypeShortName(b.dtype) + "[" + std::to_string(b.elements) + "]";
      if (b.role == Buffer::Role::Local) {
        out_ += " align " + std::to_string(b.align);
        if (b.offset >= 0) out_ += " at " + std::to_string(b.offset);
      }
      out_ += "\n";
    }
    if (k_.body) stmts(k_.body->kind == StmtKind::Block ? k_.body->body : std::vector<StmtPtr>{k_.body}, 1);
    out_ += "}\n";
    return out_;
  }

 private:
  std::string e(const Expr& x) const { return te::printExpr(x, names_); }
  std::string ref(const Ref& r) const { return k_.buffers.at(static_cast<size_t>(r.buffer)).name + "[" + e(r.offset) + "]"; }

  void stmts(const std::vector<StmtPtr>& list, int depth) {
    for (const auto& s : list) stmt(*s, depth);
  }
  void line(int depth, const std::string& text) { out_ += std::string(static_cast<size_t>(2 * depth), ' ') + text + "\n"; }

  void stmt(const Stmt& s, int depth) {
    switch (s.kind) {
      case StmtKind::Block:
        line(depth, "{");
        stmts(s.body, depth + 1);
        line(depth, "}");
        return;
      case StmtKind::For:
        line(depth, "for " + k_.vars.at(static_cast<size_t>(s.var)) + " in " + e(s.min) + " extent " + e(s.extent) + " " +
                        forKindName(s.forKind) + (s.forKind == ForKind::Pipelined ? " " + std::to_string(s.copies) : "") +
                        " {");
        stmts(s.body, depth + 1);
        line(depth, "}");
        return;
      case StmtKind::Store:
        line(depth, k_.buffers.at(static_cast<size_t>(s.buffer)).name + "[" + e(s.index) + "] = " + e(s.value));
        return;
      case StmtKind::If:
        line(depth, "if " + e(s.cond) + " {");
        stmts(s.body, depth + 1);
        if (!s.orelse.empty()) {
          line(depth, "} else {");
          stmts(s.orelse, depth + 1);
        }
        line(depth, "}");
        return;
      case StmtKind::Dma:
        line(depth, "dma " + ref(s.dst) + " <- " + ref(s.srcs.at(0)) + " rows " + e(s.rows) + " len " + e(s.len) +
                        " strides " + e(s.dstStride) + " " + e(s.srcStride));
        return;
      case StmtKind::Vector: {
        std::string t = "vector " + s.op + " " + ref(s.dst) + " <-";
        for (size_t i = 0; i < s.srcs.size(); ++i) t += (i ? ", " : " ") + ref(s.srcs[i]);
        t += " count " + e(s.count);
        if (s.scalar) t += " scalar " + e(s.scalar);
        line(depth, t);
        return;
      }
      case StmtKind::Cube: {
        std::string t = "cube " + s.op + " " + ref(s.dst) + " <-";
        for (size_t i = 0; i < s.srcs.size(); ++i) t += (i ? ", " : " ") + ref(s.srcs[i]);
        t += " m " + std::to_string(s.m) + " k " + std::to_string(s.k) + " n " + std::to_string(s.n) + " stride " +
             e(s.op == "fix" ? s.dstStride : s.srcStride) + " valid " + e(s.validRows) + " " + e(s.validCols);
        if (s.init) t += " init";
        if (s.transposed) t += " transposed";
        line(depth, t);
        return;
      }
      case StmtKind::Sync:
        if (s.sync == Stmt::SyncKind::Barrier) {
          line(depth, std::string("barrier ") + isa::pipeName(s.srcPipe));
        } else {
          line(depth, std::string(s.sync == Stmt::SyncKind::Set ? "set_flag " : "wait_flag ") + isa::pipeName(s.srcPipe) +
                          " " + isa::pipeName(s.dstPipe) + " " + e(s.event));
        }
        return;
    }
  }

  const Kernel& k_;
  te::ExprNames names_;
  std::string out_;
};

class Parser {
 public:
  explicit Parser(const std::string& text) : r_(text, "loop text") {}

  Kernel run() {
    r_.word("kernel");
    k_.name = r_.identifier();
    r_.expect('{');
    while (r_.atWord("input") || r_.atWord("output") || r_.atWord("local")) buffer();
    std::vector<StmtPtr> body;
    while (!r_.peek('}')) body.push_back(stmt());
    r_.expect('}');
    if (!r_.atEnd()) r_.fail("unexpected text after the kernel");
    k_.body = block(std::move(body));
    return std::move(k_);
  }

 private:
  void buffer() {
    Buffer b;
    std::string role = r_.identifier();
    b.role = role == "input" ? Buffer::Role::Input : role == "output" ? Buffer::Role::Output : Buffer::Role::Local;
    b.name = r_.identifier();
    if (k_.findBuffer(b.name) >= 0) r_.fail("buffer '" + b.name + "' is declared twice");
    r_.expect(':');
    std::string space = r_.identifier();
    if (!isa::parseSpace(space, b.scope)) r_.fail("unknown memory scope '" + space + "'");
    b.dtype = r_.dtype();
    r_.expect('[');
    b.elements = r_.integer();
    r_.expect(']');
    while (b.role == Buffer::Role::Local && (r_.atWord("align") || r_.atWord("at"))) {
      std::string key = r_.identifier();
      int64_t v = r_.integer();
      if (key == "align") b.align = v;
      if (key == "at") b.offset = v;
    }
    k_.buffers.push_back(b);
  }

  Expr expr() { return te::readExpr(r_, k_.names()); }

  Ref ref() {
    std::string name = r_.identifier();
    Ref ref;
    ref.buffer = k_.findBuffer(name);
    if (ref.buffer < 0) r_.fail("unknown buffer '" + name + "'");
    r_.expect('[');
    ref.offset = expr();
    r_.expect(']');
    return ref;
  }

  std::vector<StmtPtr> bracedBody() {
    r_.expect('{');
    std::vector<StmtPtr> list;
    while (!r_.peek('}')) list.push_back(stmt());
    r_.expect('}');
    return list;
  }

  isa::Pipe pipe() {
    std::string name = r_.identifier();
    isa::Pipe p;
    if (!isa::parsePipe(name, p)) r_.fail("unknown pipe '" + name + "'");
    return p;
  }

  StmtPtr stmt() {
    if (r_.peek('{')) return block(bracedBody());
    auto s = std::make_shared<Stmt>();
    if (r_.atWord("for")) {
      r_.word("for");
      std::string name = r_.identifier();
      for (const auto& v : k_.vars) {
        if (v == name) r_.fail("loop variable '" + name + "' is declared twice");
      }
      r_.word("in");
      s->kind = StmtKind::For;
      s->min = expr();
      r_.word("extent");
      s->extent = expr();
      std::string kind = r_.identifier();
      bool known = false;
      for (ForKind k : {ForKind::Serial, ForKind::Unrolled, ForKind::Vectorized, ForKind::Cores, ForKind::Pipelined}) {
        if (kind == forKindName(k)) {
          s->forKind = k;
          known = true;
        }
      }
      if (!known) r_.fail("unknown loop kind '" + kind + "'");
      if (s->forKind == ForKind::Pipelined) s->copies = static_cast<int>(r_.integer());
      k_.vars.push_back(name);
      s->var = static_cast<int>(k_.vars.size()) - 1;
      s->body = bracedBody();
      return s;
    }
    if (r_.atWord("if")) {
      r_.word("if");
      s->kind = StmtKind::If;
      s->cond = expr();
      s->body = bracedBody();
      if (r_.atWord("else")) {
        r_.word("else");
        s->orelse = bracedBody();
      }
      return s;
    }
    if (r_.atWord("dma")) {
      r_.word("dma");
      s->kind = StmtKind::Dma;
      s->dst = ref();
      r_.expect('<');
      r_.expect('-');
      s->srcs.push_back(ref());
      r_.word("rows");
      s->rows = expr();
      r_.word("len");
      s->len = expr();
      r_.word("strides");
      s->dstStride = expr();
      s->srcStride = expr();
      return s;
    }
    if (r_.atWord("vector")) {
      r_.word("vector");
      s->kind = StmtKind::Vector;
      operation(*s);
      r_.word("count");
      s->count = expr();
      if (r_.atWord("scalar")) {
        r_.word("scalar");
        s->scalar = expr();
      }
      return s;
    }
    if (r_.atWord("cube")) {
      r_.word("cube");
      s->kind = StmtKind::Cube;
      operation(*s);
      r_.word("m");
      s->m = r_.integer();
      r_.word("k");
      s->k = r_.integer();
      r_.word("n");
      s->n = r_.integer();
      r_.word("stride");
      (s->op == "fix" ? s->dstStride : s->srcStride) = expr();
      r_.word("valid");
      s->validRows = expr();
      s->validCols = expr();
      if (r_.atWord("init")) r_.word("init"), s->init = true;
      if (r_.atWord("transposed")) r_.word("transposed"), s->transposed = true;
      return s;
    }
    if (r_.atWord("set_flag") || r_.atWord("wait_flag")) {
      s->kind = StmtKind::Sync;
      s->sync = r_.identifier() == "set_flag" ? Stmt::SyncKind::Set : Stmt::SyncKind::Wait;
      s->srcPipe = pipe();
      s->dstPipe = pipe();
      s->event = expr();
      return s;
    }
    if (r_.atWord("barrier")) {
      r_.word("barrier");
      s->kind = StmtKind::Sync;
      s->sync = Stmt::SyncKind::Barrier;
      s->srcPipe = pipe();
      return s;
    }
    // BUFFER[index] = value
    Ref target = ref();
    r_.expect('=');
    s->kind = StmtKind::Store;
    s->buffer = target.buffer;
    s->index = target.offset;
    s->value = expr();
    return s;
  }

  // OP DST <- SRC, SRC...
  void operation(Stmt& s) {
    s.op = r_.identifier();
    s.dst = ref();
    r_.expect('<');
    r_.expect('-');
    do {
      s.srcs.push_back(ref());
    } while (r_.peek(',') && (r_.expect(','), true));
  }

  te::TextReader r_;
  Kernel k_;
};

}  // namespace

std::string printKernel(const Kernel& k) { return Printer(k).run(); }

Kernel parseKernel(const std::string& text) { return Parser(text).run(); }

Kernel parseKernelFile(const std::string& path, const std::string& text) {
  try {
    return parseKernel(text);
  } catch (const te::TextError& e) {
    throw CompileError(SourceLocation{path, e.line, e.column}, e.message);
  }
}

}  // namespace pyasc::loop
