#!/usr/bin/env python3
"""Regenerates docs/validation.md's Accel-Sim comparison (the vectoradd trace on `gtx1080`).

Reads Accel-Sim's own result from ../shared/traces/accelsim/vectoradd-100-32/accelsim_log.txt
(cycles, instructions, L1I and L2 accesses, DRAM requests and column commands), runs
`stacksim run PRESET --trace ...` for the matched preset (and, as rows without an Accel-Sim
result, the other Accel-Sim presets), then once per removed mechanism, and prints the two tables.
With --update FILE the measurements are saved in docs/data/accelsim-validation.json and the text
between <!-- accelsim-validation:begin --> and <!-- accelsim-validation:end --> is replaced;
--check renders from that file, runs nothing and needs no ../shared (scripts/doc_tables_check.py).
Usage: scripts/accelsim_validation.py [--bin build/stacksim] [--shared ../shared] [--update docs/validation.md | --check]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

from doc_section import trace_section_main

NAME = "accelsim-validation"
TRACE_SUBDIR = os.path.join("traces", "accelsim", "vectoradd-100-32")
TRACE_ARG = "../shared/traces/accelsim/vectoradd-100-32/kernelslist.g"

# One row each: the kernel's cycles with one mechanism removed on the gtx1080 run.
ABLATIONS = [
    ("", "none"),
    ("gpu.sm.perfect_inst_const_cache=true", "the two serial I-cache line fills through L2 and DRAM"),
    ("memory.l2.input_latency=0", "the ROP stage on the critical path: both I-cache fills, the loads and the stores' "
                                  "acknowledgement"),
    ("memory.dram.latency=0", "the DRAM pipeline on the same path"),
    ("memory.l2.write_miss=allocate", "the stores' write-through to DRAM (and its acknowledgement)"),
    ("gpu.sm.alu.latency=8", "the dependent ALU chain of warps 0–3"),
]


def accelsim(log_path):
    text = open(log_path).read()

    def one(key):
        return float(re.search(r"^\s*" + re.escape(key) + r"\s*=\s*([0-9.]+)", text, re.M).group(1))

    def opt(key):
        return int(re.search(r"^-" + re.escape(key) + r"\s+(\d+)", text, re.M).group(1))

    dram = re.findall(r"^n_cmd=.*? n_req=(\d+) n_rd=(\d+) n_rd_L2_A=(\d+) n_write=(\d+) n_wr_bk=(\d+)", text, re.M)
    atom = opt("gpgpu_dram_buswidth") * opt("gpgpu_dram_burst_length")
    return {
        "cycles": one("gpu_sim_cycle"),
        "thread_insts": one("gpu_sim_insn"),
        "warp_insts": one("gpgpu_n_tot_w_icount"),
        "l1i_accesses": one("L1I_total_cache_accesses"),
        "l1i_misses": one("L1I_total_cache_misses"),
        "l2_accesses": one("L2_total_cache_accesses"),
        "l2_misses": one("L2_total_cache_misses"),
        "dram_requests": sum(int(r[0]) for r in dram),
        "dram_bytes": sum(int(r[1]) + int(r[2]) + int(r[3]) + int(r[4]) for r in dram) * atom,
        "atom": atom,
        "mflatency": one("averagemflatency"),
    }


def stacksim(binary, trace_dir, preset, sets=()):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        cmd = [binary, "run", preset, "--trace", os.path.join(trace_dir, "kernelslist.g"), "--quiet", "--out", out]
        for s in sets:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        stats = json.load(open(os.path.join(out, "stats.json")))
        summary = json.load(open(os.path.join(out, "summary.json")))

    def total(pattern):
        rx = re.compile(pattern)
        return sum(v["value"] for k, v in stats.items() if rx.fullmatch(k))

    k = summary["kernels"][0]
    return {
        "cycles": k["cycles"],
        "warp_insts": k["warp_instructions"],
        "thread_insts": total(r"gpu\.sm\d+\.thread_instructions"),
        "l1i_fetches": total(r"gpu\.sm\d+\.icache\.hits") + total(r"gpu\.sm\d+\.icache\.misses"),
        "l1i_misses": total(r"gpu\.sm\d+\.icache\.misses"),
        "l2_reads": total(r"gpu\.mem\.l2_\d+\.reads"),
        "l2_writes": total(r"gpu\.mem\.l2_\d+\.writes"),
        "l2_inst": total(r"gpu\.mem\.l2_\d+\.instruction_reads"),
        "l2_hits": total(r"gpu\.mem\.l2_\d+\.read_hits"),
        "dram_reads": total(r"gpu\.mem\.dram_\d+\.reads"),
        "dram_writes": total(r"gpu\.mem\.dram_\d+\.writes"),
        "dram_bytes": total(r"gpu\.mem\.dram_\d+\.bytes"),
        "wmf": total(r"gpu\.mem\.l2_\d+\.write_miss_fetches"),
    }


def pct(a, b):
    return f"{(a - b) / b * 100:+.1f} %".replace("-", "−")


def measure(binary, shared):
    trace_dir = os.path.join(shared, TRACE_SUBDIR)
    s = stacksim(binary, trace_dir, "gtx1080")
    return {"accelsim": accelsim(os.path.join(trace_dir, "accelsim_log.txt")), "gtx1080": s,
            "presets": {p: stacksim(binary, trace_dir, p) for p in ["qv100", "rtx3070"]},
            "ablations": [s["cycles"] if not setting else stacksim(binary, trace_dir, "gtx1080", [setting])["cycles"]
                          for setting, _ in ABLATIONS]}


def render(data):
    a, s = data["accelsim"], data["gtx1080"]
    out = ["<!-- doc-test: needs ../shared/traces/accelsim/vectoradd-100-32 -->",
           f"<!-- doc-test: expect ({s['cycles']} in kernels), {s['warp_insts']} warp instructions -->",
           "```sh",
           f"build/stacksim run gtx1080 --trace {TRACE_ARG} --out out/vectoradd",
           "```",
           "",
           "Written by `scripts/accelsim_validation.py --update docs/validation.md` (Accel-Sim's numbers are read",
           "from `accelsim_log.txt`).",
           "",
           "| trace | Accel-Sim config | stacksim config | quantity | Accel-Sim | stacksim | difference |",
           "|---|---|---|---|---|---|---|"]
    ipc_a, ipc_s = a["thread_insts"] / a["cycles"], s["thread_insts"] / s["cycles"]
    l2_s, l2_a = s["l2_reads"] + s["l2_writes"], a["l2_accesses"]
    out += [
        f"| vectoradd-100-32 | `reference-gtx1080-config` (beside the trace) | `gtx1080` | cycles (kernel; no launch "
        f"latency in either) | {a['cycles']:.0f} | {s['cycles']} | {pct(s['cycles'], a['cycles'])} |",
        f"| | | | warp / thread instructions | {a['warp_insts']:.0f} / {a['thread_insts']:.0f} | "
        f"{s['warp_insts']} / {s['thread_insts']:.0f} | "
        f"{'exact' if (a['warp_insts'], a['thread_insts']) == (s['warp_insts'], s['thread_insts']) else 'differ'} |",
        f"| | | | IPC (thread instructions / cycle) | {ipc_a:.2f} | {ipc_s:.2f} | {pct(ipc_s, ipc_a)} |",
        f"| | | | L1I misses | {a['l1i_misses']:.0f} (of {a['l1i_accesses']:.0f} accesses, 2 instructions each) | "
        f"{s['l1i_misses']:.0f} (of {s['l1i_fetches']:.0f} fetches, 1 instruction each) | "
        f"{s['l1i_misses'] - a['l1i_misses']:+.0f} |",
        f"| | | | L2 accesses (stacksim: reads incl. instruction / writes) | {a['l2_accesses']:.0f}, "
        f"{a['l2_misses']:.0f} misses | {l2_s:.0f} ({s['l2_reads']:.0f} incl. {s['l2_inst']:.0f} / "
        f"{s['l2_writes']:.0f}), {s['l2_reads'] - s['l2_hits']:.0f} read misses | "
        f"{'exact' if l2_s == a['l2_accesses'] else f'{l2_s - l2_a:+.0f}'} |",
        f"| | | | DRAM requests (`n_req`) | {a['dram_requests']} | {s['dram_reads'] + s['dram_writes']:.0f} "
        f"({s['dram_reads']:.0f} reads incl. {s['wmf']:.0f} write-allocate fetches, {s['dram_writes']:.0f} writes) | "
        f"{'exact' if s['dram_reads'] + s['dram_writes'] == a['dram_requests'] else 'differ'} |",
        f"| | | | DRAM bytes (Accel-Sim: column commands × {a['atom']} B) | {a['dram_bytes']} | {s['dram_bytes']:.0f} | "
        f"{pct(s['dram_bytes'], a['dram_bytes'])} |",
    ]
    for preset, r in data["presets"].items():
        out.append(f"| | (no Accel-Sim run of this trace) | `{preset}` | cycles / L2 instruction reads | — | "
                   f"{r['cycles']} / {r['l2_inst']:.0f} | — |")
    out += ["", "Where the cycles go (each row: the `gtx1080` kernel's cycles with one mechanism removed, `--set` on "
                "the same command):", "", "| change | cycles | what it shows |", "|---|---|---|"]
    for (setting, why), c in zip(ABLATIONS, data["ablations"]):
        out.append(f"| {'`' + setting + '`' if setting else 'none'} | {c} | {why if setting else ''} |")
    return "\n".join(out)


def main():
    trace_section_main(NAME, measure, render, __doc__.splitlines()[0])


if __name__ == "__main__":
    main()
