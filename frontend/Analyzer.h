// Semantic analysis: runs the program abstractly over compile-time values and graph arrays,
// resolving names, imports, dtypes and shapes, inlining helpers and keeping range loops as loops.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "frontend/Ast.h"
#include "frontend/FrontendOptions.h"
#include "frontend/GraphBuilder.h"
#include "frontend/SymbolicValue.h"

namespace pyasc::frontend {

// Loop vectorisation's plan of a loop nest (frontend/Vectorize.cpp).
struct LinearIndex;
struct VectorAccess;
struct VectorPlan;

class Analyzer {
 public:
  Analyzer(const FrontendOptions& options, DiagnosticEngine& diags, GraphBuilder& builder);

  // Analyzes the module (and the entry function, if any) and records the graph outputs.
  void run(const Module& module);

 private:
  enum class Flow { Normal, Return, Break, Continue };

  struct Frame {
    std::map<std::string, SymValue> locals;
    std::vector<std::string> order;  // names in order of first binding
    const Stmt* function = nullptr;  // null for the module
    bool prelude = false;            // a function of frontend/numpy_prelude.py: sees its names, not the program's
    SymValue returnValue = SymValue::none();
  };

  // Names a loop body assigns, and names whose arrays it writes (directly or through helpers).
  struct BodyScan {
    std::vector<std::string> assigned;  // every name bound in the body, augmented assignment included
    std::vector<std::string> rebound;   // names bound by plain assignment (x = ..., for x in ...)
    std::vector<std::string> written;   // names whose arrays are updated in place
    std::map<std::string, std::string> views;  // row = A[i] in the body: writes to row update A
    std::set<std::string> elements;  // w = A[i, j] in the body: a NumPy scalar, so w -= x rebinds w

    // Records an in-place write to `name` and to the arrays it is a view or alias of.
    void markWritten(std::string name);
  };

  struct Argument {
    SymValue value;
    SourceRange range;
    const Expr* expr = nullptr;
  };
  struct CallArgs {
    std::vector<Argument> positional;
    std::vector<std::pair<std::string, Argument>> keywords;
    SourceRange range;  // the whole call
    std::string calleeText;  // "np.sum", "a.reshape"
  };

  // ---- diagnostics (Analyzer.cpp)
  void report(const Diagnostic& diag);  // records an error once, even when a helper runs twice
  [[noreturn]] void fail(const SourceRange& range, const std::string& message, std::vector<Diagnostic> notes = {});
  // `d` truncated to an int64 as Python's int() would, or Python's error for nan and infinity (and
  // ours for a value beyond int64), at `range`.
  int64_t truncatedInt(double d, const SourceRange& range);
  // Fails at `range` when a constant of `elements` elements would exceed graph::kMaxConstantBytes.
  void checkConstantSize(int64_t elements, const SourceRange& range);
  static Diagnostic note(const SourceRange& range, const std::string& message);
  void warn(const SourceRange& range, const std::string& message);

  // ---- scopes (Analyzer.cpp)
  SymValue* lookup(const std::string& name);
  void bind(const std::string& name, SymValue value);
  std::vector<std::string> visibleNames() const;
  std::string nameOfStorage(const std::shared_ptr<ArrayStorage>& storage) const;  // a variable holding it

  // ---- statements (Analyzer.cpp)
  Flow execBlock(const std::vector<StmtPtr>& body);
  Flow execStmt(const Stmt& stmt);
  void poisonTargets(const Stmt& stmt);
  // Counts one run of an unrolled loop's body; too many in all is an error at `loop`.
  void countUnrolledBody(const Stmt& loop);
  void execImport(const Stmt& stmt);
  void execAssign(const Stmt& stmt);
  void assignTo(const Expr& target, const SymValue& value);
  void execAugAssign(const Stmt& stmt);
  Flow execIf(const Stmt& stmt);
  // An if whose condition is array data (q < m[i, j]): both branches run, and every name they bind
  // and every array they write differently is merged with np.where(condition, then, else).
  Flow execIfOnData(const Stmt& stmt, const SymValue& test);
  Flow execFor(const Stmt& stmt);
  Flow execWhile(const Stmt& stmt);
  Flow unrollOver(const Stmt& stmt, const std::vector<SymValue>& items);
  // for row in a: a loop over a's first axis whose body starts with row = a[index] (unrolled, as a
  // range loop, when the body updates compile-time values).
  Flow iterateArray(const Stmt& stmt, const SymValue& array);
  void skipZeroTripLoop(const Stmt& stmt, const BodyScan& scan, const std::string& indexName);
  bool updatesCompileTimeValues(const BodyScan& scan);
  static bool indexSetsShapes(const std::vector<StmtPtr>& body, const std::string& index);
  // The loop of stmt's body over range(start, stop, step), its index named `indexName`; `prologue`
  // runs first in each iteration. With `whileTest` (the condition's value before the first trip), a
  // while loop whose trips the host decides: range(0, --max-while-trips), the condition carried last.
  void buildKeptLoop(const Stmt& stmt, int64_t start, int64_t stop, int64_t step, const BodyScan& scan,
                     const std::string& indexName, const Stmt* prologue = nullptr, const SymValue* whileTest = nullptr);
  // A while condition that is array data as a bool scalar (Python's truth value of a one-element array).
  graph::ValueId whileCondition(const SymValue& test, const SourceRange& range);
  // Python numbers a while loop on array data updates become 0-d arrays it carries (int64, float64,
  // bool, promoting like the numbers); returns their names and the Python numbers they were.
  std::map<std::string, SymValue> carryPythonNumbers(const Stmt& stmt, const BodyScan& scan);
  BodyScan scanBody(const std::vector<StmtPtr>& body);
  void scanStmt(const Stmt& stmt, BodyScan& scan, std::set<const Stmt*>& visiting);
  void scanExpr(const Expr& expr, BodyScan& scan, std::set<const Stmt*>& visiting);
  std::vector<std::string> writtenParams(const Stmt& function, std::set<const Stmt*>& visiting);
  static std::string rootName(const Expr& expr);
  // Whether `value` reads one element (A[i, j], every axis of a known array indexed by an integer).
  bool readsElement(const Expr& value);
  void applyPragmas(const Stmt& stmt, int& pushedHints);

  // ---- entry and outputs (Analyzer.cpp)
  void runEntry(const Module& module);
  SymValue bindParameter(const Param& param);
  SymValue parameterFromAnnotation(const Param& param, const Expr& annotation);
  void recordScriptOutputs();

  // ---- complex numbers and arrays as real planes (Complex.cpp)
  struct Planes {
    SymValue re;
    std::optional<SymValue> im;  // none: a real value (an exact zero imaginary part)
  };
  // A complex value of these planes, brought to one float dtype and shape: arrays of their own, or
  // with `keepViews` (a subscript's planes) the views they are.
  SymValue complexOf(SymValue re, SymValue im, const SourceRange& range, bool keepViews = false);
  // An exact zero imaginary plane for a real value (of its shape, float dtype).
  SymValue zerosLike(const SymValue& v, const SourceRange& range);
  static bool isComplexConstant(const SymValue& v);
  static Planes planesOf(const SymValue& v);
  SymValue planeOp(const std::string& symbol, const SymValue& a, const SymValue& b, const SourceRange& range);
  SymValue planeNeg(const SymValue& a, const SourceRange& range);
  SymValue planeCall(const std::string& op, std::vector<SymValue> operands, const SourceRange& range,
                     std::vector<graph::NamedAttr> attrs = {});
  SymValue complexMultiply(const Planes& a, const Planes& b, const SourceRange& range);
  SymValue complexDivide(const Planes& a, const Planes& b, const SourceRange& range);
  // A Python operator with a complex operand (+ - * / ** == !=).
  SymValue complexBinary(const std::string& symbol, const Argument& lhs, const Argument& rhs, const SourceRange& range);
  // A graph operator with a complex operand: per plane, or as NumPy computes it on complex numbers.
  SymValue complexOp(const std::string& op, const std::vector<Argument>& operands, std::vector<graph::NamedAttr> attrs,
                     const SourceRange& range, const std::string& spelling);
  // NumPy's complex functions and complex dtypes (np.real, np.conj, np.zeros(n, np.complex64), ...);
  // none when the call is not one of them.
  std::optional<SymValue> complexCall(const std::string& name, const std::optional<Argument>& self, const CallArgs& args,
                                      const std::string& nameHint);
  SymValue complexAttribute(const SymValue& z, const std::string& name, const SourceRange& range,
                            const std::string& nameHint);
  // Runs `f` on `subscript` with its base replaced by `plane`.
  SymValue onPlane(const SymValue& plane, const Expr& subscript, const std::function<SymValue(const Expr&)>& f);
  // Runs `f` on `subscript` for each plane of `z`, the index's calls evaluated once; with `combine`,
  // the two results as a complex value (views kept).
  SymValue onBothPlanes(const SymValue& z, const Expr& subscript, const std::function<SymValue(const Expr&)>& f,
                        bool combine);
  // `index` with every call in it (and comprehension, lambda) evaluated now and bound to a hidden
  // name, whose names are added to `hoisted`.
  ExprPtr callsEvaluatedOnce(const Expr& index, std::vector<std::string>& hoisted);
  SymValue complexSubscript(const SymValue& z, const Expr& expr, const std::string& nameHint);
  void assignComplexSubscript(const Expr& target, const SymValue& base, const SymValue& value);
  // A complex array as (real, imaginary) pairs along a new last axis: how a model outputs it.
  graph::ValueId complexPairs(const SymValue& z, const SourceRange& range);

  // ---- expressions (Expressions.cpp)
  bool isBuiltin(const std::string& name) const;  // Python builtins pyasc knows (range, len, ...)
  SymValue eval(const Expr& expr, const std::string& nameHint = "");
  SymValue evalName(const Expr& expr);
  SymValue evalAttribute(const Expr& expr);
  SymValue moduleMember(const std::string& module, const std::string& name, const SourceRange& range);
  SymValue arrayAttribute(const SymValue& array, const std::string& name, const SourceRange& range,
                          const std::string& nameHint);
  SymValue evalBinary(const Expr& expr, const std::string& nameHint);
  SymValue binaryOperator(const std::string& symbol, const Argument& lhs, const Argument& rhs,
                          const SourceRange& range, const std::string& nameHint);
  SymValue evalUnary(const Expr& expr, const std::string& nameHint);
  SymValue evalCompare(const Expr& expr, const std::string& nameHint);
  SymValue evalBoolOp(const Expr& expr);
  // [x for t in iterable if cond ...], run at compile time: a list (a tuple value) of its items.
  SymValue evalListComp(const Expr& expr);
  // The items a comprehension or zip() iterates: a tuple's, or an array's rows.
  // The items of a tuple or the rows of an array, at most `limit` of them (negative: all).
  std::vector<SymValue> iterationItems(const SymValue& seq, const SourceRange& range, int64_t limit = -1);
  SymValue foldScalars(const std::string& symbol, const SymValue& lhs, const SymValue& rhs, const SourceRange& range);
  SymValue applyOp(const std::string& op, const std::vector<Argument>& operands, std::vector<graph::NamedAttr> attrs,
                   const SourceRange& range, const std::string& nameHint, const std::string& spelling = "");
  graph::ValueId tensorOf(const SymValue& value, DType scalarDType, const SourceRange& range);
  graph::ValueId arrayValue(const SymValue& array, const SourceRange& range);
  // An array-like argument (an array, a nested list of numbers, a number) as np.asarray takes it.
  graph::ValueId asArray(const Argument& a, const std::string& callee);
  graph::ValueId indexValue(const SymValue& index, const SourceRange& range);
  SymValue fresh(graph::ValueId value, const SourceRange& range);
  bool isTensorLike(const SymValue& v) const;
  std::string typeName(const SymValue& v) const;
  std::string ufuncName(const std::string& op) const;
  [[noreturn]] void failCannotInfer(const std::string& op, const std::vector<Argument>& operands,
                                    const SourceRange& range);
  bool truthy(const SymValue& v, const SourceRange& range);
  int64_t requireInt(const SymValue& v, const SourceRange& range, const std::string& what);
  // An integer element of a compile-time array (w = weights[3] of a literal np.array) as the Python
  // int NumPy's __index__ gives, where a compile-time integer is needed (slice and range bounds,
  // indices); any other value as it is.
  SymValue constantIndex(const SymValue& v);
  // Integer arithmetic (+ - * // % and negation) of one-element compile-time arrays of one dtype,
  // folded exactly (NumPy's value, in that dtype), or nullopt.
  std::optional<double> foldIntegerElements(const std::string& op, const std::vector<graph::ValueId>& inputs);
  // v's value, a located error for an integer a double (the graph's constants) does not hold exactly.
  double exactNumber(const SymValue& v, const SourceRange& range);
  double requireNumber(const SymValue& v, const SourceRange& range, const std::string& what);
  std::string describeKind(const SymValue& v) const;
  SymValue constantArray(const SymValue& literal, std::optional<DType> dtype, const SourceRange& range,
                         const std::string& nameHint);

  // ---- calls (Calls.cpp)
  SymValue evalCall(const Expr& expr, const std::string& nameHint);
  SymValue callFunction(const Stmt& function, const CallArgs& args);
  // np.NAME of frontend/numpy_prelude.py: its function run as a helper, located at the call.
  SymValue callPrelude(const Stmt& function, const CallArgs& args);
  static SymValue functionValue(const Stmt& function);
  SymValue callBuiltin(const std::string& name, const CallArgs& args);
  SymValue callNumpy(const std::string& aliasName, const CallArgs& args, const std::string& nameHint);
  // np.add.outer(a, b) and np.add.reduce(a, axis=0) for the binary ufuncs (Calls.cpp).
  SymValue ufuncMethod(const std::string& ufunc, const std::string& method, const SourceRange& range);
  SymValue callUfuncMethod(const std::string& path, const CallArgs& args, const std::string& nameHint);
  // The spellings the frontend builds from other operators, their arguments bound by their aliases
  // (Calls.cpp): np.cumsum / np.cumprod / their methods and np.<ufunc>.accumulate (an inclusive scan
  // by `ufunc`; axis None by default, 0 for accumulate), np.linalg.norm and np.sort.
  SymValue callScan(const std::string& ufunc, bool accumulate, std::map<std::string, Argument>& bound,
                    const CallArgs& args, const std::string& nameHint);
  SymValue callNorm(std::map<std::string, Argument>& bound, const CallArgs& args, const std::string& nameHint);
  SymValue callSort(std::map<std::string, Argument>& bound, const CallArgs& args, const std::string& nameHint,
                    bool indices);
  SymValue callMethod(const SymValue& self, const std::string& name, const CallArgs& args,
                      const std::string& nameHint);
  SymValue callMath(const std::string& name, const CallArgs& args);
  // math functions that also take one runtime element (math.sqrt(a[i])), computed by NumPy's function of that name
  static const std::set<std::string>& mathOnRuntimeScalars();
  SymValue callAlias(const registry::NumpyAlias& alias, const std::optional<Argument>& self, const CallArgs& args,
                     const std::string& nameHint);
  SymValue callRandom(const std::string& name, const CallArgs& args, const std::string& nameHint);
  // The spellings whose arguments need more than the alias table (np.array, arange, full, the
  // *_like functions, tensordot, dot, clip with None); `handled` is false for the others.
  SymValue callSpecial(const std::string& name, std::map<std::string, Argument>& bound, const CallArgs& args,
                       const std::string& nameHint, bool& handled);
  // np.pad's pad_width as (before, after) per axis in turn.
  std::vector<int64_t> padWidths(const Argument& arg, int rank, const std::string& callee);
  // The Gather of `base` at compile-time `indices` (an int drops the axis; negative ones count from
  // the end; an out-of-range index is reported where it is written); `what` names the indices.
  SymValue gather(graph::ValueId base, int64_t axis, const Argument& indices, const SourceRange& range,
                  const std::string& nameHint, const std::string& what);
  std::map<std::string, Argument> bindArguments(const registry::NumpyAlias& alias, const std::optional<Argument>& self,
                                                const CallArgs& args);
  graph::Attribute attributeFor(const registry::NumpyParam& param, const Argument& arg, const std::string& callee);
  std::vector<int64_t> intList(const SymValue& v, const SourceRange& range, const std::string& what);
  DType dtypeArgument(const SymValue& v, const SourceRange& range);
  [[noreturn]] void failUnknownFunction(const std::string& module, const std::string& name, const SourceRange& range);

  // ---- boolean-mask selections (Selections.cpp): a Selection's items are the values (the mask's
  // shape, then the selected rows' axes) and the mask
  SymValue selectionOf(const SymValue& values, const SymValue& mask, const SourceRange& range);
  [[noreturn]] void failOnSelection(const SourceRange& range, const std::string& what);
  // Whether `a` and `b` are computed alike (the same operators on the same inputs and constants).
  bool sameValue(graph::ValueId a, graph::ValueId b, int depth = 0);
  graph::ValueId maskAcross(graph::ValueId mask, int rank, const SourceRange& range);  // trailing axes of 1
  SymValue selectionCount(const SymValue& selection, const SourceRange& range);    // a runtime int
  SymValue selectionAttribute(const SymValue& selection, const std::string& name, const SourceRange& range,
                              const std::string& nameHint);
  SymValue applyToSelection(const std::string& op, const std::vector<Argument>& operands,
                            std::vector<graph::NamedAttr> attrs, const SourceRange& range, const std::string& nameHint,
                            const std::string& spelling);
  SymValue selectByMask(const SymValue& base, const SymValue& mask, const std::vector<const Expr*>& rest,
                        const Expr& index, const SourceRange& range);
  SymValue callSelecting(const std::string& name, const Argument& array, const CallArgs& args,
                         const std::string& nameHint);  // np.nonzero, np.flatnonzero, np.unique

  // ---- indexing (Indexing.cpp)
  struct IndexPlan {
    std::vector<int64_t> axes, begin, end, step, dynamicAxes;
    std::vector<graph::ValueId> offsets;
    std::vector<int64_t> squeezedAxes, newAxes;
    graph::Shape finalShape;
    bool full = true;  // selects the whole array (only ':' and '...')
  };
  IndexPlan planIndex(const SymValue& array, const Expr& index, const SourceRange& arrayRange);
  // An integer array in a subscript (NumPy's advanced indexing): the axis of the plan's result it
  // indexes, and the index values.
  struct AdvancedIndex {
    int64_t axis;
    SymValue value;
    SourceRange range;
  };
  // With `advanced`, integer arrays in `items` are taken as ':' by the plan and listed there for
  // gatherAdvanced; without, they are errors.
  IndexPlan planItems(const SymValue& array, const std::vector<const Expr*>& items, const SourceRange& indexRange,
                      const SourceRange& arrayRange, std::vector<AdvancedIndex>* advanced = nullptr);
  // Integer-array indexing of `base`: the flat positions of the index tuples (shape S) among the N
  // positions of the indexed axes, and `base` with those axes first and merged ([N, rest...]).
  struct AdvancedLayout {
    std::vector<int64_t> axes, rest, restShape, perm;
    int64_t positions = 1;
    graph::ValueId flat = graph::kNoValue, moved = graph::kNoValue;
    graph::Shape indexShape;
    bool adjacent = false;  // NumPy puts S where the axes were (else first)
    std::vector<int64_t> indexShapeInPlace() const;  // [S, prefix, suffix] -> [prefix, S, suffix]
  };
  static constexpr int64_t kMaxSelection = int64_t{1} << 24;  // elements one selection compares
  AdvancedLayout advancedLayout(graph::ValueId base, const std::vector<AdvancedIndex>& advanced, const SourceRange& range);
  graph::ValueId selectOne(graph::ValueId mask, graph::ValueId values, int64_t axis, const SourceRange& range,
                           const std::string& nameHint);
  // `base` at the integer arrays of `advanced` (NumPy's rules for where the index shape goes).
  graph::ValueId gatherAdvanced(graph::ValueId base, const std::vector<AdvancedIndex>& advanced,
                                const SourceRange& range, const std::string& nameHint);
  // `base` with `value` written at the integer arrays of `advanced` (the last write to a position
  // wins), or with `combine` (Add, Sub, Mul, Maximum, Minimum) combined there as np.add.at does.
  graph::ValueId scatterAdvanced(graph::ValueId base, const std::vector<AdvancedIndex>& advanced, const SymValue& value,
                                 const SourceRange& range, const std::string& combine = "");
  graph::ValueId lastWriteAt(const AdvancedLayout& layout, graph::ValueId hit, graph::ValueId v, DType t,
                             const SourceRange& range);
  graph::ValueId combineAt(const AdvancedLayout& layout, graph::ValueId hit, graph::ValueId v, const std::string& combine,
                           const SourceRange& range);
  // np.add.at(a, indices, b) and the same for subtract, multiply, maximum and minimum.
  SymValue callUfuncAt(const std::string& ufunc, const CallArgs& args);
  // A loop whose body is one X[indices] op= value, indices and value computed from the loop's items
  // alone, run as one scatter (frontend/Scatters.cpp); false when the loop is not of that form.
  bool runAsScatter(const Stmt& loop);

  // ---- loop vectorisation (Vectorize.cpp)
  // Runs a nest of range loops over array elements as array operations when the dependence test
  // allows it (also for `# pragma: parallelize`); false leaves the loop to execFor.
  bool runVectorized(const Stmt& loop);
  bool planVectorized(const Stmt& loop, VectorPlan& plan);
  std::optional<LinearIndex> affineIndex(const Expr& e, VectorPlan& plan);
  bool recordAccess(const Expr& e, int stmt, bool write, VectorPlan& plan);
  bool scanValue(const Expr& e, int stmt, const std::set<std::string>& defined, const std::set<std::string>& assigned,
                 VectorPlan& plan);
  bool checkDependences(VectorPlan& plan);
  bool planScan(VectorPlan& plan);
  ExprPtr arraySubscript(const VectorAccess& access, const VectorPlan& plan, int number, std::vector<std::string>& hidden);
  // Whether a literal list index names arrays (a[[k, p]] with p computed): an index array, not a gather
  // at compile-time positions.
  bool listHoldsArrays(const Expr& list);
  // The comma-separated parts of a subscript, and the first list among them (a[:, [0, 2]], or a name
  // bound to a list of ints).
  static std::vector<const Expr*> indexItems(const Expr& index);
  const Expr* listIndexItem(const Expr& index);
  // a[[i, j]] and a[:, [i, j]]: a gather along the list's axis (a copy, not a view).
  SymValue evalListSubscript(const SymValue& base, const Expr& expr, const Expr& list, const std::string& nameHint);
  // The plan that reads or writes a view's region of its root array.
  static IndexPlan planOfView(const ArrayView& view);
  SymValue evalSubscript(const Expr& expr, const std::string& nameHint);
  // np.mgrid[a:b:s, ...] (the stacked grids) and np.ogrid[...] (the open grids) of compile-time slices.
  SymValue evalGrid(bool open, const Expr& index, const std::string& nameHint);
  graph::ValueId readThroughPlan(graph::ValueId base, const IndexPlan& plan, const SourceRange& range,
                                 const std::string& nameHint);
  graph::ValueId writeThroughPlan(graph::ValueId base, const IndexPlan& plan, const SymValue& value,
                                  const SourceRange& range, const std::string& nameHint);
  void assignSubscript(const Expr& target, const SymValue& value);
  // a[mask] = v with a boolean array mask: evaluates the mask, or returns false for other indices.
  bool booleanMask(const Expr& index, SymValue& mask);
  // Writes np.where(mask, value, array) back into the array of `target` (a[mask] = value).
  void assignMasked(const Expr& target, const SymValue& base, const SymValue& mask, const SymValue& value);
  void writeArray(const SymValue& array, const SymValue& value, const SourceRange& range);
  graph::ValueId conformValue(const SymValue& value, const graph::TensorType& target, const graph::Shape& shape,
                              const SourceRange& range);

  const FrontendOptions& options_;
  DiagnosticEngine& diags_;
  int64_t unrolledBodies_ = 0;  // bodies of unrolled loops run so far (countUnrolledBody)
  GraphBuilder& builder_;
  const registry::OpRegistry& registry_;
  std::vector<Frame> frames_;
  std::vector<std::pair<const Stmt*, std::vector<graph::NamedAttr>>> functionHints_;
  int keptLoopDepth_ = 0;
  int callDepth_ = 0;
  const SourceRange* preludeSite_ = nullptr;  // the program's call of the running prelude function
  std::map<std::string, SymValue> preludeGlobals_;  // np and the prelude's functions, as looked up
  int evalDepth_ = 0;  // nested eval calls: at most kMaxEvalDepth (the stack a deep expression needs)
  static constexpr int kMaxEvalDepth = 1100;  // a chain of 1000 operators, inside a few calls
  static constexpr int64_t kMaxTupleItems = int64_t{1} << 16;  // compile-time tuples (shapes, lists)
  static constexpr int64_t kMaxArrayRows = 4096;  // an array's rows taken one by one (zip, enumerate, unpacking)
  // np.random state: the seed of the current stream and how many values it has produced.
  bool randomSeeded_ = false;
  uint32_t randomSeed_ = 0;
  int randomStream_ = 0;
  int64_t randomOffset_ = 0;
  std::map<std::string, std::string> ufuncNames_;  // registry op -> NumPy function name
  // scale * index already computed in an open region: (index, scale, offset) -> (value, region).
  std::map<std::tuple<graph::ValueId, int64_t, int64_t>, std::pair<graph::ValueId, int>> indexValues_;
  std::vector<StmtPtr> synthesized_;  // the statements loop vectorisation ran (the graph keeps their ranges)
  // Results of the nodes that take a vectorised loop's last iteration out of a name's values: their
  // reads do not make an array the loop stored those values into a read one (recordScriptOutputs).
  std::set<graph::ValueId> lastIterationReads_;
};

}  // namespace pyasc::frontend
