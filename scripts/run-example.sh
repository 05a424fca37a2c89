#!/usr/bin/env bash
# Installs the dependencies, builds pyasc, compiles the bundled example and runs it on the simulator.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build_dir=$("$root/scripts/build.sh" | tail -n 1)
bin="$build_dir/bin"
out="$root/out/example"
mkdir -p "$out"
export PYASC_TARGET_DIR="$root/targets"
echo "== pyasc --target=ascend310 --opt-level=O2 --enable-memory-opt examples/matmul.py -o $out/matmul.om"
"$bin/pyasc" --target=ascend310 --opt-level=O2 --enable-memory-opt "$root/examples/matmul.py" -o "$out/matmul.om"
echo "== pyasc run $out/matmul.om --output-dir $out"
"$bin/pyasc" run "$out/matmul.om" --output-dir "$out"
echo "== pyasc check examples/matmul.py (CPython + NumPy against the simulator)"
"$bin/pyasc" check --target=ascend310 "$root/examples/matmul.py"
