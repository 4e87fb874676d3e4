#!/usr/bin/env python3
"""Random edit sessions run through `stackdoc` and through headless Chromium, compared step by
step (issue 33 item 5).

Usage: random_sessions.py COUNT SEED [--stackdoc PATH] [--chromium chromium] [--steps N]
                          [--fixture OUT_JSON --sample K]

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
the offset — clamped to [0, content − the unobscured trailing edge]. From Chromium's shown frames
this script computes every row's visibility and percentage against the unobscured rectangle
(SPEC §2.5) and the transitions between consecutive steps (SPEC §2.5: changed states in document
order, then removed rows), and compares them all, with the offset and the content size, to what
stackdoc printed, within 0.1 pt (and 0.1 percentage points).

Chromium snaps a scroll position to whole pixels (at device scale 1: `scrollTop = 210.5` shows
211), and places sticky rows at the snapped position; StackDoc keeps the offset SPEC §2.6 gives
(`scroll to ROW middle` can give a half). At such a step ("snapped") the rows sticky positioning
moves are not compared, nor the transitions of that step and the next: the formula decides, as
SPEC §2.7 says for the one other case where Chromium's answer is not the contract's.

Prints the agreement (sessions, steps, rows) and every disagreement. With --fixture, writes the
first K sessions (their script lines and Chromium's answer at every step) for
Tests/ReplTests/RandomSessionChromiumTests, which replays them without Chromium.
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
from sticky_documents import ZERO, make_sticky, mark, obscured, safe_area  # noqa: E402

random_documents.FEATURES = random_documents.HEIGHT_FOR_WIDTH = random_documents.ROW_DEFAULTS = True
TOLERANCE = 0.1

JS = r"""
const out = [];
let previous = 0;
for (const sc of document.querySelectorAll('[data-scroller]')) {
  if (sc.dataset.first === '1') previous = 0;
  const root = sc.firstElementChild;
  const vertical = sc.dataset.axis === 'vertical';
  const lo = +sc.dataset.lo, hi = +sc.dataset.hi;
  const r0 = root.getBoundingClientRect();
  const content = vertical ? r0.height : r0.width;
  const max = Math.max(0, content - hi);
  const req = JSON.parse(sc.dataset.request);
  const frameOf = id => {
    const e = root.querySelector('[data-row="' + CSS.escape(id) + '"]');
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return vertical ? [r.top - r0.top, r.bottom - r0.top] : [r.left - r0.left, r.right - r0.left];
  };
  let target = previous;
  if (req.kind === 'offset') target = req.value;
  else if (req.kind === 'by') target = previous + req.value;
  else if (req.kind === 'to' || req.kind === 'focus') {
    const f = frameOf(req.row);
    if (f) {
      const [a, b] = f;
      if (req.kind === 'to') {
        target = req.pos === 'top' ? a - lo : req.pos === 'bottom' ? b - hi : (a + b) / 2 - (lo + hi) / 2;
      } else if (a >= previous + lo && b <= previous + hi) target = previous;
      else if (b - a > hi - lo || a < previous + lo) target = a - lo;
      else target = b - hi;
    }
  }
  const off = Math.max(0, Math.min(target, max));
  if (vertical) sc.scrollTop = off; else sc.scrollLeft = off;
  const shown = vertical ? sc.scrollTop : sc.scrollLeft;
  previous = off;
  const rr = root.getBoundingClientRect();
  const rows = [];
  for (const e of root.querySelectorAll('[data-row]')) {
    const hidden = e.closest('[data-hidden]') !== null;
    const r = e.getBoundingClientRect();
    rows.push([e.dataset.row, hidden ? null : {x: r.x - rr.x, y: r.y - rr.y, width: r.width, height: r.height}]);
  }
  out.push({offset: off, shownOffset: shown, content: {width: rr.width, height: rr.height}, rows: rows});
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
    fx, _ = fixture(doc)
    axis = doc.get("axis", "vertical")
    vp = doc["viewport"]
    ob = obscured_of(doc)
    inset = {"vertical": ob["top"], "horizontal": ob["left"]}
    lo, hi = unobscured(vp["height"], ob["top"], ob["bottom"]) if axis == "vertical" else \
        unobscured(vp["width"], ob["left"], ob["right"])
    length = vp["height"] if axis == "vertical" else vp["width"]
    pad = (f"padding-bottom: {length - hi}px" if axis == "vertical" else f"padding-right: {length - hi}px")
    inner = mark(doc.get("rows", []), fx["root"]["children"], axis, inset)
    extra = "; width: max-content" if axis == "horizontal" else ""
    return (f'<div data-scroller data-first="{1 if first else 0}" data-axis="{axis}" data-lo="{lo}" data-hi="{hi}" '
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
    k = r.random()
    if k < 0.16 or not ids:
        counter[0] += 1
        n = f"n{counter[0]}"
        spec = r.choice([f"fixed {r.randint(0, 120)}", f"content {r.randint(0, 150)} {r.randint(0, 80)}",
                         f"fixed {r.randint(10, 60)} sticky", f"fixed {r.randint(10, 60)} sticky {r.choice([4, 20, 44])}",
                         "stack vertical", "stack horizontal spacing 4"])
        stacks = [s for s in ids if s in t.stack]
        parent = r.choice(stacks) if stacks and r.random() < 0.5 else None
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
        if plain:
            x = r.choice(plain)
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
    """Runs the session; returns per step (command result, exported document, layout)."""
    path = os.path.join(d, f"{doc['name']}.json")
    with open(path, "w") as f:
        json.dump(saved(doc), f)
    script = [f"import {doc['name']}.json", f"export {doc['name']}-0.json", "layout"]
    for k, line in enumerate(lines):
        script += [line, f"export {doc['name']}-{k + 1}.json", "layout"]
    sd = os.path.join(d, f"{doc['name']}.sd")
    with open(sd, "w") as f:
        f.write("\n".join(script) + "\n")
    p = subprocess.run([stackdoc, "--db", ":memory:", "--json", sd], cwd=d, capture_output=True, text=True)
    replies = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
    if len(replies) != len(script):
        raise SystemExit(f"{doc['name']}: {len(replies)} replies to {len(script)} lines\n{p.stderr[-2000:]}")
    out = []
    for k in range(len(lines) + 1):
        cmd, layout = replies[3 * k], replies[3 * k + 2]
        with open(os.path.join(d, f"{doc['name']}-{k}.json")) as f:
            exported = from_saved(json.load(f))
        out.append((cmd, exported, layout["result"]))
    return out


def visibility(frame, rect):
    """SPEC §2.5: (state, percent) of a shown frame against the unobscured rectangle."""
    if frame is None:
        return "hidden", 0
    x0, y0 = max(frame["x"], rect[0]), max(frame["y"], rect[1])
    x1 = min(frame["x"] + frame["width"], rect[0] + rect[2])
    y1 = min(frame["y"] + frame["height"], rect[1] + rect[3])
    area = frame["width"] * frame["height"]
    inside = frame["x"] >= rect[0] and frame["y"] >= rect[1] and \
        frame["x"] + frame["width"] <= rect[0] + rect[2] and frame["y"] + frame["height"] <= rect[1] + rect[3]
    if area == 0:
        return ("entire", 100) if inside else ("offscreen", 0)
    if inside:
        return "entire", 100
    if x1 > x0 and y1 > y0:
        return "partial", 100 * (x1 - x0) * (y1 - y0) / area
    return "offscreen", 0


def chromium_steps(chromium, docs_requests, d):
    parts = [scroller(doc, req, k == 0) for k, (doc, req) in enumerate(docs_requests)]
    page = ("<!DOCTYPE html><html><head><meta charset='utf-8'><style>" + oracle.CSS +
            "</style></head><body>" + "\n".join(parts) +
            "<pre id='oracle-out' style='display:none'></pre><script>" + JS + "</script></body></html>")
    path = os.path.join(d, "page.html")
    with open(path, "w") as f:
        f.write(page)
    return oracle.run_chromium(chromium, path)


def answers(doc, m):
    """Chromium's step: offset, content, and per row its shown frame, visibility, percent."""
    axis = doc.get("axis", "vertical")
    vp = doc["viewport"]
    ob = obscured_of(doc)
    xl, xh = unobscured(vp["width"], ob["left"], ob["right"])
    yl, yh = unobscured(vp["height"], ob["top"], ob["bottom"])
    o = m["offset"]
    rect = (xl, o + yl, 0, 0) if axis == "vertical" else (o + xl, yl, 0, 0)
    rect = (rect[0], rect[1], xh - xl, yh - yl)
    rows = []
    for rid, f in m["rows"]:
        state, pct = visibility(f, rect)
        rows.append({"id": rid, "frame": f, "visibility": state, "percent": pct})
    return {"offset": o, "shownOffset": m["shownOffset"], "contentSize": m["content"], "rows": rows}


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
    """Chromium showed another (whole-pixel) offset than the one asked for."""
    return abs(step["shownOffset"] - step["offset"]) > 1e-9


def compare(name, k, line, expected, got, cmd, previous):
    """Disagreements of stackdoc's step with Chromium's (strings); the rows compared."""
    bad = []
    skip = snapped(expected)
    if abs(got["offset"] - expected["offset"]) > TOLERANCE:
        bad.append(f"offset {got['offset']} vs chromium {expected['offset']}")
    if abs(expected["shownOffset"] - expected["offset"]) >= 1:
        bad.append(f"chromium could not scroll to {expected['offset']} (showed {expected['shownOffset']})")
    cs, ecs = got["contentSize"], expected["contentSize"]
    if abs(cs["width"] - ecs["width"]) > TOLERANCE or abs(cs["height"] - ecs["height"]) > TOLERANCE:
        bad.append(f"content {cs} vs chromium {ecs}")
    rows = {x["id"]: x for x in got["rows"]}
    if [x["id"] for x in got["rows"]] != [x["id"] for x in expected["rows"]]:
        bad.append("rows differ")
    for e in expected["rows"]:
        g = rows.get(e["id"])
        if g is None or (skip and "shownFrame" in g):
            continue
        shown = g.get("shownFrame") or g["frame"]
        if not close(shown, e["frame"]):
            bad.append(f"{e['id']} frame {shown} vs chromium {e['frame']}")
        if g["visibility"] != e["visibility"] or abs(g["percent"] - e["percent"]) > TOLERANCE:
            bad.append(f"{e['id']} {g['visibility']} {g['percent']} vs chromium {e['visibility']} {e['percent']}")
    if previous is not None and cmd.get("ok") and not skip and not snapped(previous):
        events = [x for x in cmd.get("events", []) if "to" in x]
        if events != transitions(previous, expected):
            bad.append(f"events {events} vs chromium {transitions(previous, expected)}")
    compared = sum(1 for e in expected["rows"] if not (skip and "shownFrame" in rows.get(e["id"], {})))
    return [f"{name} step {k} ({line}): {b}" for b in bad], compared


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
    count, seed = int(args[0]), int(args[1])
    r = random.Random(seed)
    sessions = [session(r, i, steps) for i in range(count)]
    total_steps = total_rows = 0
    agreeing_steps = 0
    stats = {"refused": 0, "scrolled": 0, "safe area": 0, "events": 0, "stuck rows": 0, "snapped": 0}
    problems = []
    recorded = []
    with tempfile.TemporaryDirectory() as d:
        runs = []
        for doc, lines in sessions:
            run = run_stackdoc(stackdoc, doc, [x[0] for x in lines], d)
            requests = [{"kind": "offset", "value": run[0][1].get("offset", 0)}] + [
                req if run[k + 1][0].get("ok") else {"kind": "keep"} for k, (_, req) in enumerate(lines)]
            runs.append((doc, lines, run, requests))
        measured = chromium_steps(chromium, [(run[k][1], req) for _, _, run, reqs in runs
                                             for k, req in enumerate(reqs)], d)
        at = 0
        for doc, lines, run, reqs in runs:
            previous = None
            steps_out = []
            for k, req in enumerate(reqs):
                expected = answers(run[k][1], measured[at])
                at += 1
                line = "import" if k == 0 else lines[k - 1][0]
                bad, n = compare(doc["name"], k, line, expected, run[k][2], run[k][0], previous)
                total_steps += 1
                total_rows += n
                stats["refused"] += not run[k][0].get("ok")
                stats["snapped"] += snapped(expected)
                stats["scrolled"] += expected["offset"] > 0
                stats["safe area"] += any(run[k][1].get("safeArea", ZERO).values())
                stats["events"] += len(transitions(previous, expected)) if previous is not None else 0
                stats["stuck rows"] += sum(1 for x in run[k][2]["rows"] if x.get("stuck"))
                agreeing_steps += not bad
                problems += bad
                steps_out.append({"command": line, "ok": bool(run[k][0].get("ok")), **expected,
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
