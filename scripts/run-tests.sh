#!/usr/bin/env bash
# Installs the dependencies, builds pyasc and runs every test (unit, lit, error, e2e, layout).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
build_dir=$("$root/scripts/build.sh" | tail -n 1)
cd "$build_dir"
ctest -j "$(nproc)" --output-on-failure --timeout 600
