#!/usr/bin/env python3
"""Checks programs of the scientific corpus (tests/e2e/corpus/) against NumPy: each compiled at O2
for ascend310 and ascend910b with `pyasc check` (float64 reference). A program listed in the table
"Corpus programs pyasc refuses" of docs/numpy-support.md must fail on both targets with exactly the
located error the table gives; every other program must pass on both.

  run_corpus.py --bin-dir build/bin [PROGRAM.py ...]    (default: the whole corpus, with a summary)
"""
import argparse
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "e2e", "corpus")
TARGETS = ["ascend310", "ascend910b"]


def refused():
    """program -> its first error line, from the table in docs/numpy-support.md."""
    table = {}
    with open(os.path.join(ROOT, "docs", "numpy-support.md"), encoding="utf-8") as fh:
        for line in fh:
            m = re.match(r"\| `([a-z0-9_]+\.py)` \| `(.*?)` \|", line)
            if m:
                table[m.group(1)] = m.group(2).replace("\\|", "|")
    return table


def first_error(output):
    """The first located error, without the target a message may name at its end."""
    for line in output.splitlines():
        if re.match(r"\S+\.py:\d+:\d+: error: ", line):
            return re.sub(r" \(target '[a-z0-9]+'\)$", "", line)
    return None


def check_options(program):
    """The `pyasc check` options a program's `# check: OPTIONS (reason)` line names, such as the
    tolerance of an output whose float32 result is ill-conditioned."""
    with open(program, encoding="utf-8") as fh:
        for line in fh:
            m = re.match(r"# check: (\S+)", line)
            if m:
                return m.group(1).split(",")
    return []


def check(pyasc, program, expected):
    """Returns None when the program behaves as expected, else what went wrong."""
    name = os.path.basename(program)
    for target in TARGETS:
        cmd = [pyasc, "check", "--target=" + target, "--opt-level=O2", *check_options(program), name]  # located as the docs show
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=CORPUS)
        except subprocess.TimeoutExpired:
            return f"{target}: timed out after 600 s"
        output = proc.stdout + proc.stderr
        if expected is None and proc.returncode != 0:
            return f"{target}: failed (status {proc.returncode})\n{output}"
        if expected is not None:
            error = first_error(output)
            if proc.returncode == 0:
                return f"{target}: passes, but docs/numpy-support.md lists it as refused"
            if error != expected:
                return f"{target}: expected the error\n  {expected}\nfound\n  {error or '(no located error)'}\n{output}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args()
    pyasc = os.path.join(os.path.abspath(args.bin_dir), "pyasc")
    programs = args.programs or sorted(glob.glob(os.path.join(CORPUS, "*.py")))
    table = refused()
    unknown = [p for p in table if not os.path.exists(os.path.join(CORPUS, p))]
    if unknown:
        print("docs/numpy-support.md lists programs the corpus does not have: " + ", ".join(unknown))
        return 1
    failures = 0
    for program in programs:
        name = os.path.basename(program)
        problem = check(pyasc, os.path.abspath(program), table.get(name))
        status = "ok" if problem is None else "FAILED"
        print(f"{status}: {name}" + ("" if name not in table else " (refused, as documented)"))
        if problem:
            failures += 1
            print(problem)
    if not args.programs:
        total = len(programs)
        passing = total - len(table)
        print(f"{passing} of {total} programs pass on both targets ({100.0 * passing / total:.0f}%); "
              f"{len(table)} refused with a located error; {failures} not as documented")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
