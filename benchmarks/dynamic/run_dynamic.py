#!/usr/bin/env python3
"""One model compiled with the reference guide's --dynamic-dims against a model compiled for each
shape: cycles (simulated, ascend910b, O2), their ratio and the error against NumPy at each shape.

    PYASC_TARGET_DIR=$PWD/targets python3 benchmarks/dynamic/run_dynamic.py --bin-dir build/bin
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "preprocess.py")
SHAPES = [(1, 224, 224, 3), (2, 240, 232, 3), (4, 256, 256, 3)]
RANGES = "1-4,224-256,224-256"


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def cycles(pyasc, model, x_path, out_dir):
    text = run([pyasc, "run", model, "--input", "x=" + x_path, "--output-dir", out_dir])
    return int(re.search(r"cycles: (\d+)", text).group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    args = ap.parse_args()
    pyasc = os.path.join(args.bin_dir, "pyasc")
    common = ["--target=ascend910b", "--opt-level=O2", "--entry=preprocess"]
    sys.path.insert(0, HERE)
    from preprocess import preprocess  # noqa: E402
    with tempfile.TemporaryDirectory() as tmp:
        dynamic = os.path.join(tmp, "dynamic.om")
        run([pyasc] + common + ["--input=x:float32[N,H,W,3]", "--dynamic-dims=" + RANGES, PROGRAM, "-o", dynamic])
        print(f"| shape | dynamic model (cycles) | static model (cycles) | ratio | error vs NumPy (out0, out1) |")
        print("|---|---|---|---|---|")
        rng = np.random.default_rng(0)
        for shape in SHAPES:
            name = "x".join(map(str, shape))
            x = (rng.random(shape) * 255).astype(np.float32)
            x_path = os.path.join(tmp, f"x_{name}.npy")
            np.save(x_path, x)
            static = os.path.join(tmp, f"static_{name}.om")
            run([pyasc] + common + [f"--input=x:float32[{','.join(map(str, shape))}]", PROGRAM, "-o", static])
            d_out, s_out = os.path.join(tmp, "d_" + name), os.path.join(tmp, "s_" + name)
            dc, sc = cycles(pyasc, dynamic, x_path, d_out), cycles(pyasc, static, x_path, s_out)
            ref = preprocess(x.astype(np.float64))
            errs = []
            for k, r in enumerate(ref):
                o = np.load(os.path.join(d_out, f"out{k}.npy")).astype(np.float64)
                assert o.shape == shape, (o.shape, shape)
                errs.append(np.linalg.norm(o - np.asarray(r, np.float64)) / np.linalg.norm(r))
            print(f"| [{','.join(map(str, shape))}] | {dc:,} | {sc:,} | {dc / sc:.3f} | {errs[0]:.1e}, {errs[1]:.1e} |")


if __name__ == "__main__":
    main()
