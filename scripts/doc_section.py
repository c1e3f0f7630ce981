"""Generated sections of the Markdown docs: the text between <!-- NAME:begin --> and
<!-- NAME:end -->, and the measurements each one is rendered from.

A validation script measures (slow), saves its measurements with save_data(NAME, obj) to
docs/data/NAME.json, renders its table from that object alone, and puts it in the doc with
replace_section(). Run with --check, the same script renders from the saved file without running
anything and check_section() reports whether the doc still holds that rendering; the test
"docs: every generated table matches its recorded measurements" runs every such script with
--check (scripts/doc_tables_check.py lists them). Files are written atomically (a temporary file
renamed over them)."""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA_DIR = os.path.join(ROOT, "docs", "data")


def _markers(name):
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def _write_atomically(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def section_bounds(doc, name, path):
    """(start, end) of the NAME section's body in the text `doc` of `path`; exits naming the file
    if a marker is missing."""
    b, e = _markers(name)
    if doc.count(b) != 1 or doc.count(e) != 1 or doc.index(b) > doc.index(e):
        sys.exit(f"{path}: markers {b} / {e} not found exactly once, in order")
    return doc.index(b) + len(b), doc.index(e)


def _section(path, name):
    """(document, start, end) of the NAME section's body; exits naming the file if a marker is missing."""
    with open(path) as f:
        doc = f.read()
    return (doc, *section_bounds(doc, name, path))


def replace_section(path, name, text):
    """Puts `text` between the NAME markers of `path`."""
    doc, start, end = _section(path, name)
    _write_atomically(path, doc[:start] + "\n" + text.strip("\n") + "\n" + doc[end:])


def check_section(path, name, text):
    """None when the NAME section of `path` holds exactly `text` (as replace_section writes it),
    else a one-line message naming the file, the section and the first line that differs."""
    doc, start, end = _section(path, name)
    have = doc[start:end].strip("\n").splitlines()
    want = text.strip("\n").splitlines()
    if have == want:
        return None
    line = doc[:start].count("\n") + 2
    for i, (h, w) in enumerate(zip(have, want)):
        if h != w:
            return f"{os.path.relpath(path, ROOT)}:{line + i}: section {name} is stale: has {h!r}, its measurements give {w!r}"
    return f"{os.path.relpath(path, ROOT)}:{line}: section {name} is stale: {len(have)} lines, its measurements give {len(want)}"


def data_path(name):
    return os.path.join(DATA_DIR, name + ".json")


def save_data(name, obj):
    """Saves the measurements of section NAME to docs/data/NAME.json (sorted keys, stable text)."""
    os.makedirs(DATA_DIR, exist_ok=True)
    _write_atomically(data_path(name), json.dumps(obj, indent=1, sort_keys=True) + "\n")


def load_data(name):
    """The measurements saved for section NAME; exits naming the file if there are none."""
    path = data_path(name)
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{path}: cannot read the recorded measurements: {e}")


def update_or_check(path, name, text, check):
    """Writes the section (check false) or exits 1 with check_section's message when it is stale."""
    if not check:
        replace_section(path, name, text)
        return
    msg = check_section(path, name, text)
    if msg:
        sys.exit(msg)
    print(f"{os.path.relpath(path, ROOT)}: section {name} matches its measurements")


def section_main(name, render, description, add_options, measure):
    """The command line of a script whose section NAME of docs/validation.md it measures:
    add_options(parser) adds the script's own options, measure(args) -> data, render(data) -> the
    section's text. --update FILE saves docs/data/NAME.json and replaces the section; --check
    renders from the saved file and runs nothing; neither prints the section."""
    import argparse
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "stacksim"))
    add_options(ap)
    ap.add_argument("--update", help=f"Markdown file whose {name} section is replaced")
    ap.add_argument("--check", action="store_true", help="compare docs/validation.md with the recorded measurements")
    args = ap.parse_args()
    if args.check:
        update_or_check(os.path.join(ROOT, "docs", "validation.md"), name, render(load_data(name)), True)
        return
    data = measure(args)
    if args.update:
        save_data(name, data)
        update_or_check(args.update, name, render(data), False)
    else:
        print(render(data))


def trace_section_main(name, measure, render, description):
    """section_main for a script measured on the shared traces: [--shared S]; measure(binary, shared)."""
    section_main(name, render, description,
                 lambda ap: ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"),
                                            help="the shared folder (traces/)"),
                 lambda args: measure(args.bin, args.shared))
