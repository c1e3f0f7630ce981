#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Test: a sweep through a real single-node Slurm (job array + afterany merge job) gives the local run's table.
# Usage: slurm_sweep_test.sh STACKSIM_BINARY SOURCE_DIR. Exit 77 (ctest: skipped) without Slurm or root.
set -euo pipefail
bin=$1
src=$2
cluster="$src/scripts/slurm_local.sh"

skip() {
  echo "SKIPPED: $* -- the Slurm sweep test did not run"
  exit 77
}
fail() {
  echo "FAILED: $*"
  exit 1
}

for c in slurmctld slurmd sbatch squeue munged; do
  command -v "$c" >/dev/null || skip "Slurm is not installed ($c missing; as root: scripts/slurm_local.sh install)"
done
[ "$(id -u)" -eq 0 ] || skip "starting Slurm's daemons needs root"
scontrol ping >/dev/null 2>&1 && skip "a Slurm controller already answers here; the test only uses a cluster of its own"

work=$(mktemp -d /tmp/stacksim-slurm-XXXXXX)
cleanup() {
  "$cluster" stop || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
"$cluster" start

# Four points that run and one that fails at run time (a trace naming a missing file): the merge
# job depends on the array with afterany, so it must still write the table.
printf 'kernel-1.traceg\n' > "$work/broken.g"
cat > "$work/sweep.toml" <<'EOF'
[sweep]
stats = ["gpu.sm0.warp_instructions", "gpu.mem.memory.bytes"]
[base]
config = "small"
workload = "vecadd:4096"
[grid]
"gpu.sm.warp_scheduler" = ["lrr", "gto"]
seed = [1, 2]
[[point]]
trace = "broken.g"
EOF

set +e
"$bin" sweep "$work/sweep.toml" --out "$work/local" --jobs 2 > "$work/local.log" 2>&1
local_rc=$?
"$bin" sweep "$work/sweep.toml" --out "$work/slurm" --slurm --throttle 2 > "$work/submit.log" 2>&1
submit_rc=$?
set -e
cat "$work/submit.log"
[ "$local_rc" -eq 3 ] || { cat "$work/local.log"; fail "the local sweep exited $local_rc, expected 3 (one point fails)"; }
[ "$submit_rc" -eq 0 ] || fail "submission exited $submit_rc"
grep -q "job array" "$work/submit.log" || fail "no job array submitted"

ids=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(",".join(j["arrays"] + [j["merge"]]))' \
      "$work/slurm/slurm/jobs.json")
merge=${ids##*,}
for i in $(seq 600); do  # 0.25 s polls, at most 150 s (sbatch --wait would poll at 2, 8, 32 s)
  [ -z "$(squeue -h -j "$ids" -o %i 2>/dev/null)" ] && break
  [ "$i" -eq 600 ] && { squeue; fail "jobs $ids still queued after 150 s"; }
  sleep 0.25
done
scontrol -o show job "$merge" | grep -q "JobState=COMPLETED" || fail "merge job $merge did not complete: $(scontrol -o show job "$merge")"
[ -s "$work/slurm/results.csv" ] || fail "the merge job wrote no results.csv"
ls "$work/slurm/slurm/logs/"*_4.out >/dev/null || fail "no log of array task 4"

# The tables must agree but for host_seconds (wall time).
strip() { python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
i = rows[0].index("host_seconds")
for r in rows: print(r[:i] + r[i + 1:])' "$1"; }
diff <(strip "$work/local/results.csv") <(strip "$work/slurm/results.csv") || fail "results.csv differs from the local run's"
for d in "$work/local/points/"*; do
  h=$(basename "$d")
  [ -f "$d/stats.json" ] || continue
  cmp -s "$d/stats.json" "$work/slurm/points/$h/stats.json" || fail "stats.json of point $h differs"
done
status=$("$bin" sweep "$work/slurm" --status)
echo "$status"
grep -q "4 done, 1 failed, 0 pending" <<< "$status" || fail "unexpected status"
echo "PASSED: 5 points through Slurm (array $ids), results.csv and every stats.json as the local run's"
