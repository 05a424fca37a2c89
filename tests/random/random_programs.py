#!/usr/bin/env python3
"""Random NumPy programs over the subset pyasc compiles, each checked against NumPy (Csmith's idea).

  random_programs.py --count N [--seed S] [--backend sim|cpu|both] [--target T] [--opt-level O0|O1|O2]
                     [--keep DIR] [--write DIR] [--no-int64] [--verbose]

Program k of a run is generated from seed S + k, so any program is reproduced by its seed alone
(`--seed S+k --count 1 --keep DIR` writes it). Each program is a function `f` of one to three
arrays (float16, float32, int32, int64, bool; without int64 inputs and unbounded int64 arithmetic
with --no-int64, as int64 took part before the scalar unit computed it; shapes with broadcasting 1s, 0-d to
3-d, one program in five over several tiles and cores) built from elementwise operations and math
functions, integer bitwise operators, shifts and powers, broadcasting, comparisons and `np.where`,
casts, reductions, slicing, reshapes and
transposes, concatenation and stacking, padding, gathers (`np.take`), scans and sorts, statistics,
contractions (`@`, `np.tensordot`, `np.einsum`), ufunc methods and loops (reductions over rows,
iterated updates, in-place recurrences, column writes, stencils, augmented accumulations). It is
compiled through the Python binding and run on the chosen backends.

Tolerance model, per output, against NumPy with every float computed in float64 (ref64):
* ill-conditioned programs are discarded and counted: NumPy's own result in the program's dtypes,
  or ref64 of inputs perturbed by 4 units of their dtype's rounding, differs from ref64 by more
  than 5% (floats) or in where the non-finite values are; an integer or boolean output, when it
  differs in any element from these or from ref64 of inputs perturbed by 256 units (a cast or
  comparison that another order of rounding can decide otherwise);
* NumPy runs with NEP 50's promotion (NumPy 2's, which pyasc follows; NumPy 1.24 computes a NumPy
  scalar meeting a Python float in float64 otherwise), and an output must have NumPy's dtype;
* a float output passes when its error ‖out − ref64‖ / ‖ref64‖ is at most 8 × the larger of those
  two errors plus 16 units of rounding of its dtype; an integer or boolean output must equal NumPy's
  result exactly.
A program pyasc refuses counts as a failure: the generator emits only what pyasc supports.
--dynamic compiles each program once with the inputs' row count as a dynamic dimension
(`--dynamic-dims=R=1-r`) and runs it at r and at a smaller count drawn from the seed; a refusal of
dynamic rows (an operator not compiled for them, code that needs their count at compile time) and a
program that NumPy cannot run at the smaller count (the generator writes counts into loops) are
counted as refused, not failed.
--write DIR writes the programs (with their `# e2e:` line) instead, e.g. as fuzzing seeds.
"""
import argparse
import os
import random
import re
import sys
import tempfile
import time

import numpy as np

FLOATS = ("float16", "float32")
INTS = ("int32", "int64")
EPS = {"float16": 2.0 ** -11, "float32": 2.0 ** -24, "float64": 2.0 ** -53}


class Var:
    def __init__(self, name, dtype, shape, rows_axis=None):
        self.name, self.dtype, self.shape = name, dtype, tuple(shape)
        self.rows_axis = rows_axis  # inputs: the axis that holds the program's row count, if any

    def with_rows(self, rows):
        """The input at another row count (--dynamic)."""
        shape = list(self.shape)
        if self.rows_axis is not None:
            shape[self.rows_axis] = rows
        return Var(self.name, self.dtype, shape, self.rows_axis)

    @property
    def kind(self):
        return "f" if self.dtype in FLOATS else "i" if self.dtype in INTS else "b"


def broadcast(a, b):
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return None


class Generator:
    """One program: statements over a pool of typed variables."""

    def __init__(self, rng, int64, library_ops, dynamic=False):
        self.rng = rng
        self.dynamic = dynamic  # row counts of at least 2 that no other extent equals
        self.int64 = int64
        self.library_ops = library_ops
        self.bounded = set()  # int64 values with bounds the compiler derives (argmax indices, ...)
        self.lines = []
        self.pool = []
        self.inputs = []
        self.count = 0

    def fresh(self, dtype, shape, expr):
        self.count += 1
        v = Var("v%d" % self.count, dtype, shape)
        if dtype == "int64" and ("np.arg" in expr or any(re.search(r"\b%s\b" % b, expr) for b in self.bounded)):
            self.bounded.add(v.name)
        self.lines.append("    %s = %s" % (v.name, expr))
        self.pool.append(v)
        return v

    def pick(self, pred=lambda v: True):
        # with --no-int64, int64 values take part only when bounded (argmax indices and what is
        # computed from them), which narrow-integers computes in int32
        cands = [v for v in self.pool if pred(v) and (self.int64 or v.dtype != "int64" or v.name in self.bounded)]
        if not cands:
            return None
        # recent values are likelier: programs grow chains, not only fans
        weights = [1 + i for i in range(len(cands))]
        return self.rng.choices(cands, weights)[0]

    def partner(self, x, same_kind=True):
        """A second operand broadcasting with x: same dtype (or float16/float32, int32/int64)."""
        def ok(v):
            if v is x or broadcast(v.shape, x.shape) is None:
                return False
            if not self.int64 and "int64" in (v.dtype, x.dtype) and v.dtype != x.dtype:
                return False  # int32 with int64 is int64 arithmetic on values of int32's whole range
            return v.dtype == x.dtype or (same_kind and v.kind == x.kind and v.kind != "b")
        return self.pick(ok)

    # -- inputs ---------------------------------------------------------------------------------
    def make_inputs(self):
        # mostly small shapes (one tile); one program in five spans several tiles and cores
        if self.rng.random() < 0.2:
            r, c = self.rng.randint(1, 300), self.rng.randint(1, 700)
        else:
            r, c = self.rng.randint(1, 9), self.rng.randint(1, 33)
        if self.dynamic:
            r = max(r, 4)
            c = c + 1 if c in (r, 2, 3) else c
        shapes = [(r, c), (c,), (r, 1), (1, c), (r, c), (self.rng.randint(2, 3), r, c), ()]
        rows_axes = [0, None, 0, None, 0, 1, None]
        for k in range(self.rng.randint(1, 3)):
            dtype = self.rng.choices(["float32", "float16", "int32", "int64", "bool"],
                                     [50, 15, 15, 10 if self.int64 else 0, 10])[0]
            which = 0 if k == 0 else self.rng.randrange(6)
            v = Var("a%d" % k, dtype, shapes[which], rows_axes[which])
            self.inputs.append(v)
            self.pool.append(v)

    # -- statements -----------------------------------------------------------------------------
    def float_unary(self, x):
        n = x.name
        forms = ["np.abs(%s)" % n, "-%s" % n, "np.sin(%s)" % n, "np.cos(%s)" % n, "np.tanh(%s)" % n,
                 "np.exp(np.minimum(%s, 4.0))" % n, "np.sqrt(np.abs(%s))" % n, "np.log(np.abs(%s) + 1.0)" % n,
                 "np.floor(%s)" % n, "%s * %s" % (n, n), "np.maximum(%s, 0.0)" % n, "%s * 0.5" % n,
                 "%s + 1.25" % n, "0.75 - %s" % n, "np.clip(%s, -1.0, 1.0)" % n, "np.square(%s)" % n]
        return self.fresh(x.dtype, x.shape, self.rng.choice(forms))

    def float_binary(self, x):
        y = self.partner(x)
        if y is None:
            return self.float_unary(x)
        a, b = x.name, y.name
        form = self.rng.choice(["%s + %s", "%s - %s", "%s * %s", "%s / (np.abs(%s) + 1.0)", "np.maximum(%s, %s)",
                                "np.minimum(%s, %s)"])
        return self.fresh(str(np.result_type(x.dtype, y.dtype)), broadcast(x.shape, y.shape), form % (a, b))

    def int_op(self, x):
        y = self.partner(x)
        n = x.name
        if y is None or self.rng.random() < 0.4:
            form = self.rng.choice(["-%s" % n, "np.abs(%s)" % n, "%s * 3" % n, "%s + 7" % n, "%s // 3" % n,
                                    "%s %% 5" % n, "np.maximum(%s, 2)" % n, "np.clip(%s, -6, 6)" % n, "~%s" % n,
                                    "%s << 3" % n, "%s >> 2" % n, "%s & 12" % n, "%s ** 3" % n])
            return self.fresh(x.dtype, x.shape, form)
        form = self.rng.choice(["%s + %s", "%s - %s", "%s * %s", "np.maximum(%s, %s)", "np.minimum(%s, %s)",
                                "%s // (np.abs(%s) + 1)", "%s %% (np.abs(%s) + 1)", "%s & %s", "%s | %s", "%s ^ %s",
                                "%s << (%s & 7)", "%s >> (%s & 31)", "%s ** (%s %% 4)"])
        return self.fresh(str(np.result_type(x.dtype, y.dtype)), broadcast(x.shape, y.shape), form % (n, y.name))

    def compare(self, x):
        y = self.partner(x)
        op = self.rng.choice([">", "<=", ">=", "<"] + (["==", "!="] if x.kind == "i" else []))
        if y is None or self.rng.random() < 0.3:
            k = self.rng.choice(["0.5", "-0.25", "1.0"]) if x.kind == "f" else str(self.rng.randint(-5, 5))
            return self.fresh("bool", x.shape, "%s %s %s" % (x.name, op, k))
        return self.fresh("bool", broadcast(x.shape, y.shape), "%s %s %s" % (x.name, op, y.name))

    def logic(self, b):
        y = self.partner(b)
        if y is None or self.rng.random() < 0.3:
            return self.fresh("bool", b.shape, "~%s" % b.name)
        op = self.rng.choice(["&", "|", "^"])
        return self.fresh("bool", broadcast(b.shape, y.shape), "%s %s %s" % (b.name, op, y.name))

    def where(self):
        b = self.pick(lambda v: v.kind == "b")
        x = self.pick(lambda v: v.kind != "b")
        if b is None or x is None:
            return None
        y = self.pick(lambda v: v is not x and v.dtype == x.dtype and broadcast(v.shape, x.shape) is not None)
        # a Python scalar here would be weak under NEP 50 but not in NumPy 1.24's np.where
        other = y.name if y is not None else "np.zeros_like(%s)" % x.name
        shape = broadcast(b.shape, x.shape if y is None else broadcast(x.shape, y.shape))
        if shape is None:
            return None
        return self.fresh(x.dtype, shape, "np.where(%s, %s, %s)" % (b.name, x.name, other))

    def cast(self, x):
        targets = {"f": ["float32", "float16", "int32"], "i": ["float32", "int32", "int64"], "b": ["float32", "int32"]}
        to = self.rng.choice([t for t in targets[x.kind] if t != x.dtype and (self.int64 or t != "int64")] or ["float32"])
        # a float beyond the integer's range converts differently in NumPy (undefined) and pyasc (saturating)
        src = "np.clip(%s, -1e6, 1e6)" % x.name if x.kind == "f" and to in INTS else x.name
        return self.fresh(to, x.shape, "%s.astype(np.%s)" % (src, to))

    def reduce(self, x):
        if x.kind == "b":
            return None
        # NumPy sums integers into int64 (unbounded int64 values: not with --no-int64)
        ops = ["max", "min"] + (["sum", "mean"] if x.kind == "f" else ["sum"] if self.int64 else [])
        op = self.rng.choice(ops)
        if not x.shape or self.rng.random() < 0.2:
            out_dtype = "int64" if (op == "sum" and x.kind == "i") else x.dtype
            return self.fresh(out_dtype, (), "np.%s(%s)" % (op, x.name))
        axis = self.rng.randrange(len(x.shape))
        keep = self.rng.random() < 0.3
        shape = list(x.shape)
        if keep:
            shape[axis] = 1
        else:
            del shape[axis]
        out_dtype = "int64" if (op == "sum" and x.kind == "i") else x.dtype
        expr = "%s.%s(axis=%d%s)" % (x.name, op, axis, ", keepdims=True" if keep else "")
        if x.kind == "f" and op in ("max", "min") and self.rng.random() < 0.3:
            expr, out_dtype = "np.arg%s(%s, axis=%d)" % (op, x.name, axis), "int64"
            shape = list(x.shape)
            del shape[axis]
        return self.fresh(out_dtype, shape, expr)

    def slice(self, x):
        if not x.shape or x.shape[0] < 2:
            return None
        n0 = x.shape[0]
        forms = [("%s[1:]", (n0 - 1,) + x.shape[1:]), ("%s[:-1]", (n0 - 1,) + x.shape[1:]),
                 ("%s[::2]", ((n0 + 1) // 2,) + x.shape[1:]), ("%s[0]", x.shape[1:]),
                 ("%s[::-1]", x.shape)]
        if len(x.shape) >= 2 and x.shape[1] >= 2:
            forms.append(("%s[:, 1:]", (n0, x.shape[1] - 1) + x.shape[2:]))
            forms.append(("%s[1::2, ::3]", (n0 // 2, (x.shape[1] + 2) // 3) + x.shape[2:]))
            forms.append(("%s[-1, 1]", x.shape[2:]))
        form, shape = self.rng.choice(forms)
        return self.fresh(x.dtype, shape, form % x.name)

    def reshape(self, x):
        if len(x.shape) == 2 and self.rng.random() < 0.5:
            return self.fresh(x.dtype, x.shape[::-1], "%s.T" % x.name)
        if x.shape and self.rng.random() < 0.5:
            return self.fresh(x.dtype, (int(np.prod(x.shape)),), "%s.reshape(-1)" % x.name)
        return self.fresh(x.dtype, (1,) + x.shape, "np.expand_dims(%s, 0)" % x.name)

    def concat(self, x):
        if not x.shape:
            return None
        y = self.pick(lambda v: v is not x and v.dtype == x.dtype and len(v.shape) == len(x.shape)
                      and v.shape[1:] == x.shape[1:])
        if y is None:
            return None
        return self.fresh(x.dtype, (x.shape[0] + y.shape[0],) + x.shape[1:],
                          "np.concatenate([%s, %s], axis=0)" % (x.name, y.name))

    def matmul(self, x):
        if x.kind != "f" or len(x.shape) != 2:
            return None
        if self.rng.random() < 0.5:
            return self.fresh(x.dtype, (x.shape[0], x.shape[0]), "%s @ %s.T" % (x.name, x.name))
        return self.fresh(x.dtype, (x.shape[1], x.shape[1]), "%s.T @ %s" % (x.name, x.name))

    def loop(self, x):
        if x.kind != "f" or not x.shape or x.shape[0] < 2:
            return None
        form = self.rng.randrange(6)
        self.count += 1
        v = "v%d" % self.count
        if form == 0:  # a reduction over rows, one row per iteration
            self.lines += ["    %s = %s[0]" % (v, x.name),
                           "    for i in range(1, %d):" % x.shape[0],
                           "        %s = %s + %s[i] * 0.5" % (v, v, x.name)]
            shape = x.shape[1:]
        elif form == 1:  # an iterated update of the whole array
            self.lines += ["    %s = %s" % (v, x.name),
                           "    for i in range(%d):" % self.rng.randint(2, 4),
                           "        %s = np.maximum(%s * 0.5, %s)" % (v, v, x.name)]
            shape = x.shape
        elif form == 2:  # an in-place recurrence along the first axis
            self.lines += ["    %s = %s.copy()" % (v, x.name),
                           "    for i in range(1, %d):" % x.shape[0],
                           "        %s[i] = %s[i - 1] * 0.5 + %s[i]" % (v, v, v)]
            shape = x.shape
        elif form == 3:  # an accumulation with an augmented assignment and the loop index as a value
            self.lines += ["    %s = %s[0] * 0.0" % (v, x.name),
                           "    for i in range(%d):" % x.shape[0],
                           "        %s += %s[i] * (i + 1)" % (v, x.name)]
            shape = x.shape[1:]
        elif form == 4 and len(x.shape) == 2 and x.shape[1] >= 2:  # column writes, reading the next column
            self.lines += ["    %s = %s.copy()" % (v, x.name),
                           "    for j in range(%d):" % (x.shape[1] - 1),
                           "        %s[:, j] = %s[:, j + 1] - %s[:, j]" % (v, x.name, v)]
            shape = x.shape
        else:  # a stencil over the interior, from a copy
            self.lines += ["    %s = %s.copy()" % (v, x.name),
                           "    for i in range(1, %d):" % (x.shape[0] - 1),
                           "        %s[i] = (%s[i - 1] + %s[i + 1]) * 0.5" % (v, x.name, x.name)]
            shape = x.shape
        var = Var(v, x.dtype, shape)
        self.pool.append(var)
        return var

    def library(self, x):
        """NumPy library functions beyond the elementwise ones: scans, sorts, padding, stacking,
        contractions, gathers, statistics, and more math."""
        n, sh, r = x.name, x.shape, len(x.shape)
        if x.dtype == "int64" and not self.int64:
            return None  # gathers, padding and stacking keep int64 data int64
        forms = []  # (expression, dtype, shape)
        if x.kind == "f":
            forms += [("np.expm1(%s)" % n, x.dtype, sh), ("np.log1p(np.abs(%s))" % n, x.dtype, sh),
                      ("np.arctan(%s)" % n, x.dtype, sh), ("np.sign(%s)" % n, x.dtype, sh),
                      ("np.reciprocal(np.abs(%s) + 1.0)" % n, x.dtype, sh), ("np.round(%s)" % n, x.dtype, sh),
                      ("np.trunc(%s)" % n, x.dtype, sh), ("np.ceil(%s)" % n, x.dtype, sh),
                      ("%s ** 2" % n, x.dtype, sh), ("np.abs(%s) ** 0.5" % n, x.dtype, sh),
                      ("np.mod(%s, 1.5)" % n, x.dtype, sh), ("np.isfinite(%s)" % n, "bool", sh),
                      ("np.sinh(%s)" % n, x.dtype, sh), ("np.hypot(%s, 1.0)" % n, x.dtype, sh)]
            if r:
                a = self.rng.randrange(r)
                rest = sh[:a] + sh[a + 1:]
                if int(np.prod(sh)) * sh[a] <= 1 << 24:  # np.sort compares every pair of a row (the limit)
                    forms.append(("np.sort(%s, axis=%d)" % (n, a), x.dtype, sh))
                forms += [("np.cumsum(%s, axis=%d)" % (n, a), x.dtype, sh),
                          ("%s.var(axis=%d)" % (n, a), x.dtype, rest), ("%s.std(axis=%d)" % (n, a), x.dtype, rest),
                          ("np.prod(%s * 0.5 + 1.0, axis=%d)" % (n, a), x.dtype, rest)]
                if self.int64 and int(np.prod(sh)) * sh[a] <= 1 << 24:
                    forms.append(("np.argsort(%s, axis=%d, kind='stable')" % (n, a), "int64", sh))
            if r == 2:
                forms += [("np.tensordot(%s, %s, axes=([1], [1]))" % (n, n), x.dtype, (sh[0], sh[0])),
                          ("np.einsum('ij,ik->jk', %s, %s)" % (n, n), x.dtype, (sh[1], sh[1])),
                          ("np.linalg.norm(%s, axis=1)" % n, x.dtype, (sh[0],))]
        if x.kind in ("f", "i") and x.kind != "b":
            if r == 2 and sh[1] >= 2:
                forms.append(("%s[:, ::-1]" % n, x.dtype, sh))
            if r:
                pads = tuple((self.rng.randint(0, 2), self.rng.randint(0, 2)) for _ in sh)
                forms.append(("np.pad(%s, %r)" % (n, pads), x.dtype, tuple(d + p[0] + p[1] for d, p in zip(sh, pads))))
                idx = [self.rng.randrange(sh[0]) for _ in range(self.rng.randint(1, 4))]
                forms.append(("np.take(%s, %r, axis=0)" % (n, idx), x.dtype, (len(idx),) + sh[1:]))
            if r == 3:
                forms.append(("%s.transpose(1, 0, 2)" % n, x.dtype, (sh[1], sh[0], sh[2])))
            if 1 in sh:
                forms.append(("np.squeeze(%s)" % n, x.dtype, tuple(d for d in sh if d != 1)))
            if r == 1:
                forms.append(("np.broadcast_to(%s, (3, %d))" % (n, sh[0]), x.dtype, (3, sh[0])))
            y = self.pick(lambda v: v is not x and v.dtype == x.dtype and v.shape == sh)
            if y is not None and r:
                k = self.rng.randrange(r + 1)
                forms.append(("np.stack([%s, %s], axis=%d)" % (n, y.name, k), x.dtype, sh[:k] + (2,) + sh[k:]))
                if r >= 2:
                    forms.append(("np.concatenate([%s, %s], axis=1)" % (n, y.name), x.dtype,
                                  (sh[0], 2 * sh[1]) + sh[2:]))
            if r == 1 and x.kind == "f":
                y = self.pick(lambda v: v.kind == "f" and v.dtype == x.dtype and len(v.shape) == 1)
                if y is not None:
                    ufunc = self.rng.choice(["add", "multiply", "maximum", "subtract"])
                    forms.append(("np.%s.outer(%s, %s)" % (ufunc, n, y.name), x.dtype, sh + y.shape))
            if r and x.kind == "f":
                a = self.rng.randrange(r)
                ufunc = self.rng.choice(["maximum", "minimum"])
                forms.append(("np.%s.accumulate(%s, axis=%d)" % (ufunc, n, a), x.dtype, sh))
                forms.append(("np.%s.reduce(%s, axis=%d)" % (ufunc, n, a), x.dtype, sh[:a] + sh[a + 1:]))
        if not forms:
            return None
        expr, dtype, shape = self.rng.choice(forms)
        return self.fresh(dtype, shape, expr)

    def statement(self):
        x = self.pick()
        choices = {"f": [(self.float_unary, 4), (self.float_binary, 5), (self.compare, 2), (self.cast, 1),
                         (self.reduce, 2), (self.slice, 1), (self.reshape, 1), (self.concat, 1), (self.matmul, 1),
                         (self.loop, 1), (self.library, 3 if self.library_ops else 0)],
                   "i": [(self.int_op, 5), (self.compare, 2), (self.cast, 1), (self.reduce, 2), (self.slice, 1),
                         (self.reshape, 1), (self.concat, 1), (self.library, 1 if self.library_ops else 0)],
                   "b": [(self.logic, 3), (self.cast, 2), (self.slice, 1), (self.reshape, 1)]}[x.kind]
        fn = self.rng.choices([c[0] for c in choices], [c[1] for c in choices])[0]
        if self.rng.random() < 0.1:
            return self.where()
        return fn(x)

    def program(self):
        self.make_inputs()
        target = self.rng.randint(2, 8)
        tries = 0
        while self.count < target and tries < 50:
            tries += 1
            v = self.statement()
            if v is not None and int(np.prod(v.shape)) > 1 << 18:
                return None
        made = self.pool[len(self.inputs):]
        if not made:
            return None
        outs = [made[-1]] + self.rng.sample(made[:-1], min(len(made) - 1, self.rng.randint(0, 2)))
        params = ", ".join(v.name for v in self.inputs)
        body = "\n".join(self.lines)
        ret = ", ".join(v.name for v in outs)
        source = "import numpy as np\n\n\ndef f(%s):\n%s\n    return %s\n" % (params, body, ret)
        return source, self.inputs, outs


def generate(seed, int64=True, library_ops=True, dynamic=False):
    """The program of `seed`: (source, inputs, outputs), or None when the draw was degenerate."""
    return Generator(random.Random(seed), int64, library_ops, dynamic).program()


# What a refusal of a program with dynamic rows says: an operator or kernel not compiled for dynamic
# shapes, or code that needs the row count at compile time.
DYNAMIC_REFUSALS = ("not compiled for dynamic shapes yet", "at its largest shape", "is symbolic", "symbolic extent",
                    "not known at compile time", "compile one model per shape", "needs a known", "needs the extent",
                    "static shape")


def e2e_line(inputs):
    specs = " ".join("--input=%s:%s[%s]" % (v.name, v.dtype, ",".join(map(str, v.shape))) for v in inputs)
    return "# e2e: --entry=f " + specs + "\n"


def input_arrays(inputs, seed):
    rs = np.random.RandomState(seed)
    arrays = []
    for v in inputs:
        if v.kind == "f":
            a = rs.uniform(-2, 2, v.shape)
        elif v.kind == "i":
            a = rs.randint(-20, 21, v.shape)
        else:
            a = rs.rand(*v.shape) < 0.5
        arrays.append(np.asarray(a).astype(v.dtype))
    return arrays


if hasattr(np, "_set_promotion_state"):  # NumPy 1.24-1.26: NEP 50's promotion, as pyasc and NumPy 2
    np._set_promotion_state("weak")


def numpy_run(source, args, wide):
    """f(*args) under NumPy; `wide` computes every float in float64."""
    if wide:
        source = re.sub(r"np\.float(16|32)\b", "np.float64", source)
        args = [a.astype(np.float64) if a.dtype.kind == "f" else a for a in args]
    ns = {}
    exec(compile(source, "<program>", "exec"), ns)
    with np.errstate(all="ignore"):
        out = ns["f"](*args)
    return [np.asarray(o) for o in (out if isinstance(out, tuple) else (out,))]


@np.errstate(all="ignore")
def rel_error(got, ref):
    got, ref = np.asarray(got, np.float64), np.asarray(ref, np.float64)
    if got.shape != ref.shape:
        return np.inf
    if not np.array_equal(np.isfinite(got), np.isfinite(ref)) or \
            not np.array_equal(got[~np.isfinite(got)], ref[~np.isfinite(ref)], equal_nan=True):
        return np.inf
    fin = np.isfinite(ref)
    diff = np.linalg.norm((got - ref)[fin])
    norm = np.linalg.norm(ref[fin])
    return diff / norm if norm > 0 else diff


def judge(outs, got, same, wide, pert, shaken):
    """'pass', 'discard' or a failure message, for every output of a program."""
    for k, v in enumerate(outs):
        g, s, w, p = got[k], same[k], wide[k], pert[k]
        if s.shape != w.shape:
            return "discard"
        if v.kind != "f":
            # decided by float rounding: another summation order can change it too
            if not (np.array_equal(s, w) and np.array_equal(s, p) and np.array_equal(s, shaken[k])):
                return "discard"
            if g.shape != s.shape or g.dtype != s.dtype or not np.array_equal(g, s):
                return "%s (%s%s): differs from NumPy in %s of %d elements; got dtype %s shape %s" % (
                    v.name, v.dtype, list(v.shape), np.sum(g != s) if g.shape == s.shape else "all",
                    s.size, g.dtype, list(g.shape))
            continue
        e_np, e_pert = rel_error(s, w), rel_error(p, w)
        if not (e_np <= 0.05 and e_pert <= 0.05):
            return "discard"
        e_got = rel_error(g, w)
        bound = 8 * max(e_np, e_pert) + 16 * EPS[v.dtype]
        if g.dtype != s.dtype or not e_got <= bound:
            return "%s (%s%s): relative error %.3g above %.3g (NumPy's own %.3g, perturbed %.3g); got dtype %s" % (
                v.name, v.dtype, list(v.shape), e_got, bound, e_np, e_pert, g.dtype)
    return "pass"


def perturbed(args, seed, units=4):
    """The float inputs in float64, each moved by up to `units` units of its dtype's rounding."""
    rs = np.random.RandomState(seed + units)
    out = []
    for a in args:
        if a.dtype.kind == "f":
            eps = units * EPS[str(a.dtype)]
            out.append(a.astype(np.float64) * (1 + eps * rs.uniform(-1, 1, a.shape)))
        else:
            out.append(a)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backend", choices=["sim", "cpu", "both"], default="sim")
    ap.add_argument("--target", default="ascend910b")
    ap.add_argument("--opt-level", default="O2")
    ap.add_argument("--keep", help="write each failing program there, with its failure")
    ap.add_argument("--write", help="only write the programs there (with their # e2e: line)")
    ap.add_argument("--no-int64", dest="int64", action="store_false",
                    help="no int64 inputs nor unbounded int64 arithmetic (as before the scalar unit computed them)")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--dynamic", action="store_true",
                    help="compile each program once with its row count dynamic (--dynamic-dims) and run it at that "
                         "count and a smaller one; refusals of dynamic rows are counted, not failures")
    args = ap.parse_args()
    if args.write:
        os.makedirs(args.write, exist_ok=True)
        written = 0
        for k in range(args.count):
            p = generate(args.seed + k, args.int64)
            if p:
                with open(os.path.join(args.write, "random-%d.py" % (args.seed + k)), "w") as f:
                    f.write(e2e_line(p[1]) + p[0])
                written += 1
        print("random_programs: wrote %d programs to %s" % (written, args.write))
        return 0
    import pyasc
    if not pyasc.has_native:
        print("random_programs: error: the native module is not on the path (docs/python.md)", file=sys.stderr)
        return 2
    backends = ["sim", "cpu"] if args.backend == "both" else [args.backend]
    tally = {"pass": 0, "discard": 0, "degenerate": 0, "fail": 0, "refused": 0}
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.count):
            seed = args.seed + k
            p = generate(seed, args.int64, dynamic=args.dynamic)
            if p is None:
                tally["degenerate"] += 1
                continue
            source, inputs, outs = p
            path = os.path.join(tmp, "random-%d.py" % seed)
            with open(path, "w") as f:
                f.write(source)
            # --dynamic: the rows at the compiled count and at a smaller one, from one model
            rows = next((v.shape[v.rows_axis] for v in inputs if v.rows_axis is not None), None)
            runs = [None]
            if args.dynamic:
                runs = [rows, random.Random(seed).randint(1, rows - 1)] if rows else []
            verdicts = []
            try:
                import warnings
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    specs = {v.name: (v.dtype, ["R" if args.dynamic and k == v.rows_axis else d for k, d in enumerate(v.shape)])
                             for v in inputs}
                    m = pyasc.compile(path, entry="f", inputs=specs, target=args.target, opt_level=args.opt_level,
                                      dynamic_dims="R=1-%d" % rows if args.dynamic and rows else "")
                for run_rows in runs:
                    shaped = [v.with_rows(run_rows) for v in inputs] if run_rows else inputs
                    arrays = input_arrays(shaped, seed)
                    if run_rows:
                        try:  # the generator writes its row count into loops: a program may not run at others
                            numpy_run(source, arrays, False)
                        except Exception:
                            verdicts.append("refused")
                            break
                    same = numpy_run(source, arrays, False)
                    wide = numpy_run(source, arrays, True)
                    pert = numpy_run(source, perturbed(arrays, seed), True)
                    shaken = numpy_run(source, perturbed(arrays, seed, 256), True)  # for integer and boolean outputs
                    for b in backends:
                        res = m.run(*arrays, backend=b)
                        got = [np.asarray(res[name]) for name, _, _ in m.outputs]
                        verdict = judge(outs, got, same, wide, pert, shaken)
                        verdicts.append(verdict if verdict in ("pass", "discard") else "%s: %s" % (b, verdict))
            except Exception as e:  # a refusal or a fault: the generator emits only what pyasc supports
                message = str(e).splitlines()[0] if str(e) else ""
                # (shape errors naming the dynamic extent R, or an extent only known at run time, ?)
                if args.dynamic and (any(r in message for r in DYNAMIC_REFUSALS) or
                                     re.search(r"(shapes|size) .*(\bR\b|\?)", message)):
                    verdicts.append("refused")
                else:
                    verdicts.append("%s: %s" % (type(e).__name__, message))
            if args.dynamic and not runs:
                verdicts.append("refused")  # no input has the row count
            failures = [v for v in verdicts if v not in ("pass", "discard", "refused")]
            verdict = ("fail" if failures else "refused" if "refused" in verdicts else "discard" if "discard" in verdicts
                       else "pass")
            tally[verdict] += 1
            if failures:
                print("seed %d: %s" % (seed, failures[0]))
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    with open(os.path.join(args.keep, "random-%d.py" % seed), "w") as f:
                        f.write(e2e_line(inputs) + "# %s\n" % failures[0].replace("\n", " ") + source)
            elif args.verbose:
                print("seed %d: %s" % (seed, verdict))
    print("random_programs: %d programs (seeds %d..%d, %s, %s, %s%s) in %.0f s: %d passed, %d failed, "
          "%d discarded as ill-conditioned, %d degenerate draws%s" % (
              args.count, args.seed, args.seed + args.count - 1, "+".join(backends), args.target, args.opt_level,
              ", dynamic rows" if args.dynamic else "", time.time() - start, tally["pass"], tally["fail"], tally["discard"],
              tally["degenerate"], ", %d refused for dynamic rows" % tally["refused"] if args.dynamic else ""))
    return 1 if tally["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
