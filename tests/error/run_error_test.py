#!/usr/bin/env python3
"""Runs one exact-diagnostic test: a source file and <file>.expected holding the exact stderr.

The command comes from a `RUN:` line in the source (`# RUN: pyasc --emit=graph %s`), or from the
first line of the .expected file when it starts with `RUN:` (for binary inputs). `%s` is the source
path relative to its folder (the tools run in that folder so messages show short names); the tool
is looked up in --bin-dir. The test passes when the exit code is non-zero (or equals `EXIT: N`)
and stderr equals the rest of .expected byte for byte.
"""
import argparse
import os
import shlex
import subprocess
import sys


def read_run(source, expected_lines):
    if expected_lines and expected_lines[0].startswith("RUN:"):
        return expected_lines[0][4:].strip(), expected_lines[1:]
    try:
        with open(source, encoding="utf-8") as fh:
            for line in fh:
                if "RUN:" in line:
                    return line.split("RUN:", 1)[1].strip(), expected_lines
    except UnicodeDecodeError:
        pass
    return None, expected_lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("source")
    args = ap.parse_args()
    with open(args.source + ".expected", encoding="utf-8") as fh:
        lines = fh.read().splitlines(keepends=True)
    run, lines = read_run(args.source, lines)
    if run is None:
        print(f"{args.source}: no RUN: line", file=sys.stderr)
        return 2
    want_exit = None
    if lines and lines[0].startswith("EXIT:"):
        want_exit = int(lines[0][5:])
        lines = lines[1:]
    expected = "".join(lines)
    folder = os.path.dirname(os.path.abspath(args.source))
    argv = shlex.split(run.replace("%s", os.path.basename(args.source)))
    tool = os.path.join(args.bin_dir, argv[0])
    if os.path.exists(tool):
        argv[0] = tool
    proc = subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=120)
    ok = proc.stderr == expected and (proc.returncode == want_exit if want_exit is not None else proc.returncode != 0)
    if not ok:
        print(f"command: {' '.join(argv)} (in {folder})")
        print(f"exit code: {proc.returncode} (wanted {'non-zero' if want_exit is None else want_exit})")
        print("--- expected stderr\n" + expected + "--- actual stderr\n" + proc.stderr + "---")
        return 1
    print(f"ok: {os.path.basename(args.source)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
