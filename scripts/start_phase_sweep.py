#!/usr/bin/env python3
"""How a kernel's cycles depend on when it starts (issue 28, item 4).

For each case (a preset and the vectoradd trace or a library workload) the kernel's start is
moved by host.launch_latency_us in N equal steps over SPAN microseconds, with the crossbar's
rotating priority moving with the absolute cycle number and once per cycle the crossbar works
(memory.crossbar.priority = cycle / worked), each with DRAM refresh off and on; the table gives
the spread of the first kernel's cycles. A last check starts the kernel at four times that
differ by whole multiples of every clock's period (the preset's clocks' common period): with
priority "worked" and refresh off the cycles must be equal, which shows that what is left of the
spread is the phase between the clock domains.
With --update FILE the measurements are saved in docs/data/start-phase.json and the text between
<!-- start-phase:begin --> and <!-- start-phase:end --> is replaced; --check renders from that
file, runs nothing and needs no ../shared (scripts/doc_tables_check.py).
Usage: scripts/start_phase_sweep.py [--bin build/stacksim] [--shared ../shared] [--update docs/validation.md | --check]
"""
import collections
import json
import math
import os
import subprocess
import tempfile

from doc_section import trace_section_main

NAME = "start-phase"
TRACE = os.path.join("traces", "accelsim", "vectoradd-100-32", "kernelslist.g")
# (preset, workload or None for the vectoradd trace, first start us, span us, steps, clocks MHz).
# gtx1080's span is one tREFI of its GDDR5X; the others sweep 3.9 us (a GDDR6/HBM2 tREFI).
CASES = [
    ("gtx1080", None, 4.56, 1.52, 40, (1607.0, 2500.0)),
    ("rtx3070", "vecadd:65536", 2.5, 3.9, 40, (1132.0, 3500.0)),
    ("qv100", "matmul:128", 2.5, 3.9, 20, (1132.0, 850.0)),
]


def cycles(binary, preset, source, latency_us, priority, refresh):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        subprocess.run([binary, "run", preset, *source, "--quiet", "--out", out,
                        "--set", "host.timed_copies=false",
                        "--set", f"host.launch_latency_us={latency_us}",
                        "--set", f'memory.crossbar.priority="{priority}"',
                        "--set", f"memory.dram.refresh={'true' if refresh else 'false'}"], check=True)
        return json.load(open(os.path.join(out, "summary.json")))["kernels"][0]["cycles"]


def common_period_us(clocks_mhz):
    """The least common multiple of the clocks' periods (each a whole number of picoseconds)."""
    return math.lcm(*(round(1e6 / mhz) for mhz in clocks_mhz)) / 1e6


def measure(binary, shared):
    rows = []
    for preset, workload, start, span, steps, clocks in CASES:
        source = ["--workload", workload] if workload else ["--trace", os.path.join(shared, TRACE)]
        case = {"preset": preset, "kernel": workload or "vectoradd trace", "span_us": span, "runs": {}}
        for priority in ("cycle", "worked"):
            for refresh in (False, True):
                case["runs"][f"{priority}/{'on' if refresh else 'off'}"] = sorted(
                    cycles(binary, preset, source, start + i * span / steps, priority, refresh) for i in range(steps))
        period = common_period_us(clocks)
        case["common_period_us"] = period
        case["same_phase"] = [cycles(binary, preset, source, start + k * period, "worked", False) for k in range(4)]
        rows.append(case)
    return {"cases": rows}


def render(data):
    lines = ["Written by `scripts/start_phase_sweep.py --update docs/validation.md`: the first kernel's cycles "
             "with its start moved in equal steps over the span, by crossbar priority and DRAM refresh; the "
             "last column starts it at 4 times a whole common clock period apart (priority `worked`, refresh off).",
             "",
             "| preset | kernel | span µs | crossbar priority | refresh | min | median | max | spread | "
             "within 1 cycle of the median | same clock phase |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for case in data["cases"]:
        same = case["same_phase"]
        for key, c in case["runs"].items():
            priority, refresh = key.split("/")
            med = c[len(c) // 2]
            near = sum(1 for x in c if abs(x - med) <= 1)
            phase = (f"{same[0]} ×4" if len(set(same)) == 1 else " / ".join(map(str, same))) \
                if key == "worked/off" else ""
            lines.append(f"| `{case['preset']}` | {case['kernel']} | {case['span_us']} | {priority} | {refresh} | "
                         f"{c[0]} | {med} | {c[-1]} | {(c[-1] - c[0]) / med * 100:.1f} % | {near} of {len(c)} | "
                         f"{phase} |")
    return "\n".join(lines)


def main():
    trace_section_main(NAME, measure, render, __doc__.splitlines()[0])


if __name__ == "__main__":
    main()
