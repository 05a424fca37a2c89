"""Runs a bench suite on a local Dask cluster (a scheduler and two workers on the loopback
address) and checks its report equals a local run's, also when one worker is stopped after it has
returned some rows.

Usage: dask_cluster.py ASCOP SUITE.yaml [BENCH-ARGUMENTS...]  (e.g. --shard 1/40: a subset of the suite)"""
import json
import os
import socket
import subprocess
import sys
import time

from distributed import Client

TIMING = {"compile_ms", "simulate_ms"}


def rows(path):
    with open(path) as f:
        report = json.load(f)
    return [{k: v for k, v in r.items() if k not in TIMING} for r in report["results"]], report.get("skipped", [])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ascop, suite, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
port = free_port()
address = "tcp://127.0.0.1:%d" % port
quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
processes = [subprocess.Popen(["dask-scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], **quiet)]
try:
    for _ in range(2):
        processes.append(subprocess.Popen(["dask-worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard"], **quiet))
    with Client(address, timeout="30s") as client:
        client.wait_for_workers(2, timeout=60)
    subprocess.run([ascop, "bench", suite, "--json", "local.json", "-j", "1"] + extra, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([ascop, "bench", suite, "--scheduler", address, "--json", "cluster.json"] + extra, check=True,
                   stdout=open("cluster.txt", "w"))
    print("rows:", len(rows("local.json")[0]))
    print("cluster:", "same" if rows("local.json") == rows("cluster.json") else "different")
    subprocess.run([ascop, "bench", suite, "--scheduler", address, "--json", "stopped.json", "--kill-worker-after", "3"] + extra,
                   check=True, stdout=subprocess.DEVNULL)
    with Client(address, timeout="30s") as client:
        workers = len(client.scheduler_info()["workers"])
    print("workers left:", workers)
    print("after a worker stopped:", "same" if rows("local.json") == rows("stopped.json") else "different")
finally:
    for p in processes:
        p.terminate()
    for p in processes:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
