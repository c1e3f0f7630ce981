#!/usr/bin/env bash
# ETC validation (docs/validation.md, section "ETC"): the chapter-3 apps on the etc preset at
# 100/75/50% of their footprint under the baseline (BL), ideal memory and ETC's techniques.
# Usage: [REGULAR=apps] [IRREGULAR=apps] scripts/etc_validation.sh OUT.csv [STACKSIM [CONFIG]]   (about 90 runs of a few seconds each)
# Footprints are ~0.5-2 MB instead of the thesis's 7-22 MB (host time); eviction groups and the
# proactive-eviction threshold are scaled with them (256 KB instead of 2 MB).
set -euo pipefail
out=$1
bin=${2:-build/stacksim}
only=${3:-}  # a config name: run only those rows
regular=${REGULAR:-"2dconv:512 3dconv:64 corr:256 covar:256 fdtd2d:384 lud:256 srad:512 scan:262144"}
irregular=${IRREGULAR:-"atax:512 bicg:512 gesummv:512 mvt:512"}
scaled="--set uvm.mode=managed --set uvm.eviction_granularity_bytes=262144 --set uvm.etc.proactive_free_bytes=262144"
tmp=$(mktemp -d)
[ -e "$out" ] || echo "app,config,fraction,sim_us,class,far_faults,evictions,verified" >> "$out"
one() {  # app config fraction extra-args...
  local app=$1 cfg=$2 frac=$3; shift 3
  [ -z "$only" ] || [ "$only" = "$cfg" ] || return 0
  if ! "$bin" run etc --workload "$app" $scaled --set uvm.capacity_fraction="$frac" "$@" --quiet --force \
      --out "$tmp/r" 2>"$tmp/err"; then
    echo "$app,$cfg,$frac,,,,,$(head -c 60 "$tmp/err" | tr ',\n' '; ')" >> "$out"  # e.g. the watchdog (thrashing)
    return
  fi
  python3 - "$tmp/r" "$app" "$cfg" "$frac" >> "$out" <<'PY'
import json, sys
d, app, cfg, frac = sys.argv[1:]
s = json.load(open(d + "/stats.json")); m = json.load(open(d + "/summary.json"))
v = lambda k: s[k]["value"] if k in s else ""
print(f"{app},{cfg},{frac},{m['simulated_seconds']*1e6:.1f},{v('gpu.etc.class')},{v('gpu.gmmu.faults.far')},"
      f"{v('gpu.gmmu.evictions')},{m['verification']['passed']}")
PY
}
for app in $irregular; do
  one "$app" ideal 1.0
  for f in 0.75 0.5; do
    one "$app" bl "$f"
    one "$app" etc "$f" --set uvm.etc.mode=auto
    one "$app" static "$f" --set uvm.etc.mode=manual --set uvm.etc.throttling=static
  done
  one "$app" proactive 0.5 --set uvm.etc.mode=manual --set uvm.etc.proactive_eviction=true
  one "$app" bl_50us 0.75 --set uvm.fault_latency_ns=50000
done
for app in $regular; do
  one "$app" ideal 1.0
  for f in 0.75 0.5; do
    one "$app" bl "$f"
    one "$app" etc "$f" --set uvm.etc.mode=auto
  done
  one "$app" bl_50us 0.75 --set uvm.fault_latency_ns=50000
done
rm -rf "$tmp"
