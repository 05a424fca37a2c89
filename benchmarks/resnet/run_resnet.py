#!/usr/bin/env python3
"""ResNet-50 (examples/resnet50.py) at O0, O1 and O2, and O2 with automatic mixed precision, on the
simulator: cycles, launches, the reference guide's three measures (docs/cli.md: compute
instructions, memory access latency, energy), GM traffic and the logits' error against NumPy.

usage: benchmarks/resnet/run_resnet.py --bin-dir build/bin [--entry resnet50] [--targets ascend910b,ascend310]
Prints one markdown table per target, then each level's change against O0 and O1.
"""
import argparse
import os
import re
import runpy
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIGS = [("O0", []), ("O1", []), ("O2", []), ("O2 + AMP O1", ["--auto-mixed-precision=O1"]),
           ("O2 + AMP O2", ["--auto-mixed-precision=O2"])]
SHAPES = {"resnet50": (1, 224, 224, 3), "resnet_tiny": (1, 32, 32, 3)}


def measures(text):
    """The figures `pyasc run --stats` prints."""
    def number(pattern):
        m = re.search(pattern, text, re.M)
        if not m:
            sys.exit("pyasc run printed no match for %r:\n%s" % (pattern, text))
        return float(m.group(1))
    return {
        "cycles": number(r"^cycles: (\d+)"),
        "launches": number(r"^cycles: .*?, (\d+) launch"),
        "instructions": number(r"^compute instructions: (\d+)"),
        "vector": number(r"^compute instructions: \d+ \(vector (\d+)"),
        "cube": number(r" cube (\d+) over"),
        "latency": number(r"^memory access latency: (\d+)"),
        "gm_bytes": number(r"cycles of GM transfers \((\d+) bytes\)"),
        "energy": number(r"^energy: ([0-9.]+) uJ"),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--entry", default="resnet50", choices=sorted(SHAPES))
    ap.add_argument("--targets", default="ascend910b,ascend310")
    args = ap.parse_args()
    program = os.path.join(ROOT, "examples", "resnet50.py")
    shape = SHAPES[args.entry]
    env = dict(os.environ, PYASC_TARGET_DIR=os.environ.get("PYASC_TARGET_DIR", os.path.join(ROOT, "targets")))
    x = np.random.default_rng(1).uniform(-1, 1, shape).astype(np.float32)
    sys.path.insert(0, os.path.join(ROOT, "python"))
    reference = runpy.run_path(program)[args.entry](x).astype(np.float64)
    with tempfile.TemporaryDirectory() as tmp:
        np.save(os.path.join(tmp, "x.npy"), x)
        for target in args.targets.split(","):
            rows = {}
            for name, flags in CONFIGS:
                level = name.split()[0]
                model = os.path.join(tmp, "m.om")
                compile_cmd = [os.path.join(args.bin_dir, "pyasc"), "--target=" + target, "--opt-level=" + level,
                               "--entry=" + args.entry, "--input=x:float32[%s]" % ",".join(map(str, shape)),
                               *flags, program, "-o", model]
                subprocess.run(compile_cmd, check=True, env=env, capture_output=True)
                run = subprocess.run([os.path.join(args.bin_dir, "pyasc"), "run", "--stats", "--input",
                                      "x=" + os.path.join(tmp, "x.npy"), "--output-dir", tmp, model],
                                     check=True, env=env, capture_output=True, text=True)
                m = measures(run.stdout)
                out = np.load(os.path.join(tmp, "out0.npy")).astype(np.float64)
                m["error"] = np.linalg.norm(out - reference) / np.linalg.norm(reference)
                rows[name] = m
                print("%s %s done" % (target, name), file=sys.stderr)
            print("\n%s, %s %s:\n" % (args.entry, target, "x".join(map(str, shape[1:3]))))
            print("| level | cycles | launches | compute instructions (vector + cube) | memory access latency "
                  "(GM transfer cycles) | GM bytes | energy (uJ) | logits' relative error |")
            print("|---|---|---|---|---|---|---|---|")
            for name, m in rows.items():
                print("| %s | %d | %d | %d (%d + %d) | %d | %d | %.0f | %.1e |" % (
                    name, m["cycles"], m["launches"], m["instructions"], m["vector"], m["cube"], m["latency"],
                    m["gm_bytes"], m["energy"], m["error"]))
            print()
            for base in ("O0", "O1"):
                for name in ("O2", "O2 + AMP O2"):
                    b, m = rows[base], rows[name]
                    change = lambda k: 100.0 * (m[k] - b[k]) / b[k]
                    print("%s against %s: cycles %+.0f%%, compute instructions %+.0f%%, memory access latency "
                          "%+.0f%%, energy %+.0f%%, GM bytes %+.0f%%" % (
                              name, base, change("cycles"), change("instructions"), change("latency"),
                              change("energy"), change("gm_bytes")))
            a, f = rows["O2 + AMP O2"], rows["O2"]
            print("O2 + AMP O2 against O2: cycles %+.0f%%" % (100.0 * (a["cycles"] - f["cycles"]) / f["cycles"]))
            a = rows["O2 + AMP O1"]
            print("O2 + AMP O1 against O2: cycles %+.0f%%" % (100.0 * (a["cycles"] - f["cycles"]) / f["cycles"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
