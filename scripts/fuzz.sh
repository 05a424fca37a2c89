#!/usr/bin/env bash
# Builds the fuzz harnesses with clang-14, libFuzzer, ASan and UBSan in build-fuzz/ and runs them.
#   scripts/fuzz.sh [HARNESS[,HARNESS...]|all] [SECONDS]     each harness for SECONDS (default 60)
#   FUZZ_RUNS=1000000 scripts/fuzz.sh all       each harness for that many executions instead
# Each campaign starts from the harness's seeds (tests/fuzz/seeds.py) and its corpus in
# build-fuzz/corpus/HARNESS/ (kept between runs); a crash, leak, timeout (60 s) or use of more than
# 2 GB is written to build-fuzz/crashes/HARNESS/ and stops the script: fix it, then copy the input
# into tests/fuzz/regressions/HARNESS/, which ctest replays. docs/fuzzing.md has the details.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
harness=${1:-all}
seconds=${2:-60}
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
harnesses=$(cd tests/fuzz/harnesses && ls *.cpp | sed 's/\.cpp$//')
if [ "$harness" != all ]; then
  for h in ${harness//,/ }; do
    if ! echo "$harnesses" | grep -qxF "$h"; then
      echo "fuzz.sh: error: no harness '$h' (harnesses: $(echo $harnesses))" >&2
      exit 2
    fi
  done
  harnesses=${harness//,/ }
  if [ -z "${harnesses// /}" ]; then
    echo "fuzz.sh: error: no harness named (harnesses: $(cd tests/fuzz/harnesses && ls *.cpp | sed 's/\.cpp$//' | tr '\n' ' '))" >&2
    exit 2
  fi
fi
if ! command -v clang++-14 > /dev/null || ! compgen -G "/usr/lib/llvm-14/lib/clang/14*/lib/linux/libclang_rt.fuzzer-x86_64.a" > /dev/null; then
  echo "fuzz.sh: error: needs clang-14 and libFuzzer: install the Debian packages 'clang-14' and 'libclang-common-14-dev' (scripts/install-deps.sh)" >&2
  exit 1
fi
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 \
    -DCMAKE_CXX_COMPILER=clang++-14 -DPYASC_FUZZ=ON -DPYASC_WITH_CPU=OFF -DPYASC_WITH_PYTHON=OFF -DPYASC_BENCHMARKS=OFF \
    -DPython3_EXECUTABLE=/usr/bin/python3 > /dev/null
fi
targets="pyasc asc-opt"
for h in $harnesses; do targets="$targets fuzz_$h"; done
cmake --build "$build" -j"$(nproc)" --target $targets
# the commit the harnesses were built from ("+changes" when the tree differs from it)
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2> /dev/null || echo +changes)"
export PYASC_TARGET_DIR="$root/targets"
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
# abort_on_error: a UBSan finding raises SIGABRT, so libFuzzer writes the input that caused it
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1"
limits="-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=60 -print_final_stats=1"
# ASan's stack frames are several times the release build's: the deepest expression the frontend
# accepts (1000 levels) needs about 2 MB of the release build's 8 MB stack, and 8 MB under ASan
ulimit -s 65536 2> /dev/null || echo "fuzz.sh: warning: cannot raise the stack limit to 64 MB (hard limit $(ulimit -Hs)); deep expressions may overflow ASan's stack" >&2
for h in $harnesses; do
  seeds="$build/seeds/$h" corpus="$build/corpus/$h" crashes="$build/crashes/$h"
  rm -rf "$seeds"
  mkdir -p "$corpus" "$crashes"
  /usr/bin/python3 tests/fuzz/seeds.py "$h" "$seeds" --bin-dir "$build/bin"
  budget="-max_total_time=$seconds"
  [ -z "${FUZZ_RUNS:-}" ] || budget="-runs=$FUZZ_RUNS"
  dict=""
  [ ! -f "tests/fuzz/dict/$h.dict" ] || dict="-dict=tests/fuzz/dict/$h.dict"
  export FUZZ_MUTANT_FILE="$crashes/mutant-crash.py"
  rm -f "$FUZZ_MUTANT_FILE"
  echo "== $h: $budget $limits $dict"
  if ! "$build/fuzz/fuzz_$h" $budget $limits $dict -artifact_prefix="$crashes/" "$corpus" "$seeds" \
      2> "$build/fuzz-$h.log"; then
    tail -40 "$build/fuzz-$h.log"
    unit=$(grep -oE "Test unit written to [^ ]+" "$build/fuzz-$h.log" | tail -1 | sed 's/Test unit written to //' || true)
    [ ! -s "$FUZZ_MUTANT_FILE" ] || unit="$FUZZ_MUTANT_FILE (a mutant the mutator was checking)"
    echo "fuzz.sh: $h stopped: ${unit:-no input written, see the log} (log: $build/fuzz-$h.log)" >&2
    exit 1
  fi
  # one line per campaign in build-fuzz/campaigns.txt: what docs/fuzzing.md records
  field() { grep -E "$1" "$build/fuzz-$h.log" | tail -1 || true; }
  summary="$(date -u +%F) $commit $h $budget: $(field '^Done');"
  summary="$summary $(field '^#[0-9]+[[:space:]]+DONE' | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true);"
  summary="$summary corpus $(ls "$corpus" | wc -l) inputs; peak $(field 'peak_rss_mb' | grep -oE '[0-9]+' || true) MB"
  summary="$summary; $(field "^$h:")"
  echo "$summary" | tee -a "$build/campaigns.txt"
done
