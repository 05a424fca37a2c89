// The abstract syntax tree of the Python subset, with exact source ranges.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frontend/Token.h"

namespace pyasc::frontend {

enum class ExprKind {
  Name,       // text
  Int,        // intValue
  Float,      // floatValue
  Imaginary,  // floatValue * 1j
  Bool,       // intValue 0/1
  None,
  String,     // text
  Attribute,  // children[0].text
  Call,       // children[0](children[1..], keywords)
  Subscript,  // children[0][children[1]]
  Slice,      // children: lower, upper, step (null when omitted)
  BinOp,      // children[0] text children[1]
  UnaryOp,    // text children[0]  ("-", "+", "~", "not")
  Compare,    // children[0] ops[0] children[1] ops[1] children[2] ...
  BoolOp,     // children joined by text ("and", "or")
  IfExp,      // children: body, test, orelse
  Tuple,
  List,
  Ellipsis,
  Starred,  // *children[0] as a call argument: a compile-time tuple spread into positional arguments
  Lambda,   // lambda children[0..n-1] (Names): children[n]; also as `function`, a def returning children[n]
  ListComp,  // [children[0] for ...]: per ops entry "for" two more children (target, iterable), "if" one (condition)
  Error,  // an unsupported construct already reported by the parser; analysis skips it silently
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct Stmt;

struct Keyword {
  std::string name;
  ExprPtr value;
  SourceRange range;
};

struct Expr {
  ExprKind kind = ExprKind::None;
  SourceRange range;
  std::string text;
  int64_t intValue = 0;
  double floatValue = 0;
  std::vector<ExprPtr> children;
  std::vector<Keyword> keywords;
  std::vector<std::string> ops;  // Compare operators
  bool parenthesized = false;    // a tuple written with parentheses
  bool formatted = false;        // a String written as an f-string
  std::shared_ptr<const Stmt> function;  // a Lambda as the FunctionDef `<lambda>` that returns its body
};

enum class StmtKind {
  Expr,         // value
  Assign,       // targets = value (a = b = value has two targets)
  AugAssign,    // targets[0] text= value
  AnnAssign,    // targets[0]: annotation = value
  For,          // for targets[0] in value: body
  While,        // while value: body
  If,           // if value: body else orelse
  FunctionDef,  // def name(params) -> annotation: body
  Return,       // return value (may be null)
  Import,       // import names
  ImportFrom,   // from module import names
  Pass,
  Break,
  Continue,
};

using StmtPtr = std::unique_ptr<Stmt>;

struct Param {
  std::string name;
  ExprPtr annotation;
  ExprPtr defaultValue;
  SourceRange range;
};

struct ImportName {
  std::string name;   // dotted module or imported name
  std::string alias;  // "as" name, or empty
  SourceRange range;
};

struct Stmt {
  StmtKind kind = StmtKind::Pass;
  SourceRange range;  // the first line of the statement
  std::string text;   // function name, augmented operator, or import module
  std::vector<ExprPtr> targets;
  ExprPtr value;
  ExprPtr annotation;
  std::vector<StmtPtr> body;
  std::vector<StmtPtr> orelse;
  std::vector<Param> params;
  std::vector<ImportName> names;
  std::vector<ExprPtr> decorators;
  std::vector<Pragma> pragmas;
};

struct Module {
  std::string file;
  std::vector<StmtPtr> body;
};

// A deep copy of `e` (frontend/Parser.cpp).
ExprPtr cloneExpr(const Expr& e);

// A readable indented dump of the tree with line:col ranges (asc-fe --emit=ast).
std::string dumpModule(const Module& module);

}  // namespace pyasc::frontend
