#!/usr/bin/env python3
"""Checks an `ascop bench` report: every result at or below 100% of its floor, and its roofline equal to floor / cycles."""
import json
import sys


def main(path):
    with open(path) as f:
        report = json.load(f)
    bad = []
    for r in report.get("results", []):
        if "cycles" not in r:
            continue  # an unsupported case: no figure
        what = f"{r['op']} {r['target']} {r['case']} {r['dtype']}"
        if r["roofline"] > 1.0:
            bad.append(f"{what}: {100 * r['roofline']:.1f}% of its floor (above 100%: the floor counts less work than the operator must do)")
        elif abs(r["roofline"] - r["floor_cycles"] / r["cycles"]) > 1e-9:
            bad.append(f"{what}: roofline {r['roofline']} is not floor / cycles")
    for line in bad:
        print(f"{path}: {line}")
    if bad:
        return 1
    print(f"{path}: {len(report.get('results', []))} results, none above its floor")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
