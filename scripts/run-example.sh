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
if [ -x "$bin/pyasc" ]; then
  "$bin/pyasc" --target=ascend310 --opt-level=O2 --enable-memory-opt "$root/examples/matmul.py" -o "$out/matmul.om"
  "$bin/pyasc" run "$out/matmul.om" --output-dir "$out"
  "$bin/pyasc" check --target=ascend310 "$root/examples/matmul.py"
else
  echo "pyasc is not built yet; running the fp16 unit tests instead"
  ctest --test-dir "$build_dir" -R unit.sdk --output-on-failure
fi
