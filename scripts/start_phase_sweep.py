#!/usr/bin/env python3
"""How a kernel's cycles depend on when it starts (issue 28, item 4).

Runs one trace (default: the vectoradd trace) on PRESET with the kernel's start moved by
host.launch_latency_us in N equal steps over SPAN microseconds, once with DRAM refresh off and
once on, and prints the spread of the kernel's cycles. With refresh off only the clock-domain
phase moves; with it on, also where the kernel's DRAM accesses fall in the refresh interval.
Usage: scripts/start_phase_sweep.py [--bin build/stacksim] [--shared ../shared] [--preset gtx1080]
       [--start 4.56] [--span 1.52] [--steps 40]
"""
import argparse
import collections
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cycles(binary, preset, trace, latency_us, refresh):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        subprocess.run([binary, "run", preset, "--trace", trace, "--quiet", "--out", out,
                        "--set", f"host.launch_latency_us={latency_us}",
                        "--set", f"memory.dram.refresh={'true' if refresh else 'false'}"], check=True)
        return json.load(open(os.path.join(out, "summary.json")))["kernels"][0]["cycles"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "stacksim"))
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--preset", default="gtx1080")
    ap.add_argument("--start", type=float, default=4.56, help="first start, microseconds")
    ap.add_argument("--span", type=float, default=1.52, help="microseconds swept (gtx1080: one tREFI)")
    ap.add_argument("--steps", type=int, default=40)
    args = ap.parse_args()
    trace = os.path.join(args.shared, "traces", "accelsim", "vectoradd-100-32", "kernelslist.g")
    print("| refresh | min | median | max | spread | runs within 1 cycle of the median |")
    print("|---|---|---|---|---|---|")
    for refresh in (False, True):
        c = sorted(cycles(args.bin, args.preset, trace, args.start + i * args.span / args.steps, refresh)
                   for i in range(args.steps))
        med = c[len(c) // 2]
        near = sum(1 for x in c if abs(x - med) <= 1)
        print(f"| {'on' if refresh else 'off'} | {c[0]} | {med} | {c[-1]} | {(c[-1] - c[0]) / med * 100:.1f} % | "
              f"{near} of {len(c)} |")
        print("<!-- " + " ".join(f"{k}x{v}" for k, v in sorted(collections.Counter(c).items())) + " -->")


if __name__ == "__main__":
    main()
