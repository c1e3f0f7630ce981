#!/usr/bin/env bash
# Checks that a change leaves every statistic of the test suite byte-identical.
# Usage: scripts/stats_identical.sh RECORD_DIR [BASE_RECORD_DIR]
#   Runs the test suite of the current build with STACKSIM_STATS_RECORD=RECORD_DIR, so every
#   stats.json a test produces (CLI runs, and in-process harness runs) is kept under the test's
#   name; with BASE_RECORD_DIR (the same taken on the base commit), compares the two byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."
rec=$1
rm -rf "$rec" && mkdir -p "$rec"
STACKSIM_STATS_RECORD="$rec" ctest --test-dir build -j "$(nproc)" >/dev/null || true
echo "recorded $(ls "$rec" | wc -l) results in $rec"
[ $# -ge 2 ] || exit 0
base=$2
status=0
common=0
for f in "$base"/*; do
  n=$(basename "$f")
  if [ -e "$rec/$n" ]; then
    common=$((common + 1))
    if ! diff -rq "$f" "$rec/$n" >/dev/null; then echo "DIFFERENT: $n"; status=1; fi
  else
    echo "only in base: $n"
  fi
done
for f in "$rec"/*; do [ -e "$base/$(basename "$f")" ] || echo "only in new: $(basename "$f")"; done
echo "$common results compared; $([ $status = 0 ] && echo all byte-identical || echo SOME DIFFER)"
exit $status
