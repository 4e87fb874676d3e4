#!/usr/bin/env python3
"""Sticky rows (SPEC §2.7) as headless Chromium shows them after scrolling, for
Tests/LayoutTests/DocumentStickyChromiumTests.

Usage: sticky_documents.py COUNT SEED OUT_JSON [--chromium chromium] [--offsets] [--safe-area]

Writes [{"doc": DOCUMENT, "offset": N, "contentSize": {...}, "shown": {ROW: {x,y,width,height} | null}}].
DOCUMENT is a random document of random_documents.py (both axes, nesting, every flex feature) in
which rows are sticky at random, plus section documents (stacks whose first row is a sticky
header) and a top/left obscured inset at random ("viewportInsets"). Each document is compiled
onto CSS by ../doc_chromium_frames.py (the independent SPEC §2.3 mapping); a sticky row gets
`position: sticky` with `top: T` in a vertical parent and `left: L` in a horizontal one (T, L:
the viewport's top and left insets; plus the row's `stickyOffset`, `sticky N`). With `--offsets`
(issue 33) sticky rows get a random sticky offset at random, and every third document is a
screen of sections under a sticky navigation bar (headers `sticky H`, H the bar's height). The root sits (max-content wide when horizontal) in a scroller of the viewport's size
(`overflow: auto`, no scrollbars), which is scrolled to the offset (scrollTop for a vertical
document, scrollLeft for a horizontal one) before every row's border box is measured with
getBoundingClientRect(), relative to the root's box (the content coordinates). The offset is
clamped to the root's box first (SPEC §2.6: rows overflowing the root do not extend the scroll
range, Chromium's would), plus the obscured trailing edge along the document's axis (the
scroller's padding-bottom, or padding-right, which Chromium counts in its scroll range); "offset"
is the scroll position Chromium then reports.

With `--safe-area` (issue 33, SPEC §2.5) most documents get a safe area ("safeArea": a status
bar and a home indicator, or a landscape notch) and some obscured insets on every edge besides:
the root's leading padding along its axis grows by the safe area's leading edge
(`padding-top: calc(P + env(safe-area-inset-top))`), sticky rows stick below the larger of the
top inset and the safe area's top, and the scroll range ends at the larger of the trailing ones.
"""
import html
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from doc_chromium_frames import fixture, oracle  # noqa: E402
from random_documents import document  # noqa: E402
import scroll_page  # noqa: E402
from scroll_page import ZERO, mark, obscured  # noqa: E402

JS = r"""
const out = [];
for (const sc of document.querySelectorAll('[data-scroller]')) {
  const root = sc.firstElementChild;
  // SPEC §2.6: the offset is clamped to the root's box (rows overflowing it do not scroll).
  const r0 = root.getBoundingClientRect(), s0 = sc.getBoundingClientRect();
  const trailing = +sc.dataset.trailing;
  const max = Math.max(0, sc.dataset.axis === 'vertical' ? r0.height + trailing - s0.height : r0.width + trailing - s0.width);
  const off = Math.min(+sc.dataset.offset, max);
  if (sc.dataset.axis === 'vertical') sc.scrollTop = off; else sc.scrollLeft = off;
  const rr = root.getBoundingClientRect();
  const rows = [];
  for (const e of root.querySelectorAll('[data-row]')) {
    const hidden = e.closest('[data-hidden]') !== null;
    const r = e.getBoundingClientRect();
    rows.push([e.dataset.row, hidden ? null : {x: r.x - rr.x, y: r.y - rr.y, width: r.width, height: r.height}]);
  }
  out.push({offset: sc.dataset.axis === 'vertical' ? sc.scrollTop : sc.scrollLeft,
            content: {width: rr.width, height: rr.height}, rows: rows});
}
document.getElementById('oracle-out').textContent = btoa(unescape(encodeURIComponent(JSON.stringify(out))));
"""


def page(cases):
    parts = []
    for doc, offset in cases:
        fx, _ = fixture(doc)
        axis = doc.get("axis", "vertical")
        vp = doc["viewport"]
        ob = obscured(doc)
        inset = {"vertical": ob["top"], "horizontal": ob["left"]}
        trailing = ob["bottom"] if axis == "vertical" else ob["right"]
        pad = f"padding-bottom: {trailing}px" if axis == "vertical" else f"padding-right: {trailing}px"
        root = fx["root"]
        inner = mark(doc.get("rows", []), root["children"], axis, inset)
        # As the other oracles: a horizontal root is as wide as its content (max-content), not
        # as the scroller.
        extra = "; width: max-content" if axis == "horizontal" else ""
        parts.append(f'<div data-scroller data-axis="{axis}" data-offset="{offset}" data-trailing="{trailing}" '
                     f'style="position: absolute; left: 0; top: 0; display: block; overflow: auto; '
                     f'scrollbar-width: none; width: {vp["width"]}px; height: {vp["height"]}px; {pad}">'
                     f'<div style="{html.escape(oracle.css_of(root["style"]) + extra)}">{inner}</div></div>')
    return scroll_page.page(parts, JS)


def sections(r, i):
    """A list of sections: stacks whose first row is a sticky header (UITableView-style)."""
    axis = r.choice(["vertical", "vertical", "horizontal"])
    doc = {"name": f"sections{i}", "axis": axis,
           "viewport": {"width": r.choice([200, 320]), "height": r.choice([150, 300])},
           "padding": {"top": r.choice([0, 8]), "left": 0, "bottom": r.choice([0, 8]), "right": 0},
           "spacing": r.choice([0, 6]), "justify": "start", "align": "stretch",
           "defaults": {"insets": {"top": 0, "left": 0, "bottom": 0, "right": 0}}, "rows": []}
    for s in range(r.randint(2, 5)):
        head = {"id": f"h{s}", "size": {"fixed": r.choice([20, 30])}, "content": {"width": 40, "height": 20},
                "alignSelf": "auto", "sticky": True}
        if r.random() < 0.3:
            head["margin"] = {"top": 0, "left": 0, "bottom": r.choice([4, 10]), "right": r.choice([0, 5])}
        rows = [head] + [{"id": f"s{s}r{k}", "size": {"fixed": r.randint(20, 90)}, "content": {"width": 50, "height": 30},
                          "alignSelf": "auto"} for k in range(r.randint(0, 5))]
        doc["rows"].append({"id": f"s{s}", "content": {"width": 0, "height": 0}, "alignSelf": "auto",
                            "insets": {"top": r.choice([0, 5]), "left": 0, "bottom": r.choice([0, 5]), "right": 0},
                            "stack": {"axis": axis, "justify": "start", "align": "stretch", "spacing": r.choice([0, 2]),
                                      "rows": rows}})
    return doc


def make_sticky(rows, r, p, offsets=False):
    for x in rows:
        if r.random() < p:
            x["sticky"] = True
            if offsets and r.random() < 0.6:
                x["stickyOffset"] = r.choice([4, 20, 44, 60.5])
        make_sticky((x.get("stack") or {}).get("rows", []), r, p, offsets)


def navigation(r, i):
    """Sections under a sticky navigation bar: a root bar `sticky`, then section stacks whose
    headers are `sticky H` (H: the bar's height), so that they stick below the bar."""
    doc = sections(r, i)
    doc["name"] = f"navigation{i}"
    bar = r.choice([44, 50])
    for s in doc["rows"]:
        s["stack"]["rows"][0]["stickyOffset"] = bar
    doc["rows"].insert(0, {"id": "nav", "size": {"fixed": bar}, "content": {"width": 40, "height": 20},
                           "alignSelf": "auto", "sticky": True})
    return doc


def safe_area(r, doc):
    """Issue 33: a phone's safe area in the document's orientation (a status bar and a home
    indicator; in a horizontal document a notch on the left), sometimes with insets besides."""
    if doc.get("axis", "vertical") == "vertical":
        doc["safeArea"] = {"top": r.choice([20, 47, 59]), "left": r.choice([0, 0, 12]),
                           "bottom": r.choice([0, 21, 34]), "right": r.choice([0, 0, 8])}
    else:
        doc["safeArea"] = {"top": r.choice([0, 0, 10]), "left": r.choice([30, 47]),
                           "bottom": r.choice([0, 21]), "right": r.choice([0, 34])}
    if r.random() < 0.4:
        doc["viewportInsets"] = {k: r.choice([0, 0, 30, 60]) for k in ("top", "left", "bottom", "right")}


def cases(count, seed, offsets=False, safe=False):
    r = random.Random(seed)
    out = []
    for i in range(count):
        if offsets and i % 3 == 0:
            doc = navigation(r, i)
        else:
            doc = sections(r, i) if i % 3 == 0 else document(r, i)
        if i % 3:
            doc["name"] = f"sticky{i}"
            make_sticky(doc["rows"], r, 0.3, offsets)
        if safe and r.random() < 0.85:
            doc["name"] = "safe-" + doc["name"]
            safe_area(r, doc)
        elif r.random() < 0.3:
            doc["viewportInsets"] = {"top": r.choice([0, 10, 24]), "left": r.choice([0, 10]), "bottom": 0, "right": 0}
        for off in (0, r.randint(1, 200), r.randint(100, 600), 100000):
            out.append((doc, off))
    return out


def main():
    args = sys.argv[1:]
    chromium = "chromium"
    if "--chromium" in args:
        k = args.index("--chromium")
        chromium = args[k + 1]
        del args[k:k + 2]
    offsets = "--offsets" in args
    if offsets:
        args.remove("--offsets")
    safe = "--safe-area" in args
    if safe:
        args.remove("--safe-area")
    count, seed, path = int(args[0]), int(args[1]), args[2]
    cs = cases(count, seed, offsets, safe)
    measured = scroll_page.run(chromium, page(cs))
    result = []
    for (doc, _), m in zip(cs, measured):
        result.append({"doc": doc, "offset": m["offset"], "contentSize": m["content"],
                       "shown": {rid: f for rid, f in m["rows"]}})
    with open(path, "w") as f:
        json.dump(result, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(result)} cases, {sum(len(x['shown']) for x in result)} rows -> {path}")


if __name__ == "__main__":
    main()
