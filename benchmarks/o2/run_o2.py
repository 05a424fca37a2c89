#!/usr/bin/env python3
"""What O2 adds over O1 on programs each rewrite applies to: reductions of elementwise work (at O2
the reduction's kernel computes the work; at O1 an elementwise kernel writes it to device memory
and a reduction kernel reads it back) and NCHW networks (at O2 their convolutions run in NHWC with
the activations kept NHWC between them; at O1 each convolution transposes its input, weights and
result). Simulated cycles, launches, bytes moved between GM and UB, the error against NumPy, and,
for programs marked `# floor: reads` (memory-bound ones), the floor: the cycles the inputs' bytes
(read once, the least any kernel moves) take at the target's device memory bandwidth
(`hbm_bandwidth` of targets/*.yaml).

    PYASC_TARGET_DIR=$PWD/targets python3 benchmarks/o2/run_o2.py --bin-dir build/bin
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run(cmd):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))  # the pyasc.nn shims for pyasc check
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def options(program):
    """The program's `# bench:` compile options (entry and inputs)."""
    with open(program, encoding="utf-8") as fh:
        return shlex.split(fh.readline()[len("# bench:"):])


def read_floor(program):
    """Whether the program is marked `# floor: reads`."""
    with open(program, encoding="utf-8") as fh:
        return any(line.strip() == "# floor: reads" for line in fh)


def inputs(opts, tmp):
    """NAME=FILE.npy for each --input, uniform in [-0.5, 0.5), seeded."""
    rng = np.random.default_rng(0)
    bound = []
    for o in opts:
        if not o.startswith("--input="):
            continue
        name, rest = o[len("--input="):].split(":")
        shape = [int(d) for d in rest[rest.index("[") + 1:-1].split(",")]
        path = os.path.join(tmp, name + ".npy")
        np.save(path, (rng.random(shape) - 0.5).astype(np.float32))
        bound.append(f"{name}={path}")
    return bound


def floor_cycles(target, opts):
    """Cycles the inputs' bytes take at the target's device memory bandwidth."""
    with open(os.path.join(ROOT, "targets", target + ".yaml"), encoding="utf-8") as fh:
        rate = int(re.search(r"hbm_bandwidth:\s*(\d+)", fh.read()).group(1))
    elements = 0
    for o in opts:
        if o.startswith("--input="):
            shape = o[o.index("[") + 1:-1].split(",")
            elements += int(np.prod([int(d) for d in shape]))
    return elements * 4 / rate


def measure(pyasc, program, target, level, tmp):
    """(cycles, launches, GM bytes, worst relative error) of one compiled program."""
    model = os.path.join(tmp, "m.om")
    common = ["--target=" + target, "--opt-level=" + level] + options(program)
    run([pyasc] + common + [program, "-o", model])
    bound = [flag for binding in inputs(common, tmp) for flag in ("--input", binding)]
    stats = run([pyasc, "run", model, "--stats", "--output-dir", os.path.join(tmp, "out")] + bound)
    cycles = int(re.search(r"cycles: (\d+)", stats).group(1))
    launches = int(re.search(r"(\d+) launch", stats).group(1))
    moved = sum(int(v) for v in re.findall(r"^\s+(?:gm_to_ub|ub_to_gm)\s+(\d+)", stats, re.M))
    check = run([pyasc, "check"] + common + [program])
    errors = [float(m) for m in re.findall(r"^\S+\s+\S+\s+\[[^\]]*\]\s+\S+\s+(\S+)\s+\S+\s+ok", check, re.M)]
    return cycles, launches, moved, max(errors)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--targets", default="ascend910b,ascend310")
    args = ap.parse_args()
    pyasc = os.path.join(args.bin_dir, "pyasc")
    programs = sorted(glob.glob(os.path.join(HERE, "*.py")))
    programs.remove(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as tmp:
        for target in args.targets.split(","):
            print(f"\n{target}:\n")
            print("| program | O1 cycles | O2 cycles | change | O1 / O2 launches | O1 / O2 GM bytes | O2 of the floor | O2 error |")
            print("|---|---|---|---|---|---|---|---|")
            for program in programs:
                o1 = measure(pyasc, program, target, "O1", tmp)
                o2 = measure(pyasc, program, target, "O2", tmp)
                change = (o2[0] - o1[0]) / o1[0] * 100
                floor = f"{floor_cycles(target, options(program)) / o2[0]:.0%}" if read_floor(program) else "—"
                print(f"| `{os.path.basename(program)}` | {o1[0]:,} | {o2[0]:,} | {change:+.1f}% | {o1[1]} / {o2[1]} | "
                      f"{o1[2]:,} / {o2[2]:,} | {floor} | {o2[3]:.1e} |", flush=True)


if __name__ == "__main__":
    main()
