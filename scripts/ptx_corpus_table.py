#!/usr/bin/env python3
"""Writes the corpus acceptance table of docs/ptx-subset.md from `stacksim ptx check --json`.

usage: scripts/ptx_corpus_table.py [STACKSIM] [--write]
Runs STACKSIM (default build/stacksim) over tests/data/ptx_corpus/*.ptx and prints the
Markdown table; with --write replaces the block between the corpus-table markers in
docs/ptx-subset.md.
"""
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- corpus-table begin (scripts/ptx_corpus_table.py) -->", "<!-- corpus-table end -->"


def table(binary):
    files = sorted(glob.glob(os.path.join(ROOT, "tests/data/ptx_corpus/*.ptx")))
    out = subprocess.run([binary, "ptx", "check", "--json"] + files, capture_output=True, text=True)
    if out.returncode not in (0, 2):
        sys.exit(out.stderr)
    report = json.loads(out.stdout)
    s = report["summary"]
    lines = [
        "| measure | accepted |",
        "|---|---|",
        f"| modules (files) | {s['files_supported']} / {s['files']} "
        f"({100.0 * s['files_supported'] / s['files']:.0f} %) |",
        f"| kernels (`.entry`) | {s['kernels_accepted']} / {s['kernels']} "
        f"({100.0 * s['kernels_accepted'] / s['kernels']:.0f} %) |",
        "",
        "| construct still unsupported | modules | CUDA source in the corpus |",
        "|---|---|---|",
    ]
    users = {}
    for f in report["files"]:
        for p in f["problems"]:
            users.setdefault(p["construct"], set()).add(os.path.basename(f["file"]))
    for construct, n in sorted(s["files_by_construct"].items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"| {construct} | {n} | {', '.join(sorted(users.get(construct, [])))} |")
    return "\n".join(lines) + "\n"


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    text = table(args[0] if args else os.path.join(ROOT, "build/stacksim"))
    if "--write" not in sys.argv:
        print(text, end="")
        return
    path = os.path.join(ROOT, "docs/ptx-subset.md")
    doc = open(path).read()
    a, b = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    open(path, "w").write(doc[:a] + "\n" + text + doc[b:])


if __name__ == "__main__":
    main()
