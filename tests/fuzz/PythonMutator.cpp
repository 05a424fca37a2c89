// Token- and line-level mutations of Python programs.
#include "tests/fuzz/PythonMutator.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "frontend/Frontend.h"
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#include <sanitizer/allocator_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#endif
#include "tests/fuzz/Harness.h"
#include "tests/fuzz/ProgramInput.h"

namespace pyasc::fuzz {

namespace {

const std::vector<std::string>& numpyFunctions() {
  static const std::vector<std::string> names = {
      "maximum", "minimum", "sqrt", "exp", "log", "sum", "where", "max", "min", "mean", "var", "std", "argmax",
      "argmin", "matmul", "dot", "einsum", "tensordot", "take", "transpose", "stack", "concatenate", "pad",
      "zeros", "ones", "full", "zeros_like", "ones_like", "arange", "linspace", "floor", "ceil", "tanh", "sin",
      "cos", "tan", "prod", "abs", "clip", "expand_dims", "squeeze", "sign", "repeat", "mod", "expm1", "log1p",
      "log2", "log10", "arctan", "arcsin", "arccos", "any", "all", "trunc", "rint", "sinh", "cosh", "isnan",
      "isfinite", "logical_xor", "logical_and", "floor_divide", "eye", "identity", "exp2", "broadcast_to",
      "reshape", "cumsum", "sort", "flip", "roll", "square", "power", "negative", "reciprocal", "sigmoid"};
  return names;
}

const std::vector<std::string>& operators() {
  static const std::vector<std::string> ops = {"+", "-", "*", "/", "//", "%", "**", "@", "<", ">", "<=", ">=",
                                               "==", "!=", "&", "|", "^", "<<", ">>"};
  return ops;
}

const std::vector<std::string>& numbers() {
  static const std::vector<std::string> n = {"0", "1", "-1", "2", "3", "4", "7", "8", "15", "16", "17", "31", "32",
                                             "33", "64", "100", "127", "128", "255", "256", "257", "1000", "1024",
                                             "4096", "65535", "65536", "1 << 20", "2**31", "2**31 - 1", "0.5", "-0.0",
                                             "1e-3", "1e30", "1e-45", "3.5", "float('inf')", "True", "False",
                                             "None", "-2", "(2, 3)", "[1, 2]"};
  return n;
}

const std::vector<std::string>& dtypes() {
  static const std::vector<std::string> d = {"np.float16", "np.float32", "np.float64", "np.int8", "np.uint8",
                                             "np.int16", "np.int32", "np.int64", "np.bool_", "\"float32\"", "float",
                                             "int", "bool"};
  return d;
}

const std::vector<std::string>& statements() {
  static const std::vector<std::string> s = {
      "{a} = np.{f}({b})", "{a} = {b} {op} {c}", "{a} = {b}[1:]", "{a} = {b}[::2]", "{a} = {b}[..., 0]",
      "{a} = {b}.reshape(-1)", "{a} = {b}.T", "{a} = {b}.sum(axis=0)", "{a} = {b}.astype(np.float16)",
      "{a} += {b}", "{a}[0] = {b}", "for i in range({n}):\n    {a} = {a} {op} {b}",
      "if {b}.shape[0] > {n}:\n    {a} = {b} {op} {c}", "{a} = np.random.rand({n}, {n}).astype(np.float32)",
      "{a} = {b}[:, None] {op} {c}[None, :]", "{a} = np.{f}({b}, axis=-1)", "{a} = {b} if {n} else {c}",
      "def g({a}):\n    return {a} {op} {n}\n{b} = g({c})", "{a} = [{b}, {c}]", "{a} = ({b}, {c})[0]",
      "# pragma: parallelize factor={n}", "{a} = {b}[{n}]", "{a} = {b}[{b} > 0]", "{a} = np.{f}({b}, {c})"};
  return s;
}

struct Token {
  size_t begin, end;
  enum Kind { Name, Number, Operator, Other } kind;
};

std::vector<Token> tokenize(const std::string& s) {
  std::vector<Token> tokens;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isalpha(c) || c == '_') {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      tokens.push_back({i, j, Token::Name});
      i = j;
    } else if (std::isdigit(c)) {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
      tokens.push_back({i, j, Token::Number});
      i = j;
    } else if (std::strchr("+-*/%@<>=!&|^", c)) {
      size_t j = i;
      while (j < s.size() && std::strchr("+-*/%@<>=!&|^", s[j]) && j - i < 2) ++j;
      tokens.push_back({i, j, Token::Operator});
      i = j;
    } else {
      ++i;
    }
  }
  return tokens;
}

std::vector<std::string> splitLines(const std::string& s) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= s.size()) {
    size_t nl = s.find('\n', start);
    if (nl == std::string::npos) nl = s.size();
    lines.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::string joinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += lines[i] + (i + 1 < lines.size() ? "\n" : "");
  return out;
}

template <class T>
const T& pick(const std::vector<T>& v, std::mt19937& rng) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

std::string indentOf(const std::string& line) { return line.substr(0, line.find_first_not_of(" \t") == std::string::npos ? line.size() : line.find_first_not_of(" \t")); }

}  // namespace

std::string mutatePythonText(const std::string& text, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Token> tokens = tokenize(text);
  std::vector<std::string> names;
  for (const Token& t : tokens) {
    std::string w = text.substr(t.begin, t.end - t.begin);
    if (t.kind == Token::Name && w != "np" && w != "import" && w != "def" && w != "return")
      if (std::find(names.begin(), names.end(), w) == names.end()) names.push_back(w);
  }
  if (names.empty()) names = {"x", "y"};
  auto replaceToken = [&](Token::Kind kind, const std::string& with) {
    std::vector<const Token*> of;
    for (const Token& t : tokens)
      if (t.kind == kind) of.push_back(&t);
    if (of.empty()) return text + "\n" + with;
    const Token* t = pick(of, rng);
    return text.substr(0, t->begin) + with + text.substr(t->end);
  };
  std::vector<std::string> lines = splitLines(text);
  auto randomLine = [&]() { return std::uniform_int_distribution<size_t>(0, lines.size() - 1)(rng); };
  switch (std::uniform_int_distribution<int>(0, 10)(rng)) {
    case 0:
      return replaceToken(Token::Number, pick(numbers(), rng));
    case 1: {  // a NumPy function for another
      std::vector<size_t> at;
      for (size_t p = text.find("np."); p != std::string::npos; p = text.find("np.", p + 3)) at.push_back(p + 3);
      if (at.empty()) return text + "\nimport numpy as np";
      size_t p = pick(at, rng), e = p;
      while (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_')) ++e;
      return text.substr(0, p) + pick(numpyFunctions(), rng) + text.substr(e);
    }
    case 2:
      return replaceToken(Token::Operator, pick(operators(), rng));
    case 3:
      return replaceToken(Token::Name, pick(names, rng));
    case 4: {  // a dtype for another
      for (const auto& d : dtypes()) {
        size_t p = text.find(d);
        if (p != std::string::npos && rng() % 2) return text.substr(0, p) + pick(dtypes(), rng) + text.substr(p + d.size());
      }
      return replaceToken(Token::Name, pick(dtypes(), rng));
    }
    case 5: {  // a line duplicated
      size_t i = randomLine();
      lines.insert(lines.begin() + static_cast<long>(i), lines[i]);
      return joinLines(lines);
    }
    case 6:  // a line dropped
      if (lines.size() > 1) lines.erase(lines.begin() + static_cast<long>(randomLine()));
      return joinLines(lines);
    case 7: {  // two lines swapped
      std::swap(lines[randomLine()], lines[randomLine()]);
      return joinLines(lines);
    }
    case 8: case 9: {  // a statement added, at the indentation of the line it follows
      size_t i = randomLine();
      std::string s = pick(statements(), rng);
      s = replaceAll(s, "{a}", pick(names, rng));
      s = replaceAll(s, "{b}", pick(names, rng));
      s = replaceAll(s, "{c}", pick(names, rng));
      s = replaceAll(s, "{f}", pick(numpyFunctions(), rng));
      s = replaceAll(s, "{op}", pick(operators(), rng));
      s = replaceAll(s, "{n}", pick(numbers(), rng));
      const std::string indent = indentOf(lines[i]);
      s = indent + replaceAll(s, "\n", "\n" + indent);
      lines.insert(lines.begin() + static_cast<long>(i + 1), s);
      return joinLines(lines);
    }
    default: {  // a shape in a `# e2e:` line or a call: one dimension changed
      std::vector<size_t> at;
      for (size_t p = text.find('['); p != std::string::npos; p = text.find('[', p + 1))
        if (p + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[p + 1]))) at.push_back(p + 1);
      if (at.empty()) return replaceToken(Token::Number, pick(numbers(), rng));
      size_t p = pick(at, rng), e = p;
      while (e < text.size() && std::isdigit(static_cast<unsigned char>(text[e]))) ++e;
      static const std::vector<std::string> dims = {"1", "2", "3", "5", "16", "17", "31", "32", "33", "64", "127", "255", "256", "1000"};
      return text.substr(0, p) + pick(dims, rng) + text.substr(e);
    }
  }
}

size_t mutatePython(uint8_t* data, size_t size, size_t maxSize, unsigned seed,
                    const std::function<bool(const std::string&)>& valid, Validity mode) {
  const bool require = valid && mode == Validity::Require;
  if (seed % 8 == 0 && LLVMFuzzerMutate && !require) return LLVMFuzzerMutate(data, size, maxSize);
  const std::string original = text(data, size);
  const unsigned tries = !valid ? 1u : require ? 4u : 2u;
  std::string out;
  bool accepted = false;
  for (unsigned attempt = 0; attempt < tries && !accepted; ++attempt) {
    if (require && attempt == 0 && seed % 8 == 0 && LLVMFuzzerMutate) {  // a byte-level mutant, when valid
      std::string bytes = original;
      bytes.resize(maxSize);
      bytes.resize(LLVMFuzzerMutate(reinterpret_cast<uint8_t*>(bytes.data()), size, maxSize));
      out = std::move(bytes);
    } else {
      out = mutatePythonText(original, seed / 8 + attempt * 7919u);
    }
    accepted = out.size() <= maxSize && (!valid || valid(out));
  }
  if (require && !accepted) return size;
  if (out.size() > maxSize) return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, maxSize) : size;
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

namespace {

// The mutant the frontend is checking: a sanitizer error there stops the fuzzer inside the mutator,
// where libFuzzer has no input to write (its artifact is empty), so the death callback writes the
// mutant to $FUZZ_MUTANT_FILE (scripts/fuzz.sh sets it).
std::string checking;

void writeCheckedMutant() {
  const char* path = std::getenv("FUZZ_MUTANT_FILE");
  if (!path || checking.empty()) return;
  if (FILE* f = std::fopen(path, "wb")) {
    std::fwrite(checking.data(), 1, checking.size(), f);
    std::fclose(f);
    std::fprintf(stderr, "the mutator's check of a mutant failed; the mutant is in %s\n", path);
  }
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
// libFuzzer's -malloc_limit_mb stops the process from a malloc hook, without death callbacks: this
// hook, installed before libFuzzer's (at load), writes the mutant first. The limit is fuzz.sh's.
void writeMutantOfHugeMalloc(const volatile void*, size_t size) {
  if (size > (size_t{2048} << 20) && !checking.empty()) writeCheckedMutant();
}
[[maybe_unused]] const int hugeMallocHook = __sanitizer_install_malloc_and_free_hooks(writeMutantOfHugeMalloc, nullptr);
#endif
#endif

}  // namespace

bool frontendAccepts(const std::string& source) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
  static const bool installed = (__sanitizer_set_death_callback(writeCheckedMutant), true);
  (void)installed;
#endif
#endif
  checking = source;
  struct Done {
    ~Done() { checking.clear(); }
  } done;
  frontend::FrontendOptions options;
  if (!programOptions(source, options)) return false;
  DiagnosticEngine diags;
  try {
    graph::Graph g = frontend::compileToGraph("mutant.py", source, options, diags);
    return !diags.hasErrors() && smallEnough(g);
  } catch (const CompileError&) {
    return false;
  }
}

}  // namespace pyasc::fuzz
