// Printing and reading compute expressions as text.
#include "sdk/te/ExprText.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace pyasc::te {

namespace {

std::string floatText(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // stays a float when read back
  return s;
}

void print(const ComputeExpr& e, const ExprNames& names, std::string& out) {
  const ComputeNode& n = *e;
  switch (n.op) {
    case Op::Var: out += names.vars.at(static_cast<size_t>(n.var)); return;
    case Op::Int: out += "#" + std::to_string(n.ival) + ":" + dtypeShortName(n.dtype); return;
    case Op::Float: out += "#" + floatText(n.fval) + ":" + dtypeShortName(n.dtype); return;
    default: break;
  }
  out += "(";
  out += opName(n.op);
  if (n.op == Op::Call || n.op == Op::Reduce) out += "." + n.fn;
  out += ":";
  out += dtypeShortName(n.dtype);
  if (n.op == Op::Load) out += " " + names.tensors.at(static_cast<size_t>(n.tensor));
  for (const auto& a : n.args) {
    out += " ";
    print(a, names, out);
  }
  for (int axis : n.axes) out += " " + names.vars.at(static_cast<size_t>(axis));
  out += ")";
}

int indexOf(TextReader& r, const std::vector<std::string>& names, const std::string& name, const char* what) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  r.fail(std::string("unknown ") + what + " '" + name + "'");
}

}  // namespace

std::string printExpr(const ComputeExpr& e, const ExprNames& names) {
  std::string out;
  print(e, names, out);
  return out;
}

void TextReader::fail(const std::string& message) const {
  size_t line = 1, lineStart = 0;
  for (size_t i = 0; i < mark_ && i < s_.size(); ++i) {
    if (s_[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  }
  std::string where = s_.find('\n') == std::string::npos ? "" : "line " + std::to_string(line) + ", ";
  const int column = static_cast<int>(mark_ - lineStart + 1);
  throw TextError(what_ + ", " + where + "column " + std::to_string(column) + ": " + message, static_cast<int>(line),
                  column, message);
}

void TextReader::skipSpace() {
  while (pos_ < s_.size()) {
    if (std::isspace(static_cast<unsigned char>(s_[pos_]))) {
      ++pos_;
    } else if (s_[pos_] == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {  // a comment to the end of the line
      while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
    } else {
      break;
    }
  }
}

bool TextReader::peek(char c) {
  skipSpace();
  mark_ = pos_;
  return pos_ < s_.size() && s_[pos_] == c;
}

void TextReader::expect(char c) {
  if (!peek(c)) fail(std::string("expected '") + c + "'");
  ++pos_;
}

bool TextReader::atEnd() {
  skipSpace();
  mark_ = pos_;
  return pos_ == s_.size();
}

bool TextReader::atWord(const char* w) {
  skipSpace();
  size_t n = std::strlen(w);
  if (s_.compare(pos_, n, w) != 0) return false;
  size_t after = pos_ + n;
  return after == s_.size() || !(std::isalnum(static_cast<unsigned char>(s_[after])) || s_[after] == '_' || s_[after] == '.');
}

std::string TextReader::token(const char* extra) {
  skipSpace();
  size_t start = pos_;
  mark_ = start;
  while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || std::strchr(extra, s_[pos_]))) ++pos_;
  if (start == pos_) fail("expected a name");
  return s_.substr(start, pos_ - start);
}

std::string TextReader::identifier() { return token("_."); }

void TextReader::word(const char* w) {
  if (identifier() != w) fail(std::string("expected '") + w + "'");
}

int64_t TextReader::integer() {
  std::string t = token("-");
  try {
    size_t used = 0;
    int64_t v = std::stoll(t, &used);
    if (used == t.size()) return v;
  } catch (const std::exception&) {
  }
  fail("expected an integer, found '" + t + "'");
}

DType TextReader::dtype() {
  std::string name = token("_");
  DType t;
  if (!parseDType(name, t)) fail("unknown dtype '" + name + "'");
  return t;
}

ComputeExpr readExpr(TextReader& r, const ExprNames& names) {
  if (r.peek('#')) {
    r.expect('#');
    std::string value = r.token(".-+_");
    r.expect(':');
    DType t = r.dtype();
    try {
      size_t used = 0;
      ComputeExpr imm = isFloat(t) ? floatImm(std::stod(value, &used), t) : intImm(std::stoll(value, &used), t);
      if (used == value.size()) return imm;
    } catch (const std::exception&) {
    }
    r.fail("bad immediate '" + value + "'");
  }
  if (!r.peek('(')) return var(indexOf(r, names.vars, r.identifier(), "variable"));
  r.expect('(');
  std::string head = r.token("._");
  std::string fn;
  if (size_t dot = head.find('.'); dot != std::string::npos) {
    fn = head.substr(dot + 1);
    head = head.substr(0, dot);
  }
  Op op;
  if (!parseOpName(head, op)) r.fail("unknown operation '" + head + "'");
  if ((op == Op::Call || op == Op::Reduce) == fn.empty()) r.fail("'" + head + "' " + (fn.empty() ? "needs" : "takes no") + " a function name");
  r.expect(':');
  ComputeNode n;
  n.op = op;
  n.fn = fn;
  n.dtype = r.dtype();
  if (op == Op::Load) n.tensor = indexOf(r, names.tensors, r.identifier(), "tensor");
  while (!r.peek(')')) {
    if (op == Op::Reduce && !n.args.empty()) {
      n.axes.push_back(indexOf(r, names.vars, r.identifier(), "variable"));
    } else {
      n.args.push_back(readExpr(r, names));
    }
  }
  r.expect(')');
  return std::make_shared<const ComputeNode>(std::move(n));
}

}  // namespace pyasc::te
