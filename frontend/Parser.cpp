// Recursive descent over the token stream, one function per grammar rule of the Python reference.
#include "frontend/Parser.h"

#include <cerrno>
#include <cstdlib>

#include "frontend/Lexer.h"

namespace pyasc::frontend {

namespace {

bool isKeywordName(const std::string& s) {
  static const char* const keywords[] = {"False", "None", "True", "and", "as", "assert", "async", "await",
                                         "break", "class", "continue", "def", "del", "elif", "else", "except",
                                         "finally", "for", "from", "global", "if", "import", "in", "is",
                                         "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
                                         "while", "with", "yield"};
  for (const char* k : keywords) {
    if (!s.empty() && s[0] == k[0] && s == k) return true;
  }
  return false;
}

class ModuleParser {
 public:
  ModuleParser(const std::string& file, const std::string& text, DiagnosticEngine& diags)
      : file_(file), tokens_(tokenize(file, text)), diags_(diags) {}

  Module parse() {
    Module module;
    module.file = file_;
    while (!at(TokenKind::End)) parseStatementInto(module.body);
    return module;
  }

 private:
  // ---- token helpers
  const Token& tok() const { return tokens_[pos_]; }
  const Token& peekTok(size_t ahead = 1) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
  bool at(TokenKind k) const { return tok().kind == k; }
  bool atOp(const char* op) const { return tok().isOp(op); }
  bool atKeyword(const char* k) const { return tok().isKeyword(k); }
  const Token& take() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  const Token& previous() const { return tokens_[pos_ > 0 ? pos_ - 1 : 0]; }

  [[noreturn]] void failAt(const SourceRange& range, const std::string& message) const {
    throw CompileError(Diagnostic{Severity::Error, range, message, {}});
  }
  [[noreturn]] void failHere(const std::string& message) const { failAt(tok().range, message); }

  std::string describe(const Token& t) const {
    switch (t.kind) {
      case TokenKind::Newline: return "end of line";
      case TokenKind::Indent: return "an indented block";
      case TokenKind::Dedent: return "the end of the block";
      case TokenKind::End: return "the end of the file";
      case TokenKind::String: return "a string";
      default: return "'" + t.text + "'";
    }
  }
  void expectOp(const char* op, const char* context) {
    if (!atOp(op)) failHere(std::string("expected '") + op + "' " + context + ", found " + describe(tok()));
    take();
  }
  std::string expectName(const char* what) {
    if (!at(TokenKind::Name) || isKeywordName(tok().text)) failHere(std::string("expected ") + what + ", found " + describe(tok()));
    return take().text;
  }
  void expectNewline() {
    if (at(TokenKind::End)) return;
    if (!at(TokenKind::Newline)) failHere("invalid syntax: unexpected " + describe(tok()) + " after the statement");
    take();
  }

  static SourceRange span(const SourceRange& first, const SourceRange& last) {
    SourceRange r = first;
    if (last.begin.line == first.begin.line && last.begin.col >= first.begin.col) {
      r.length = last.begin.col + last.length - first.begin.col;
    }
    return r;
  }
  SourceRange spanToPrevious(const SourceRange& first) const { return span(first, previous().range); }

  void unsupported(const SourceRange& range, const std::string& message) { diags_.error(range, message); }

  ExprPtr makeExpr(ExprKind kind, const SourceRange& range) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->range = range;
    return e;
  }

  // Bounds the parser's recursion: CPython also refuses absurdly nested expressions and blocks.
  class NestingGuard {
   public:
    explicit NestingGuard(ModuleParser& parser) : parser_(parser) {
      if (++parser_.depth_ > kMaxNesting) {
        parser_.failHere("expression or blocks nested too deeply; split them into several statements or functions");
      }
    }
    ~NestingGuard() { --parser_.depth_; }

   private:
    ModuleParser& parser_;
  };

  // ---- statements
  void parseStatementInto(std::vector<StmtPtr>& out) {
    NestingGuard guard(*this);
    std::vector<Pragma> pragmas = tok().pragmas;
    const size_t first = out.size();
    if (at(TokenKind::Indent)) failHere("unexpected indent");
    if (atKeyword("if") || atKeyword("for") || atKeyword("while") || atKeyword("def") || atOp("@") ||
        atKeyword("class") || atKeyword("with") || atKeyword("try") || atKeyword("async")) {
      StmtPtr s = parseCompound();
      if (s) out.push_back(std::move(s));
    } else {
      parseSimpleStatements(out);
    }
    if (out.size() > first) {
      out[first]->pragmas = std::move(pragmas);
    } else if (!pragmas.empty()) {
      diags_.warning(pragmas.front().range, "pragma '" + pragmas.front().name + "' is not followed by a statement it can apply to");
    }
  }

  void parseSimpleStatements(std::vector<StmtPtr>& out) {
    while (true) {
      StmtPtr s = parseSmallStatement();
      if (s) out.push_back(std::move(s));
      if (!atOp(";")) break;
      take();
      if (at(TokenKind::Newline)) break;
    }
    expectNewline();
  }

  StmtPtr newStmt(StmtKind kind, const SourceRange& range) {
    auto s = std::make_unique<Stmt>();
    s->kind = kind;
    s->range = range;
    return s;
  }

  // Skips the rest of a simple statement (after reporting it as unsupported).
  void skipToEndOfLine() {
    while (!at(TokenKind::Newline) && !at(TokenKind::End) && !atOp(";")) take();
  }

  StmtPtr parseSmallStatement() {
    const Token& first = tok();
    const SourceRange range = first.range;
    if (first.kind == TokenKind::Name) {
      const std::string& k = first.text;
      if (k == "pass" || k == "break" || k == "continue") {
        take();
        return newStmt(k == "pass" ? StmtKind::Pass : k == "break" ? StmtKind::Break : StmtKind::Continue, range);
      }
      if (k == "return") {
        take();
        StmtPtr s = newStmt(StmtKind::Return, range);
        if (!at(TokenKind::Newline) && !at(TokenKind::End) && !atOp(";")) s->value = parseTestList();
        s->range = spanToPrevious(range);
        return s;
      }
      if (k == "import") return parseImport();
      if (k == "from") return parseFromImport();
      const char* message = nullptr;
      if (k == "global" || k == "nonlocal") {
        message = "global and nonlocal declarations are not supported; pass values as parameters and return results";
      } else if (k == "del") {
        message = "del is not supported; stop using the variable instead";
      } else if (k == "assert") {
        message = "assert is not supported; pyasc checks shapes and dtypes at compile time";
      } else if (k == "raise") {
        message = "raise is not supported; pyasc programs cannot throw exceptions";
      } else if (k == "yield") {
        message = "generators (yield) are not supported; return an array";
      }
      if (message) {
        unsupported(SourceRange{range.begin, static_cast<int>(k.size())}, message);
        skipToEndOfLine();
        return nullptr;
      }
    }
    ExprPtr lhs = parseTestList(true);
    if (atOp("=")) {
      StmtPtr s = newStmt(StmtKind::Assign, range);
      s->targets.push_back(std::move(lhs));
      while (atOp("=")) {
        take();
        if (atKeyword("yield")) {
          unsupported(tok().range, "generators (yield) are not supported; return an array");
          skipToEndOfLine();
          return nullptr;
        }
        s->targets.push_back(parseTestList(true));
      }
      s->value = std::move(s->targets.back());
      s->targets.pop_back();
      for (const auto& t : s->targets) checkTarget(*t);
      s->range = spanToPrevious(range);
      return s;
    }
    static const char* const augmented[] = {"+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "&=", "|=", "^=",
                                            "<<=", ">>="};
    for (const char* op : augmented) {
      if (!atOp(op)) continue;
      take();
      StmtPtr s = newStmt(StmtKind::AugAssign, range);
      s->text = std::string(op).substr(0, std::string(op).size() - 1);
      checkTarget(*lhs);
      if (lhs->kind == ExprKind::Tuple) failAt(lhs->range, "illegal expression for augmented assignment");
      s->targets.push_back(std::move(lhs));
      s->value = parseTestList();
      s->range = spanToPrevious(range);
      return s;
    }
    if (atOp(":")) {
      take();
      StmtPtr s = newStmt(StmtKind::AnnAssign, range);
      checkTarget(*lhs);
      s->targets.push_back(std::move(lhs));
      s->annotation = parseTest();
      if (atOp("=")) {
        take();
        s->value = parseTestList();
      }
      s->range = spanToPrevious(range);
      return s;
    }
    if (atOp(":=")) failHere("assignment expressions (:=) are not supported; assign on a separate line");
    StmtPtr s = newStmt(StmtKind::Expr, range);
    s->value = std::move(lhs);
    s->range = spanToPrevious(range);
    return s;
  }

  void checkTarget(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Name:
      case ExprKind::Subscript:
      case ExprKind::Attribute:
      case ExprKind::Error: return;
      case ExprKind::Tuple:
      case ExprKind::List:
        for (const auto& c : e.children) checkTarget(*c);
        return;
      case ExprKind::Call: failAt(e.range, "cannot assign to function call");
      default: failAt(e.range, "cannot assign to expression");
    }
  }

  std::string dottedName() {
    std::string name = expectName("a module name");
    while (atOp(".")) {
      take();
      name += "." + expectName("a module name");
    }
    return name;
  }

  StmtPtr parseImport() {
    const SourceRange range = take().range;
    StmtPtr s = newStmt(StmtKind::Import, range);
    do {
      if (!s->names.empty()) take();
      ImportName n;
      n.range = tok().range;
      n.name = dottedName();
      if (atKeyword("as")) {
        take();
        n.alias = expectName("a name after 'as'");
      }
      n.range = spanToPrevious(n.range);
      s->names.push_back(std::move(n));
    } while (atOp(","));
    s->range = spanToPrevious(range);
    return s;
  }

  StmtPtr parseFromImport() {
    const SourceRange range = take().range;
    StmtPtr s = newStmt(StmtKind::ImportFrom, range);
    if (atOp(".")) failHere("relative imports are not supported; import numpy or pyasc");
    s->text = dottedName();
    if (!atKeyword("import")) failHere("expected 'import' after 'from " + s->text + "', found " + describe(tok()));
    take();
    const bool parens = atOp("(");
    if (parens) take();
    if (atOp("*")) {
      unsupported(tok().range, "'from " + s->text + " import *' is not supported; import the names you use");
      take();
      return nullptr;
    }
    do {
      if (!s->names.empty()) {
        take();
        if (parens && atOp(")")) break;
      }
      ImportName n;
      n.range = tok().range;
      n.name = expectName("a name to import");
      if (atKeyword("as")) {
        take();
        n.alias = expectName("a name after 'as'");
      }
      n.range = spanToPrevious(n.range);
      s->names.push_back(std::move(n));
    } while (atOp(","));
    if (parens) expectOp(")", "to close the import list");
    s->range = spanToPrevious(range);
    return s;
  }

  void parseBlock(std::vector<StmtPtr>& body, const char* what) {
    expectOp(":", what);
    if (!at(TokenKind::Newline)) {
      parseSimpleStatements(body);
      return;
    }
    take();
    if (!at(TokenKind::Indent)) failHere(std::string("expected an indented block ") + what);
    take();
    while (!at(TokenKind::Dedent) && !at(TokenKind::End)) parseStatementInto(body);
    if (at(TokenKind::Dedent)) take();
  }

  // Reports an unsupported compound statement and skips it with its clauses (except, else...).
  void skipCompound(const SourceRange& keyword, const std::string& message) {
    unsupported(keyword, message);
    do {
      skipClause();
    } while (atKeyword("except") || atKeyword("finally") || atKeyword("else") || atKeyword("elif"));
  }

  // Skips one clause: its header up to ':' and then its simple statement or indented block.
  void skipClause() {
    while (!atOp(":") && !at(TokenKind::End)) take();
    take();
    if (!at(TokenKind::Newline)) {
      skipToEndOfLine();
      if (at(TokenKind::Newline)) take();
      return;
    }
    take();
    if (!at(TokenKind::Indent)) return;
    int depth = 0;
    do {
      if (at(TokenKind::Indent)) ++depth;
      if (at(TokenKind::Dedent)) --depth;
      take();
    } while (depth > 0 && !at(TokenKind::End));
  }

  StmtPtr parseCompound() {
    const Token& first = tok();
    const SourceRange keyword{first.range.begin, static_cast<int>(first.text.size())};
    if (atKeyword("class")) {
      skipCompound(keyword, "class definitions are not supported; use functions and NumPy arrays");
      return nullptr;
    }
    if (atKeyword("with")) {
      skipCompound(keyword, "with statements are not supported; write the body without the context manager");
      return nullptr;
    }
    if (atKeyword("try")) {
      skipCompound(keyword, "try statements are not supported; pyasc reports errors at compile time");
      return nullptr;
    }
    if (atKeyword("async")) {
      skipCompound(keyword, "async functions are not supported; use def");
      return nullptr;
    }
    if (atKeyword("if")) return parseIf();
    if (atKeyword("for")) {
      take();
      StmtPtr s = newStmt(StmtKind::For, keyword);
      s->targets.push_back(parseTargetList());
      if (!atKeyword("in")) failHere("expected 'in' in the for statement, found " + describe(tok()));
      take();
      s->value = parseTestList();
      s->range = spanToPrevious(first.range);
      parseBlock(s->body, "after the for statement");
      rejectLoopElse();
      return s;
    }
    if (atKeyword("while")) {
      take();
      StmtPtr s = newStmt(StmtKind::While, keyword);
      s->value = parseNamedTest();
      s->range = spanToPrevious(first.range);
      parseBlock(s->body, "after the while condition");
      rejectLoopElse();
      return s;
    }
    std::vector<ExprPtr> decorators;
    while (atOp("@")) {
      take();
      decorators.push_back(parseTest());
      expectNewline();
    }
    if (!atKeyword("def")) {
      if (atKeyword("class")) return parseCompound();
      failHere("expected 'def' after the decorator, found " + describe(tok()));
    }
    return parseFunction(std::move(decorators));
  }

  void rejectLoopElse() {
    if (!atKeyword("else")) return;
    SourceRange r = tok().range;
    r.length = 4;
    unsupported(r, "'else' after a loop is not supported; use a flag variable");
    take();
    std::vector<StmtPtr> ignored;
    parseBlock(ignored, "after 'else'");
  }

  StmtPtr parseIf() {
    const Token& first = take();
    StmtPtr s = newStmt(StmtKind::If, first.range);
    s->value = parseNamedTest();
    s->range = spanToPrevious(first.range);
    parseBlock(s->body, "after the if condition");
    if (atKeyword("elif")) {
      s->orelse.push_back(parseIf());
    } else if (atKeyword("else")) {
      take();
      parseBlock(s->orelse, "after 'else'");
    }
    return s;
  }

  ExprPtr parseNamedTest() {
    ExprPtr e = parseTest();
    if (atOp(":=")) failHere("assignment expressions (:=) are not supported; assign on a separate line");
    return e;
  }

  StmtPtr parseFunction(std::vector<ExprPtr> decorators) {
    const Token& def = take();
    StmtPtr s = newStmt(StmtKind::FunctionDef, def.range);
    s->decorators = std::move(decorators);
    s->text = expectName("a function name");
    expectOp("(", "after the function name");
    while (!atOp(")")) {
      if (!s->params.empty()) {
        expectOp(",", "between parameters");
        if (atOp(")")) break;
      }
      if (atOp("*") || atOp("**")) {
        const SourceRange r = tok().range;
        unsupported(r, std::string(tok().text == "*" ? "*args" : "**kwargs") +
                           " parameters are not supported; list each parameter by name");
        take();
        if (at(TokenKind::Name)) take();
        continue;
      }
      if (atOp("/")) {
        take();
        continue;
      }
      Param p;
      p.range = tok().range;
      p.name = expectName("a parameter name");
      if (atOp(":")) {
        take();
        p.annotation = parseTest();
      }
      if (atOp("=")) {
        take();
        p.defaultValue = parseTest();
      }
      s->params.push_back(std::move(p));
    }
    take();
    if (atOp("->")) {
      take();
      s->annotation = parseTest();
    }
    s->range = spanToPrevious(def.range);
    parseBlock(s->body, "after the function signature");
    return s;
  }

  // ---- expressions
  ExprPtr parseTargetList() {
    const SourceRange first = tok().range;
    ExprPtr e = parseBitOr();
    if (!atOp(",")) return e;
    ExprPtr tuple = makeExpr(ExprKind::Tuple, first);
    tuple->children.push_back(std::move(e));
    while (atOp(",")) {
      take();
      if (atKeyword("in")) break;
      tuple->children.push_back(parseBitOr());
    }
    tuple->range = spanToPrevious(first);
    return tuple;
  }

  // testlist: test (',' test)* [','] -> a Tuple when there is a comma.
  ExprPtr parseTestList(bool allowStar = false) {
    const SourceRange first = tok().range;
    ExprPtr e = parseTestOrStar(allowStar);
    if (!atOp(",")) return e;
    ExprPtr tuple = makeExpr(ExprKind::Tuple, first);
    tuple->children.push_back(std::move(e));
    while (atOp(",")) {
      take();
      if (at(TokenKind::Newline) || atOp("=") || atOp(")") || at(TokenKind::End) || atOp(";")) break;
      tuple->children.push_back(parseTestOrStar(allowStar));
    }
    tuple->range = spanToPrevious(first);
    return tuple;
  }

  ExprPtr parseTestOrStar(bool allowStar) {
    if (atOp("*")) {
      const SourceRange r = tok().range;
      take();
      parseBitOr();
      unsupported(r, allowStar ? "starred assignment targets are not supported; unpack a fixed number of values"
                               : "argument unpacking (*) is not supported; pass the values one by one");
      return makeExpr(ExprKind::Error, r);
    }
    return parseTest();
  }

  ExprPtr parseTest() {
    NestingGuard guard(*this);
    if (atKeyword("lambda")) return parseLambda();
    const SourceRange first = tok().range;
    ExprPtr body = parseOrTest();
    if (!atKeyword("if")) return body;
    take();
    ExprPtr test = parseOrTest();
    if (!atKeyword("else")) failHere("expected 'else' in the conditional expression, found " + describe(tok()));
    take();
    ExprPtr orelse = parseTest();
    ExprPtr e = makeExpr(ExprKind::IfExp, first);
    e->children.push_back(std::move(body));
    e->children.push_back(std::move(test));
    e->children.push_back(std::move(orelse));
    e->range = spanToPrevious(first);
    return e;
  }

  ExprPtr parseBoolChain(const char* keyword, ExprPtr (ModuleParser::*next)()) {
    const SourceRange first = tok().range;
    ExprPtr e = (this->*next)();
    if (!atKeyword(keyword)) return e;
    ExprPtr chain = makeExpr(ExprKind::BoolOp, first);
    chain->text = keyword;
    chain->children.push_back(std::move(e));
    while (atKeyword(keyword)) {
      take();
      chain->children.push_back((this->*next)());
    }
    chain->range = spanToPrevious(first);
    return chain;
  }
  ExprPtr parseOrTest() { return parseBoolChain("or", &ModuleParser::parseAndTest); }
  ExprPtr parseAndTest() { return parseBoolChain("and", &ModuleParser::parseNotTest); }

  ExprPtr parseNotTest() {
    if (!atKeyword("not")) return parseComparison();
    const SourceRange first = take().range;
    ExprPtr e = makeExpr(ExprKind::UnaryOp, first);
    e->text = "not";
    e->children.push_back(parseNotTest());
    e->range = spanToPrevious(first);
    return e;
  }

  bool takeCompareOp(std::string& op) {
    static const char* const ops[] = {"<", ">", "==", ">=", "<=", "!="};
    for (const char* o : ops) {
      if (atOp(o)) {
        op = take().text;
        return true;
      }
    }
    if (atKeyword("in")) {
      take();
      op = "in";
      return true;
    }
    if (atKeyword("not") && peekTok().isKeyword("in")) {
      take();
      take();
      op = "not in";
      return true;
    }
    if (atKeyword("is")) {
      take();
      op = "is";
      if (atKeyword("not")) {
        take();
        op = "is not";
      }
      return true;
    }
    return false;
  }

  ExprPtr parseComparison() {
    const SourceRange first = tok().range;
    ExprPtr e = parseBitOr();
    std::string op;
    if (!takeCompareOp(op)) return e;
    ExprPtr cmp = makeExpr(ExprKind::Compare, first);
    cmp->children.push_back(std::move(e));
    do {
      cmp->ops.push_back(op);
      cmp->children.push_back(parseBitOr());
    } while (takeCompareOp(op));
    cmp->range = spanToPrevious(first);
    return cmp;
  }

  ExprPtr parseBinaryLevel(std::initializer_list<const char*> ops, ExprPtr (ModuleParser::*next)()) {
    const SourceRange first = tok().range;
    ExprPtr e = (this->*next)();
    for (int length = 0;; ++length) {
      if (length > kMaxChain) {
        failHere("expression too long: more than " + std::to_string(kMaxChain) +
                 " operators in one chain; split it into several statements");
      }
      const char* matched = nullptr;
      for (const char* op : ops) {
        if (atOp(op)) matched = op;
      }
      if (!matched) return e;
      take();
      ExprPtr bin = makeExpr(ExprKind::BinOp, first);
      bin->text = matched;
      bin->children.push_back(std::move(e));
      bin->children.push_back((this->*next)());
      bin->range = spanToPrevious(first);
      e = std::move(bin);
    }
  }
  ExprPtr parseBitOr() { return parseBinaryLevel({"|"}, &ModuleParser::parseBitXor); }
  ExprPtr parseBitXor() { return parseBinaryLevel({"^"}, &ModuleParser::parseBitAnd); }
  ExprPtr parseBitAnd() { return parseBinaryLevel({"&"}, &ModuleParser::parseShift); }
  ExprPtr parseShift() { return parseBinaryLevel({"<<", ">>"}, &ModuleParser::parseArith); }
  ExprPtr parseArith() { return parseBinaryLevel({"+", "-"}, &ModuleParser::parseTerm); }
  ExprPtr parseTerm() { return parseBinaryLevel({"*", "/", "//", "%", "@"}, &ModuleParser::parseFactor); }

  ExprPtr parseFactor() {
    NestingGuard guard(*this);
    if (atOp("-") || atOp("+") || atOp("~")) {
      const Token& op = take();
      ExprPtr e = makeExpr(ExprKind::UnaryOp, op.range);
      e->text = op.text;
      e->children.push_back(parseFactor());
      e->range = spanToPrevious(op.range);
      return e;
    }
    return parsePower();
  }

  ExprPtr parsePower() {
    const SourceRange first = tok().range;
    if (atKeyword("await")) {
      unsupported(SourceRange{first.begin, 5}, "await is not supported; pyasc programs are synchronous");
      take();
    }
    ExprPtr e = parsePrimary();
    if (!atOp("**")) return e;
    take();
    ExprPtr bin = makeExpr(ExprKind::BinOp, first);
    bin->text = "**";
    bin->children.push_back(std::move(e));
    bin->children.push_back(parseFactor());
    bin->range = spanToPrevious(first);
    return bin;
  }

  ExprPtr parsePrimary() {
    const SourceRange first = tok().range;
    ExprPtr e = parseAtom();
    while (true) {
      if (atOp("(")) {
        take();
        ExprPtr call = makeExpr(ExprKind::Call, first);
        call->children.push_back(std::move(e));
        parseArguments(*call);
        call->range = spanToPrevious(first);
        e = std::move(call);
      } else if (atOp("[")) {
        take();
        ExprPtr sub = makeExpr(ExprKind::Subscript, first);
        sub->children.push_back(std::move(e));
        sub->children.push_back(parseSubscriptList());
        expectOp("]", "to close the subscript");
        sub->range = spanToPrevious(first);
        e = std::move(sub);
      } else if (atOp(".")) {
        take();
        ExprPtr attr = makeExpr(ExprKind::Attribute, first);
        attr->text = expectName("an attribute name after '.'");
        attr->children.push_back(std::move(e));
        attr->range = spanToPrevious(first);
        e = std::move(attr);
      } else {
        return e;
      }
    }
  }

  void parseArguments(Expr& call) {
    while (!atOp(")")) {
      if (call.children.size() > 1 || !call.keywords.empty()) {
        expectOp(",", "between arguments");
        if (atOp(")")) break;
      }
      if (atOp("**")) {
        const SourceRange r = take().range;
        parseTest();
        unsupported(r, "keyword argument unpacking (**) is not supported; pass keywords by name");
        continue;
      }
      if (at(TokenKind::Name) && peekTok().isOp("=")) {
        Keyword k;
        k.range = tok().range;
        k.name = take().text;
        take();
        k.value = parseTest();
        k.range = spanToPrevious(k.range);
        call.keywords.push_back(std::move(k));
        continue;
      }
      if (!call.keywords.empty() && !atOp("*")) failHere("positional argument follows keyword argument");
      const SourceRange argStart = tok().range;
      if (atOp("*")) {
        take();
        ExprPtr starred = makeExpr(ExprKind::Starred, argStart);
        starred->children.push_back(parseTest());
        starred->range = spanToPrevious(argStart);
        call.children.push_back(std::move(starred));
        continue;
      }
      ExprPtr arg = parseTestOrStar(false);
      if (atKeyword("for")) {
        skipComprehension();
        unsupported(spanToPrevious(argStart), "generator expressions are not supported; use a NumPy array operation such as np.sum");
        arg = makeExpr(ExprKind::Error, argStart);
      }
      call.children.push_back(std::move(arg));
    }
    take();
  }

  void skipComprehension() {
    while (atKeyword("for") || atKeyword("if")) {
      const bool isFor = atKeyword("for");
      take();
      if (isFor) {
        parseTargetList();
        if (!atKeyword("in")) failHere("expected 'in' in the comprehension, found " + describe(tok()));
        take();
      }
      parseOrTest();
    }
  }

  // lambda NAME, ...: test
  ExprPtr parseLambda() {
    const SourceRange first = tok().range;
    take();
    ExprPtr e = makeExpr(ExprKind::Lambda, first);
    while (!atOp(":")) {
      if (!at(TokenKind::Name)) failHere("expected a parameter name in the lambda, found " + describe(tok()));
      ExprPtr param = makeExpr(ExprKind::Name, tok().range);
      param->text = tok().text;
      take();
      e->children.push_back(std::move(param));
      if (atOp(",")) take();
      else if (!atOp(":")) failHere("expected ',' or ':' in the lambda, found " + describe(tok()));
    }
    take();
    e->children.push_back(parseTest());
    e->range = spanToPrevious(first);
    auto function = newStmt(StmtKind::FunctionDef, e->range);
    function->text = "<lambda>";
    for (size_t i = 0; i + 1 < e->children.size(); ++i) {
      function->params.push_back(Param{e->children[i]->text, nullptr, nullptr, e->children[i]->range});
    }
    StmtPtr result = newStmt(StmtKind::Return, e->children.back()->range);
    result->value = cloneExpr(*e->children.back());
    function->body.push_back(std::move(result));
    e->function = std::move(function);
    return e;
  }

  ExprPtr parseSubscriptList() {
    const SourceRange first = tok().range;
    ExprPtr e = parseSubscriptItem();
    if (!atOp(",")) return e;
    ExprPtr tuple = makeExpr(ExprKind::Tuple, first);
    tuple->children.push_back(std::move(e));
    while (atOp(",")) {
      take();
      if (atOp("]")) break;
      tuple->children.push_back(parseSubscriptItem());
    }
    tuple->range = spanToPrevious(first);
    return tuple;
  }

  ExprPtr parseSubscriptItem() {
    const SourceRange first = tok().range;
    ExprPtr lower;
    if (!atOp(":")) {
      lower = parseTest();
      if (!atOp(":")) return lower;
    }
    ExprPtr slice = makeExpr(ExprKind::Slice, first);
    take();
    ExprPtr upper, step;
    if (!atOp(":") && !atOp("]") && !atOp(",")) upper = parseTest();
    if (atOp(":")) {
      take();
      if (!atOp("]") && !atOp(",")) step = parseTest();
    }
    slice->children.push_back(std::move(lower));
    slice->children.push_back(std::move(upper));
    slice->children.push_back(std::move(step));
    slice->range = spanToPrevious(first);
    return slice;
  }

  ExprPtr parseAtom() {
    const Token& t = tok();
    const SourceRange r = t.range;
    switch (t.kind) {
      case TokenKind::Int: {
        ExprPtr e = makeExpr(ExprKind::Int, r);
        e->text = t.text;
        errno = 0;
        e->intValue = std::strtoll(t.text.c_str(), nullptr, 10);
        if (errno == ERANGE) failAt(r, "integer literal " + t.text + " does not fit in 64 bits");
        take();
        return e;
      }
      case TokenKind::Imaginary: {
        ExprPtr e = makeExpr(ExprKind::Imaginary, r);
        e->text = t.text + "j";
        e->floatValue = std::strtod(t.text.c_str(), nullptr);
        take();
        return e;
      }
      case TokenKind::Float: {
        ExprPtr e = makeExpr(ExprKind::Float, r);
        e->text = t.text;
        e->floatValue = std::strtod(t.text.c_str(), nullptr);
        take();
        return e;
      }
      case TokenKind::String: {
        ExprPtr e = makeExpr(ExprKind::String, r);
        e->formatted = t.formatted;
        e->text = take().text;
        while (at(TokenKind::String)) {
          e->formatted |= tok().formatted;
          e->text += take().text;
        }
        e->range = spanToPrevious(r);
        return e;
      }
      case TokenKind::Name: {
        if (t.text == "True" || t.text == "False") {
          ExprPtr e = makeExpr(ExprKind::Bool, r);
          e->intValue = t.text == "True";
          take();
          return e;
        }
        if (t.text == "None") {
          take();
          return makeExpr(ExprKind::None, r);
        }
        if (t.text == "yield") failAt(r, "generators (yield) are not supported; return an array");
        if (isKeywordName(t.text)) failAt(r, "invalid syntax: unexpected keyword '" + t.text + "'");
        ExprPtr e = makeExpr(ExprKind::Name, r);
        e->text = take().text;
        return e;
      }
      case TokenKind::Op:
        if (t.text == "(") return parseParenthesized();
        if (t.text == "[") return parseListDisplay();
        if (t.text == "{") return parseBraces();
        if (t.text == "...") {
          take();
          return makeExpr(ExprKind::Ellipsis, r);
        }
        break;
      default: break;
    }
    failAt(r, "invalid syntax: unexpected " + describe(t));
  }

  ExprPtr parseParenthesized() {
    const SourceRange first = take().range;
    if (atOp(")")) {
      take();
      ExprPtr e = makeExpr(ExprKind::Tuple, spanToPrevious(first));
      e->parenthesized = true;
      return e;
    }
    ExprPtr inner = parseTestOrStar(false);
    if (atKeyword("for")) {
      skipComprehension();
      expectOp(")", "to close the generator expression");
      unsupported(spanToPrevious(first), "generator expressions are not supported; use a NumPy array operation such as np.sum");
      return makeExpr(ExprKind::Error, first);
    }
    if (atOp(":=")) failHere("assignment expressions (:=) are not supported; assign on a separate line");
    if (!atOp(",")) {
      expectOp(")", "to close the parenthesis");
      return inner;
    }
    ExprPtr tuple = makeExpr(ExprKind::Tuple, first);
    tuple->parenthesized = true;
    tuple->children.push_back(std::move(inner));
    while (atOp(",")) {
      take();
      if (atOp(")")) break;
      tuple->children.push_back(parseTestOrStar(false));
    }
    expectOp(")", "to close the tuple");
    tuple->range = spanToPrevious(first);
    return tuple;
  }

  ExprPtr parseListDisplay() {
    const SourceRange first = take().range;
    ExprPtr list = makeExpr(ExprKind::List, first);
    while (!atOp("]")) {
      if (!list->children.empty()) {
        expectOp(",", "between list elements");
        if (atOp("]")) break;
      }
      list->children.push_back(parseTestOrStar(false));
      if (atKeyword("for") && list->children.size() == 1) {
        ExprPtr comp = makeExpr(ExprKind::ListComp, first);
        comp->children.push_back(std::move(list->children[0]));
        while (atKeyword("for") || atKeyword("if")) {
          const bool isFor = atKeyword("for");
          take();
          comp->ops.push_back(isFor ? "for" : "if");
          if (isFor) {
            comp->children.push_back(parseTargetList());
            if (!atKeyword("in")) failHere("expected 'in' in the comprehension, found " + describe(tok()));
            take();
          }
          comp->children.push_back(parseOrTest());
        }
        expectOp("]", "to close the list comprehension");
        comp->range = spanToPrevious(first);
        return comp;
      }
    }
    take();
    list->range = spanToPrevious(first);
    return list;
  }

  ExprPtr parseBraces() {
    const SourceRange first = take().range;
    bool dict = false;
    bool comprehension = false;
    while (!atOp("}")) {
      if (at(TokenKind::End)) failHere("'{' was never closed");
      if (atOp(":")) dict = true;
      if (atKeyword("for")) comprehension = true;
      take();
    }
    take();
    const SourceRange r = spanToPrevious(first);
    unsupported(r, comprehension ? (dict ? "dict comprehensions are not supported; use a NumPy array operation"
                                         : "set comprehensions are not supported; use a NumPy array operation")
                                 : (dict || r.length == 2 ? "dict literals are not supported; use separate variables or arrays"
                                                          : "set literals are not supported; use a tuple or a NumPy array"));
    return makeExpr(ExprKind::Error, first);
  }

  static constexpr int kMaxNesting = 400;  // about 200 parentheses: each level enters parseTest and parseFactor
  static constexpr int kMaxChain = 1000;  // the analyser evaluates a chain recursively, one level per operator
  std::string file_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  DiagnosticEngine& diags_;
};

}  // namespace

ExprPtr cloneExpr(const Expr& e) {
  auto copy = std::make_unique<Expr>();
  copy->kind = e.kind;
  copy->range = e.range;
  copy->text = e.text;
  copy->intValue = e.intValue;
  copy->floatValue = e.floatValue;
  copy->ops = e.ops;
  copy->parenthesized = e.parenthesized;
  copy->formatted = e.formatted;
  copy->function = e.function;
  for (const ExprPtr& c : e.children) copy->children.push_back(c ? cloneExpr(*c) : nullptr);
  for (const Keyword& k : e.keywords) copy->keywords.push_back(Keyword{k.name, cloneExpr(*k.value), k.range});
  return copy;
}

Module parseModule(const std::string& file, const std::string& text, DiagnosticEngine& diags) {
  try {
    return ModuleParser(file, text, diags).parse();
  } catch (const CompileError& e) {  // the lexer and the parser stop at their first error
    diags.add(e.diagnostic());
    return Module();
  }
}

}  // namespace pyasc::frontend
