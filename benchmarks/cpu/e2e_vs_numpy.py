#!/usr/bin/env python3
"""Every e2e program and example (tests/e2e/programs, examples, examples/custom_ops), scaled up, on
the CPU backend against NumPy in one process.

A function (`# e2e: --entry=...`) runs with each input's extents that are at least 8 grown by one
factor, chosen so that the largest input reaches 2^24 elements (--elements; 2^21,
--contraction-elements, for a program with a matmul, einsum or tensordot: 1448^3 for a square
matmul), which keeps matmul and broadcast shapes consistent. Its shapes are its `--input` options,
or its annotations' (a copy of the program without the annotations' shapes is compiled at the
scaled ones). A program refused at that factor (fixed extents in its code, more than the NPU target
holds, NumPy's memory) runs at the largest of factor/8, factor/64, ..., 1 it takes (`pyasc check
--backend=cpu` within 120 s: a step down can reach shapes that unroll into graphs taking minutes to
compile), and the table says which and why. A custom operator runs against its NumPy reference (NAME_reference.py). A
script (no entry) runs at its own sizes against the script run by CPython, np.random's draws
replayed (the model draws its random inputs once). A program none of whose extents reaches 8, one
that runs unscaled and a script are listed with the rest but left out of the geometric mean: at
tens of elements a call's overhead is all there is to measure.

Each program's outputs (its returned values, then the parameters it updates) are first compared
with NumPy's: floats by ||out - ref|| / ||ref||, within 1e-2 for float16 and 1e-4 otherwise, or no
further from the function run by NumPy in float64 than twice NumPy's own error (NumPy sums and dots
float32 in float32, the backend in float64); integers and booleans exactly, NumPy's or the float64
run's; a script's where its variables name the model's outputs and it draws no unseeded random
numbers. A program whose outputs differ fails, at whatever size.

Times are the best of --repeat timings after a warm-up (a call under 2 ms timed in batches of 10^k
calls, as timeit does), both sides allocating their outputs; the model reads its inputs in place.
With --gbench, the CPU backend's time is Google Benchmark's (build/bin/bench_cpu on the models and
inputs this script saves, run by this script after NumPy's timings) instead of this process's calls
through the binding. A parameter the program updates in place is an output of the model (its
inputs are read-only), so NumPy is timed on a copy of it made in the timed call: both sides
allocate that result. Ratio = NumPy / CPU backend. "compile ms" is the first call's: JIT
compilation, or loading the pipelines from the on-disk cache. Multi-operator programs (three graph
operators or more) are summarised by their geometric mean; every program counts for the 0.8x floor.

    PYTHONPATH=python:build/python /usr/bin/python3 benchmarks/cpu/e2e_vs_numpy.py [--elements N] [--repeat 3] [--only REGEX] [--scheduler NAME] [--gbench]
"""
import argparse
import glob
import importlib.util
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

import numpy as np

import pyasc

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)), os.path.join(ROOT, "tests", "e2e")]
from run_e2e import header_options as options  # noqa: E402  (the `# e2e:` line, as the tests read it)
from vs_numpy import best_ms, blas_name  # noqa: E402

SPEC = re.compile(r"^([A-Za-z_]\w*):(\w+)\[([0-9,]*)\]$")


def graph_text(bin_dir, path, opts):
    return subprocess.run([os.path.join(bin_dir, "asc-fe")] + opts + [path], capture_output=True, text=True).stdout


def operator_count(graph):
    return sum(1 for line in graph.splitlines() if re.match(r"\s+%\S+ = [A-Za-z_]", line))


def contracts(graph):
    return re.search(r"= (MatMul|Einsum|TensorDot)\(", graph) is not None


def report(m, rows, multi, apart):
    name, ops, size, numpy_ms, cpu_ms, scaled, note, jit_ms = m
    ratio = numpy_ms / cpu_ms
    rows.append((name, ratio))
    if scaled and ops >= 3:
        multi.append(ratio)
    if not scaled:  # at its own size: mostly a call's overhead, not throughput at scale
        apart.append((name, ratio))
    print(f"{name:24} {ops:4d} {size:>22} {numpy_ms:10.3f} {cpu_ms:10.3f} {ratio:7.2f} {jit_ms:10.0f}  {note}".rstrip())


class WrongOutputs(RuntimeError):
    """The model's outputs are not NumPy's: a failure, never a reason to try a smaller size."""


def outputs_of(x):
    return [] if x is None else list(x) if isinstance(x, (tuple, list)) else [x]


def relative_error(x, reference):
    """||x - reference|| / ||reference|| over the elements where they differ (NaN matching NaN and an
    infinity the same infinity count as equal); None when x has NaN or an infinity the reference
    has not."""
    x64, r64 = x.astype(np.float64), reference.astype(np.float64)
    same = (x64 == r64) | (np.isnan(x64) & np.isnan(r64))
    finite = np.isfinite(r64)
    if not (same | (finite & np.isfinite(x64))).all():
        return None
    difference = np.subtract(x64, r64, out=np.zeros_like(x64), where=~same)
    return np.linalg.norm(difference) / max(np.linalg.norm(np.where(finite, r64, 0.0)), 1e-30)


def mismatch(got, want, exact=None):
    """None when the model's outputs `got` are NumPy's `want`, else what differs. Integers and
    booleans exactly (NumPy's or the float64 run's); floats within 1e-2 (float16) or 1e-4 of NumPy's by relative error, or, where
    `exact` (the program run by NumPy in float64) is given, no further from it than twice NumPy's own
    error (NumPy's float32 sums and dots accumulate in float32, the backend's in float64)."""
    got, want = outputs_of(got), outputs_of(want)
    if len(got) != len(want):
        return f"{len(got)} outputs, NumPy's {len(want)}"
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        if g.shape != w.shape:
            return f"output {k} of shape {g.shape}, NumPy's {w.shape}"
        if g.dtype.kind not in "fc" and w.dtype.kind not in "fc":
            # (or the float64 run's: a comparison with a float32 mean NumPy sums in float32 may
            # fall the other way)
            if not np.array_equal(g, w) and (exact is None or not np.array_equal(g, np.asarray(outputs_of(exact)[k]))):
                return f"output {k}: {np.count_nonzero(g != w)} of {w.size} elements differ"
            continue
        error = relative_error(g, w)
        if error is None:
            return f"output {k}: NaN or infinity where NumPy's differs"
        tol = 1e-2 if np.float16 in (g.dtype, w.dtype) else 1e-4
        if error <= tol:
            continue
        if exact is not None:
            e = np.asarray(outputs_of(exact)[k])
            mine, numpys = relative_error(g, e), relative_error(w, e)
            if mine is not None and numpys is not None and mine <= 2 * numpys:
                continue
            return f"output {k}: relative error {error:.1e} (tolerance {tol:g}); against float64 {mine}, NumPy's {numpys}"
        return f"output {k}: relative error {error:.1e} (tolerance {tol:g})"
    return None


def in_float64(f, arrays, consts):
    """f's outputs with its float arrays in float64 (None when it does not run so)."""
    try:
        return f(*[a.astype(np.float64) if a.dtype.kind == "f" else a.copy() for a in arrays], **consts)
    except Exception:
        return None


def fresh(value):
    """A copy of an array (a Python scalar as it is)."""
    return value.copy() if isinstance(value, np.ndarray) else value


class RandomReplay:
    """np.random's draws of a script, recorded on its first run and handed back in order on the
    timed ones (the model draws its random inputs once, so NumPy is timed on the same data
    without drawing it again)."""
    DRAWS = ("rand", "randn", "random", "random_sample", "randint", "normal", "uniform", "standard_normal")

    def __init__(self):
        self.draws, self.next = [], 0
        self.saved = {n: getattr(np.random, n) for n in self.DRAWS + ("seed",)}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for n, f in self.saved.items():
            setattr(np.random, n, f)

    def record(self):
        for n in self.DRAWS:
            def drawn(*a, _f=self.saved[n], **k):
                value = _f(*a, **k)
                self.draws.append(fresh(value))  # the script may update what it drew in place
                return value
            setattr(np.random, n, drawn)

    def replay(self):
        """np.random hands back the recorded draws (copies, as fresh draws would be) from the first."""
        self.next = 0

        def drawn(*a, **k):
            self.next += 1
            return fresh(self.draws[self.next - 1])
        for n in self.DRAWS:
            setattr(np.random, n, drawn)
        np.random.seed = lambda *a, **k: None

    def rewind(self):
        self.next = 0


def script_timing(path, args):
    """A script (no entry): its model against the script run by CPython, at the script's own sizes."""
    model = pyasc.compile(path, target="ascend910b", opt_level="O2")  # (no example script calls a custom operator)
    model()
    jit_ms = model.stats["compile_ms"]
    code = compile(open(path, encoding="utf-8").read(), path, "exec")
    with RandomReplay() as replay:
        replay.record()
        namespace = {"__name__": "__benchmark__"}
        exec(code, namespace)
        names = [n for n, _, _ in model.outputs]
        source = open(path, encoding="utf-8").read()
        # the script's variables of the model's outputs (when it draws from np.random, only with
        # a seed: the model draws its own unseeded values)
        if all(n in namespace for n in names) and (not replay.draws or "random.seed(" in source):
            wrong = mismatch(model(), [namespace[n] for n in names])
            if wrong:
                raise WrongOutputs(f"the model's outputs are not NumPy's: {wrong}")
        replay.replay()
        numpy_ms = best_ms(lambda: (replay.rewind(), exec(code, {"__name__": "__benchmark__"})), args.repeat)
    cpu_ms = None if args.gbench else best_ms(model, args.repeat)
    return model, [], numpy_ms, cpu_ms, jit_ms


def unannotated(path, folder):
    """A copy of a program whose annotations fix its inputs' shapes (Tensor[float32, 120, 160, 3]),
    with the dtypes kept and the shapes left to --input."""
    original = open(path, encoding="utf-8").read()
    text = re.sub(r"Tensor\[(\w+)(\s*,\s*\d+)+\s*\]", r"Tensor[\1]", original)
    if text == original:
        return path
    copy = os.path.join(folder, os.path.basename(path))
    with open(copy, "w", encoding="utf-8") as fh:
        fh.write(text)
    return copy


def custom_operators(configs):
    """{python name: function} of the custom operators the descriptors list: each operator's NumPy
    reference (NAME_reference.py beside its definition, what `ascop test` checks it against)."""
    operators = {}
    for config in configs:
        folder = os.path.dirname(config)
        for op in json.load(open(config, encoding="utf-8")):
            name = op["python_name"]
            path = os.path.join(folder, name + "_reference.py")
            namespace = {"__name__": name + "_reference"}
            exec(compile(open(path, encoding="utf-8").read(), path, "exec"), namespace)
            operators[name] = namespace[name]
    return operators


def constant(option):
    """NAME=VALUE of --const as (name, value): an int, else a float, else the text."""
    name, text = option.split("=", 1)
    for kind in (int, float):
        try:
            return name, kind(text)
        except ValueError:
            pass
    return name, text


def runs_in_time(bin_dir, source, entry, scaled, configs, consts, seconds):
    """Raises when `pyasc check --backend=cpu` does not compile and run the program at these shapes
    within `seconds` (a step down after a refusal can reach shapes that unroll into graphs taking
    minutes to compile); what it compiles stays in the on-disk cache for the timed run."""
    cmd = [os.path.join(bin_dir, "pyasc"), "check", "--backend=cpu", "--target=ascend910b", f"--entry={entry}", source]
    cmd += [f"--input={k}:{t}[{','.join(map(str, shape))}]" for k, (t, shape) in scaled.items()]
    cmd += [f"--custom-op-config={c}" for c in configs] + [f"--const={k}={v}" for k, v in consts.items()]
    # a session of its own: on the timeout, NumPy's run under `pyasc check` is stopped with it
    with subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True) as check:
        try:
            check.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(check.pid, signal.SIGKILL)
            raise RuntimeError(f"compiling and running take over {seconds} s at these shapes") from None


def function_timing(path, entry, shapes, factor, rng, args, folder, configs, consts, probe):
    """The entry function at its shapes with every extent of 8 or more times `factor` (run by `pyasc
    check` first, within a time limit, when `probe`)."""
    scaled = {k: (t, [d * factor if d >= 8 else d for d in shape]) for k, (t, shape) in shapes.items()}
    source = path if factor == 1 else unannotated(path, folder)
    if probe:
        runs_in_time(args.bin_dir, source, entry, scaled, configs, consts, 120)
    model = pyasc.compile(source, entry=entry, inputs=scaled, consts=consts, target="ascend910b", opt_level="O2", custom_op_config=configs)
    arrays = []
    for k, (t, shape) in scaled.items():
        a = rng.random(shape)
        arrays.append((a * 100).astype(t) if np.dtype(t).kind in "iu" else a.astype(t))
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.join(ROOT, "python"))
    module.__dict__.update(custom_operators(configs))
    spec.loader.exec_module(module)
    f = getattr(module, entry)
    model(*arrays)
    jit_ms = model.stats["compile_ms"]
    updated = {name for name, _, _ in model.outputs} & set(scaled)  # parameters updated in place
    copies = [k in updated for k in scaled]
    # the returned values, then each parameter updated in place (the model's outputs in that order)
    given = [a.copy() for a in arrays]
    returned = outputs_of(f(*given, **consts))
    returned += [given[list(scaled).index(n)] for n, _, _ in model.outputs[len(returned):] if n in scaled]
    wrong = mismatch(model(*arrays), returned, None if any(copies) else in_float64(f, arrays, consts))
    if wrong:
        raise WrongOutputs(f"the model's outputs are not NumPy's: {wrong}")
    numpy_ms = best_ms(lambda: f(*[a.copy() if c else a for a, c in zip(arrays, copies)], **consts), args.repeat)
    cpu_ms = None if args.gbench else best_ms(lambda: model(*arrays), args.repeat)
    return model, arrays, numpy_ms, cpu_ms, jit_ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--elements", type=int, default=1 << 24)
    ap.add_argument("--contraction-elements", type=int, default=1 << 21,
                    help="the largest input of a program with a matmul, einsum or tensordot (2^21: over 1024^3 for square "
                         "matmuls; NumPy's integer and float16 matmuls take minutes beyond)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--bin-dir", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--only", default="", help="a regular expression: only the programs whose name it matches")
    ap.add_argument("--gbench", action="store_true", help="time the CPU backend with Google Benchmark (bench_cpu)")
    ap.add_argument("--scheduler", default="", help="a Halide autoscheduler instead of the backend's schedules "
                    "(Adams2019, Li2018, Mullapudi2016: sets PYASC_CPU_SCHEDULER)")
    args = ap.parse_args()
    os.environ["PYASC_CPU_SCHEDULER"] = args.scheduler
    programs = sorted(glob.glob(os.path.join(ROOT, "tests", "e2e", "programs", "*.py")) + glob.glob(os.path.join(ROOT, "examples", "*.py")) +
                      glob.glob(os.path.join(ROOT, "examples", "custom_ops", "*.py")))
    rng = np.random.default_rng(0)
    rows, multi, apart, failed = [], [], [], []
    measured = []  # name, ops, size, NumPy ms, CPU ms (None until Google Benchmark measures it), scaled, note
    saved = tempfile.mkdtemp(prefix="e2e_vs_numpy.")
    schedules = f"the {args.scheduler} autoscheduler's schedules" if args.scheduler else "the backend's schedules"
    print(f"NumPy {np.__version__} (BLAS: {blas_name()}), {os.cpu_count()} cores, largest input scaled to {args.elements} elements, best of {args.repeat}, {schedules}")
    timer = "Google Benchmark (bench_cpu)" if args.gbench else "this process, through the binding"
    print(f"CPU backend timed by {timer}")
    print(f"{'program':24} {'ops':>4} {'largest input':>22} {'NumPy ms':>10} {'CPU ms':>10} {'ratio':>7} {'compile ms':>10}")
    for path in programs:
        opts = options(path)
        entry = next((o.split("=", 1)[1] for o in opts if o.startswith("--entry=")), None)
        specs = [SPEC.match(o.split("=", 1)[1]) for o in opts if o.startswith("--input=")]
        configs = [o.split("=", 1)[1] for o in opts if o.startswith("--custom-op-config=")]
        consts = dict(constant(o.split("=", 1)[1]) for o in opts if o.startswith("--const="))
        # an e2e program by its name, an example by its path (examples/attention.py and
        # tests/e2e/programs/attention.py are different programs)
        name = os.path.relpath(path, ROOT)[:-3].removeprefix("tests/e2e/programs/")
        if not re.search(args.only, name):
            continue
        graph = graph_text(args.bin_dir, path, opts)
        ops = operator_count(graph)
        note, scaled = "", False
        try:
            if not entry:
                model, arrays, numpy_ms, cpu_ms, jit_ms = script_timing(path, args)
                shapes = {n: (t, shape) for n, t, shape in model.inputs}
                note = "(a script: at its own sizes)"
            else:
                if specs:
                    shapes = {s.group(1): (s.group(2), [int(d) for d in s.group(3).split(",") if d]) for s in specs}
                else:  # the shapes of its annotations
                    shapes = {n: (t, shape) for n, t, shape in pyasc.compile(path, entry=entry, consts=consts, target="ascend910b", custom_op_config=configs).inputs}
                largest = max(max(math.prod(shape), 1) for _, shape in shapes.values())
                big = [max(1, len([d for d in shape if d >= 8])) for _, shape in shapes.values()]
                elements = args.contraction_elements if contracts(graph) else args.elements
                wanted = max(1, math.ceil((elements / largest) ** (1 / max(big))))
                grows = any(d >= 8 for _, shape in shapes.values() for d in shape)
                # the largest of wanted, wanted/8, wanted/64, ..., 1 the program takes (fixed extents
                # in its code, or more than the NPU target holds, refuse the larger ones)
                factor, refused = wanted, None
                while True:
                    try:
                        model, arrays, numpy_ms, cpu_ms, jit_ms = function_timing(path, entry, shapes, factor, rng, args, saved, configs, consts, refused is not None)
                        break
                    except Exception as e:
                        refused = refused or (factor, str(e).splitlines()[0][:90])
                        if factor == 1 or isinstance(e, WrongOutputs):
                            raise
                        factor = max(1, factor // 8)
                shapes = {k: (t, [d * factor if d >= 8 else d for d in shape]) for k, (t, shape) in shapes.items()}
                scaled = grows and (factor > 1 or wanted == 1)  # (wanted 1: already as large at its own size)
                if not grows:
                    note = "(not scaled: every extent below 8)"
                elif refused:
                    note = f"(at x{factor}: x{refused[0]} refused: {refused[1]})"
        except Exception as e:  # a NumPy error, or a program the binding cannot run
            print(f"{name:24} failed: {str(e).splitlines()[0][:90]}")
            failed.append(name)
            continue
        if args.gbench:
            model.save(os.path.join(saved, name.replace("/", ".") + ".om"))
            for (k, _), a in zip(shapes.items(), arrays):
                np.save(os.path.join(saved, f"{name.replace('/', '.')}.{k}.npy"), a)
        size = "x".join(str(d) for d in max((s for _, s in shapes.values()), key=math.prod, default=[]))
        measured.append([name, ops, size or "-", numpy_ms, cpu_ms, scaled, note, jit_ms])
        if cpu_ms is not None:
            report(measured[-1], rows, multi, apart)
    if args.gbench and measured:
        models = [os.path.join(saved, m[0].replace("/", ".") + ".om") for m in measured]
        out = subprocess.run([os.path.join(args.bin_dir, "bench_cpu"), "--benchmark_format=json",
                              f"--benchmark_repetitions={args.repeat}", "--benchmark_report_aggregates_only=false"] + models,
                             capture_output=True, text=True, check=True).stdout
        best = {}
        for b in json.loads(out)["benchmarks"]:
            if b.get("run_type") == "iteration":
                program = b["run_name"].split("/")[0]  # "NAME/real_time"
                best[program] = min(best.get(program, math.inf), b["real_time"])
        for m in measured:
            m[4] = best[m[0].replace("/", ".")]
            report(m, rows, multi, apart)
    shutil.rmtree(saved, ignore_errors=True)
    if multi:
        print(f"geometric mean over {len(multi)} scaled multi-operator programs: {math.exp(sum(map(math.log, multi)) / len(multi)):.2f}")
    slow = [n for n, r in rows if r < 0.8]
    print(f"programs below 0.8x: {len(slow)} of {len(rows)}" + (f" ({', '.join(slow)})" if slow else ""))
    if apart:
        print(f"of which at their own sizes (not in the geometric mean): {len(apart)}")
    if failed:
        print(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
