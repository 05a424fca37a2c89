#!/usr/bin/env python3
"""Compiles one NumPy program at O0 and O2 for ascend310 and ascend910b and checks every output
against NumPy with `pyasc check` (float64 reference; fp32 ≤ 1e-5, fp16 ≤ 2e-3 relative error);
with --backend=cpu, once (ascend910b, O2) on the CPU backend instead of the simulator.

The program's first lines may carry `# e2e: <compile options>` (for example
`# e2e: --entry=func --input=a:float32[64,128]`), and `# e2e-also: <more options>` lines: each is one
more run on ascend910b with those options added (at O2 unless they name a level).
"""
import argparse
import os
import shlex
import subprocess
import sys

CONFIGS = [("ascend310", "O0"), ("ascend310", "O2"), ("ascend910b", "O0"), ("ascend910b", "O2")]


def header_options(path, tag="# e2e:"):
    """The `# e2e:` options; descriptor paths are relative to the program's folder."""
    opts = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(tag):
                opts += shlex.split(line[len(tag):])
    folder = os.path.dirname(os.path.abspath(path))
    flag = "--custom-op-config="
    return [flag + os.path.join(folder, o[len(flag):]) if o.startswith(flag) else o for o in opts]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--backend", choices=["sim", "cpu"], default="sim")
    ap.add_argument("program")
    args = ap.parse_args()
    pyasc = os.path.join(args.bin_dir, "pyasc")
    failures = 0
    configs = [(t, o, []) for t, o in CONFIGS] if args.backend == "sim" else [("ascend910b", "O2", [])]
    if args.backend == "sim":
        with open(args.program, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("# e2e-also:"):
                    extra = shlex.split(line[len("# e2e-also:"):])
                    level = next((o.split("=", 1)[1] for o in extra if o.startswith("--opt-level=")), "O2")
                    configs.append(("ascend910b", level, [o for o in extra if not o.startswith("--opt-level=")]))
    for target, opt, extra in configs:
        cmd = [pyasc, "check", "--target=" + target, "--opt-level=" + opt, "--backend=" + args.backend]
        cmd += header_options(args.program) + extra + [args.program]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        status = "ok" if proc.returncode == 0 else "FAILED"
        print(f"{status}: {' '.join(cmd)}")
        if proc.returncode != 0:
            failures += 1
            print(proc.stdout + proc.stderr)
    print(f"{len(configs) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
