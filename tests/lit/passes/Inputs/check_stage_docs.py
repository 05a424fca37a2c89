#!/usr/bin/env python3
"""check_stage_docs.py ASC_OPT SRCROOT: the stage list of docs/architecture.md (its pipeline
diagram) and docs/cli.md (--dump-after) name the stages of `asc-opt --list-passes`, in its order
(the diagram shows the loop-nest stages inside select-templates: they are compared on their own)."""
import re
import subprocess
import sys


def main():
    asc_opt, root = sys.argv[1], sys.argv[2]
    listed = subprocess.run([asc_opt, "--list-passes"], capture_output=True, text=True, check=True).stdout
    stages = [line.split(":")[0] for line in listed.splitlines()]
    loop_nest = [line.split(":")[0] for line in listed.splitlines() if "loop nest ->" in line]
    errors = []
    arch = open(f"{root}/docs/architecture.md", encoding="utf-8").read()
    diagram = arch[arch.index("codegen/Pipeline.cpp"):arch.index("sdk/model (.om)")]
    named = [w for w in re.findall(r"[a-z]+(?:-[a-z]+)+", diagram) if w in stages]
    for part in ([s for s in stages if s not in loop_nest], loop_nest):
        if [w for w in named if w in part] != part:
            errors.append(f"docs/architecture.md names {[w for w in named if w in part]}, the pipeline {part}")
    cli = open(f"{root}/docs/cli.md", encoding="utf-8").read()
    dump = re.search(r"`--dump-after=([a-z|-]+)`", cli)
    if not dump or dump.group(1).split("|") != stages:
        errors.append(f"docs/cli.md --dump-after names {dump.group(1).split('|') if dump else None}, the pipeline {stages}")
    for e in errors:
        print("error: " + e)
    print("stage docs: " + ("ok" if not errors else f"{len(errors)} mismatch(es)"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
