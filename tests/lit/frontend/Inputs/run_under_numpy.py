#!/usr/bin/env python3
"""Runs every program of tests/e2e/programs and examples under CPython + NumPy (python/ on the path)
and checks that the frontend accepts it with the options of its `# e2e:` header.

A script runs as __main__; for `--entry=F`, F is called with arrays uniform in [0.5, 1.5) for each
`--input` or `Tensor[dtype, dims]` annotation (symbolic dimensions take 8) and the `--const` values. A program passes when it runs to
the end; the numbers themselves are compared with the compiled results by the e2e suite.
"""
import glob
import os
import shlex
import subprocess
import sys

RUNNER = r"""
import runpy, sys
import numpy as np
path, entry, inputs, consts = sys.argv[1], sys.argv[2], sys.argv[3:-1], sys.argv[-1]
if not entry:
    runpy.run_path(path, run_name="__main__")
    sys.exit(0)
module = runpy.run_path(path, run_name="program")
rng = np.random.default_rng(0)
args = {}
for spec in inputs:
    name, rest = spec.split(":", 1)
    dtype, dims = rest[:-1].split("[")
    shape = tuple(int(d) if d.strip().isdigit() else 8 for d in dims.split(",") if d.strip())
    values = rng.uniform(0.5, 1.5, shape)
    args[name] = np.asarray(values).astype(dtype)
# parameters without an --input spec take the dtype and shape of their Tensor[...] annotation
for pname, spec in getattr(module[entry], "__annotations__", {}).items():
    if pname != "return" and pname not in args and getattr(spec, "shape", None) is not None:
        shape = tuple(d if isinstance(d, int) else 8 for d in spec.shape)
        args[pname] = np.asarray(rng.uniform(0.5, 1.5, shape)).astype(spec.dtype)
for spec in filter(None, consts.split(";")):
    name, value = spec.split("=", 1)
    args[name] = True if value == "True" else False if value == "False" else float(value) if "." in value or "e" in value else int(value)
module[entry](**args)
"""


def header(path):
    opts = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("# e2e:"):
                opts += shlex.split(line[len("# e2e:"):])
    return opts


def main():
    root, asc_fe = sys.argv[1], sys.argv[2]
    programs = sorted(glob.glob(os.path.join(root, "tests", "e2e", "programs", "*.py")))
    programs += sorted(glob.glob(os.path.join(root, "examples", "*.py")))
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "python"))
    failures = 0
    for path in programs:
        opts = header(path)
        entry = next((o.split("=", 1)[1] for o in opts if o.startswith("--entry=")), "")
        inputs = [o.split("=", 1)[1] for o in opts if o.startswith("--input=")]
        consts = ";".join(o.split("=", 1)[1] for o in opts if o.startswith("--const="))
        run = subprocess.run([sys.executable, "-c", RUNNER, path, entry] + inputs + [consts], env=env,
                             capture_output=True, text=True, timeout=120)
        # the frontend's options (--auto-mixed-precision and --dynamic-dims are pyasc's: asc-fe
        # traces named dimensions as symbolic extents without ranges)
        frontend = [o for o in opts if not o.startswith(("--auto-mixed-precision", "--dynamic-dims"))]
        compiled = subprocess.run([asc_fe, "--emit=graph"] + frontend + [path], capture_output=True, text=True, timeout=120)
        name = os.path.relpath(path, root)
        if run.returncode != 0:
            failures += 1
            print(f"FAILED under NumPy: {name}\n{run.stderr}")
        if compiled.returncode != 0:
            failures += 1
            print(f"REJECTED by the frontend: {name}\n{compiled.stderr}")
    print(f"{len(programs)} programs, {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
