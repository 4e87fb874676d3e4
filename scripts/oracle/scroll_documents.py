#!/usr/bin/env python3
"""Stacks that scroll on their own (SPEC §2.8) as headless Chromium shows them, for
Tests/LayoutTests/DocumentScrollerChromiumTests.

Usage: scroll_documents.py COUNT SEED OUT_JSON [--chromium chromium]

Writes [{"doc": DOCUMENT, "offset": N, "contentSize": {...}, "scrolls": {STACK: offset},
"shown": {ROW: {x,y,width,height} | null}, "visible": {ROW: [visibility, percent]},
"ranges": {STACK: [the rule's range, Chromium's own]}, "inexact": [ROW]?, "target": ROW?,
"nearest": {"root": N, STACK: N}?, "nearestWholePixels": true?}].

DOCUMENT is in the stackdoc/1 shape of random_documents.py; a stack row with "scrollOffset"
scrolls on its own (`scrolls`): CSS `overflow: auto` along its axis and `hidden` across (no
scrollbars), scrolled to that offset (element.scrollLeft for a horizontal stack, scrollTop for a
vertical one) clamped to [0, its content's extent − its length], the extent being the farthest
end of its shown rows' margin boxes in flow (Chromium's boxes, a sticky row's shift taken out)
plus its trailing padding; the rows inside it are `overflow: clip` (scroll_page.mark), so that
what overflows them is no scrollable overflow of the stack (SPEC §2.8). Sticky rows
whose nearest scrolling ancestor is such a stack get `top`/`left` = their sticky offset alone
(they stick to that stack's scrollport, which Chromium deflates by the stack's padding: a
sticky card of a strip with a left inset of 16 rests 16 from its left edge), others the
viewport's inset plus it, as sticky_documents.py. The documents: carousels (horizontal card strips inside a vertical feed),
vertical scrollers inside a horizontal strip, sticky cards and headers inside scrollers, two
scrollers nested, offsets past the end (content that is shorter than the offset: clamped), and
random documents of random_documents.py whose stacks scroll at random. Each document is shown at
four offsets. After the nested scrolls and the root's (clamped to the root's box, SPEC §2.6),
every row's border box is measured with getBoundingClientRect() relative to the root's box (the
content coordinates): the shown frames; "visible" is the row's box against the viewport's
unobscured rectangle intersected with every scrolling ancestor's box (entire when inside it,
edges inclusive; partial with 100 × the area inside / its area; offscreen). "scrolls" are the
offsets asked for, clamped. Chromium shows a scroll position at a whole pixel (scrollLeft = 13.5
shows 14): the boxes are measured back at the offsets asked for (the rows inside a scroller
move with it), and the rows sticky positioning moves, which follow the shown offset, are listed
in "inexact" (not compared) when an offset was snapped. For a case with a "target" (a shown row
inside scrollers), the page then calls target.scrollIntoView({block: 'nearest', inline:
'nearest'}) from the offsets 0 and records every scroller's offset and the root's ("nearest":
Chromium's smallest scrolls that show it), each clamped to the range above (Chromium's ranges
count what overflows the rows); with fractional boxes on the way these whole-pixel scrolls can
be a pixel off the exact ones ("nearestWholePixels"), and a target of zero width or height is
recorded without them (Chromium scrolls it into view as if it were a pixel wide).
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
import random_documents  # noqa: E402
import scroll_page  # noqa: E402
from scroll_page import ZERO, mark  # noqa: E402

JS = scroll_page.JS_LIB + r"""
const out = [];
for (const sc of document.querySelectorAll('[data-scroller]')) {
  const root = sc.firstElementChild, vertical = sc.dataset.axis === 'vertical';
  const horizOf = e => e.dataset.scroll === 'horizontal';
  const scrollers = [...root.querySelectorAll('[data-scroll]')].filter(e => e.closest('[data-hidden]') === null);
  const maxes = scrollers.map(maxOf);
  const want = new Map(scrollers.map((e, i) => [e, Math.min(+e.dataset.offset, maxes[i])]));
  scrollers.forEach(e => setScroll(e, horizOf(e), want.get(e)));
  const r0 = root.getBoundingClientRect(), s0 = sc.getBoundingClientRect();
  const max = Math.max(0, vertical ? r0.height - s0.height : r0.width - s0.width);
  const off = Math.min(+sc.dataset.offset, max);
  setScroll(sc, !vertical, off);
  const shownOff = getScroll(sc, !vertical);
  // Chromium shows a scroll position at a whole pixel (scrollLeft = 13.5 shows 14): boxes are
  // taken back to the offsets asked for (rows inside a scroller move with it), relative to the
  // root's box (which cancels the root's own snapping); sticky rows, which follow the shown
  // offset, are "inexact" then.
  const snapped = Math.abs(shownOff - off) > 1e-9 || scrollers.some(e => Math.abs(getScroll(e, horizOf(e)) - want.get(e)) > 1e-9);
  const rr = root.getBoundingClientRect();
  const ancestors = e => {
    const a = [];
    for (let x = e.parentElement.closest('[data-scroll]'); x !== null && root.contains(x); x = x.parentElement.closest('[data-scroll]')) a.push(x);
    return a;
  };
  const shownBox = e => {
    const b = box(e);
    let dx = 0, dy = 0;
    for (const x of ancestors(e)) {
      if (!want.has(x)) continue;
      const d = getScroll(x, horizOf(x)) - want.get(x);
      if (horizOf(x)) dx += d; else dy += d;
    }
    return {x: b.x - rr.x + dx, y: b.y - rr.y + dy, w: b.w, h: b.h};
  };
  const ins = JSON.parse(sc.dataset.insets), sr = box(sc);
  const port = {x: ins.left + (vertical ? 0 : off), y: ins.top + (vertical ? off : 0),
                w: Math.max(0, sr.w - ins.left - ins.right), h: Math.max(0, sr.h - ins.top - ins.bottom)};
  const rows = [], inexact = [];
  for (const e of root.querySelectorAll('[data-row]')) {
    const hidden = e.closest('[data-hidden]') !== null;
    const r = shownBox(e);
    let clip = port;
    for (const a of ancestors(e)) clip = meet(clip, shownBox(a));
    rows.push([e.dataset.row, hidden ? null : {x: r.x, y: r.y, width: r.w, height: r.h},
               hidden ? ['hidden', 0] : classify(r, clip)]);
    let sticky = false;
    for (let x = e; x !== null && x !== root; x = x.parentElement) if (x.style.position === 'sticky') sticky = true;
    if (snapped && sticky && !hidden) inexact.push(e.dataset.row);
  }
  const scrolls = scrollers.map(e => [e.dataset.row, want.get(e), maxes[scrollers.indexOf(e)],
                                      horizOf(e) ? e.scrollWidth - e.clientWidth : e.scrollHeight - e.clientHeight]);
  out.push({offset: off, content: {width: rr.width, height: rr.height}, rows: rows, scrolls: scrolls, nearest: null,
            inexact: inexact});
}
// Scroll-to (after every case is measured: scrollIntoView also scrolls the page itself).
let at = 0;
for (const sc of document.querySelectorAll('[data-scroller]')) {
  const root = sc.firstElementChild, vertical = sc.dataset.axis === 'vertical';
  if (sc.dataset.target) {
    const scrollers = [...root.querySelectorAll('[data-scroll]')].filter(e => e.closest('[data-hidden]') === null);
    scrollers.forEach(e => setScroll(e, e.dataset.scroll === 'horizontal', 0));
    setScroll(sc, !vertical, 0);
    window.scrollTo(0, 0);
    const t = root.querySelector('[data-row="' + sc.dataset.target + '"]');
    // Chromium's scrolls are whole pixels: with fractional boxes on the way they can be a pixel
    // off the exact answer ("nearestWholePixels").
    const whole = v => Math.abs(v - Math.round(v)) < 1e-9;
    let exact = true;
    for (let x = t; x !== null && x !== root; x = x.parentElement) {
      const b = box(x);
      if (![b.x, b.y, b.w, b.h].every(whole)) exact = false;
    }
    // Chromium's ranges count what overflows the rows (SPEC 2.6 and 2.8 do not): its scrolls
    // are clamped to the contract's ranges, measured as above.
    const r0 = root.getBoundingClientRect(), s0 = sc.getBoundingClientRect();
    const max = Math.max(0, vertical ? r0.height - s0.height : r0.width - s0.width);
    const maxes = new Map(scrollers.map(e => [e, maxOf(e)]));
    t.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const nearest = {root: Math.min(getScroll(sc, !vertical), max)};
    scrollers.forEach(e => { nearest[e.dataset.row] = Math.min(getScroll(e, e.dataset.scroll === 'horizontal'), maxes.get(e)); });
    // Chromium scrolls a box of zero width or height into view as if it were a pixel wide
    // (SPEC 2.5 and 2.6 take it as it is): no such case is recorded.
    const tb = box(t);
    if (tb.w > 0 && tb.h > 0) out[at].nearest = nearest;
    out[at].nearestWholePixels = !exact;
  }
  at++;
}
document.getElementById('oracle-out').textContent = btoa(unescape(encodeURIComponent(JSON.stringify(out))));
"""

def page(cases):
    parts = []
    for doc, offset, target in cases:
        fx, _ = fixture(doc)
        axis = doc.get("axis", "vertical")
        vp = doc["viewport"]
        ins = dict(ZERO, **doc.get("viewportInsets", {}))
        inset = {"vertical": ins["top"], "horizontal": ins["left"]}
        root = fx["root"]
        inner = mark(doc.get("rows", []), root["children"], axis, inset)
        extra = "; width: max-content" if axis == "horizontal" else ""
        tgt = f' data-target="{html.escape(target)}"' if target else ""
        parts.append(f'<div data-scroller data-axis="{axis}" data-offset="{offset}"{tgt} '
                     f"data-insets='{json.dumps(ins)}' "
                     f'style="position: absolute; left: 0; top: 0; display: block; overflow: auto; '
                     f'scrollbar-width: none; width: {vp["width"]}px; height: {vp["height"]}px">'
                     f'<div style="{html.escape(oracle.css_of(root["style"]) + extra)}">{inner}</div></div>')
    return scroll_page.page(parts, JS)


def base(name, axis, vp, insets=ZERO):
    return {"name": name, "axis": axis, "viewport": vp, "padding": dict(ZERO), "spacing": 0,
            "justify": "start", "align": "stretch", "defaults": {"insets": dict(insets)}, "rows": []}


def leaf(rid, fixed, w=40, h=20, **more):
    out = {"id": rid, "size": {"fixed": fixed}, "content": {"width": w, "height": h}, "alignSelf": "auto"}
    out.update(more)
    return out


def stack(rid, axis, rows, offset=None, spacing=0, insets=None, **more):
    out = {"id": rid, "content": {"width": 0, "height": 0}, "alignSelf": "auto",
           "stack": {"axis": axis, "justify": "start", "align": "stretch", "spacing": spacing, "rows": rows}}
    if insets is not None:
        out["insets"] = insets
    if offset is not None:
        out["scrollOffset"] = offset
    out.update(more)
    return out


def pick_offset(r):
    return r.choice([0, r.randint(1, 60), r.randint(20, 400), 100000])


def carousel(r, i):
    """A vertical feed with one or two horizontal card strips that scroll on their own."""
    doc = base(f"carousel{i}", "vertical", {"width": r.choice([320, 390]), "height": r.choice([300, 500])},
               r.choice([ZERO, {"top": 8, "left": 12, "bottom": 8, "right": 12}]))
    doc["spacing"] = r.choice([0, 8])
    doc["rows"].append(leaf("title", r.choice([40, 60])))
    for s in range(r.randint(1, 2)):
        cards = [leaf(f"s{s}c{k}", r.choice([100, 120, 150]), 80, 60,
                      margin=dict(ZERO, right=r.choice([0, 0, 6]))) for k in range(r.randint(2, 8))]
        if r.random() < 0.3:
            cards[0]["sticky"] = True
            if r.random() < 0.5:
                cards[0]["stickyOffset"] = r.choice([4, 10])
        strip = stack(f"car{s}", "horizontal", cards, pick_offset(r), spacing=r.choice([0, 10]),
                      insets=r.choice([None, ZERO, {"top": 4, "left": 16, "bottom": 4, "right": 16}]))
        if r.random() < 0.5:
            strip["size"] = {"fixed": r.choice([80, 100])}
        doc["rows"].append(strip)
        for k in range(r.randint(1, 4)):
            doc["rows"].append(leaf(f"s{s}f{k}", r.randint(40, 160)))
    return doc


def columns(r, i):
    """Vertical scrollers (columns of a fixed height) inside a horizontal strip that scrolls."""
    doc = base(f"columns{i}", "vertical", {"width": r.choice([300, 390]), "height": r.choice([400, 600])})
    cols = []
    for c in range(r.randint(2, 5)):
        items = [leaf(f"c{c}i{k}", r.randint(30, 90)) for k in range(r.randint(1, 7))]
        if r.random() < 0.4:
            items[0]["sticky"] = True
        col = stack(f"col{c}", "vertical", items, pick_offset(r), spacing=r.choice([0, 4]))
        col["size"] = {"fixed": r.choice([120, 150])}
        cols.append(col)
    strip = stack("strip", "horizontal", cols, pick_offset(r), spacing=r.choice([0, 10]))
    strip["size"] = {"fixed": r.choice([160, 200])}
    doc["rows"] += [leaf("top", 80), strip, leaf("bottom", r.choice([100, 700]))]
    return doc


def nested(r, i):
    """Two scrollers nested: a vertical scroller of fixed height holding carousels."""
    doc = base(f"nested{i}", r.choice(["vertical", "horizontal"]),
               {"width": r.choice([320, 390]), "height": r.choice([300, 500])})
    inner = []
    for s in range(r.randint(1, 3)):
        cards = [leaf(f"n{s}c{k}", r.choice([90, 130]), 60, 40) for k in range(r.randint(3, 6))]
        inner.append(leaf(f"n{s}h", 30, sticky=True) if r.random() < 0.3 else leaf(f"n{s}h", 30))
        car = stack(f"n{s}car", "horizontal", cards, pick_offset(r), spacing=r.choice([0, 6]))
        car["size"] = {"fixed": 70}
        inner.append(car)
    panel = stack("panel", "vertical", inner, pick_offset(r), insets=r.choice([ZERO, {"top": 6, "left": 6, "bottom": 6, "right": 6}]))
    panel["size"] = {"fixed": r.choice([150, 200])}
    if doc["axis"] == "horizontal":
        panel["size"] = {"fixed": r.choice([250, 300])}
    doc["rows"] += [leaf("head", 60), panel, leaf("tail", r.choice([50, 500]))]
    return doc


def make_scrolling(rows, r, p):
    for x in rows:
        if x.get("stack") and r.random() < p:
            x["scrollOffset"] = pick_offset(r)
            if r.random() < 0.5:
                x["size"] = {"fixed": r.choice([20, 60, 100])}
        make_scrolling((x.get("stack") or {}).get("rows", []), r, p)


def targets(doc):
    """Rows inside scrollers (the cases for scroll-to through them)."""
    out = []

    def walk(rows, inside):
        for x in rows:
            if x.get("hidden"):
                continue
            if inside:
                out.append(x["id"])
            walk((x.get("stack") or {}).get("rows", []), inside or x.get("scrollOffset") is not None)
    walk(doc["rows"], False)
    return out


def cases(count, seed):
    r = random.Random(seed)
    out = []
    for i in range(count):
        kind = i % 4
        if kind == 0:
            doc = carousel(r, i)
        elif kind == 1:
            doc = columns(r, i)
        elif kind == 2:
            doc = nested(r, i)
        else:
            doc = random_documents.document(r, i)
            doc["name"] = f"randscroll{i}"
            make_scrolling(doc["rows"], r, 0.6)
            if r.random() < 0.3:
                random_documents_sticky(doc["rows"], r)
        if r.random() < 0.25:
            doc["viewportInsets"] = {"top": r.choice([0, 20]), "left": r.choice([0, 10]), "bottom": r.choice([0, 30]), "right": 0}
        ts = targets(doc) if "viewportInsets" not in doc else []
        for k, off in enumerate((0, r.randint(1, 200), r.randint(100, 600), 100000)):
            out.append((doc, off, r.choice(ts) if ts and k < 2 else None))
    return out


def random_documents_sticky(rows, r):
    for x in rows:
        if r.random() < 0.25:
            x["sticky"] = True
        random_documents_sticky((x.get("stack") or {}).get("rows", []), r)


def main():
    args = sys.argv[1:]
    chromium = "chromium"
    if "--chromium" in args:
        k = args.index("--chromium")
        chromium = args[k + 1]
        del args[k:k + 2]
    count, seed, path = int(args[0]), int(args[1]), args[2]
    write(measure(cases(count, seed), chromium), path)


def measure(cs, chromium="chromium"):
    """Chromium's answers for cases [(DOCUMENT, root offset, target row or None)] (one page, one
    run): the entries described above."""
    measured = scroll_page.run(chromium, page(cs))
    result = []
    for (doc, _, target), m in zip(cs, measured):
        entry = {"doc": doc, "offset": m["offset"], "contentSize": m["content"],
                 "scrolls": {rid: off for rid, off, _, _ in m["scrolls"]},
                 "ranges": {rid: [mx, rng] for rid, _, mx, rng in m["scrolls"]},
                 "shown": {rid: f for rid, f, _ in m["rows"]},
                 "visible": {rid: v for rid, _, v in m["rows"]}}
        if m["inexact"]:
            entry["inexact"] = m["inexact"]
        if target and m["nearest"] is not None:
            entry["target"] = target
            entry["nearest"] = m["nearest"]
            if m.get("nearestWholePixels"):
                entry["nearestWholePixels"] = True
        result.append(entry)
    return result


def write(result, path):
    """Writes the entries as a fixture file; prints the counts."""
    with open(path, "w") as f:
        json.dump(result, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(result)} cases, {sum(len(x['shown']) for x in result)} rows -> {path}")


if __name__ == "__main__":
    main()
