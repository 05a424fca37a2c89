// Python tokenizer for the pyasc subset, following the CPython tokenizer's rules for layout.
#include "frontend/Lexer.h"

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace pyasc::frontend {

namespace {

const char* const kOperators[] = {
    "**=", "//=", ">>=", "<<=", "...", "->", "**", "//", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=",
    "@=",  "&=",  "|=",  "^=",  ":=",  "<<", ">>", "+",  "-",  "*",  "/",  "%",  "@",  "<",  ">",  "=",  "(",
    ")",   "[",   "]",   "{",   "}",   ",",  ":",  ".",  ";",  "~",  "&",  "|",  "^",  "!",
};

// Whether `s` is well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).
bool validUtf8(const std::string& s) {
  const uint32_t smallest[] = {0, 0x80, 0x800, 0x10000};
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : 4;
    if (extra == 4 || i + extra >= s.size()) return false;  // i < size, so a 1-byte character always fits
    uint32_t cp = extra == 0 ? c : c & (0x3Fu >> extra);
    for (size_t k = 1; k <= extra; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3Fu);
    }
    if (cp < smallest[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

class PythonLexer {
 public:
  PythonLexer(const std::string& file, const std::string& text) : file_(file), text_(text) {}

  std::vector<Token> run() {
    tokens_.reserve(text_.size() / 3);  // about one token per three characters of Python
    indents_.push_back(0);
    while (pos_ < text_.size()) {
      if (atLineStart_ && depth_ == 0) {
        if (!startLogicalLine()) continue;
      }
      lexToken();
    }
    if (!atLineStart_) push(TokenKind::Newline, "", 0);
    if (depth_ > 0) failAt(openBrackets_.back(), std::string("'") + openBracketChars_.back() + "' was never closed");
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(TokenKind::Dedent, "", 0);
    }
    push(TokenKind::End, "", 0);
    return std::move(tokens_);
  }

 private:
  [[noreturn]] void failAt(const SourceLocation& loc, const std::string& message, int length = 1) const {
    throw CompileError(Diagnostic{Severity::Error, SourceRange{loc, length}, message, {}});
  }
  [[noreturn]] void fail(const std::string& message, int length = 1) const { failAt(here(), message, length); }
  SourceLocation here() const { return SourceLocation{file_, line_, col_}; }
  char peek(size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  void bump() {
    if (peek() == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  void push(TokenKind kind, std::string text, int length, SourceLocation at = {}) {
    Token t;
    t.kind = kind;
    t.text = std::move(text);
    t.range = SourceRange{at.valid() ? at : here(), length};
    if (kind != TokenKind::Newline && kind != TokenKind::Indent && kind != TokenKind::Dedent && !pendingPragmas_.empty()) {
      t.pragmas = std::move(pendingPragmas_);
      pendingPragmas_.clear();
    }
    tokens_.push_back(std::move(t));
  }

  // Measures indentation of a new logical line; returns false for a blank or comment line.
  bool startLogicalLine() {
    int width = 0;
    while (peek() == ' ' || peek() == '\t' || peek() == '\f') {
      width = peek() == '\t' ? (width / 8 + 1) * 8 : width + 1;
      bump();
    }
    if (peek() == '#') {
      lexComment(true);
      return false;
    }
    if (peek() == '\0' && pos_ < text_.size()) fail("source code cannot contain null bytes");
    if (peek() == '\n' || peek() == '\r' || peek() == '\0') {
      if (peek() == '\r') bump();
      if (peek() == '\n') bump();
      return false;
    }
    if (peek() == '\\' && (peek(1) == '\n' || peek(1) == '\r')) fail("a line cannot start with a line continuation");
    atLineStart_ = false;
    if (width > indents_.back()) {
      indents_.push_back(width);
      push(TokenKind::Indent, "", 1);
    } else {
      while (width < indents_.back()) {
        indents_.pop_back();
        push(TokenKind::Dedent, "", 1);
      }
      if (width != indents_.back()) fail("unindent does not match any outer indentation level");
    }
    return true;
  }

  // Skips a comment; a "# pragma:" comment on a line of its own is kept for the next statement.
  void lexComment(bool ownLine) {
    SourceLocation start = here();
    std::string comment;
    while (peek() != '\n' && peek() != '\0') {
      comment += peek();
      bump();
    }
    if (!comment.empty() && comment.back() == '\r') comment.pop_back();
    if (!ownLine) return;
    size_t p = 1;
    while (p < comment.size() && comment[p] == ' ') ++p;
    if (comment.compare(p, 7, "pragma:") != 0) return;
    Pragma pragma;
    pragma.range = SourceRange{start, static_cast<int>(comment.size())};
    std::string rest = comment.substr(p + 7);
    std::vector<std::string> words;
    std::string word;
    for (char c : rest) {
      if (c == ' ' || c == '\t') {
        if (!word.empty()) words.push_back(word);
        word.clear();
      } else {
        word += c;
      }
    }
    if (!word.empty()) words.push_back(word);
    if (words.empty()) failAt(start, "empty pragma; write e.g. '# pragma: parallelize factor=4'",
                              static_cast<int>(comment.size()));
    pragma.name = words[0];
    for (size_t i = 1; i < words.size(); ++i) {
      const size_t eq = words[i].find('=');
      if (eq == std::string::npos) {
        pragma.args.emplace_back(words[i], "");
      } else {
        pragma.args.emplace_back(words[i].substr(0, eq), words[i].substr(eq + 1));
      }
    }
    pendingPragmas_.push_back(std::move(pragma));
  }

  void lexToken() {
    const char c = peek();
    if (c == ' ' || c == '\t' || c == '\f') {
      bump();
    } else if (c == '#') {
      lexComment(false);
    } else if (c == '\r' || c == '\n') {
      if (c == '\r') bump();
      if (depth_ == 0) {
        push(TokenKind::Newline, "", 1);
        atLineStart_ = true;
      }
      if (peek() == '\n') bump();
    } else if (c == '\\') {
      bump();
      if (peek() == '\r') bump();
      if (peek() != '\n') fail("unexpected character after line continuation character");
      bump();
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80) {
      lexNameOrString();
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
      lexNumber();
    } else if (c == '"' || c == '\'') {
      lexString(here(), "");
    } else {
      lexOperator();
    }
  }

  void lexNameOrString() {
    SourceLocation start = here();
    std::string name;
    while (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_' ||
           static_cast<unsigned char>(peek()) >= 0x80) {
      name += peek();
      bump();
    }
    if (!validUtf8(name)) failAt(start, "identifier is not valid UTF-8");
    if ((peek() == '"' || peek() == '\'') && name.size() <= 2) {
      std::string prefix;
      for (char ch : name) prefix += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (prefix == "r" || prefix == "u" || prefix == "f" || prefix == "b" || prefix == "rb" || prefix == "br" ||
          prefix == "fr" || prefix == "rf") {
        lexString(start, prefix);
        return;
      }
    }
    push(TokenKind::Name, name, static_cast<int>(name.size()), start);
  }

  void lexString(const SourceLocation& start, const std::string& prefix) {
    const char quote = peek();
    const bool triple = peek(1) == quote && peek(2) == quote;
    for (int i = 0; i < (triple ? 3 : 1); ++i) bump();
    const bool raw = prefix.find('r') != std::string::npos;
    std::string value;
    while (true) {
      if (pos_ >= text_.size() || (!triple && peek() == '\n')) {
        failAt(start, triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
      }
      if (peek() == quote && (!triple || (peek(1) == quote && peek(2) == quote))) {
        for (int i = 0; i < (triple ? 3 : 1); ++i) bump();
        break;
      }
      if (peek() == '\\' && !raw) {
        bump();
        const char e = peek();
        if (e != '\n') value += e == 'n' ? '\n' : e == 't' ? '\t' : e;  // backslash-newline continues the line
        bump();
        continue;
      }
      value += peek();
      bump();
    }
    const int length = start.line == line_ ? col_ - start.col : static_cast<int>(prefix.size()) + 1;
    if (prefix.find('b') != std::string::npos) failAt(start, "bytes literals are not supported", length);
    push(TokenKind::String, value, length, start);
    tokens_.back().formatted = prefix.find('f') != std::string::npos;
  }

  void lexNumber() {
    SourceLocation start = here();
    std::string digits;
    bool isFloatLiteral = false;
    auto take = [&](auto pred) {
      while (pred(peek()) || (peek() == '_' && pred(peek(1)))) {
        if (peek() != '_') digits += peek();
        bump();
      }
    };
    auto dec = [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; };
    if (peek() == '0' && std::strchr("xXoObB", peek(1)) && peek(1) != '\0') {
      const char base = static_cast<char>(std::tolower(static_cast<unsigned char>(peek(1))));
      bump();
      bump();
      take([base](char ch) {
        return base == 'x' ? std::isxdigit(static_cast<unsigned char>(ch)) != 0
                           : base == 'o' ? (ch >= '0' && ch <= '7') : (ch == '0' || ch == '1');
      });
      if (digits.empty()) failAt(start, "invalid number literal");
      const int radix = base == 'x' ? 16 : base == 'o' ? 8 : 2;
      errno = 0;
      const long long value = std::strtoll(digits.c_str(), nullptr, radix);
      if (errno == ERANGE) failAt(start, "integer literal does not fit in 64 bits", col_ - start.col);
      push(TokenKind::Int, std::to_string(value), col_ - start.col, start);
      return;
    }
    take(dec);
    if (peek() == '.') {
      isFloatLiteral = true;
      digits += '.';
      bump();
      take(dec);
    }
    if (peek() == 'e' || peek() == 'E') {
      const char sign = peek(1);
      if (std::isdigit(static_cast<unsigned char>(sign)) ||
          ((sign == '+' || sign == '-') && std::isdigit(static_cast<unsigned char>(peek(2))))) {
        isFloatLiteral = true;
        digits += 'e';
        bump();
        if (peek() == '+' || peek() == '-') {
          digits += peek();
          bump();
        }
        take(dec);
      }
    }
    if (peek() == 'j' || peek() == 'J') {  // an imaginary literal: 2j, 1.5e3j
      bump();
      if (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_') fail("invalid imaginary literal");
      push(TokenKind::Imaginary, digits, col_ - start.col, start);
      return;
    }
    if (std::isalpha(static_cast<unsigned char>(peek())) || peek() == '_') fail("invalid decimal literal");
    push(isFloatLiteral ? TokenKind::Float : TokenKind::Int, digits, col_ - start.col, start);
  }

  void lexOperator() {
    for (const char* op : kOperators) {
      if (op[0] != text_[pos_]) continue;
      const size_t n = op[1] == '\0' ? 1 : op[2] == '\0' ? 2 : 3;
      if (text_.compare(pos_, n, op, n) != 0) continue;
      SourceLocation start = here();
      for (size_t i = 0; i < n; ++i) bump();
      if (n == 1 && std::strchr("([{", op[0])) {
        ++depth_;
        openBrackets_.push_back(start);
        openBracketChars_.push_back(op[0]);
      } else if (n == 1 && std::strchr(")]}", op[0])) {
        const char open = op[0] == ')' ? '(' : op[0] == ']' ? '[' : '{';
        if (depth_ == 0) failAt(start, std::string("unmatched '") + op[0] + "'");
        if (openBracketChars_.back() != open) {
          failAt(start, std::string("closing parenthesis '") + op[0] + "' does not match opening parenthesis '" +
                            openBracketChars_.back() + "' on line " + std::to_string(openBrackets_.back().line));
        }
        --depth_;
        openBrackets_.pop_back();
        openBracketChars_.pop_back();
      }
      push(TokenKind::Op, op, static_cast<int>(n), start);
      return;
    }
    fail(std::string("invalid character '") + peek() + "' in the program");
  }

  std::string file_;
  const std::string& text_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
  bool atLineStart_ = true;
  int depth_ = 0;
  std::vector<SourceLocation> openBrackets_;
  std::vector<char> openBracketChars_;
  std::vector<int> indents_;
  std::vector<Token> tokens_;
  std::vector<Pragma> pendingPragmas_;
};

}  // namespace

std::vector<Token> tokenize(const std::string& file, const std::string& text) { return PythonLexer(file, text).run(); }

}  // namespace pyasc::frontend
