#!/usr/bin/env bash
# ETC validation (docs/validation.md, section "ETC"): the thesis's 15 chapter-3 apps on the etc
# preset at 100/75/50% of their footprint under the baseline (BL), ideal memory, ETC's full
# choice (uvm.etc.mode = auto) and each technique alone.
# Usage: [APPS="app:size ..."] [JOBS=2] [PHASES="main sweep"] scripts/etc_validation.sh OUT.csv [STACKSIM]
# Appends to OUT.csv and skips rows it already holds, so an interrupted run resumes.
# Footprints 7.1-12.5 MB (the thesis: 7.28-22.5 MB) with the preset's 2 MB eviction groups and a
# 2 MB proactive threshold. CORR and COVAR (one thread per column, O(N^3): 20 M cycles at
# 0.56 MB) and LUD (7.5 min of host time at 4 MB) run at 0.56 / 0.56 / 1 MB with groups and
# threshold of one 64 KB page. Sharing is the launch-level
# annotation of the thesis's classes (its compiler analysis); the class is the classifier's.
# Configs (column `config`):
#   ideal      GPU memory = 100% of the footprint (only compulsory faults)
#   comp_cost  compression alone at 100% (its cost when not oversubscribed)
#   bl         the baseline: tree prefetcher, age-LRU eviction on demand (75%, 50%)
#   etc        the policy engine's choice by class (75%, 50%)
#   evict      proactive eviction alone (75%, 50%)
#   comp       capacity compression alone (75%, 50%)
#   throttle   dynamic SM throttling alone (irregular apps; 75%, 50%)
#   static     static half-SM throttling (irregular apps; 75%, 50%)
#   etc_50us   ETC with 50 us instead of 20 us per fault batch (75%)
#   etc_rN     phase "sweep": ETC with every page compressed N times (forced ratio; sharing and
#              irregular apps, 50%)
set -euo pipefail
out=$1
bin=${2:-build/stacksim}
jobs=${JOBS:-2}
phases=${PHASES:-"main sweep"}
# app:size class (n = regular without sharing, s = regular with sharing, i = irregular)
default_apps="2dconv:1280/n 3dconv:112/n sad:768/n corr:256/n covar:256/n fdtd2d:768/n lps:112/n
lud:512/s srad:608/s cons:832/s scan:1048576/s atax:1448/i bicg:1448/i gesummv:1024/i mvt:1448/i"
apps=${APPS:-$default_apps}
# The Polybench apps start from PolyBench/GPU 1.0's own initialisation ([NAME] inputs =
# "polybench"); 2DCONV's is rand(), like the library's random inputs.
polybench=${POLYBENCH:-"atax bicg mvt gesummv corr covar 3dconv fdtd2d"}
[ -e "$out" ] || echo "app,config,fraction,sim_us,class,far_faults,evictions,proactive_groups,compression_ratio,throttle_stops,verified" > "$out"

one() {  # app config fraction extra-args...
  local app=$1 cfg=$2 frac=$3; shift 3
  local name=${app%%/*} cls=${app##*/}
  grep -q "^$name,$cfg,$frac," "$out" && return 0
  local set=(--set uvm.mode=managed --set uvm.capacity_fraction="$frac")
  case $cls in
    n) set+=(--set uvm.etc.sharing=no) ;;
    s) set+=(--set uvm.etc.sharing=yes) ;;
  esac
  case " $polybench " in *" ${name%%:*} "*)  # PolyBench/GPU's deterministic inputs
    set+=(--set "${name%%:*}.inputs=polybench") ;;
  esac
  case ${name%%:*} in  # tiny footprints: groups and threshold of one page
    corr|covar|lud) set+=(--set uvm.eviction_granularity_bytes=65536 --set uvm.etc.proactive_free_bytes=65536) ;;
  esac
  local tmp; tmp=$(mktemp -d)
  if ! "$bin" run etc --workload "$name" "${set[@]}" "$@" --quiet --force --out "$tmp/r" 2>"$tmp/err"; then
    echo "$name,$cfg,$frac,,,,,,,,$(head -c 60 "$tmp/err" | tr ',\n' '; ')" >> "$out"  # e.g. the watchdog (thrashing)
  else
    python3 - "$tmp/r" "$name" "$cfg" "$frac" >> "$out" <<'PY'
import json, sys
d, app, cfg, frac = sys.argv[1:]
s = json.load(open(d + "/stats.json")); m = json.load(open(d + "/summary.json"))
v = lambda k: s[k]["value"] if k in s else ""
print(f"{app},{cfg},{frac},{m['simulated_seconds']*1e6:.1f},{v('gpu.etc.class')},{v('gpu.gmmu.faults.far')},"
      f"{v('gpu.gmmu.evictions')},{v('gpu.etc.proactive_groups')},{v('gpu.gmmu.compression.ratio')},"
      f"{v('gpu.etc.throttle.stops')},{m['verification']['passed']}")
PY
  fi
  rm -rf "$tmp"
}

runs() {  # prints one line per run: app config fraction extra-args
  local app cls
  for app in $apps; do
    cls=${app##*/}
    case " $phases " in *" main "*)
      echo "$app ideal 1.0 --set uvm.etc.mode=manual"
      echo "$app comp_cost 1.0 --set uvm.etc.mode=manual --set uvm.etc.compression=true"
      for f in 0.75 0.5; do
        echo "$app bl $f --set uvm.etc.mode=manual"
        echo "$app etc $f --set uvm.etc.mode=auto"
        echo "$app evict $f --set uvm.etc.mode=manual --set uvm.etc.proactive_eviction=true"
        echo "$app comp $f --set uvm.etc.mode=manual --set uvm.etc.compression=true"
        if [ "$cls" = i ]; then
          echo "$app throttle $f --set uvm.etc.mode=manual --set uvm.etc.throttling=dynamic"
          echo "$app static $f --set uvm.etc.mode=manual --set uvm.etc.throttling=static"
        fi
      done
      echo "$app etc_50us 0.75 --set uvm.etc.mode=auto --set uvm.fault_latency_ns=50000" ;;
    esac
    case " $phases " in *" sweep "*)
      if [ "$cls" != n ]; then
        for r in 1.5 2 3; do
          echo "$app etc_r$r 0.5 --set uvm.etc.mode=auto --set uvm.compression.forced_ratio=$r"
        done
      fi ;;
    esac
  done
}

export -f one
export out bin polybench
# Each run appends one line (< PIPE_BUF): parallel runs do not interleave.
runs | xargs -P "$jobs" -L 1 bash -c 'one "$@"' _
