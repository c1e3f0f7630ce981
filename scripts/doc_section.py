"""Replaces the generated section of a Markdown file: the text between
<!-- NAME:begin --> and <!-- NAME:end -->, written atomically (a temporary file renamed over it).
Used by the validation scripts whose tables live in docs/ (accelsim_validation.py,
accelsim_options.py)."""
import os
import sys


def replace_section(path, name, text):
    """Puts `text` between the NAME markers of `path`; exits naming the file if they are missing."""
    with open(path) as f:
        doc = f.read()
    b, e = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    if b not in doc or e not in doc:
        sys.exit(f"{path}: markers {b} / {e} not found")
    doc = doc[:doc.index(b) + len(b)] + "\n" + text + "\n" + doc[doc.index(e):]
    with open(path + ".tmp", "w") as f:
        f.write(doc)
    os.replace(path + ".tmp", path)
