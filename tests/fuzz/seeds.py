#!/usr/bin/env python3
"""Writes the seed corpus of one fuzz harness into a folder: the repository's test files of its
input format, and inputs generated from them with the built tools (models, .npy arrays, graph and
loop-nest text). ctest replays these seeds; scripts/fuzz.sh starts each campaign from them.

    seeds.py HARNESS OUT_DIR --bin-dir BUILD/bin
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Test files per harness, as globs under the repository.
FILES = {
    "python_graph": ["tests/e2e/programs/*.py", "examples/*.py", "tests/error/frontend/*.py",
                     "tests/error/pyasc/*.py"],
    "definition": ["examples/custom_ops/*/*.py", "tests/error/definitions/*_def.py", "tests/error/sdk/*.py"],
    "descriptor_json": ["examples/custom_ops/*/*.json", "tests/error/sdk/*.json", "tests/error/definitions/*.json",
                        "benchmarks/compute/*/*.json"],
    "descriptor_yaml": ["examples/custom_ops/*/*.yaml", "tests/error/sdk/*.yaml"],
    "model": ["tests/error/model/*.om"],
    "npy": ["tests/error/model/*.npy", "tests/error/pyasc/*.npy"],
    "asm": ["tests/error/isa/*.s", "tests/lit/isa/*.s", "tests/lit/sim/*.s", "tests/lit/**/*.s"],
    "target": ["targets/*.yaml", "tests/error/isa/target-*.yaml", "tests/unit/sim/Inputs/*.yaml"],
    "graph_text": ["tests/lit/**/*.graph"],
    "loop_text": [],
    "te_text": ["tests/lit/loop/*.te", "tests/error/loop/*.te"],
}
# The model harness keeps valid mutants only (tests/fuzz/PythonMutator.h): its seeds are the programs
# the frontend accepts, small enough to compile.
FILES["python_model"] = ["tests/e2e/programs/*.py", "examples/*.py", "tests/lit/frontend/*.py", "tests/lit/codegen/*.py"]

# Programs compiled into models and graph text.
PROGRAMS = ["examples/scale.py", "examples/matmul.py", "examples/layernorm.py", "examples/attention.py",
            "tests/e2e/programs/conv_layers.py", "tests/e2e/programs/pooling.py", "tests/e2e/programs/gather.py",
            "tests/e2e/programs/softmax_rows.py", "tests/e2e/programs/int32_ops.py", "tests/e2e/programs/fp16_ops.py"]


def e2e_options(path):
    """The `# e2e:` options of a program (entry, inputs, consts)."""
    opts = []
    with open(path, encoding="utf-8") as fh:
        for line in fh.readlines()[:5]:
            if line.startswith("# e2e:"):
                opts += [w for w in line[6:].split() if w.split("=")[0] in ("--entry", "--input", "--const")]
    return opts


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, timeout=300, **kw)


def generate(harness, out, bin_dir):
    pyasc = os.path.join(bin_dir, "pyasc")
    if harness in ("python_graph", "python_model"):  # 50 programs of tests/random/random_programs.py
        sys.path.insert(0, os.path.join(ROOT, "tests", "random"))
        import random_programs
        for seed in range(1, 51):
            p = random_programs.generate(seed)
            if p:
                with open(os.path.join(out, "random-%d.py" % seed), "w", encoding="utf-8") as fh:
                    fh.write(random_programs.e2e_line(p[1]) + p[0])
    if harness == "model":
        for i, program in enumerate(PROGRAMS):
            for level in ("O0", "O2"):
                target = "ascend910b" if i % 2 else "ascend310"
                dest = os.path.join(out, "%s-%s-%s.om" % (os.path.basename(program)[:-3], level, target))
                run([pyasc, "--target=" + target, "--opt-level=" + level] + e2e_options(os.path.join(ROOT, program)) +
                    [os.path.join(ROOT, program), "-o", dest])
    elif harness == "graph_text":
        for program in PROGRAMS + sorted(glob.glob(os.path.join(ROOT, "tests/e2e/programs/*.py")))[:20]:
            path = os.path.join(ROOT, program)
            r = run([pyasc, "--emit=graph"] + e2e_options(path) + [path])
            if r.returncode == 0:
                with open(os.path.join(out, os.path.basename(path)[:-3] + ".graph"), "wb") as fh:
                    fh.write(r.stdout)
    elif harness == "loop_text":  # every .te file after each loop-nest stage
        opt = os.path.join(bin_dir, "asc-opt")
        stages = ["schedule-to-loops", "partition-loops", "stage-operands", "select-intrinsics", "double-buffer",
                  "plan-storage", "insert-sync"]
        for te in sorted(glob.glob(os.path.join(ROOT, "tests/lit/loop/*.te"))):
            for n in range(1, len(stages) + 1):
                r = run([opt] + ["--pass=" + s for s in stages[:n]] + [te])
                if r.returncode == 0:
                    name = "%s-%d-%s.loop" % (os.path.basename(te)[:-3], n, stages[n - 1])
                    with open(os.path.join(out, name), "wb") as fh:
                        fh.write(r.stdout)
    elif harness == "npy":
        import numpy as np
        rng = np.random.default_rng(7)
        for dtype in ("float16", "float32", "float64", "int8", "uint8", "int16", "int32", "int64", "bool"):
            for shape in ((), (5,), (3, 4), (2, 3, 4), (0, 3)):
                a = (rng.standard_normal(shape) * 10).astype(dtype)
                np.save(os.path.join(out, "%s-%s.npy" % (dtype, "x".join(map(str, shape)) or "scalar")), a)
        np.save(os.path.join(out, "fortran.npy"), np.asfortranarray(rng.standard_normal((3, 5)).astype("float32")))
        np.save(os.path.join(out, "big-endian.npy"), rng.standard_normal(6).astype(">f4"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("harness", choices=sorted(FILES))
    ap.add_argument("out")
    ap.add_argument("--bin-dir", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    copied = set()
    for pattern in FILES[args.harness]:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True)):
            rel = os.path.relpath(path, ROOT)
            if rel in copied or rel.endswith("_reference.py"):
                continue
            copied.add(rel)
            shutil.copyfile(path, os.path.join(args.out, rel.replace("/", "_")))
    generate(args.harness, args.out, args.bin_dir)
    count = len(os.listdir(args.out))
    if count == 0:
        print("seeds.py: no seeds for %s" % args.harness, file=sys.stderr)
        return 1
    print("%s: %d seeds in %s" % (args.harness, count, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
