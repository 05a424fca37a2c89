// Splits Python source into tokens: INDENT/DEDENT from indentation, implicit joining inside
// brackets, comments dropped except "# pragma:" lines, which ride on the next line's first token.
#pragma once

#include <string>
#include <vector>

#include "frontend/Token.h"

namespace pyasc::frontend {

// Tokenizes `text` of `file`; throws CompileError on a lexical error (bad character, tab/space
// mix, unterminated string, unmatched bracket or dedent).
std::vector<Token> tokenize(const std::string& file, const std::string& text);

}  // namespace pyasc::frontend
