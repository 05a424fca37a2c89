#!/usr/bin/env bash
# Configures and builds pyasc into build/ (or build-asan/ with PYASC_SANITIZE=1); safe to run again.
# Progress goes to stderr; the last line on stdout is the build folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir="$root/build"
extra=()
if [ "${PYASC_SANITIZE:-0}" = 1 ]; then
  build_dir="$root/build-asan"
  extra+=(-DPYASC_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo)
fi
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"  # relative paths: clones in other folders share the cache
cmake -S "$root" -B "$build_dir" -G Ninja -DPython3_EXECUTABLE=/usr/bin/python3 "${extra[@]}" >&2
cmake --build "$build_dir" -j "$(nproc)" >&2
echo "$build_dir"
