// JSON descriptors: nlohmann checks the syntax, then a position pass over the valid text builds the tree.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "registry/DescriptorTree.h"

namespace pyasc::registry {

namespace {

// Line and column (1-based, in bytes) of byte offsets in a text.
class LineTable {
 public:
  explicit LineTable(const std::string& text) {
    starts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts_.push_back(i + 1);
    }
  }
  void place(size_t offset, DescriptorNode& node) const {
    auto next = std::upper_bound(starts_.begin(), starts_.end(), offset);
    node.line = static_cast<int>(next - starts_.begin());
    node.col = static_cast<int>(offset - *(next - 1)) + 1;
  }

 private:
  std::vector<size_t> starts_;
};

// Walks text that nlohmann already accepted, so it only needs to find where each value starts and
// ends; nlohmann decodes each scalar token (escapes, number forms).
class PositionPass {
 public:
  PositionPass(const std::string& text, const LineTable& lines) : text_(text), lines_(lines) {
    if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;  // a UTF-8 byte order mark, which nlohmann skips too
  }

  DescriptorNode value() {
    skipSpace();
    DescriptorNode node;
    lines_.place(pos_, node);
    const char c = text_[pos_];
    if (c == '{') {
      node.kind = DescriptorNode::Kind::Map;
      ++pos_;
      while (nextIsNot('}')) {
        node.keys.push_back(value());
        skipSpace();
        ++pos_;  // ':'
        node.items.push_back(value());
      }
    } else if (c == '[') {
      node.kind = DescriptorNode::Kind::List;
      ++pos_;
      while (nextIsNot(']')) node.items.push_back(value());
    } else {
      scalar(node);
    }
    return node;
  }

 private:
  // Skips a separating ',' and reports whether another element follows before `close`.
  bool nextIsNot(char close) {
    skipSpace();
    if (text_[pos_] == ',') {
      ++pos_;
      skipSpace();
    }
    if (text_[pos_] == close) {
      ++pos_;
      return false;
    }
    return true;
  }

  void skipSpace() {
    while (pos_ < text_.size() && std::string(" \t\r\n").find(text_[pos_]) != std::string::npos) ++pos_;
  }

  void scalar(DescriptorNode& node) {
    const size_t begin = pos_;
    if (text_[pos_] == '"') {
      for (++pos_; text_[pos_] != '"'; ++pos_) {
        if (text_[pos_] == '\\') ++pos_;
      }
      ++pos_;
    } else {
      while (pos_ < text_.size() && std::string(",]} \t\r\n").find(text_[pos_]) == std::string::npos) ++pos_;
    }
    node.text = text_.substr(begin, pos_ - begin);
    const nlohmann::json v = nlohmann::json::parse(node.text);
    if (v.is_string()) {
      node.kind = DescriptorNode::Kind::String;
      node.text = v.get<std::string>();
    } else if (v.is_boolean()) {
      node.kind = DescriptorNode::Kind::Bool;
      node.boolValue = v.get<bool>();
    } else if (v.is_number_integer() && (!v.is_number_unsigned() || v.get<uint64_t>() <= INT64_MAX)) {
      node.kind = DescriptorNode::Kind::Int;
      node.intValue = v.get<int64_t>();
    } else if (v.is_number()) {
      node.kind = DescriptorNode::Kind::Float;
      node.floatValue = v.get<double>();
    }
  }

  const std::string& text_;
  const LineTable& lines_;
  size_t pos_ = 0;
};

// nlohmann's message without its "[json.exception...] parse error at line L, column C: " prefix.
std::string syntaxProblem(const std::string& what) {
  const size_t at = what.find("column ");
  const size_t colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
  if (colon != std::string::npos) return what.substr(colon + 2);
  const size_t bracket = what.rfind("] ", what.find(' ') == std::string::npos ? 0 : what.find(' '));
  return what.compare(0, 1, "[") == 0 && bracket != std::string::npos ? what.substr(bracket + 2) : what;
}

}  // namespace

bool readJsonTree(const std::string& file, const std::string& text, DescriptorNode& root, Diagnostic& error) {
  const LineTable lines(text);
  try {
    const nlohmann::json syntaxChecked = nlohmann::json::parse(text);  // throws with the byte offset
  } catch (const nlohmann::json::parse_error& e) {
    DescriptorNode at;
    lines.place(std::min(e.byte > 0 ? e.byte - 1 : 0, text.size()), at);
    error.range.begin = at.location(file);
    error.message = "not valid JSON: " + syntaxProblem(e.what());
    return false;
  } catch (const nlohmann::json::exception& e) {  // well formed, but a number beyond double's range
    const std::string what = e.what();
    const size_t quote = what.find('\''), end = quote == std::string::npos ? quote : what.find('\'', quote + 1);
    const size_t at = end == std::string::npos ? 0 : text.find(what.substr(quote + 1, end - quote - 1));
    DescriptorNode place;
    lines.place(at == std::string::npos ? 0 : at, place);
    error.range.begin = place.location(file);
    error.message = "not valid JSON: " + syntaxProblem(what);
    return false;
  }
  root = PositionPass(text, lines).value();
  return true;
}

}  // namespace pyasc::registry
