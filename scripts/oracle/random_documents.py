#!/usr/bin/env python3
"""Random stack documents with Chromium's frames, for Tests/LayoutTests/DocumentChromiumTests.

Usage: random_documents.py COUNT SEED OUT_JSON [--features] [--height-for-width] [--row-defaults]
                           [--safe-area] [--sticky] [--separators] [--scrolls]
With --features the rows also use the row features of issue 14 (min/max sizes …), mixed with
the old ones; --height-for-width adds text and aspect rows to those; without them the
documents are exactly those of earlier versions (same stream); --row-defaults (issue 33) gives
stacks default insets for their rows (`rowInsets`) at random; --safe-area (issue 33) gives most
documents a safe area (its leading edge along the axis moves every row: the root's padding);
--sticky makes rows sticky at random, most with a sticky offset (frames in flow do not move);
--separators (issue 33) gives the document a random default separator and auto-hide, rows their
own separator overrides and stacks separator defaults for their rows (`rowSeparator`) at random,
and writes every row's separator frame too ("separators": {ROW: {x,y,width,height} | null}).
--scrolls (issue 33, SPEC §2.8) makes stacks scroll on their own at random (`scrollOffset`: 0, a
little, a lot or past the end; half of them a fixed length), each document shown at a random root
offset, and writes the fixtures of Tests/LayoutTests/DocumentScrollerChromiumTests instead
(scroll_documents.py measures them: shown frames, visibility clipped by the scrolling ancestors,
the nested offsets Chromium clamps, and for a row inside scrollers the scrolls of
scrollIntoView({block: 'nearest', inline: 'nearest'}) from offsets 0); it cannot be combined with
--safe-area or --separators, which that page does not measure.
Writes [{"doc": DOCUMENT, "contentSize": {...}, "frames": {ROW: {x,y,width,height} | null}}]
where DOCUMENT is in the shape of scripts/oracle/document-cases.json (stackdoc/1 subset) and the
frames come from headless Chromium via ../doc_chromium_frames.py (an independent re-implementation
of the SPEC §2.3 mapping).  Numbers are small integers so Chromium's 1/64 px LayoutUnit is exact
except where flex distribution divides.
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from doc_chromium_frames import write_fixtures  # noqa: E402

JUSTIFY = ["start", "end", "center", "spaceBetween", "spaceAround", "spaceEvenly"]
ALIGN = ["start", "center", "end", "stretch"]
SELF = ["auto", "auto", "auto", "start", "center", "end", "stretch"]


def edges(r, lo, hi):
    return {k: r.choice([0, r.randint(lo, hi)]) for k in ("top", "left", "bottom", "right")}


FEATURES = False
HEIGHT_FOR_WIDTH = False
ROW_DEFAULTS = False
SAFE_AREA = False
STICKY = False
SEPARATORS = False
SCROLLS = False


def separator_overrides(r):
    """Random separator overrides: each field on about one draw in three (may be none)."""
    out = {}
    if r.random() < 0.3:
        out["hidden"] = r.random() < 0.4
    if r.random() < 0.35:
        out["insets"] = edges(r, 0, 30)
    if r.random() < 0.35:
        out["thickness"] = r.choice([0.5, 1, 2, 3, 7])
    if r.random() < 0.2:
        out["color"] = r.choice(["#FF0000", "#E0E0E0"])
    return out


def separator_words(o):
    """Overrides in SEPSPEC words, the form of a stack's `rowSeparator`."""
    w = []
    if "hidden" in o:
        w.append("hidden" if o["hidden"] else "shown")
    if "insets" in o:
        w.append("insets " + " ".join(str(o["insets"][k]) for k in ("top", "left", "bottom", "right")))
    if "thickness" in o:
        w.append(f"thickness {o['thickness']}")
    if "color" in o:
        w.append("color " + o["color"])
    return " ".join(w)


def limits(r, out):
    """Issue 14 size limits, each on about one row in six."""
    for key, hi in (("min", 150), ("max", 150), ("minCross", 200), ("maxCross", 200)):
        if r.random() < 0.16:
            out[key] = r.randint(0, hi)


def height_for_width(r, out):
    """Issue 14 text and aspect rows: text on about one row in four, an aspect ratio on about
    one in six of the others; they apply to leaf rows only (dropped when the row becomes a
    stack) and exclude each other."""
    x = r.random()
    if x < 0.25:
        text = {"count": r.choice([0, r.randint(1, 12), r.randint(1, 60)])}
        if r.random() < 0.5:
            text["char"] = r.choice([1, 5, 8, 13])
        if r.random() < 0.5:
            text["line"] = r.choice([0, 10, 16, 20, 31])
        out["text"] = text
    elif x < 0.41:
        out["aspect"] = {"width": r.choice([1, 2, 3, 4, 16]), "height": r.choice([1, 2, 3, 9])}


def row(r, depth, counter):
    counter[0] += 1
    rid = f"r{counter[0]}"
    out = {"id": rid}
    if r.random() < 0.6:
        out["size"] = {"fixed": r.choice([0, r.randint(0, 120)])}
    out["content"] = {"width": r.randint(0, 150), "height": r.randint(0, 80)}
    if r.random() < 0.4:
        out["insets"] = edges(r, 0, 12)
    if r.random() < 0.3:
        out["margin"] = edges(r, -8 if r.random() < 0.2 else 0, 15)
    if r.random() < 0.35:
        out["grow"] = r.choice([1, 2, 0.5, 3])
    if r.random() < 0.35:
        out["shrink"] = r.choice([1, 2, 0.5, 3])
    out["alignSelf"] = r.choice(SELF)
    if r.random() < 0.08:
        out["hidden"] = True
    if FEATURES:
        limits(r, out)
    if HEIGHT_FOR_WIDTH:
        height_for_width(r, out)
    if SEPARATORS and r.random() < 0.3:
        out["separator"] = separator_overrides(r)
    if STICKY and r.random() < 0.25:
        out["sticky"] = True
        if r.random() < 0.7:
            out["stickyOffset"] = r.choice([4, 20, 44, 60.5])
    if depth < 3 and r.random() < 0.3:
        out["stack"] = {"axis": r.choice(["vertical", "horizontal"]), "justify": r.choice(JUSTIFY),
                        "align": r.choice(ALIGN), "spacing": r.choice([0, 0, r.randint(1, 12)]),
                        "rows": [row(r, depth + 1, counter) for _ in range(r.randint(0, 4))]}
        if HEIGHT_FOR_WIDTH:
            out.pop("text", None)
            out.pop("aspect", None)
        if ROW_DEFAULTS and r.random() < 0.4:
            # Issue 33: the stack's default insets for the rows inside it ("T L B R").
            e = r.choice([{"top": 0, "left": 0, "bottom": 0, "right": 0}, edges(r, 0, 10)])
            out["rowInsets"] = " ".join(str(e[k]) for k in ("top", "left", "bottom", "right"))
        if SEPARATORS and r.random() < 0.5:
            # Issue 33: the stack's separator overrides for the rows inside it (SEPSPEC words).
            words = separator_words(separator_overrides(r))
            if words:
                out["rowSeparator"] = words
        if SCROLLS and r.random() < 0.5:
            # Issue 33: the stack scrolls on its own (SPEC §2.8), at a random offset.
            out["scrollOffset"] = r.choice([0, r.randint(1, 60), r.randint(20, 400), 100000])
            if r.random() < 0.5:
                out["size"] = {"fixed": r.choice([20, 60, 100, 150])}
    return out


def sticky_on_the_way(rows, target, above=False):
    """Whether the row `target` or a row around it is sticky (None: not in `rows`)."""
    for x in rows:
        here = above or bool(x.get("sticky"))
        if x["id"] == target:
            return here
        inside = sticky_on_the_way((x.get("stack") or {}).get("rows", []), target, here)
        if inside is not None:
            return inside
    return None


def document(r, i):
    counter = [0]
    axis = r.choice(["vertical", "horizontal"])
    doc = {"name": f"rand{i}", "axis": axis,
           "viewport": {"width": r.choice([200, 320, 390]), "height": r.choice([150, 300, 500])},
           "padding": edges(r, 0, 16), "spacing": r.choice([0, 0, r.randint(1, 10)]),
           "justify": r.choice(JUSTIFY), "align": r.choice(ALIGN),
           "defaults": {"insets": r.choice([{"top": 12, "left": 15, "bottom": 12, "right": 15}, edges(r, 0, 10)])},
           "rows": [row(r, 1, counter) for _ in range(r.randint(1, 6))]}
    if SAFE_AREA and r.random() < 0.8:
        doc["safeArea"] = {k: r.choice([0, r.randint(1, 60)]) for k in ("top", "left", "bottom", "right")}
    if SEPARATORS:
        doc["defaults"]["separator"] = {"hidden": r.random() < 0.1, "insets": r.choice([{"top": 0, "left": 15, "bottom": 0, "right": 0}, edges(r, 0, 20)]),
                                        "thickness": r.choice([1, 0.5, 2]), "color": "#C6C6C8"}
        doc["defaults"]["autoHideLastSeparator"] = r.random() < 0.7
    return doc


def main():
    global FEATURES, HEIGHT_FOR_WIDTH, ROW_DEFAULTS, SAFE_AREA, STICKY, SEPARATORS, SCROLLS
    args = sys.argv[1:]
    if "--scrolls" in args:
        SCROLLS = True
        args.remove("--scrolls")
    if "--separators" in args:
        SEPARATORS = True
        args.remove("--separators")
    if "--safe-area" in args:
        SAFE_AREA = True
        args.remove("--safe-area")
    if "--sticky" in args:
        STICKY = True
        args.remove("--sticky")
    if "--row-defaults" in args:
        ROW_DEFAULTS = True
        args.remove("--row-defaults")
    if "--features" in args:
        FEATURES = True
        args.remove("--features")
    if "--height-for-width" in args:
        FEATURES = HEIGHT_FOR_WIDTH = True
        args.remove("--height-for-width")
    count, seed, out = int(args[0]), int(args[1]), args[2]
    r = random.Random(seed)
    docs = [document(r, i) for i in range(count)]
    if SCROLLS:
        if SAFE_AREA or SEPARATORS:
            raise SystemExit("--scrolls cannot be combined with --safe-area or --separators")
        import scroll_documents  # it imports this module: only here
        for d in docs:
            d["name"] = "scrolls-" + d["name"]
        cases = []
        for d in docs:
            # Rows sticky positioning moves are no targets: scroll-to aims at the frame in flow
            # (SPEC §2.6), scrollIntoView at the shown box.
            inside = [t for t in scroll_documents.targets(d) if not sticky_on_the_way(d["rows"], t)]
            cases.append((d, r.choice([0, r.randint(1, 300), r.randint(100, 800), 100000]),
                          r.choice(inside) if inside else None))
        scroll_documents.write(scroll_documents.measure(cases), out)
        return
    write_fixtures(docs, out, separators=SEPARATORS)


if __name__ == "__main__":
    main()
