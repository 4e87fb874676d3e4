"""What the scrolling oracles share (sticky_documents.py, scroll_documents.py, random_sessions.py):
a document's rows as marked HTML, the page around them, one headless Chromium run, and the
JavaScript helpers their measuring scripts use.

`mark` writes every row node of ../doc_chromium_frames.py's mapping as a `div` with `data-row`
(and `data-hidden` for a hidden row); a sticky row gets `position: sticky` with `top` (in a
vertical parent) or `left` (in a horizontal one) = the inset it sticks below plus its
`stickyOffset` — the viewport's obscured leading edge, or 0 inside a stack that scrolls on its
own (SPEC §2.8: it sticks to that stack's scrollport); a stack row with a `scrollOffset` is a
scroll container along its axis (`overflow: auto` along, `hidden` across, no scrollbars; the rows
inside it `overflow: clip`, see `mark`) marked `data-scroll="AXIS" data-offset="N"`; a separator node (mapped with separators) is marked
`data-sep="ROW"`. `JS_LIB` holds the measuring helpers: `box`, `meet` (rectangle intersection),
`classify` (SPEC §2.5 visibility against a rectangle), `maxOf` (SPEC §2.8: a scrolling stack's
largest offset, measured from its rows' boxes), `setScroll`/`getScroll`.
"""
import html
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from doc_chromium_frames import oracle  # noqa: E402

ZERO = {"top": 0, "left": 0, "bottom": 0, "right": 0}

JS_LIB = r"""
function box(e) { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }
function meet(a, b) {
  const x = Math.max(a.x, b.x), y = Math.max(a.y, b.y);
  return {x: x, y: y, w: Math.min(a.x + a.w, b.x + b.w) - x, h: Math.min(a.y + a.h, b.y + b.h) - y};
}
function classify(f, v) {
  if (f.x >= v.x && f.x + f.w <= v.x + v.w && f.y >= v.y && f.y + f.h <= v.y + v.h) return ['entire', 100];
  const w = Math.min(f.x + f.w, v.x + v.w) - Math.max(f.x, v.x), h = Math.min(f.y + f.h, v.y + v.h) - Math.max(f.y, v.y);
  if (w <= 0 || h <= 0 || f.w * f.h <= 0) return ['offscreen', 0];
  return ['partial', Math.min(100 * w * h / (f.w * f.h), 100)];
}
function maxOf(e) {
  // SPEC 2.8: the farthest end of the shown rows' margin boxes plus the trailing padding (at
  // any scroll position: the rows' boxes are taken back to the unscrolled ones).
  const horiz = e.dataset.scroll === 'horizontal', r = e.getBoundingClientRect(), cs = getComputedStyle(e);
  let far = null;
  for (const k of e.children) {
    if (k.dataset.row === undefined || k.dataset.hidden !== undefined) continue;
    // In flow: a sticky row's shift is not scrollable overflow (it follows the scroll).
    const sticky = k.style.position === 'sticky';
    if (sticky) k.style.position = 'static';
    const kr = k.getBoundingClientRect(), km = getComputedStyle(k);
    if (sticky) k.style.position = 'sticky';
    const end = (horiz ? kr.right + parseFloat(km.marginRight) : kr.bottom + parseFloat(km.marginBottom)) + getScroll(e, horiz);
    far = far === null ? end : Math.max(far, end);
  }
  if (far === null) return 0;
  return Math.max(0, far + parseFloat(horiz ? cs.paddingRight : cs.paddingBottom) - (horiz ? r.left : r.top) - (horiz ? r.width : r.height));
}
function setScroll(e, horiz, v) { if (horiz) e.scrollLeft = v; else e.scrollTop = v; }
function getScroll(e, horiz) { return horiz ? e.scrollLeft : e.scrollTop; }
"""


def obscured(doc):
    """SPEC §2.5: each edge the larger of the viewport's insets and its safe area."""
    ins = {**ZERO, **doc.get("viewportInsets", {})}
    safe = {**ZERO, **(doc.get("safeArea") or {})}
    return {k: max(ins[k], safe[k]) for k in ZERO}


def mark(rows, nodes, parent_axis, inset, clip=False):
    """HTML of the row nodes: data-row ids, sticky declarations, scrolling stacks, separators.
    `inset` gives, per parent axis, the edge a sticky row sticks below (before its offset).
    With `clip` (the rows inside a scrolling stack) every row that does not scroll itself is
    `overflow: clip`: what overflows a row (a leaf's intrinsic content box, a nested stack's rows)
    is no scrollable overflow of the stack (SPEC §2.8), nor does it widen the rectangle Chromium
    keeps the stack's sticky rows in; `clip` is no scroll container, so the automatic minimum
    sizes and the sticky rows' scroll container stay as they were."""
    out = []
    for r, n in zip(rows, nodes):
        css = oracle.css_of(n["style"])
        scrolls = bool(r.get("stack")) and r.get("scrollOffset") is not None
        if clip and not scrolls:
            css += "; overflow: clip"
        if r.get("sticky"):
            css += (f"; position: sticky; {'top' if parent_axis == 'vertical' else 'left'}: "
                    f"{inset[parent_axis] + r.get('stickyOffset', 0)}px")
        stack = r.get("stack") or {}
        attrs = ""
        inner_inset = inset
        if scrolls:
            axis = stack.get("axis", "vertical")
            along, across = ("overflow-x", "overflow-y") if axis == "horizontal" else ("overflow-y", "overflow-x")
            css += f"; {along}: auto; {across}: hidden; scrollbar-width: none"
            attrs = f' data-scroll="{axis}" data-offset="{r["scrollOffset"]}"'
            inner_inset = {"vertical": 0, "horizontal": 0}  # a sticky row inside sticks to this scrollport
        kids = n["children"]
        if r.get("stack"):
            rows_inside = stack.get("rows", [])
            inner = mark(rows_inside, kids, stack.get("axis", "vertical"), inner_inset, clip or scrolls)
            inner += "".join(separator_html(c) for c in kids[len(rows_inside):])
        else:  # a leaf's intrinsic content box (SPEC §2.3), as the mapping made it, and its separator
            inner = "".join(separator_html(c) if "separatorOf" in c else oracle.node_html(c) for c in kids)
        hidden = " data-hidden" if r.get("hidden") else ""
        out.append(f'<div data-row="{html.escape(r["id"])}"{hidden}{attrs} style="{html.escape(css)}">{inner}</div>')
    return "".join(out)


def separator_html(node):
    """A separator node of the mapping (SPEC §2.4), marked with its row's id."""
    return f'<div data-sep="{html.escape(node["separatorOf"])}" style="{html.escape(oracle.css_of(node["style"]))}"></div>'


def page(parts, js):
    """The page: the oracle's stylesheet, the cases' HTML, the output element and the script."""
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><style>" + oracle.CSS +
            "</style></head><body>" + "\n".join(parts) +
            "<pre id='oracle-out' style='display:none'></pre><script>" + js + "</script></body></html>")


def run(chromium, text):
    """Renders the page once in headless Chromium; returns what its script wrote."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "page.html")
        with open(path, "w") as f:
            f.write(text)
        return oracle.run_chromium(chromium, path)
