#!/usr/bin/env python3
"""Hand-written stack documents with Chromium's frames, in the fixture shape of
random_documents.py, for Tests/LayoutTests/DocumentChromiumTests.

Usage: case_documents.py CASES_JSON OUT_JSON [--separators]
CASES_JSON is a list of documents (stackdoc/1 subset, see random_documents.py), e.g.
scripts/oracle/height-for-width-cases.json; every field a Doc decoder needs is filled in.
--separators adds every row's separator frame (scripts/oracle/separator-defaults-cases.json).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from doc_chromium_frames import write_fixtures  # noqa: E402

ZERO = {"top": 0, "left": 0, "bottom": 0, "right": 0}


def complete(doc):
    """The decoder's required fields, with the format's defaults."""
    doc = dict(doc)
    doc.setdefault("axis", "vertical")
    doc.setdefault("viewport", {"width": 390, "height": 844})
    doc.setdefault("padding", ZERO)
    doc.setdefault("spacing", 0)
    doc.setdefault("justify", "start")
    doc.setdefault("align", "stretch")
    doc.setdefault("defaults", {"insets": {"top": 12, "left": 15, "bottom": 12, "right": 15}})

    def rows(rs):
        for r in rs:
            r.setdefault("content", {"width": 0, "height": 0})
            r.setdefault("alignSelf", "auto")
            if r.get("stack"):
                st = r["stack"]
                st.setdefault("axis", "vertical")
                st.setdefault("justify", "start")
                st.setdefault("align", "stretch")
                st.setdefault("spacing", 0)
                st.setdefault("rows", [])
                rows(st["rows"])
    rows(doc.setdefault("rows", []))
    return doc


def main():
    args = sys.argv[1:]
    separators = "--separators" in args
    if separators:
        args.remove("--separators")
    cases, out = args[0], args[1]
    docs = [complete(d) for d in json.load(open(cases))]
    write_fixtures(docs, out, separators=separators)


if __name__ == "__main__":
    main()
