// The text form of compute expressions, "(add:f32 (load:f32 x i) #1.0:f32)", and the reader that the
// compute and loop-nest parsers share (errors name the column where the offending token starts).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sdk/te/Compute.h"

namespace pyasc::te {

// Variables print as their names, immediates as #value:dtype, other nodes as
// (op[.fn]:dtype [tensor] args... [reduce axes]).
std::string printExpr(const ComputeExpr& e, const ExprNames& names);

// What a text reader throws: std::invalid_argument "<what>, column C: message" (or "<what>, line L,
// column C: ..." for text of several lines), with the place and the message apart for callers that
// locate it in a file.
struct TextError : std::invalid_argument {
  TextError(const std::string& full, int line, int column, std::string message)
      : std::invalid_argument(full), line(line), column(column), message(std::move(message)) {}
  int line, column;
  std::string message;
};

// A cursor over one text; every failure throws TextError.
class TextReader {
 public:
  TextReader(const std::string& text, std::string what) : s_(text), what_(std::move(what)) {}

  [[noreturn]] void fail(const std::string& message) const;
  bool peek(char c);           // next non-space character is c (not taken)
  void expect(char c);         // takes c or fails
  bool atWord(const char* w);  // next token is w (not taken)
  bool atEnd();
  std::string identifier();    // letters, digits, '_' and '.'
  void word(const char* w);    // takes the identifier w or fails
  int64_t integer();
  DType dtype();
  std::string token(const char* extra);  // letters, digits and the characters of `extra`

 private:
  void skipSpace();

  const std::string& s_;
  std::string what_;
  size_t pos_ = 0;
  size_t mark_ = 0;  // where the token or character being read starts
};

// Reads one expression printed by printExpr.
ComputeExpr readExpr(TextReader& r, const ExprNames& names);

}  // namespace pyasc::te
