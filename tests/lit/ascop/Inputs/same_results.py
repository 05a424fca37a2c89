"""Exits 0 when two ascop bench reports hold the same results and skipped entries (host timings aside)."""
import json
import sys

TIMING = {"compile_ms", "simulate_ms"}


def rows(path):
    with open(path) as f:
        report = json.load(f)
    results = [{k: v for k, v in r.items() if k not in TIMING} for r in report["results"]]
    return results, report.get("skipped", [])


a, b = rows(sys.argv[1]), rows(sys.argv[2])
print("same" if a == b else "different")
sys.exit(0 if a == b else 1)
