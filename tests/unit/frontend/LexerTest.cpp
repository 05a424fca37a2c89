// Lexer: indentation tokens, bracket joining, numbers, strings, pragmas and lexical errors.
#include <gtest/gtest.h>

#include "frontend/Lexer.h"

using namespace pyasc;
using namespace pyasc::frontend;

namespace {

std::string kinds(const std::vector<Token>& tokens) {
  std::string s;
  for (const Token& t : tokens) {
    switch (t.kind) {
      case TokenKind::Name: s += "N(" + t.text + ")"; break;
      case TokenKind::Int: s += "I(" + t.text + ")"; break;
      case TokenKind::Float: s += "F(" + t.text + ")"; break;
      case TokenKind::Imaginary: s += "J(" + t.text + ")"; break;
      case TokenKind::String: s += "S(" + t.text + ")"; break;
      case TokenKind::Op: s += t.text; break;
      case TokenKind::Newline: s += ";"; break;
      case TokenKind::Indent: s += "{"; break;
      case TokenKind::Dedent: s += "}"; break;
      case TokenKind::End: s += "$"; break;
    }
    s += " ";
  }
  return s;
}

std::string lexError(const std::string& text) {
  try {
    tokenize("t.py", text);
  } catch (const CompileError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Lexer, IndentationAndBlankLines) {
  auto tokens = tokenize("t.py", "def f(a):\n\n    # comment\n    if a:\n        b = 1\n    return a\n");
  EXPECT_EQ(kinds(tokens), "N(def) N(f) ( N(a) ) : ; { N(if) N(a) : ; { N(b) = I(1) ; } N(return) N(a) ; } $ ");
}

TEST(Lexer, BracketsJoinLinesAndBackslashContinues) {
  auto tokens = tokenize("t.py", "x = (1,\n     2)\ny = 1 + \\\n    2\n");
  EXPECT_EQ(kinds(tokens), "N(x) = ( I(1) , I(2) ) ; N(y) = I(1) + I(2) ; $ ");
}

TEST(Lexer, Numbers) {
  auto tokens = tokenize("t.py", "a = 0x1F + 1_000 + 1.5e-3 + .5 + 2. + 0b101\n");
  EXPECT_EQ(kinds(tokens), "N(a) = I(31) + I(1000) + F(1.5e-3) + F(.5) + F(2.) + I(5) ; $ ");
  // imaginary literals: their magnitude, as decimal digits
  EXPECT_EQ(kinds(tokenize("t.py", "z = 2j - 1.5e3J + .5j\n")), "N(z) = J(2) - J(1.5e3) + J(.5) ; $ ");
}

TEST(Lexer, StringsAndOperators) {
  auto tokens = tokenize("t.py", "s = 'ij,jk' \"->ik\" r'\\n'\nx //= y ** 2 @ z -> w\n");
  EXPECT_EQ(kinds(tokens), "N(s) = S(ij,jk) S(->ik) S(\\n) ; N(x) //= N(y) ** I(2) @ N(z) -> N(w) ; $ ");
}

TEST(Lexer, ColumnsAreOneBasedWithLengths) {
  auto tokens = tokenize("t.py", "  \nab = cd\n");
  ASSERT_GE(tokens.size(), 3u);
  EXPECT_EQ(tokens[0].range.begin.line, 2);
  EXPECT_EQ(tokens[0].range.begin.col, 1);
  EXPECT_EQ(tokens[0].range.length, 2);
  EXPECT_EQ(tokens[2].range.begin.col, 6);
}

TEST(Lexer, PragmaRidesOnTheNextStatement) {
  auto tokens = tokenize("t.py", "x = 1\n# pragma: parallelize factor=4\n\nfor i in r:\n    pass\n");
  const Token* forToken = nullptr;
  for (const Token& t : tokens) {
    if (t.isKeyword("for")) forToken = &t;
  }
  ASSERT_NE(forToken, nullptr);
  ASSERT_EQ(forToken->pragmas.size(), 1u);
  EXPECT_EQ(forToken->pragmas[0].name, "parallelize");
  ASSERT_EQ(forToken->pragmas[0].args.size(), 1u);
  EXPECT_EQ(forToken->pragmas[0].args[0].first, "factor");
  EXPECT_EQ(forToken->pragmas[0].args[0].second, "4");
  EXPECT_EQ(forToken->pragmas[0].range.begin.line, 2);
}

TEST(Lexer, TrailingPragmaCommentsAreOrdinaryComments) {
  auto tokens = tokenize("t.py", "x = 1  # pragma: parallelize factor=4\ny = 2\n");
  for (const Token& t : tokens) EXPECT_TRUE(t.pragmas.empty());
}

TEST(Lexer, Errors) {
  EXPECT_EQ(lexError("a = 'abc\n"), "t.py:1:5: error: unterminated string literal");
  EXPECT_EQ(lexError("a = (1\n"), "t.py:1:5: error: '(' was never closed");
  EXPECT_EQ(lexError("a = 1)\n"), "t.py:1:6: error: unmatched ')'");
  EXPECT_EQ(lexError("a = [1)\n"), "t.py:1:7: error: closing parenthesis ')' does not match opening parenthesis '[' on line 1");
  EXPECT_EQ(lexError("if a:\n    b\n  c\n"), "t.py:3:3: error: unindent does not match any outer indentation level");
  EXPECT_EQ(lexError("a = 3jx\n"), "t.py:1:7: error: invalid imaginary literal");
  EXPECT_EQ(lexError("a = 1 ? 2\n"), "t.py:1:7: error: invalid character '?' in the program");
  // a null byte where a line starts (it used to loop forever) and identifiers that are not UTF-8
  EXPECT_EQ(lexError(std::string("a = 1\n\0", 7)), "t.py:2:1: error: source code cannot contain null bytes");
  EXPECT_EQ(lexError(std::string(1, '\0')), "t.py:1:1: error: source code cannot contain null bytes");
  EXPECT_EQ(lexError("y\xff = 1\n"), "t.py:1:1: error: identifier is not valid UTF-8");
  EXPECT_EQ(lexError("y\xc0\xaf = 1\n"), "t.py:1:1: error: identifier is not valid UTF-8");  // overlong '/'
  EXPECT_EQ(lexError("\xed\xa0\x80 = 1\n"), "t.py:1:1: error: identifier is not valid UTF-8");  // a surrogate
  EXPECT_TRUE(tokenize("t.py", "z\xc3\xa9 = 1\n").size() > 3);  // 'zé'
}
