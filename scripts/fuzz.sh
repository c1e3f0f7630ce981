#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan; the same build folder as
# scripts/sanitize.sh) and runs each one from its seed corpus (as many side by side as there are processors)
# (tests/fuzz/corpus/NAME, copied: the repo's corpus is not changed).
# Usage: scripts/fuzz.sh SECONDS|-runs=N [build-dir]   (default build-asan)
#   SECONDS: each target runs for that long (CI: a short fixed budget);
#   -runs=N: each target runs N inputs (for the >= 1 M executions of a release check).
# Then `stacksim plot`'s input validation (Python: libFuzzer cannot drive it in-process) runs
# through scripts/plot_fuzz.py for the same budget (N inputs, or SECONDS), with the Python
# that has matplotlib (STACKSIM_PYTHON, python3 or /usr/bin/python3); skipped, saying so,
# where there is none.
# A crash, a sanitizer report, an uncaught exception, a leak of time (-timeout, 10 s per
# input) or of memory (-rss_limit_mb) fails the script; the input is left in the build folder.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:?usage: scripts/fuzz.sh SECONDS|-runs=N [build-dir]}
build_dir=${2:-build-asan}
cxx=$(command -v clang++-14 || command -v clang++)
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" -DSTACKSIM_SANITIZE=ON \
  -DSTACKSIM_FUZZ=ON >/dev/null
targets=(fuzz_config fuzz_ptx fuzz_accelsim fuzz_netrace fuzz_cli fuzz_sweep fuzz_apps fuzz_base)
cmake --build "$build_dir" -j "$(nproc)" --target "${targets[@]}"
case $budget in
  -runs=*) limit=("$budget") ;;
  *) limit=(-max_total_time="$budget") ;;
esac
export ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The targets run side by side, as many at once as there are processors (each is one process, one
# thread); each one's lines are printed when it ends, in the order of the list.
jobs=$(nproc)
pids=()
run_target() {
  local t=$1 name=${1#fuzz_}
  mkdir -p "$work/$name"
  cp tests/fuzz/corpus/"$name"/* "$work/$name/"
  (cd "$build_dir" && TMPDIR="$work" "./$t" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
     "$work/$name" 2>&1 | grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done|==[0-9]+==|SUMMARY|.*ERROR|.*runtime error|.*exiting)")
}
failed=0
finish() {  # waits for the oldest running target and prints its lines
  local pid=${pids[0]} t=${names[0]}
  pids=("${pids[@]:1}")
  names=("${names[@]:1}")
  local rc=0
  wait "$pid" || rc=$?
  echo "fuzz: $t" >&2
  cat "$work/$t.log" >&2
  if [ "$rc" -ne 0 ]; then
    echo "fuzz: $t failed (exit $rc)" >&2
    failed=1
  fi
}
names=()
for t in "${targets[@]}"; do
  [ ${#pids[@]} -ge "$jobs" ] && finish
  run_target "$t" >"$work/$t.log" 2>&1 &
  pids+=($!)
  names+=("$t")
done
while [ ${#pids[@]} -gt 0 ]; do finish; done
[ "$failed" -eq 0 ] || exit 1
python=""
for py in ${STACKSIM_PYTHON:-} python3 /usr/bin/python3; do
  if "$py" -c "import matplotlib" 2>/dev/null; then python=$py; break; fi
done
if [ -z "$python" ]; then
  echo "fuzz: plot_fuzz.py skipped: no Python 3 with matplotlib" >&2
else
  echo "fuzz: plot_fuzz.py" >&2
  case $budget in
    -runs=*) "$python" scripts/plot_fuzz.py "${budget#-runs=}" --render 20 >&2 ;;
    *) "$python" scripts/plot_fuzz.py 1000000000 --seconds "$budget" --render 20 >&2 ;;
  esac
fi
