// Tokens of the Python subset, with the source range each covers and pragmas for line starts.
#pragma once

#include <string>
#include <vector>

#include "sdk/support/Diagnostics.h"

namespace pyasc::frontend {

enum class TokenKind { Name, Int, Float, Imaginary, String, Op, Newline, Indent, Dedent, End };

// "# pragma: parallelize factor=4" -> {name "parallelize", args {{"factor", "4"}}}.
struct Pragma {
  std::string name;
  std::vector<std::pair<std::string, std::string>> args;
  SourceRange range;
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;  // identifier, operator, number text, or the decoded string value
  SourceRange range;
  std::vector<Pragma> pragmas;  // pragma comments on the lines just before this logical line
  bool formatted = false;       // an f-string: kept so print(f"...") can be ignored, refused elsewhere

  // The first-character test keeps the parser's many operator checks cheap.
  bool is(TokenKind k, const char* t) const { return kind == k && !text.empty() && text[0] == t[0] && text == t; }
  bool isOp(const char* t) const { return is(TokenKind::Op, t); }
  bool isKeyword(const char* t) const { return is(TokenKind::Name, t); }
};

}  // namespace pyasc::frontend
