#!/usr/bin/env python3
"""Random edit sessions run through `stackdoc` and through headless Chromium, compared step by
step (issue 33 item 5).

Usage: random_sessions.py COUNT SEED [--stackdoc PATH] [--chromium chromium] [--steps N]
                          [--scrolls] [--separators] [--fixture OUT_JSON --sample K]

A session is a random document of random_documents.py (every row feature, stacks with default
insets for their rows, sticky rows with sticky offsets) in a random view (a safe area, obscured
insets, both or neither) followed by N random steps: add, remove, move, set (sizes, grow,
sticky offsets), hide, show, scroll (to an offset, by a distance, to a row, focus), viewport
(size, insets, safe area) and keyboard. `stackdoc --json` runs the session, exporting the
document and listing its layout after every step. Chromium lays out each exported document on
its own (the independent SPEC §2.3 mapping of ../doc_chromium_frames.py, sticky rows and the
safe area as in sticky_documents.py), scrolled to the offset SPEC §2.6 asks for — computed here
from Chromium's own frames and the offset Chromium showed at the step before: `scroll N`, `scroll
by D`, `scroll to ROW top|middle|bottom`, `focus ROW` (the auto rule), every other step keeping
the offset — clamped to [0, content − the unobscured trailing edge]. The page measures every
row's shown frame, and its visibility and percentage against the unobscured rectangle (SPEC
§2.5) at the offset asked for; this script derives the transitions between consecutive steps
(SPEC §2.5: changed states in document order, then removed rows) and compares them all, with the offset and the content size, to what
stackdoc printed, within 0.1 pt (and 0.1 percentage points).

Chromium snaps a scroll position to whole pixels (at device scale 1: `scrollTop = 210.5` shows
211), and places sticky rows at the snapped position; StackDoc keeps the offset SPEC §2.6 gives
(`scroll to ROW middle` can give a half). At such a step ("snapped") the rows sticky positioning
moves are not compared, nor the transitions of that step and the next: the formula decides, as
SPEC §2.7 says for the one other case where Chromium's answer is not the contract's.

With --scrolls (issue 33, SPEC §2.8) the documents' stacks scroll on their own at random
(random_documents.py --scrolls) and about one step in three is of issue 33: a scrolling stack
added (`add n stack horizontal scrolls`, in a stack at times), a stack made to scroll or not
(`set S scrolls`, `scrolls off`), `scroll STACK N`, rows added under scrolling stacks; `scroll to`
and `focus` then mostly aim at rows inside them. With --separators the documents get random
separators (a default, auto-hide, rows' overrides, stacks' `rowSeparator`) and the steps change
them: `defaults separator SEPSPEC`, `defaults autohide on|off`, `defaults separator SEPSPEC in
STACK`, `set ROW separator SEPSPEC`. The page carries every scrolling stack's offset from step to
step as the browser would (asked offsets clamped to the stack's range, kept while it is hidden,
dropped with `scrolls off`; after an import the file's offsets, shown clamped, until the next
operation stores them so) and sets it with scrollLeft/scrollTop. `scroll to ROW POS` and `focus`
scroll the row's scrolling ancestors in the page from their boxes as measured there: the innermost
by POS, the outer ones "nearest" (CSSOM View) for the part of the row the inner ones show, then
the root by SPEC §2.6 for that part. Every row's visibility is measured in the page against the
unobscured rectangle intersected with its scrolling ancestors' boxes, its separator's frame
relative to its own; where Chromium shows a stack at a whole pixel other than asked, the rows
inside it are measured back at the asked offset (they move with it) and the rows sticky
positioning moves are not compared ("inexact"). A scrolling stack's range is the rule of SPEC
§2.8 measured in the page (its rows' boxes in flow); a range Chromium cannot reach is reported.
`status` after every step gives stackdoc's nested offsets, compared with the page's.

Prints the agreement (sessions, steps, rows) and every disagreement. With --fixture, writes the
first K sessions (their script lines and Chromium's answer at every step) for
Tests/ReplTests/RandomSessionChromiumTests, which replays them without Chromium (with --scrolls
or --separators also the nested offsets, "scrolls", and per row its relative "separator").
"""
import html
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import random_documents  # noqa: E402
from doc_chromium_frames import fixture, oracle  # noqa: E402
import scroll_page  # noqa: E402
from scroll_page import ZERO, mark, obscured  # noqa: E402
from sticky_documents import make_sticky, safe_area  # noqa: E402

random_documents.FEATURES = random_documents.HEIGHT_FOR_WIDTH = random_documents.ROW_DEFAULTS = True
TOLERANCE = 0.1
# --scrolls and --separators (issue 33): see the module docstring.
SCROLLS = False
SEPARATORS = False

JS = scroll_page.JS_LIB + r"""
// One page, every step of every session in order: each step's exported document in its own
// scroller. Between steps the script carries what the browser would keep: the root's offset
// ("previous") and every scrolling stack's offset ("stored", by row id; SPEC 2.8: clamped and
// stored after an operation, the file's offsets after an import until then, kept while hidden,
// dropped with `scrolls off`).
const out = [];
let previous = 0, stored = {};
for (const sc of document.querySelectorAll('[data-scroller]')) {
  if (sc.dataset.first === '1') { previous = 0; stored = {}; }
  const root = sc.firstElementChild;
  const vertical = sc.dataset.axis === 'vertical';
  const lo = +sc.dataset.lo, hi = +sc.dataset.hi, port0 = JSON.parse(sc.dataset.port);
  const req = JSON.parse(sc.dataset.request);
  const horizOf = e => e.dataset.scroll === 'horizontal';
  const all = [...root.querySelectorAll('[data-scroll]')];
  const scrollers = all.filter(e => e.closest('[data-hidden]') === null);
  if (req.kind === 'import') stored = Object.assign({}, req.scrolls);
  const present = new Set(all.map(e => e.dataset.row));
  for (const id of Object.keys(stored)) if (!present.has(id)) delete stored[id];
  for (const e of all) if (!(e.dataset.row in stored)) stored[e.dataset.row] = 0;
  // The offsets asked for (each clamped to its own range, measured here), set in the browser.
  const want = new Map();
  const put = (e, v) => { const o = Math.max(0, Math.min(v, maxOf(e))); want.set(e, o); setScroll(e, horizOf(e), o); };
  for (const e of scrollers) put(e, stored[e.dataset.row]);
  if (req.kind === 'nested') {
    const e = scrollers.find(x => x.dataset.row === req.stack);
    if (e) put(e, req.value);
  }
  const rr0 = root.getBoundingClientRect();
  // Shown boxes relative to the root's box, at the offsets asked for: Chromium shows a whole
  // pixel (scrollLeft = 10.5 shows 11); rows inside a scroller move with it, so each scroller's
  // (shown - asked) is added back.
  const ancestors = e => {
    const a = [];
    for (let x = e.parentElement.closest('[data-scroll]'); x !== null && root.contains(x); x = x.parentElement.closest('[data-scroll]')) a.push(x);
    return a;
  };
  const shownBox = (e, rr) => {
    const b = box(e);
    let dx = 0, dy = 0;
    for (const x of ancestors(e)) {
      if (!want.has(x)) continue;
      const d = getScroll(x, horizOf(x)) - want.get(x);
      if (horizOf(x)) dx += d; else dy += d;
    }
    return {x: b.x - rr.x + dx, y: b.y - rr.y + dy, w: b.w, h: b.h};
  };
  const cut = (e, chain, upTo) => {
    let f = shownBox(e, rr0);
    for (let j = 0; j < upTo; j++) {
      f = meet(f, shownBox(chain[j], rr0));
      f = {x: f.x, y: f.y, w: Math.max(0, f.w), h: Math.max(0, f.h)};
    }
    return f;
  };
  let target = previous;
  if (req.kind === 'offset' || req.kind === 'import') target = req.value;
  else if (req.kind === 'by') target = previous + req.value;
  else if (req.kind === 'to' || req.kind === 'focus') {
    const e = root.querySelector('[data-row="' + CSS.escape(req.row) + '"]');
    if (e) {
      // SPEC 2.8: the scrolling ancestors innermost first, the innermost by POS, the outer ones
      // nearest (CSSOM View's scroll-into-view "nearest") for the part the inner ones show.
      const chain = ancestors(e).filter(x => want.has(x));
      chain.forEach((a, k) => {
        const h = horizOf(a), f = cut(e, chain, k), b = shownBox(a, rr0);
        const [p0, p1, b0, b1] = h ? [f.x, f.x + f.w, b.x, b.x + b.w] : [f.y, f.y + f.h, b.y, b.y + b.h];
        const pos = k === 0 && req.kind === 'to' ? req.pos : 'nearest';
        let d = 0;
        if (pos === 'top') d = p0 - b0;
        else if (pos === 'bottom') d = p1 - b1;
        else if (pos === 'middle') d = (p0 + p1) / 2 - (b0 + b1) / 2;
        else if (p0 >= b0 && p1 <= b1) d = 0;
        else if (p0 < b0 && p1 > b1) d = 0;
        else if ((p0 < b0 && p1 - p0 <= b1 - b0) || (p1 > b1 && p1 - p0 > b1 - b0)) d = p0 - b0;
        else d = p1 - b1;
        put(a, want.get(a) + d);
      });
      const f = cut(e, chain, chain.length);
      const [a, b] = vertical ? [f.y, f.y + f.h] : [f.x, f.x + f.w];
      if (req.kind === 'to') {
        target = req.pos === 'top' ? a - lo : req.pos === 'bottom' ? b - hi : (a + b) / 2 - (lo + hi) / 2;
      } else if (a >= previous + lo && b <= previous + hi) target = previous;
      else if (b - a > hi - lo || a < previous + lo) target = a - lo;
      else target = b - hi;
    }
  }
  const r0 = root.getBoundingClientRect();
  const max = Math.max(0, (vertical ? r0.height : r0.width) - hi);
  const off = Math.max(0, Math.min(target, max));
  if (vertical) sc.scrollTop = off; else sc.scrollLeft = off;
  const shown = vertical ? sc.scrollTop : sc.scrollLeft;
  previous = off;
  // An import stores the file's offsets as they are (shown clamped until the next operation).
  if (req.ok && req.kind !== 'import') for (const e of scrollers) stored[e.dataset.row] = want.get(e);
  const nestedSnapped = scrollers.some(e => Math.abs(getScroll(e, horizOf(e)) - want.get(e)) > 1e-9);
  const snapped = nestedSnapped || Math.abs(shown - off) > 1e-9;
  const rr = root.getBoundingClientRect();
  // The unobscured rectangle in content coordinates at the offset asked for (SPEC 2.5).
  const port = vertical ? {x: port0.xl, y: off + port0.yl, w: port0.xh - port0.xl, h: port0.yh - port0.yl}
                        : {x: off + port0.xl, y: port0.yl, w: port0.xh - port0.xl, h: port0.yh - port0.yl};
  const rows = [];
  for (const e of root.querySelectorAll('[data-row]')) {
    const hidden = e.closest('[data-hidden]') !== null;
    if (hidden) { rows.push([e.dataset.row, null, ['hidden', 0], null, false]); continue; }
    const f = shownBox(e, rr);
    let clip = port;
    for (const a of ancestors(e)) clip = meet(clip, shownBox(a, rr));
    let sep = null;
    for (const k of e.children) {
      if (k.dataset.sep === undefined) continue;
      const sb = box(k), eb = box(e);
      // The separator of a stack that scrolls stays on its edge (SPEC 2.4): as a positioned
      // child of a scroll container it moves with the stack's content, which is taken back here.
      const dx = want.has(e) && horizOf(e) ? getScroll(e, true) : 0, dy = want.has(e) && !horizOf(e) ? getScroll(e, false) : 0;
      if (sb.w > 0 && sb.h > 0 && eb.w > 0 && eb.h > 0) sep = {x: sb.x - eb.x + dx, y: sb.y - eb.y + dy, width: sb.w, height: sb.h};
    }
    // Sticky positioning follows the offset Chromium shows: such rows are inexact at a snapped step.
    let sticky = false;
    for (let x = e; x !== null && x !== root; x = x.parentElement) if (x.style.position === 'sticky') sticky = true;
    rows.push([e.dataset.row, {x: f.x, y: f.y, width: f.w, height: f.h}, classify(f, clip), sep, snapped && sticky]);
  }
  const scrolls = scrollers.map(e => [e.dataset.row, want.get(e), getScroll(e, horizOf(e)),
                                      horizOf(e) ? e.scrollWidth - e.clientWidth : e.scrollHeight - e.clientHeight]);
  out.push({offset: off, shownOffset: shown, content: {width: rr.width, height: rr.height}, rows: rows,
            scrolls: scrolls, nestedSnapped: nestedSnapped});
}
document.getElementById('oracle-out').textContent = btoa(unescape(encodeURIComponent(JSON.stringify(out))));
"""


def unobscured(length, a, b):
    """SPEC §2.5: the unobscured part [lo, hi] of a viewport length with edges a and b."""
    lo = min(a, length)
    return lo, max(lo, length - b)


def obscured_of(doc):
    """The obscured edges of an exported document: insets, safe area, keyboard (SPEC §2.5)."""
    ob = obscured(doc)
    ob["bottom"] = max(ob["bottom"], doc.get("keyboard", 0))
    return ob


def scroller(doc, request, first):
    fx, _ = fixture(doc, separators=SEPARATORS)
    axis = doc.get("axis", "vertical")
    vp = doc["viewport"]
    ob = obscured_of(doc)
    inset = {"vertical": ob["top"], "horizontal": ob["left"]}
    lo, hi = unobscured(vp["height"], ob["top"], ob["bottom"]) if axis == "vertical" else \
        unobscured(vp["width"], ob["left"], ob["right"])
    length = vp["height"] if axis == "vertical" else vp["width"]
    pad = (f"padding-bottom: {length - hi}px" if axis == "vertical" else f"padding-right: {length - hi}px")
    xl, xh = unobscured(vp["width"], ob["left"], ob["right"])
    yl, yh = unobscured(vp["height"], ob["top"], ob["bottom"])
    port = json.dumps({"xl": xl, "xh": xh, "yl": yl, "yh": yh})
    inner = mark(doc.get("rows", []), fx["root"]["children"], axis, inset)
    extra = "; width: max-content" if axis == "horizontal" else ""
    return (f'<div data-scroller data-first="{1 if first else 0}" data-axis="{axis}" data-lo="{lo}" data-hi="{hi}" '
            f"data-port='{port}' "
            f'data-request="{html.escape(json.dumps(request))}" '
            f'style="position: absolute; left: 0; top: 0; display: block; overflow: auto; '
            f'scrollbar-width: none; width: {vp["width"]}px; height: {vp["height"]}px; {pad}">'
            f'<div style="{html.escape(oracle.css_of(fx["root"]["style"]) + extra)}">{inner}</div></div>')


# ---------------------------------------------------------------------------------------------
# Sessions


class Tree:
    """The rows of the session's document as the steps change it (ids, parents, stacks, hidden,
    sticky), so that the steps name rows that exist."""

    def __init__(self, doc):
        self.parent, self.stack, self.hidden, self.sticky, self.order = {}, set(), set(), set(), []
        self.scrolls = set()

        def walk(rows, p):
            for x in rows:
                self.parent[x["id"]] = p
                self.order.append(x["id"])
                if x.get("stack"):
                    self.stack.add(x["id"])
                if x.get("hidden"):
                    self.hidden.add(x["id"])
                if x.get("sticky"):
                    self.sticky.add(x["id"])
                if x.get("scrollOffset") is not None:
                    self.scrolls.add(x["id"])
                walk((x.get("stack") or {}).get("rows", []), x["id"])
        walk(doc["rows"], None)

    def ids(self):
        return [i for i in self.order if i in self.parent]

    def under(self, a, b):
        """Whether b is a or inside a."""
        while b is not None:
            if b == a:
                return True
            b = self.parent[b]
        return False

    def shown(self, i):
        """Neither hidden nor inside a hidden row."""
        while i is not None:
            if i in self.hidden:
                return False
            i = self.parent[i]
        return True

    def inside_scroller(self, i):
        """Whether a stack that scrolls on its own holds the row."""
        p = self.parent[i]
        while p is not None:
            if p in self.scrolls:
                return True
            p = self.parent[p]
        return False

    def plain(self, i):
        """Neither hidden nor sticky, nor inside such a row: a scroll target whose frame
        Chromium shows in flow."""
        while i is not None:
            if i in self.hidden or i in self.sticky:
                return False
            i = self.parent[i]
        return True


def step(r, t, counter, view):
    """One random step: (command line, Chromium's scroll request), updating the tree."""
    ids = t.ids()
    if (SCROLLS or SEPARATORS) and ids and r.random() < 0.35:
        made = issue33_step(r, t, counter, ids)
        if made:
            return made
    k = r.random()
    if k < 0.16 or not ids:
        counter[0] += 1
        n = f"n{counter[0]}"
        spec = r.choice([f"fixed {r.randint(0, 120)}", f"content {r.randint(0, 150)} {r.randint(0, 80)}",
                         f"fixed {r.randint(10, 60)} sticky", f"fixed {r.randint(10, 60)} sticky {r.choice([4, 20, 44])}",
                         "stack vertical", "stack horizontal spacing 4"])
        stacks = [s for s in ids if s in t.stack]
        parent = r.choice(stacks) if stacks and r.random() < 0.5 else None
        scrolling = [s for s in stacks if s in t.scrolls or t.inside_scroller(s)]
        if SCROLLS and scrolling and r.random() < 0.5:
            parent = r.choice(scrolling)  # edits under scrolling stacks
        t.parent[n] = parent
        # Its place in document order: after its parent's last row (or at the end).
        t.order.append(n) if parent is None else t.order.insert(t.order.index(parent) + 1, n)
        if "stack" in spec:
            t.stack.add(n)
        if "sticky" in spec:
            t.sticky.add(n)
        pos = "" if parent is None else f" in {parent}"
        return f"add {n} {spec}" + (" top" if parent is None and r.random() < 0.3 else "") + pos, {"kind": "keep"}
    if k < 0.24 and len(ids) > 1:
        x = r.choice(ids)
        for i in [i for i in ids if t.under(x, i)]:
            del t.parent[i]
        return f"remove {x}", {"kind": "keep"}
    if k < 0.32 and len(ids) > 1:
        x = r.choice(ids)
        others = [o for o in ids if not t.under(x, o)]
        if others:
            o = r.choice(others)
            t.parent[x] = t.parent[o]
            t.order.remove(x)
            t.order.insert(t.order.index(o) + 1, x)
            return f"move {x} after {o}", {"kind": "keep"}
    if k < 0.44:
        x = r.choice(ids)
        item = r.choice([f"fixed {r.randint(0, 150)}", f"grow {r.choice([0, 1, 2])}", "fit",
                         f"content {r.randint(0, 150)} {r.randint(0, 80)}", f"sticky {r.choice([0, 10, 44])}",
                         "sticky off", f"insets {r.randint(0, 12)}"])
        if item.startswith("sticky off"):
            t.sticky.discard(x)
        elif item.startswith("sticky"):
            t.sticky.add(x)
        return f"set {x} {item}", {"kind": "keep"}
    if k < 0.50:
        x = r.choice(ids)
        t.hidden.add(x)
        return f"hide {x}", {"kind": "keep"}
    if k < 0.54 and t.hidden & set(ids):
        x = r.choice(sorted(t.hidden & set(ids)))
        t.hidden.discard(x)
        return f"show {x}", {"kind": "keep"}
    if k < 0.66:
        v = r.choice([0, r.randint(0, 300), r.randint(0, 1500), 100000])
        return f"scroll {v}", {"kind": "offset", "value": v}
    if k < 0.72:
        d = r.choice([-1, 1]) * r.randint(1, 200)
        return f"scroll by {d}", {"kind": "by", "value": d}
    if k < 0.82:
        plain = [i for i in ids if t.plain(i)]
        inside = [i for i in plain if t.inside_scroller(i)]
        if plain:
            x = r.choice(inside if inside and r.random() < 0.6 else plain)
            if r.random() < 0.3:
                return f"focus {x}", {"kind": "focus", "row": x}
            p = r.choice(["top", "middle", "bottom"])
            return f"scroll to {x} {p}", {"kind": "to", "row": x, "pos": p}
    if k < 0.88:
        e = " ".join(str(r.choice([0, 0, 20, 47])) for _ in range(4))
        return f"viewport safe-area {e}", {"kind": "keep"}
    if k < 0.92:
        e = " ".join(str(r.choice([0, 0, 30, 60])) for _ in range(4))
        return f"viewport insets {e}", {"kind": "keep"}
    if k < 0.96:
        return f"keyboard {r.choice(['off', 'off', 200, 336])}", {"kind": "keep"}
    view[0] = (r.choice([200, 320, 390]), r.choice([150, 300, 500]))
    return f"viewport {view[0][0]} {view[0][1]}", {"kind": "keep"}


def issue33_step(r, t, counter, ids):
    """A step of issue 33 (--scrolls, --separators), or None: a scrolling stack added, made to
    scroll or not, scrolled on its own (`scroll STACK N`); a separator default of the document, of
    a stack (`defaults separator … in STACK`) or a row's own override, auto-hide."""
    stacks = [s for s in ids if s in t.stack]
    k = r.random()
    if SCROLLS and k < 0.2:
        counter[0] += 1
        n = f"n{counter[0]}"
        axis = r.choice(["horizontal", "vertical"])
        size = r.choice(["", f"fixed {r.choice([40, 80, 120])} "])
        parent = r.choice(stacks) if stacks and r.random() < 0.4 else None
        t.parent[n] = parent
        t.order.append(n) if parent is None else t.order.insert(t.order.index(parent) + 1, n)
        t.stack.add(n)
        t.scrolls.add(n)
        line = f"add {n} {size}stack {axis} spacing {r.choice([0, 6])} scrolls" + ("" if parent is None else f" in {parent}")
        return line, {"kind": "keep"}
    if SCROLLS and k < 0.3 and stacks:
        x = r.choice(stacks)
        if x in t.scrolls and r.random() < 0.3:
            t.scrolls.discard(x)
            return f"set {x} scrolls off", {"kind": "keep"}
        t.scrolls.add(x)
        return f"set {x} scrolls", {"kind": "keep"}
    if SCROLLS and k < 0.55:
        shown = [s for s in ids if s in t.scrolls and t.shown(s)]
        if shown:
            x = r.choice(shown)
            v = r.choice([0, r.randint(1, 80), r.randint(1, 400), 100000])
            return f"scroll {x} {v}", {"kind": "nested", "stack": x, "value": v}
    if SCROLLS and k < 0.7:
        inside = [s for s in stacks if s in t.scrolls or t.inside_scroller(s)]
        if inside:
            counter[0] += 1
            n = f"n{counter[0]}"
            p = r.choice(inside)
            t.parent[n] = p
            t.order.insert(t.order.index(p) + 1, n)
            return f"add {n} fixed {r.randint(20, 160)} in {p}", {"kind": "keep"}
    if SEPARATORS and k >= 0.7:
        spec = r.choice(["hidden", "shown", f"insets {r.randint(0, 20)} {r.randint(0, 20)} {r.randint(0, 20)} {r.randint(0, 20)}",
                         f"thickness {r.choice([0.5, 1, 2, 5])}", "color #FF0000", "default"])
        w = r.random()
        if w < 0.3:
            return f"defaults separator {spec}", {"kind": "keep"}
        if w < 0.4:
            return f"defaults autohide {r.choice(['on', 'off'])}", {"kind": "keep"}
        if w < 0.7 and stacks:
            return f"defaults separator {spec} in {r.choice(stacks)}", {"kind": "keep"}
        return f"set {r.choice(ids)} separator {spec}", {"kind": "keep"}
    return None


def importable(rows):
    """The REPL refuses negative margins (the random documents have some): they become 0."""
    for x in rows:
        if "margin" in x:
            x["margin"] = {k: max(0, v) for k, v in x["margin"].items()}
        importable((x.get("stack") or {}).get("rows", []))


def session(r, i, steps):
    doc = random_documents.document(r, i)
    doc["name"] = f"session{i}"
    importable(doc["rows"])
    make_sticky(doc["rows"], r, 0.2, True)
    if r.random() < 0.7:
        safe_area(r, doc)
    t = Tree(doc)
    counter, view = [0], [None]
    return doc, [step(r, t, counter, view) for _ in range(steps)]


def saved(doc):
    """The document in the saved format (`stackdoc/1`): text and aspect in the REPL's words."""
    def row(x):
        x = dict(x)
        if isinstance(x.get("text"), dict):
            t = x["text"]
            x["text"] = f"{t['count']} char {t.get('char', 8)} line {t.get('line', 20)}"
        if isinstance(x.get("aspect"), dict):
            x["aspect"] = f"{x['aspect']['width']} {x['aspect']['height']}"
        if x.get("stack"):
            x["stack"] = {**x["stack"], "rows": [row(c) for c in x["stack"].get("rows", [])]}
        return x
    return {"format": "stackdoc/1", **doc, "rows": [row(x) for x in doc["rows"]]}


def from_saved(doc):
    """An exported document in the oracle's shape (text and aspect as objects)."""
    def row(x):
        x = dict(x)
        if isinstance(x.get("text"), str):
            w = x["text"].split()
            t = {"count": int(w[0])}
            for k in range(1, len(w) - 1, 2):
                t[w[k]] = float(w[k + 1])
            x["text"] = t
        if isinstance(x.get("aspect"), str):
            a, b = x["aspect"].split()
            x["aspect"] = {"width": float(a), "height": float(b)}
        if x.get("stack"):
            x["stack"] = {**x["stack"], "rows": [row(c) for c in x["stack"].get("rows", [])]}
        return x
    return {**doc, "rows": [row(x) for x in doc["rows"]]}


def run_stackdoc(stackdoc, doc, lines, d):
    """Runs the session; returns per step (command result, exported document, layout, status)."""
    path = os.path.join(d, f"{doc['name']}.json")
    with open(path, "w") as f:
        json.dump(saved(doc), f)
    script = [f"import {doc['name']}.json", f"export {doc['name']}-0.json", "layout", "status"]
    for k, line in enumerate(lines):
        script += [line, f"export {doc['name']}-{k + 1}.json", "layout", "status"]
    sd = os.path.join(d, f"{doc['name']}.sd")
    with open(sd, "w") as f:
        f.write("\n".join(script) + "\n")
    p = subprocess.run([stackdoc, "--db", ":memory:", "--json", sd], cwd=d, capture_output=True, text=True)
    replies = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
    if len(replies) != len(script):
        raise SystemExit(f"{doc['name']}: {len(replies)} replies to {len(script)} lines\n{p.stderr[-2000:]}")
    out = []
    for k in range(len(lines) + 1):
        cmd, layout, status = replies[4 * k], replies[4 * k + 2], replies[4 * k + 3]
        with open(os.path.join(d, f"{doc['name']}-{k}.json")) as f:
            exported = from_saved(json.load(f))
        out.append((cmd, exported, layout["result"], status["result"]))
    return out


def chromium_steps(chromium, docs_requests):
    """Chromium's answer at every step: one page, each step's document after the one before
    (a session's first step, its import, starts afresh)."""
    parts = [scroller(doc, req, req["kind"] == "import") for doc, req in docs_requests]
    return scroll_page.run(chromium, scroll_page.page(parts, JS))


def answers(m):
    """Chromium's step: offset, content, and per row its shown frame, visibility and percent
    (measured in the page against the unobscured rectangle and the boxes of its scrolling
    ancestors), its separator's frame relative to its own (or None) and whether it is inexact
    (moved by sticky positioning at a step where Chromium snapped an offset); the nested offsets."""
    rows = [{"id": rid, "frame": f, "visibility": v[0], "percent": v[1], "separator": sep, "inexact": inexact}
            for rid, f, v, sep, inexact in m["rows"]]
    return {"offset": m["offset"], "shownOffset": m["shownOffset"], "contentSize": m["content"], "rows": rows,
            "scrolls": {rid: [want, shown, rng] for rid, want, shown, rng in m["scrolls"]},
            "nestedSnapped": m["nestedSnapped"]}


def transitions(before, after):
    """SPEC §2.5: rows whose state changed, new rows, in the new order; then removed rows."""
    old = {x["id"]: x["visibility"] for x in before["rows"]}
    new = {x["id"] for x in after["rows"]}
    out = []
    for x in after["rows"]:
        if x["id"] not in old:
            out.append({"row": x["id"], "from": None, "to": x["visibility"]})
        elif old[x["id"]] != x["visibility"]:
            out.append({"row": x["id"], "from": old[x["id"]], "to": x["visibility"]})
    out += [{"row": x["id"], "from": x["visibility"], "to": None} for x in before["rows"] if x["id"] not in new]
    return out


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return all(abs(a[k] - b[k]) <= TOLERANCE for k in ("x", "y", "width", "height"))


def snapped(step):
    """Chromium showed another (whole-pixel) offset than the one asked for, the root's or a
    scrolling stack's."""
    return abs(step["shownOffset"] - step["offset"]) > 1e-9 or step.get("nestedSnapped", False)


def compare(name, k, line, expected, got, cmd, previous, status):
    """Disagreements of stackdoc's step with Chromium's (strings); the rows compared."""
    bad = []
    skip = snapped(expected)
    if abs(got["offset"] - expected["offset"]) > TOLERANCE:
        bad.append(f"offset {got['offset']} vs chromium {expected['offset']}")
    if abs(expected["shownOffset"] - expected["offset"]) >= 1:
        bad.append(f"chromium could not scroll to {expected['offset']} (showed {expected['shownOffset']})")
    mine = {x["id"]: x["offset"] for x in status.get("scrolls", [])}
    theirs = expected["scrolls"]
    if set(mine) != set(theirs):
        bad.append(f"scrolling stacks {sorted(mine)} vs chromium {sorted(theirs)}")
    for sid, (want, shown, rng) in theirs.items():
        if sid in mine and abs(mine[sid] - want) > TOLERANCE:
            bad.append(f"{sid} scrolled to {mine[sid]} vs chromium {want}")
        if abs(shown - want) >= 1:
            bad.append(f"chromium could not scroll {sid} to {want} (showed {shown}, its range {rng})")
    cs, ecs = got["contentSize"], expected["contentSize"]
    if abs(cs["width"] - ecs["width"]) > TOLERANCE or abs(cs["height"] - ecs["height"]) > TOLERANCE:
        bad.append(f"content {cs} vs chromium {ecs}")
    rows = {x["id"]: x for x in got["rows"]}
    if [x["id"] for x in got["rows"]] != [x["id"] for x in expected["rows"]]:
        bad.append("rows differ")
    compared = 0
    for e in expected["rows"]:
        g = rows.get(e["id"])
        if g is None or e["inexact"]:
            continue
        compared += 1
        shown = g.get("shownFrame") or g["frame"]
        if not close(shown, e["frame"]):
            bad.append(f"{e['id']} frame {shown} vs chromium {e['frame']}")
        if g["visibility"] != e["visibility"] or abs(g["percent"] - e["percent"]) > TOLERANCE:
            bad.append(f"{e['id']} {g['visibility']} {g['percent']} vs chromium {e['visibility']} {e['percent']}")
        if SEPARATORS:
            sep, f = g.get("separator"), g["frame"]
            rel = None if sep is None else {"x": sep["x"] - f["x"], "y": sep["y"] - f["y"],
                                             "width": sep["width"], "height": sep["height"]}
            if not close(rel, e["separator"]):
                bad.append(f"{e['id']} separator {rel} (relative) vs chromium {e['separator']}")
    if previous is not None and cmd.get("ok") and not skip and not snapped(previous):
        events = [x for x in cmd.get("events", []) if "to" in x]
        if events != transitions(previous, expected):
            bad.append(f"events {events} vs chromium {transitions(previous, expected)}")
    return [f"{name} step {k} ({line}): {b}" for b in bad], compared


def nested_offsets(rows):
    """The scrolling stacks' offsets a document gives (the import's)."""
    out = {}
    for x in rows:
        if x.get("scrollOffset") is not None:
            out[x["id"]] = x["scrollOffset"]
        out.update(nested_offsets((x.get("stack") or {}).get("rows", [])))
    return out


def visibility_in_viewport(frame, doc, offset):
    """A frame's state against the unobscured rectangle alone (to count the rows a scrolling
    ancestor clips: statistics only, never compared)."""
    ob, vp = obscured_of(doc), doc["viewport"]
    xl, xh = unobscured(vp["width"], ob["left"], ob["right"])
    yl, yh = unobscured(vp["height"], ob["top"], ob["bottom"])
    if doc.get("axis", "vertical") == "vertical":
        yl, yh = yl + offset, yh + offset
    else:
        xl, xh = xl + offset, xh + offset
    f = frame
    if f["x"] >= xl and f["x"] + f["width"] <= xh and f["y"] >= yl and f["y"] + f["height"] <= yh:
        return "entire"
    w = min(f["x"] + f["width"], xh) - max(f["x"], xl)
    h = min(f["y"] + f["height"], yh) - max(f["y"], yl)
    return "partial" if w > 0 and h > 0 and f["width"] * f["height"] > 0 else "offscreen"


def recorded_step(expected):
    """A step as the fixture keeps it; without --scrolls and --separators in the earlier shape."""
    if not (SCROLLS or SEPARATORS):
        return {**{k: v for k, v in expected.items() if k not in ("scrolls", "nestedSnapped")},
                "rows": [{k: x[k] for k in ("id", "frame", "visibility", "percent")} for x in expected["rows"]]}
    return {**expected, "scrolls": {k: v[0] for k, v in expected["scrolls"].items()},
            "rows": [{k: v for k, v in x.items() if k != "inexact" or v} for x in expected["rows"]]}


def main():
    args = sys.argv[1:]

    def option(name, default):
        if name in args:
            i = args.index(name)
            v = args[i + 1]
            del args[i:i + 2]
            return v
        return default
    chromium = option("--chromium", "chromium")
    stackdoc = option("--stackdoc", os.path.join(HERE, "../../.build/debug/stackdoc"))
    steps = int(option("--steps", "12"))
    fixture_path = option("--fixture", None)
    sample = int(option("--sample", "0"))
    global SCROLLS, SEPARATORS
    for flag in ("--scrolls", "--separators"):
        if flag in args:
            args.remove(flag)
            globals()[flag[2:].upper()] = True
    random_documents.SCROLLS, random_documents.SEPARATORS = SCROLLS, SEPARATORS
    count, seed = int(args[0]), int(args[1])
    r = random.Random(seed)
    sessions = [session(r, i, steps) for i in range(count)]
    total_steps = total_rows = 0
    agreeing_steps = 0
    stats = {"refused": 0, "scrolled": 0, "safe area": 0, "events": 0, "stuck rows": 0, "snapped": 0,
             "with scrolling stacks": 0, "nested offsets > 0": 0, "clipped rows": 0, "separators": 0}
    problems = []
    recorded = []
    with tempfile.TemporaryDirectory() as d:
        runs = []
        for doc, lines in sessions:
            run = run_stackdoc(stackdoc, doc, [x[0] for x in lines], d)
            requests = [{"kind": "import", "value": run[0][1].get("offset", 0), "ok": True,
                         "scrolls": nested_offsets(doc["rows"])}] + [
                {**req, "ok": True} if run[k + 1][0].get("ok") else {"kind": "keep", "ok": False}
                for k, (_, req) in enumerate(lines)]
            runs.append((doc, lines, run, requests))
        measured = chromium_steps(chromium, [(run[k][1], req) for _, _, run, reqs in runs
                                             for k, req in enumerate(reqs)])
        at = 0
        for doc, lines, run, reqs in runs:
            previous = None
            steps_out = []
            for k, req in enumerate(reqs):
                expected = answers(measured[at])
                at += 1
                line = "import" if k == 0 else lines[k - 1][0]
                bad, n = compare(doc["name"], k, line, expected, run[k][2], run[k][0], previous, run[k][3])
                total_steps += 1
                total_rows += n
                stats["refused"] += not run[k][0].get("ok")
                stats["snapped"] += snapped(expected)
                stats["scrolled"] += expected["offset"] > 0
                stats["safe area"] += any(run[k][1].get("safeArea", ZERO).values())
                stats["events"] += len(transitions(previous, expected)) if previous is not None else 0
                stats["stuck rows"] += sum(1 for x in run[k][2]["rows"] if x.get("stuck"))
                stats["with scrolling stacks"] += bool(expected["scrolls"])
                stats["nested offsets > 0"] += sum(1 for v in expected["scrolls"].values() if v[0] > 0)
                stats["clipped rows"] += sum(1 for x in expected["rows"] if x["frame"] and
                                             x["visibility"] != visibility_in_viewport(x["frame"], run[k][1], expected["offset"]))
                stats["separators"] += sum(1 for x in expected["rows"] if x["separator"])
                agreeing_steps += not bad
                problems += bad
                steps_out.append({"command": line, "ok": bool(run[k][0].get("ok")), **recorded_step(expected),
                                  "events": transitions(previous, expected) if previous is not None else []})
                previous = expected
            if len(recorded) < sample:
                recorded.append({"document": saved(doc), "steps": steps_out})
    print(f"{count} sessions, {total_steps} steps ({agreeing_steps} agree), {total_rows} rows compared")
    print("steps: " + ", ".join(f"{v} {k}" for k, v in stats.items()))
    for p in problems[:200]:
        print(p)
    if fixture_path:
        with open(fixture_path, "w") as f:
            json.dump(recorded, f, separators=(",", ":"))
            f.write("\n")
        print(f"{len(recorded)} sessions -> {fixture_path}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
