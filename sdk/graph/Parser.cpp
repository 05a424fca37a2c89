// Recursive-descent reader for the graph text of Printer.h.
#include "sdk/graph/Parser.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <unordered_map>

#include "sdk/support/ShapeExpr.h"

namespace pyasc::graph {

namespace {

enum class Tok { Ident, ValueRef, Number, String, Punct, End };

struct Token {
  Tok kind = Tok::End;
  std::string text;  // identifier, value name without '%', number text, unquoted string, punctuation
  int line = 1;
  int col = 1;
};

class GraphTextParser {
 public:
  GraphTextParser(const std::string& file, const std::string& text) : file_(file), text_(text) { advance(); }

  Graph parse() {
    expectIdent("graph");
    expectPunct("{");
    while (!isPunct("}")) {
      if (tok_.kind == Tok::End) fail("expected '}' at the end of the graph");
      if (isIdent("input")) {
        parseInput();
      } else if (isIdent("const")) {
        parseConstant();
      } else if (isIdent("output")) {
        parseOutput();
      } else {
        graph_.body.nodes.push_back(parseNode());
      }
    }
    advance();
    if (tok_.kind != Tok::End) fail("unexpected text after the graph");
    return std::move(graph_);
  }

 private:
  // ---- tokens
  [[noreturn]] void fail(const std::string& message) const { failAt(tok_, message); }
  [[noreturn]] void failAt(const Token& at, const std::string& message) const {
    throw CompileError(SourceLocation{file_, at.line, at.col}, message);
  }

  char peekChar(size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  void bump() {
    if (peekChar() == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  static bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

  void advance() {
    while (pos_ < text_.size()) {
      char c = peekChar();
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        bump();
      } else if (c == '/' && peekChar(1) == '/') {
        while (pos_ < text_.size() && peekChar() != '\n') bump();
      } else {
        break;
      }
    }
    tok_ = Token{};
    tok_.line = line_;
    tok_.col = col_;
    if (pos_ >= text_.size()) return;
    char c = peekChar();
    if (c == '%') {
      bump();
      tok_.kind = Tok::ValueRef;
      while (isNameChar(peekChar())) {
        tok_.text += peekChar();
        bump();
      }
      if (tok_.text.empty()) fail("expected a value name after '%'");
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      tok_.kind = Tok::Ident;
      while (isNameChar(peekChar())) {
        tok_.text += peekChar();
        bump();
      }
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               ((c == '-' || c == '+') && (std::isdigit(static_cast<unsigned char>(peekChar(1))) || peekChar(1) == 'i'))) {
      tok_.kind = Tok::Number;
      tok_.text += c;
      bump();
      while (std::isalnum(static_cast<unsigned char>(peekChar())) || peekChar() == '.' ||
             ((peekChar() == '-' || peekChar() == '+') && (tok_.text.back() == 'e' || tok_.text.back() == 'E'))) {
        tok_.text += peekChar();
        bump();
      }
    } else if (c == '"') {
      tok_.kind = Tok::String;
      bump();
      while (peekChar() != '"') {
        if (pos_ >= text_.size() || peekChar() == '\n') fail("unterminated string");
        if (peekChar() == '\\') {
          bump();
          tok_.text += peekChar() == 'n' ? '\n' : peekChar();
        } else {
          tok_.text += peekChar();
        }
        bump();
      }
      bump();
    } else {
      tok_.kind = Tok::Punct;
      tok_.text = c;
      bump();
    }
  }

  bool isPunct(const char* p) const { return tok_.kind == Tok::Punct && tok_.text == p; }
  bool isIdent(const char* p) const { return tok_.kind == Tok::Ident && tok_.text == p; }
  void expectPunct(const char* p) {
    if (!isPunct(p)) fail(std::string("expected '") + p + "'" + found());
    advance();
  }
  void expectIdent(const char* p) {
    if (!isIdent(p)) fail(std::string("expected '") + p + "'" + found());
    advance();
  }
  std::string found() const {
    if (tok_.kind == Tok::End) return " at the end of the text";
    std::string shown = tok_.kind == Tok::ValueRef ? "%" + tok_.text : tok_.text;
    return ", found '" + shown + "'";
  }
  std::string takeIdent(const char* what) {
    if (tok_.kind != Tok::Ident) fail(std::string("expected ") + what + found());
    std::string s = tok_.text;
    advance();
    return s;
  }
  int64_t takeInt(const char* what) {
    if (tok_.kind != Tok::Number) fail(std::string("expected ") + what + found());
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(tok_.text.c_str(), &end, 10);
    if (*end != '\0') fail(std::string("expected ") + what + ", found '" + tok_.text + "'");
    if (errno == ERANGE) fail(std::string(what) + " '" + tok_.text + "' is out of the int64 range");
    advance();
    return v;
  }
  double takeNumber() {
    bool negative = false;
    if (isPunct("-")) {
      negative = true;
      advance();
    }
    double v;
    if (tok_.kind == Tok::Ident && (tok_.text == "inf" || tok_.text == "nan")) {
      v = tok_.text == "inf" ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
    } else if (tok_.kind == Tok::Number) {
      char* end = nullptr;
      v = std::strtod(tok_.text.c_str(), &end);
      if (*end != '\0') fail("malformed number '" + tok_.text + "'");
    } else {
      fail("expected a number" + found());
    }
    advance();
    return negative ? -v : v;
  }

  // ---- values and types
  ValueId define(const Token& at, const std::string& name, const TensorType& type) {
    if (names_.count(name)) failAt(at, "redefinition of value '%" + name + "'");
    ValueId id = graph_.addValue(name, type);
    names_.emplace(name, id);
    return id;
  }
  Token takeValueToken() {
    if (tok_.kind != Tok::ValueRef) fail("expected a value" + found());
    Token t = tok_;
    advance();
    return t;
  }
  ValueId use() {
    Token t = takeValueToken();
    auto it = names_.find(t.text);
    if (it == names_.end()) failAt(t, "use of undefined value '%" + t.text + "'");
    return it->second;
  }

  // Whether the current token starts a dimension written as an expression over dynamic dimensions
  // ("(H-1)//2+1", the form shape expressions print without spaces): its text goes on.
  bool startsExpression() const {
    if (isPunct("(")) return true;
    if (tok_.kind != Tok::Ident && tok_.kind != Tok::Number) return false;
    const char c = pos_ < text_.size() ? peekChar() : ']';
    return c != ',' && c != ']' && c != ' ' && c != '\t' && c != '\r' && c != '\n';
  }
  // That expression's text, read as characters up to the ',' or ']' after it (a '//' in it is no
  // comment).
  std::string dimensionExpression() {
    Token at = tok_;
    std::string text = tok_.text;
    int depth = isPunct("(") ? 1 : 0;
    while (pos_ < text_.size() && (depth > 0 || (peekChar() != ',' && peekChar() != ']')) && peekChar() != '\n') {
      if (peekChar() == '(') ++depth;
      if (peekChar() == ')') --depth;
      text += peekChar();
      bump();
    }
    advance();
    std::vector<std::string> names;
    if (!shape::parse(text, names, true)) failAt(at, "expected a dimension, found '" + text + "'");
    return text;
  }

  TensorType parseType() {
    TensorType type;
    Token at = tok_;
    std::string dt = takeIdent("a type like f32[2,3]");
    if (!parseDType(dt, type.dtype)) failAt(at, "unknown element type '" + dt + "'");
    expectPunct("[");
    if (isPunct("*")) {
      advance();
      type.ranked = false;
      expectPunct("]");
      return type;
    }
    while (!isPunct("]")) {
      if (!type.shape.empty()) expectPunct(",");
      if (startsExpression()) {
        type.shape.push_back(Dim::symbolic(dimensionExpression()));
      } else if (tok_.kind == Tok::Number) {
        const int64_t extent = takeInt("a dimension");
        if (extent > graph::kMaxElements) fail("a dimension of " + std::to_string(extent) + " is above 2^40 elements");
        type.shape.push_back(Dim::known(extent));
      } else if (isPunct("?")) {
        advance();
        type.shape.push_back(Dim::unknown());
      } else if (tok_.kind == Tok::Ident) {
        type.shape.push_back(Dim::symbolic(takeIdent("a dimension")));
      } else {
        fail("expected a dimension" + found());
      }
    }
    advance();
    if (isPunct("@")) {
      advance();
      Token lt = tok_;
      std::string name = takeIdent("a layout");
      if (!parseLayout(name, type.layout)) failAt(lt, "unknown layout '" + name + "'");
    }
    return type;
  }

  SourceLocation parseOptionalLoc() {
    SourceLocation loc;
    if (!isIdent("loc")) return loc;
    advance();
    expectPunct("(");
    if (tok_.kind != Tok::String) fail("expected a file name string" + found());
    loc.file = tok_.text;
    advance();
    expectPunct(":");
    loc.line = static_cast<int>(takeInt("a line number"));
    if (isPunct(":")) {
      advance();
      loc.col = static_cast<int>(takeInt("a column number"));
    }
    expectPunct(")");
    return loc;
  }

  // ---- items
  void parseInput() {
    advance();
    Token at = tok_;
    std::string name = takeValueToken().text;
    expectPunct(":");
    TensorType type = parseType();
    GraphInput in;
    if (isIdent("scalar")) {
      advance();
      in.role = InputRole::Scalar;
    } else if (isIdent("random")) {
      advance();
      in.role = InputRole::Random;
      expectPunct("(");
      Token dt = tok_;
      std::string dist = takeIdent("rand or randn");
      if (dist == "rand") {
        in.random.distribution = RandomDistribution::Uniform;
      } else if (dist == "randn") {
        in.random.distribution = RandomDistribution::Normal;
      } else {
        failAt(dt, "unknown random distribution '" + dist + "' (expected rand or randn)");
      }
      expectPunct(",");
      if (isIdent("unseeded")) {
        advance();
      } else {
        expectIdent("seed");
        expectPunct("=");
        in.random.seeded = true;
        in.random.seed = static_cast<uint32_t>(takeInt("a seed"));
      }
      expectPunct(",");
      expectIdent("stream");
      expectPunct("=");
      in.random.stream = static_cast<int>(takeInt("a stream number"));
      expectPunct(",");
      expectIdent("offset");
      expectPunct("=");
      in.random.offset = takeInt("an offset");
      bool scale = false, shift = false;  // ", scale = X" and then ", shift = Y", each optional
      while (isPunct(",")) {
        expectPunct(",");
        Token field = tok_;
        std::string name = takeIdent("scale or shift");
        if (name == "scale" && !scale && !shift) {
          scale = true;
        } else if (name == "shift" && !shift) {
          shift = true;
        } else {
          failAt(field, "expected " + std::string(shift ? "')'" : scale ? "shift" : "scale or shift") + ", found '" + name + "'");
        }
        expectPunct("=");
        (name == "scale" ? in.random.scale : in.random.shift) = takeNumber();
      }
      expectPunct(")");
    }
    if (isIdent("from")) {
      advance();
      Token dt = tok_;
      DType declared;
      if (!parseDType(takeIdent("a dtype"), declared)) failAt(dt, "unknown element type '" + dt.text + "'");
      in.declared = declared;
    }
    SourceLocation loc = parseOptionalLoc();
    in.value = define(at, name, type);
    graph_.value(in.value).loc = loc;
    graph_.inputs.push_back(in);
  }

  void parseConstant() {
    advance();
    Token at = tok_;
    std::string name = takeValueToken().text;
    expectPunct(":");
    TensorType type = parseType();
    expectPunct("=");
    expectPunct("[");
    std::vector<double> numbers;
    while (!isPunct("]")) {
      if (!numbers.empty()) expectPunct(",");
      numbers.push_back(takeNumber());
    }
    advance();
    const int64_t count = type.ranked ? elementCount(type.shape) : -1;
    if (count < 0) failAt(at, "a constant needs a static shape, found " + type.str());
    if (static_cast<int64_t>(numbers.size()) != count) {
      failAt(at, "constant '%" + name + "' of type " + type.str() + " needs " + std::to_string(count) +
                     " values, found " + std::to_string(numbers.size()));
    }
    SourceLocation loc = parseOptionalLoc();
    GraphConstant c;
    c.value = define(at, name, type);
    c.bytes = encodeConstant(type.dtype, numbers);
    graph_.value(c.value).loc = loc;
    graph_.constants.push_back(std::move(c));
  }

  void parseOutput() {
    advance();
    GraphOutput out;
    out.name = takeIdent("an output name");
    expectPunct("=");
    out.value = use();
    graph_.outputs.push_back(out);
  }

  Attribute parseAttrValue() {
    if (isPunct("[")) {
      advance();
      std::vector<int64_t> list;
      while (!isPunct("]")) {
        if (!list.empty()) expectPunct(",");
        list.push_back(takeInt("an integer"));
      }
      advance();
      return list;
    }
    if (tok_.kind == Tok::String) {
      std::string s = tok_.text;
      advance();
      return s;
    }
    if (isIdent("true") || isIdent("false")) {
      bool b = tok_.text == "true";
      advance();
      return b;
    }
    const bool integer = tok_.kind == Tok::Number && tok_.text.find_first_of(".eEn") == std::string::npos;
    if (integer) return takeInt("an integer");
    return takeNumber();
  }

  // name = value pairs up to `close`, after the opening bracket.
  std::vector<NamedAttr> parseAttrList(const char* close) {
    advance();
    std::vector<NamedAttr> list;
    while (!isPunct(close)) {
      if (!list.empty()) expectPunct(",");
      Token at = tok_;
      std::string name = takeIdent("an attribute name");
      for (const auto& a : list) {
        if (a.name == name) failAt(at, "duplicate attribute '" + name + "'");
      }
      expectPunct("=");
      list.push_back(NamedAttr{name, parseAttrValue()});
    }
    advance();
    return list;
  }

  Node parseNode() {
    Node node;
    std::vector<Token> resultTokens;
    while (tok_.kind == Tok::ValueRef) {
      resultTokens.push_back(takeValueToken());
      if (!isPunct(",")) break;
      advance();
    }
    if (!resultTokens.empty()) expectPunct("=");
    node.op = takeIdent("an operator name");
    expectPunct("(");
    while (!isPunct(")")) {
      if (!node.inputs.empty()) expectPunct(",");
      node.inputs.push_back(use());
    }
    advance();
    if (isPunct("{")) node.attrs = parseAttrList("}");
    if (isPunct("[")) node.hints = parseAttrList("]");
    expectPunct(":");
    std::vector<TensorType> types;
    if (isPunct("(")) {
      advance();
      expectPunct(")");
    } else {
      types.push_back(parseType());
      while (isPunct(",")) {
        advance();
        types.push_back(parseType());
      }
    }
    if (types.size() != resultTokens.size()) {
      fail(std::to_string(resultTokens.size()) + " result(s) but " + std::to_string(types.size()) + " type(s)");
    }
    if (isPunct("(")) node.regions.push_back(parseRegion());
    for (size_t i = 0; i < resultTokens.size(); ++i) {
      node.outputs.push_back(define(resultTokens[i], resultTokens[i].text, types[i]));
    }
    node.loc = parseOptionalLoc();
    return node;
  }

  Region parseRegion() {
    Region region;
    expectPunct("(");
    while (!isPunct(")")) {
      if (!region.arguments.empty()) expectPunct(",");
      Token at = tok_;
      std::string name = takeValueToken().text;
      expectPunct(":");
      region.arguments.push_back(define(at, name, parseType()));
    }
    advance();
    expectPunct("{");
    while (!isIdent("yield")) {
      if (tok_.kind == Tok::End || isPunct("}")) fail("expected 'yield' at the end of a region");
      region.nodes.push_back(parseNode());
    }
    advance();
    while (tok_.kind == Tok::ValueRef) {
      region.yields.push_back(use());
      if (!isPunct(",")) break;
      advance();
    }
    expectPunct("}");
    return region;
  }

  std::string file_;
  const std::string& text_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
  Token tok_;
  Graph graph_;
  std::unordered_map<std::string, ValueId> names_;
};

}  // namespace

Graph parseGraph(const std::string& file, const std::string& text) { return GraphTextParser(file, text).parse(); }

}  // namespace pyasc::graph
