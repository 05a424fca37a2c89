#!/usr/bin/env python3
"""Checks that every source folder includes only from the folders DESIGN.md §2 allows."""
import os
import re
import sys

# folder -> folders it may include from (besides itself); None means anything.
ALLOWED = {
    "sdk": set(),
    "registry": {"sdk"},
    "ops": {"sdk", "registry"},
    "frontend": {"sdk", "registry"},
    "codegen": {"sdk", "registry", "ops"},
    "sim": {"sdk"},
    "cpu": {"sdk", "registry", "ops"},
    "runtime": {"sdk", "sim", "cpu"},
    "tools": None,
    "python": None,
    "tests": None,
    "benchmarks": None,
}
# third-party headers and the only folders that may include them
EXTERNAL = {
    "Halide.h": {"cpu", "tests", "benchmarks"},
    "CLI/": {"tools", "benchmarks"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')
SOURCE_EXT = (".h", ".hpp", ".cpp", ".cc", ".def", ".inc")


def check(root):
    errors = []
    for folder, allowed in ALLOWED.items():
        base = os.path.join(root, folder)
        for dirpath, _, files in os.walk(base):
            for f in sorted(files):
                if not f.endswith(SOURCE_EXT):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for lineno, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = m.group(1)
                        for ext, owners in EXTERNAL.items():
                            if target.startswith(ext) and folder not in owners:
                                errors.append(f"{rel}:{lineno}: '{folder}/' may not include <{target}>")
                        top = target.split("/", 1)[0]
                        if "/" not in target or top not in ALLOWED:
                            continue
                        if allowed is not None and top != folder and top not in allowed:
                            errors.append(f"{rel}:{lineno}: '{folder}/' may not include '{top}/' ({target})")
    return errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.getcwd()
    if not os.path.isdir(root):
        print(f"check_layout: error: no such folder '{root}'")
        return 2
    errors = check(root)
    for e in errors:
        print(e)
    print(f"layout: {len(errors)} violation(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
