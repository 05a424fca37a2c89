#!/usr/bin/env python3
"""CNNs written in plain NumPy against the same networks written with pyasc.nn, at O2 on the
simulator: ResNet-50 (examples/resnet50_numpy.py, examples/resnet50.py), VGG-16 and MobileNet v1
(examples/vgg_mobilenet_numpy.py, examples/vgg_mobilenet.py), 224x224, batch 1. For each: the
compile time (the fastest of three), cycles, launches, and the logits' relative error against the
program itself run by NumPy.

usage: benchmarks/resnet/numpy_idioms.py --bin-dir build/bin [--target ascend910b] [--networks resnet50,vgg16,mobilenet_v1]
                                        [--auto-mixed-precision O1|O2]
Prints a markdown table.
"""
import argparse
import os
import re
import runpy
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NETWORKS = {"resnet50": "resnet50", "vgg16": "vgg_mobilenet", "mobilenet_v1": "vgg_mobilenet"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--target", default="ascend910b")
    ap.add_argument("--networks", default=",".join(NETWORKS))
    ap.add_argument("--auto-mixed-precision", choices=["O1", "O2"], help="compile every network with it")
    args = ap.parse_args()
    pyasc = os.path.join(args.bin_dir, "pyasc")
    env = dict(os.environ, PYASC_TARGET_DIR=os.environ.get("PYASC_TARGET_DIR", os.path.join(ROOT, "targets")))
    sys.path.insert(0, os.path.join(ROOT, "python"))
    x = np.random.default_rng(1).uniform(-1, 1, (1, 224, 224, 3)).astype(np.float32)
    print("| network | written with | compile (s) | cycles | launches | logits' relative error |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        np.save(os.path.join(tmp, "x.npy"), x)
        for network in args.networks.split(","):
            for written, suffix in (("pyasc.nn", ""), ("NumPy", "_numpy")):
                program = os.path.join(ROOT, "examples", NETWORKS[network] + suffix + ".py")
                reference = runpy.run_path(program)[network](x).astype(np.float64)
                model = os.path.join(tmp, "m.om")
                cmd = [pyasc, "--target=" + args.target, "--opt-level=O2", "--entry=" + network,
                       "--input=x:float32[1,224,224,3]", program, "-o", model]
                if args.auto_mixed_precision:
                    cmd.insert(1, "--auto-mixed-precision=" + args.auto_mixed_precision)
                seconds = []
                for _ in range(3):
                    start = time.perf_counter()
                    subprocess.run(cmd, check=True, env=env, capture_output=True)
                    seconds.append(time.perf_counter() - start)
                run = subprocess.run([pyasc, "run", "--stats", "--input", "x=" + os.path.join(tmp, "x.npy"), "--output-dir",
                                      tmp, model], check=True, env=env, capture_output=True, text=True)
                m = re.search(r"^cycles: (\d+) .*?, (\d+) launch", run.stdout, re.M)
                out = np.load(os.path.join(tmp, "out0.npy")).astype(np.float64)
                error = np.linalg.norm(out - reference) / np.linalg.norm(reference)
                print("| %s | %s | %.2f | %s | %s | %.1e |" % (network, written, min(seconds), m.group(1), m.group(2), error))
                sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
