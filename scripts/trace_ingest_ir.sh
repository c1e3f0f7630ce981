#!/usr/bin/env bash
# Host instructions (callgrind) per warp-instruction of a trace run and of its trace ingestion
# (load_traceg / read_traceg, inclusive), with the trace cache off, cold and warm.
# Usage: scripts/trace_ingest_ir.sh [STACKSIM [BASE_STACKSIM]]
#   STACKSIM defaults to build/stacksim; BASE_STACKSIM (optional, e.g. a build of the commit
#   before the cache) adds a "before" row measured the same way (its cache flag is ignored).
# The trace is the benchmark's: tests/data/accelsim/vecadd-256 with its CTA repeated 2000 times
# (bench/bench_main.cpp replicated_trace), run on gtx1080. Prints a markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/stacksim}")
base=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 scripts/replicate_trace.py "$work" 2000

# measure NAME BINARY CACHE: one callgrind run; prints a table row.
measure() {
  local name=$1 binary=$2 cache=$3 out="$work/out-$1"
  rm -rf "$out"
  STACKSIM_TRACE_CACHE=$cache valgrind --tool=callgrind --callgrind-out-file="$work/cg-$name" \
    "$binary" run gtx1080 --trace "$work/kernelslist.g" --out "$out" --quiet >/dev/null 2>&1
  python3 - "$name" "$work/cg-$name" "$out/summary.json" <<'EOF'
import json, re, subprocess, sys
name, cg, summary = sys.argv[1:4]
text = subprocess.run(['callgrind_annotate', '--inclusive=yes', '--threshold=100', cg],
                      capture_output=True, text=True).stdout
total = int(re.search(r'([\d,]+) \(100.0%\)\s+PROGRAM TOTALS', text).group(1).replace(',', ''))
ingest = 0
for fn in ('stacksim::workloads::load_traceg(', 'stacksim::workloads::read_traceg('):
    for m in re.finditer(r'^\s*([\d,]+) \([^)]*\)\s+\S*' + re.escape(fn), text, re.M):
        ingest = max(ingest, int(m.group(1).replace(',', '')))
insts = json.load(open(summary))['warp_instructions']
print('| %s | %d | %s | %s | %s |' % (name, insts, f'{total:,}', f'{total / insts:,.0f}', f'{ingest / insts:,.0f}'))
EOF
}

echo "| run | warp-instructions | host instructions | per warp-instruction | ingestion per warp-instruction |"
echo "|---|---|---|---|---|"
[ -n "$base" ] && measure before "$(realpath "$base")" off
measure off "$bin" off
measure cold "$bin" "$work/cache"
measure warm "$bin" "$work/cache"
