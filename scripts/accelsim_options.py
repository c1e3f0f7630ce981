#!/usr/bin/env python3
"""Regenerates docs/validation.md's option-by-option tables of the Accel-Sim presets.

Each preset that claims to match an Accel-Sim configuration has configs/accelsim/PRESET.tsv:
every Accel-Sim option that affects timing, its value there, the stacksim key and value that
stand for it, or "—" (not modelled) with the expected effect in the note. This script renders
them as Markdown tables; `tests/system/test_accelsim_fixes.cpp` ("presets: ...") checks each row's
value against the preset's effective configuration and that each rendered row is in the doc.
With --update FILE the text between <!-- accelsim-options:begin --> and
<!-- accelsim-options:end --> is replaced.
Usage: scripts/accelsim_options.py [--update docs/validation.md | --check]
"""
import argparse
import csv
import os
import sys

from doc_section import ROOT, update_or_check
PRESETS = [
    ("gtx1080", "Accel-Sim's GTX 1080 reference config (`../shared/traces/accelsim/vectoradd-100-32/"
                "reference-gtx1080-config/`)"),
    ("qv100", "Accel-Sim's tested `SM7_QV100` `gpgpusim.config` (ALU latencies from its trace config, as the "
              "preset's comments give them)"),
    ("rtx3070", "Accel-Sim's tested `SM86_RTX3070` `gpgpusim.config`"),
]


def row(r):
    """One table row; the test renders rows the same way."""
    key = r["stacksim_key"] if r["stacksim_key"] == "—" else f"`{r['stacksim_key']}`"
    return f"| `{r['accelsim_option']}` | {r['accelsim_value']} | {key} | {r['stacksim_value']} | {r['note']} |"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", help="Markdown file whose accelsim-options section is replaced")
    ap.add_argument("--check", action="store_true", help="compare docs/validation.md with the .tsv files")
    args = ap.parse_args()
    out = ["Written by `scripts/accelsim_options.py --update docs/validation.md` from `configs/accelsim/*.tsv`; "
           "the test `presets: each Accel-Sim option table matches its preset` checks every stacksim value "
           "against the preset."]
    for preset, source in PRESETS:
        with open(os.path.join(ROOT, "configs", "accelsim", preset + ".tsv")) as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
        out += ["", f"#### `{preset}` against {source}", "",
                "| Accel-Sim option | Accel-Sim value | stacksim key | stacksim value | note |", "|---|---|---|---|---|"]
        out += [row(r) for r in rows]
    text = "\n".join(out)
    if args.update or args.check:
        update_or_check(args.update or os.path.join(ROOT, "docs", "validation.md"), "accelsim-options", text,
                        args.check)
    else:
        print(text)


if __name__ == "__main__":
    main()
