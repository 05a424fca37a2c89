"""The rows of an `ascop bench` run as tasks of a Dask distributed cluster (`ascop bench
--scheduler tcp://HOST:PORT` runs this): every row is one task that runs `ascop bench --shard i/N`
on a worker (the tools of this build, reachable from every worker); the rows are printed in the
order of a serial run as they arrive and merged into one report. A worker that dies during a row
loses nothing: Dask runs the row again on another worker.

Usage: dask_bench.py --scheduler ADDRESS --ascop PATH --rows N --only I,J,... --out MERGED.json
                     [--kill-worker-after K] -- BENCH-ARGUMENTS...
(--only: the rows to run, from 0, of the N of the run.)
--kill-worker-after K (for tests): once K rows have arrived, the worker that ran the K-th is stopped.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def measure(ascop, arguments, index, rows):
    """Runs row `index` (from 0) of `rows`: its table line and its report."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "row.json")
        run = subprocess.run([ascop, "bench"] + arguments + ["--shard", "%d/%d" % (index + 1, rows), "--json", out,
                                                             "-j", "1", "--rows-only"], capture_output=True, text=True)
        report = None
        if os.path.exists(out):
            with open(out) as f:
                report = json.load(f)
        return {"index": index, "code": run.returncode, "stdout": run.stdout, "stderr": run.stderr, "report": report}


def stop_worker():
    os._exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scheduler", required=True)
    parser.add_argument("--ascop", required=True)
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--only", required=True)
    parser.add_argument("--kill-worker-after", type=int, default=0)
    parser.add_argument("arguments", nargs=argparse.REMAINDER)
    a = parser.parse_args()
    arguments = a.arguments[1:] if a.arguments[:1] == ["--"] else a.arguments
    from distributed import Client, as_completed

    try:
        client = Client(a.scheduler, timeout="5s")
    except OSError as e:
        print("ascop: error: cannot reach the Dask scheduler at %s: %s" % (a.scheduler, e), file=sys.stderr)
        return 1
    wanted = [int(i) for i in a.only.split(",") if i]
    futures = [client.submit(measure, a.ascop, arguments, i, a.rows, pure=False, key="ascop-row-%d" % i) for i in wanted]
    done, printed = {}, 0
    merged = None
    for future in as_completed(futures):
        row = future.result()
        done[row["index"]] = row
        if a.kill_worker_after and len(done) == a.kill_worker_after:
            holders = client.who_has([future]).get(future.key, ())
            if holders:
                try:
                    client.run(stop_worker, workers=list(holders)[:1])
                except Exception:  # noqa: BLE001 -- the worker dies before it answers
                    pass
        while printed < len(wanted) and wanted[printed] in done:
            r = done[wanted[printed]]
            if r["code"] != 0 and r["report"] is None:
                sys.stderr.write(r["stderr"])
                return r["code"] or 1
            sys.stdout.write(r["stdout"])
            sys.stdout.flush()
            part = r["report"]
            if merged is None:
                merged = {k: v for k, v in part.items() if k not in ("results", "skipped")}
                merged["results"] = []
            merged["results"] += part.get("results", [])
            merged.setdefault("skipped", []).extend(part.get("skipped", []))
            printed += 1
    if merged is not None and not merged["skipped"]:
        del merged["skipped"]
    with open(a.out, "w") as f:
        json.dump(merged or {"results": []}, f)
    client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
