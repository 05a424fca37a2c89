#!/usr/bin/env python3
"""Runs a pyasc program under CPython + NumPy and saves the named outputs as .npy (pyasc check)."""
import argparse
import os
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--program", required=True)
    ap.add_argument("--entry", default="")
    ap.add_argument("--inputs", default="", help="folder with <param>.npy for --entry")
    ap.add_argument("--params", default="", help="comma-separated parameter order")
    ap.add_argument("--outputs", required=True, help="comma-separated output names")
    ap.add_argument("--out", required=True)
    ap.add_argument("--unseeded-seed", type=int, default=0)
    ap.add_argument("--const", action="append", default=[], help="NAME=VALUE compile-time scalar argument")
    ap.add_argument("--float64", action="store_true",
                    help="run with float32 inputs widened to float64 (a float64 reference; float16 stays)")
    ap.add_argument("--python-path", default="")
    ap.add_argument("--custom-op", action="append", default=[],
                    help="NAME=DEFINITION.py: a custom operator the program calls by NAME")
    args = ap.parse_args()
    if args.python_path:
        sys.path.insert(0, args.python_path)
    with open(args.program, encoding="utf-8") as fh:
        code = compile(fh.read(), args.program, "exec")
    np.random.seed(args.unseeded_seed)
    custom = {}
    for spec in args.custom_op:
        name, path = spec.split("=", 1)
        sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
        module = {"__name__": "pyasc_custom_" + name}
        with open(path, encoding="utf-8") as fh:
            exec(compile(fh.read(), path, "exec"), module)
        custom[name] = module[name]
    outputs = [o for o in args.outputs.split(",") if o]
    results = {}
    if args.entry:
        namespace = dict(custom, __name__="__pyasc_check__", __file__=args.program)
        exec(code, namespace)
        params = [p for p in args.params.split(",") if p]
        kwargs = {}
        for p in params:
            a = np.load(os.path.join(args.inputs, p + ".npy"))
            if args.float64 and a.dtype == np.float32:
                a = a.astype(np.float64)
            kwargs[p] = a if a.ndim else a[()]
        for spec in args.const:
            name, text = spec.split("=", 1)
            kwargs[name] = True if text == "True" else False if text == "False" else eval(text, {})
        ret = namespace[args.entry](**kwargs)
        if ret is not None:
            rets = ret if isinstance(ret, tuple) else (ret,)
            for i, r in enumerate(rets):
                results["out%d" % i] = r
        for p in params:
            results.setdefault(p, kwargs[p])
    else:
        namespace = dict(custom, __name__="__main__", __file__=args.program)
        exec(code, namespace)
        results = namespace
    os.makedirs(args.out, exist_ok=True)
    for name in outputs:
        if name not in results:
            print("reference_runner: the program has no output '%s'" % name, file=sys.stderr)
            return 2
        value = np.asarray(results[name])
        if np.iscomplexobj(value):  # a model outputs a complex array as (real, imaginary) pairs on a last axis
            value = np.stack([value.real, value.imag], axis=-1)
        np.save(os.path.join(args.out, name + ".npy"), value)
    return 0


if __name__ == "__main__":
    sys.exit(main())
