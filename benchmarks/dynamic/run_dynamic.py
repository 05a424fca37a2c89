#!/usr/bin/env python3
"""Models compiled once with --dynamic-dims against a model compiled for each shape: cycles
(simulated, ascend910b, O2), their ratio and the error against NumPy at each shape.

    PYASC_TARGET_DIR=$PWD/targets python3 benchmarks/dynamic/run_dynamic.py --bin-dir build/bin
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))  # the pyasc.nn shims programs import
# (program, entry, input spec with names, --dynamic-dims, shapes, input scale)
CASES = [
    (os.path.join(HERE, "preprocess.py"), "preprocess", "x:float32[N,H,W,3]", "1-4,224-256,224-256",
     [(1, 224, 224, 3), (2, 240, 232, 3), (4, 256, 256, 3)], 255.0),
    (os.path.join(HERE, "segment.py"), "segment", "x:float32[N,H,W,3]", "1-4,224-256,224-256",
     [(1, 224, 224, 3), (2, 240, 232, 3), (4, 256, 256, 3)], 255.0),
    (os.path.join(HERE, "classify.py"), "classify", "x:float32[N,H,W,3]", "1-4,224-256,224-256",
     [(1, 224, 224, 3), (2, 240, 232, 3), (4, 256, 256, 3)], 255.0),
    (os.path.join(ROOT, "tests", "e2e", "programs", "dynamic_mlp.py"), "mlp", "x:float32[B,64]", "B=1-16",
     [(1, 64), (5, 64), (16, 64)], 1.0),
]


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def cycles(pyasc, model, x_path, out_dir):
    text = run([pyasc, "run", model, "--input", "x=" + x_path, "--output-dir", out_dir])
    return int(re.search(r"cycles: (\d+)", text).group(1))


def function(path, entry):
    spec = importlib.util.spec_from_file_location(entry, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, entry)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    args = ap.parse_args()
    pyasc = os.path.join(args.bin_dir, "pyasc")
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        for program, entry, spec, ranges, shapes, scale in CASES:
            common = ["--target=ascend910b", "--opt-level=O2", "--entry=" + entry]
            dynamic = os.path.join(tmp, entry + ".om")
            run([pyasc] + common + ["--input=" + spec, "--dynamic-dims=" + ranges, program, "-o", dynamic])
            print(f"\n{os.path.relpath(program, ROOT)} with --input={spec} --dynamic-dims={ranges}\n")
            print("| shape | dynamic model (cycles) | static model (cycles) | ratio | error vs NumPy (per output) |")
            print("|---|---|---|---|---|")
            for shape in shapes:
                name = entry + "_" + "x".join(map(str, shape))
                x = (rng.random(shape) * scale).astype(np.float32)
                x_path = os.path.join(tmp, f"x_{name}.npy")
                np.save(x_path, x)
                static = os.path.join(tmp, f"static_{name}.om")
                static_spec = spec.split("[")[0] + "[" + ",".join(map(str, shape)) + "]"
                run([pyasc] + common + ["--input=" + static_spec, program, "-o", static])
                d_out, s_out = os.path.join(tmp, "d_" + name), os.path.join(tmp, "s_" + name)
                dc, sc = cycles(pyasc, dynamic, x_path, d_out), cycles(pyasc, static, x_path, s_out)
                ref = function(program, entry)(x.astype(np.float64))
                errs = []
                for k, r in enumerate(ref if isinstance(ref, tuple) else (ref,)):
                    o = np.load(os.path.join(d_out, f"out{k}.npy")).astype(np.float64)
                    r = np.asarray(r, np.float64)
                    assert o.shape == r.shape, (o.shape, r.shape)
                    errs.append(np.linalg.norm(o - r) / np.linalg.norm(r))
                print(f"| [{','.join(map(str, shape))}] | {dc:,} | {sc:,} | {dc / sc:.3f} | "
                      f"{', '.join(f'{e:.1e}' for e in errs)} |")


if __name__ == "__main__":
    main()
