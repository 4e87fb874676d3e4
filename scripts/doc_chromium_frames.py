#!/usr/bin/env python3
"""Absolute row frames of stack documents as headless Chromium lays them out.

Usage: doc_chromium_frames.py DOCS_JSON [--chromium chromium]

DOCS_JSON is a list of documents in the stackdoc/1 shape (SPEC §5; omitted fields take the
defaults; only the fields that matter for frames are read).  Each document is compiled onto
CSS flexbox exactly as SPEC §2.3 says (an independent re-implementation of
Sources/Layout/Document/StyleCompiler.swift), laid out by ../../shared/tools/chromium_flex_oracle.py
(headless Chromium) and printed as `doc row x y width height` lines with absolute frames
in the root's content coordinates, plus `doc <content> width height`.
With separators (SPEC §2.4; `chromium_frames(..., separators=True)`, `write_fixtures(...,
separators=True)`) a row that has one gets an absolutely positioned child along its trailing
edge (`left: s.left; right: s.right; bottom: 0; height: t` in a vertical parent, `top: s.top;
bottom: s.bottom; right: 0; width: t` in a horizontal one; the row, `position: relative`, is its
containing block), and its measured box is the separator's frame.
Used to confirm the expected numbers of Tests/LayoutTests/Document*Tests.swift.
"""
import json
import os
import subprocess
import sys
import tempfile

ORACLE_DIR = "/work/shared/tools"
sys.path.insert(0, ORACLE_DIR)
import chromium_flex_oracle as oracle  # noqa: E402

oracle.LENGTHS.update({"minWidth": "min-width", "minHeight": "min-height",
                       "maxWidth": "max-width", "maxHeight": "max-height"})
oracle.SIMPLE.update({"aspectRatio": "aspect-ratio", "flexWrap": "flex-wrap", "position": "position"})
oracle.LENGTHS.update({"top": "top", "left": "left", "right": "right", "bottom": "bottom"})

JUSTIFY = {"start": "flex-start", "end": "flex-end", "center": "center",
           "spaceBetween": "space-between", "spaceAround": "space-around",
           "spaceEvenly": "space-evenly"}
ALIGN = {"start": "flex-start", "end": "flex-end", "center": "center", "stretch": "stretch",
         "auto": "auto"}
DEFAULT_INSETS = {"top": 12, "left": 15, "bottom": 12, "right": 15}
ZERO = {"top": 0, "left": 0, "bottom": 0, "right": 0}
# SPEC §2.1 `defaults.separator`.
DEFAULT_SEPARATOR = {"hidden": False, "insets": {"top": 0, "left": 15, "bottom": 0, "right": 0}, "thickness": 1,
                     "color": "#C6C6C8"}


def main_sum(e, axis):
    return e["top"] + e["bottom"] if axis == "vertical" else e["left"] + e["right"]


def inner_defaults(row, defaults_insets):
    """The default insets of the rows inside stack row `row` (issue 33): its `rowInsets`
    ("T L B R"), else the default it has itself."""
    words = row.get("rowInsets")
    if not words:
        return defaults_insets
    t, l, b, r = (float(w) for w in words.split())
    return {"top": t, "left": l, "bottom": b, "right": r}


def separator_words(words, base):
    """`base` (a separator style) with SEPSPEC words laid over it (issue 33: a stack's
    `rowSeparator`, "hidden|shown insets T L B R thickness N color #RRGGBB", each optional)."""
    s = dict(base)
    w = words.split()
    while w:
        word = w.pop(0)
        if word in ("hidden", "shown"):
            s["hidden"] = word == "hidden"
        elif word == "insets":
            t, l, b, r = (float(x) for x in w[:4])
            s["insets"] = {"top": t, "left": l, "bottom": b, "right": r}
            w = w[4:]
        elif word == "thickness":
            s["thickness"] = float(w.pop(0))
        elif word == "color":
            s["color"] = w.pop(0)
        else:
            raise SystemExit(f"unknown separator word {word!r}")
    return s


def inner_separator(row, base):
    """The separator the rows inside stack row `row` lay their own overrides over (issue 33): its
    `rowSeparator` over the one it is inside, else that one."""
    words = row.get("rowSeparator")
    return separator_words(words, base) if words else base


def separator_node(row, base, parent_axis):
    """The row's separator as an absolutely positioned child, or None when its effective
    separator is hidden (SPEC §2.4; the caller leaves out the last shown row under auto-hide)."""
    s = dict(base)
    s.update({k: v for k, v in (row.get("separator") or {}).items() if v is not None})
    if s["hidden"]:
        return None
    i, t = s["insets"], s["thickness"]
    if parent_axis == "vertical":
        style = {"position": "absolute", "left": i["left"], "right": i["right"], "bottom": 0, "height": t}
    else:
        style = {"position": "absolute", "top": i["top"], "bottom": i["bottom"], "right": 0, "width": t}
    return {"style": style, "separatorOf": row["id"]}


def child_nodes(rows, defaults_insets, axis, align, ids, sep):
    """The nodes of a stack's rows; `sep` is None (no separators) or (the separator their own
    overrides lie over, auto-hide of the last shown row)."""
    shown = [k for k, c in enumerate(rows) if not c.get("hidden")]
    last = shown[-1] if shown else -1
    return [row_node(c, defaults_insets, axis, align, ids,
                     None if sep is None else (sep[0], sep[1], k == last)) for k, c in enumerate(rows)]


def row_node(row, defaults_insets, parent_axis, parent_align, ids, sep=None):
    """`sep`: None (no separators) or (base separator, auto-hide, the row is its stack's last shown)."""
    ids.append(row["id"])
    inner_sep = None if sep is None else (inner_separator(row, sep[0]), sep[1])
    if row.get("hidden"):
        stack = row.get("stack") or {}
        kids = child_nodes(stack.get("rows", []), inner_defaults(row, defaults_insets), stack.get("axis", "vertical"),
                           stack.get("align", "stretch"), ids, inner_sep)
        return {"style": {"display": "none"}, "children": kids}
    insets = row.get("insets") or defaults_insets
    style = {"padding": insets, "margin": row.get("margin", ZERO),
             "flexGrow": row.get("grow", 0), "flexShrink": row.get("shrink", 0),
             "alignSelf": ALIGN[row.get("alignSelf", "auto")]}
    main_key = "height" if parent_axis == "vertical" else "width"
    cross_key = "width" if parent_axis == "vertical" else "height"
    # Size limits (issue 14): CSS min-/max- sizes of the border box along the parent's axes.
    main_min, main_max = ("minHeight", "maxHeight") if parent_axis == "vertical" else ("minWidth", "maxWidth")
    cross_min, cross_max = ("minWidth", "maxWidth") if parent_axis == "vertical" else ("minHeight", "maxHeight")
    for key, css in (("min", main_min), ("max", main_max), ("minCross", cross_min), ("maxCross", cross_max)):
        if row.get(key) is not None:
            style[css] = row[key]
    size = row.get("size", "fit")
    content = row.get("content", {"width": 0, "height": 0})
    stack = row.get("stack")
    children = []
    if stack:
        axis = stack.get("axis", "vertical")
        style.update({"flexDirection": "column" if axis == "vertical" else "row",
                      "justifyContent": JUSTIFY[stack.get("justify", "start")],
                      "alignItems": ALIGN[stack.get("align", "stretch")],
                      "rowGap": stack.get("spacing", 0), "columnGap": stack.get("spacing", 0)})
        if size != "fit":
            style[main_key] = size["fixed"] + main_sum(insets, parent_axis)
        children += child_nodes(stack.get("rows", []), inner_defaults(row, defaults_insets), axis,
                                stack.get("align", "stretch"), ids, inner_sep)
    else:
        text, aspect = row.get("text"), row.get("aspect")
        if size != "fit":
            style[main_key] = size["fixed"] + main_sum(insets, parent_axis)
        elif text is None and aspect is None:
            style[main_key] = content[main_key] + main_sum(insets, parent_axis)
        # else (issue 14): a fit text or aspect row has an auto main size.
        if aspect is not None:
            # CSS aspect-ratio of the border box (the page's box-sizing is border-box).
            style["aspectRatio"] = f"{aspect['width']} / {aspect['height']}"
        if text is not None:
            # Text (issue 14): a wrapping flex container of N glyph boxes in the content box.
            glyph = {"style": {"width": text.get("char", 8), "height": text.get("line", 20), "flexShrink": 0}}
            children.append({"style": {"flexWrap": "wrap", "flexShrink": 1},
                             "children": [glyph] * text["count"], "leafContent": True})
        else:
            # The content is an intrinsic W x H box inside the content box (SPEC §2.3, issue 14).
            children.append({"style": {"width": content["width"], "height": content["height"], "flexShrink": 0},
                             "leafContent": True})
        eff = row.get("alignSelf", "auto")
        if eff == "auto":
            eff = parent_align
        if eff != "stretch" and text is None:
            cross_axis = "horizontal" if parent_axis == "vertical" else "vertical"
            style[cross_key] = content[cross_key] + main_sum(insets, cross_axis)
    if sep is not None and not (sep[1] and sep[2]):
        node = separator_node(row, sep[0], parent_axis)
        if node:
            children.append(node)
    return {"style": style, "children": children}


def root_padding(doc):
    """The root's CSS padding: the document's, the leading edge along the main axis plus the
    safe area's (issue 33, SPEC §2.5: `padding-top: calc(P + env(safe-area-inset-top))`, the
    inset written out, as the page cannot set env())."""
    p = dict(doc.get("padding", ZERO))
    safe = doc.get("safeArea", ZERO)
    edge = "top" if doc.get("axis", "vertical") == "vertical" else "left"
    p[edge] = p[edge] + safe[edge]
    return p


def fixture(doc, separators=False):
    axis = doc.get("axis", "vertical")
    vp = doc.get("viewport", {"width": 390, "height": 844})
    defaults_insets = doc.get("defaults", {}).get("insets", DEFAULT_INSETS)
    style = {"flexDirection": "column" if axis == "vertical" else "row",
             "padding": root_padding(doc),
             "rowGap": doc.get("spacing", 0), "columnGap": doc.get("spacing", 0),
             "justifyContent": JUSTIFY[doc.get("justify", "start")],
             "alignItems": ALIGN[doc.get("align", "stretch")]}
    if axis == "vertical":
        style.update({"width": vp["width"], "minHeight": vp["height"]})
    else:
        style.update({"height": vp["height"], "minWidth": vp["width"]})
    ids = []
    align = doc.get("align", "stretch")
    d = doc.get("defaults", {})
    sep = (d.get("separator", DEFAULT_SEPARATOR), d.get("autoHideLastSeparator", True)) if separators else None
    children = child_nodes(doc.get("rows", []), defaults_insets, axis, align, ids, sep)
    return {"name": doc["name"], "viewport": {"width": "max-content", "height": "max-content"},
            "root": {"style": style, "children": children}}, ids


def walk(node, ox, oy, out, hidden, seps):
    """Appends each row's absolute frame (None when hidden) to `out`, in document order; puts each
    shown separator of positive size whose row's frame has a positive size into `seps`."""
    for c in node.get("children", []):
        if c.get("leafContent"):
            continue
        r = c["chrome"]
        x, y = ox + r["x"], oy + r["y"]
        if "separatorOf" in c:
            row = node["chrome"]
            if not hidden and r["width"] > 0 and r["height"] > 0 and row["width"] > 0 and row["height"] > 0:
                seps[c["separatorOf"]] = (x, y, r["width"], r["height"])
            continue
        h = hidden or c["style"].get("display") == "none"
        out.append(None if h else (x, y, r["width"], r["height"]))
        walk(c, x, y, out, h, seps)


def chromium_frames(docs, chromium="chromium", separators=False):
    """[(contentSize (w, h), [(row id, (x, y, w, h) or None when hidden)], {row id: separator
    frame} (rows with a separator; empty unless `separators`))] per document."""
    fixtures, idlists = zip(*(fixture(d, separators) for d in docs))
    with tempfile.TemporaryDirectory() as d:
        inp, outp = os.path.join(d, "in.json"), os.path.join(d, "out.json")
        json.dump(list(fixtures), open(inp, "w"))
        oracle.main([inp, outp, "--chromium", chromium])
        measured = json.load(open(outp))
    result = []
    for fx, ids in zip(measured, idlists):
        root = fx["root"]["chrome"]
        frames, seps = [], {}
        walk(fx["root"], 0, 0, frames, False, seps)
        result.append(((root["width"], root["height"]), list(zip(ids, frames)), seps))
    return result


def rect(f):
    return None if f is None else dict(zip(("x", "y", "width", "height"), f))


def write_fixtures(docs, out, separators=False):
    """Computes every document's frames in Chromium and writes them as a fixture file (a JSON
    list of {doc, contentSize, frames} and, with `separators`, `separators`: every row's
    separator frame or null); prints the counts."""
    result = []
    for doc, (content, rows, seps) in zip(docs, chromium_frames(docs, separators=separators)):
        entry = {"doc": doc, "contentSize": {"width": content[0], "height": content[1]},
                 "frames": {rid: rect(f) for rid, f in rows}}
        if separators:
            entry["separators"] = {rid: rect(seps.get(rid)) for rid, _ in rows}
        result.append(entry)
    with open(out, "w") as f:
        json.dump(result, f, separators=(",", ":"))
        f.write("\n")
    shown = sum(1 for x in result for f in x.get("separators", {}).values() if f)
    print(f"{len(docs)} documents, {sum(len(x['frames']) for x in result)} rows"
          + (f", {shown} separators" if separators else "") + f" -> {out}")


def main():
    args = sys.argv[1:]
    chromium = "chromium"
    if "--chromium" in args:
        i = args.index("--chromium")
        chromium = args[i + 1]
        del args[i:i + 2]
    docs = json.load(open(args[0]))
    for doc, (content, rows, _) in zip(docs, chromium_frames(docs, chromium)):
        print(f"{doc['name']} <content> {content[0]:g} {content[1]:g}")
        for rid, f in rows:
            print(f"{doc['name']} {rid} " + ("hidden" if f is None else " ".join(f"{v:g}" for v in f)))


if __name__ == "__main__":
    main()
