#!/bin/sh
# Cycles of the guide's loop (with and without its pragma) against its array form, per target and level.
# usage: benchmarks/guide/run_guide.sh BUILD_BIN_DIR
set -e
bin=${1:-build/bin}
here=$(dirname "$0")
out=$(mktemp -d)
for target in ascend310 ascend910b; do
  for level in O0 O1 O2; do
    for program in guide_loop guide_loop_pragma guide_array; do
      "$bin/pyasc" --target=$target --opt-level=$level "$here/$program.py" -o "$out/m.om" 2>/dev/null
      cycles=$("$bin/pyasc" run "$out/m.om" --output-dir "$out" | sed -n 's/^cycles: \([0-9]*\).*launch.*/\1/p')
      launches=$("$bin/pyasc" run "$out/m.om" --output-dir "$out" | sed -n 's/^cycles: .*, \([0-9]*\) launch.*/\1/p')
      echo "$target $level $program $cycles cycles $launches launches"
    done
  done
done
rm -rf "$out"
