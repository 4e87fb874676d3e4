#!/usr/bin/env python3
"""Random flex trees in the fixture format (no expected numbers), restricted to what the
engine implements. Usage: random_trees.py COUNT SEED [DEPTH [MAX_CHILDREN]] > trees.json;
then oracle.py trees.json out.json fills in Chromium's numbers. Defaults: depth 4, up to 4
children (5 under the root)."""
import json
import random
import sys


def edges(r, lo, hi):
    return {s: r.choice([0, 0, r.randint(lo, hi)]) for s in ("top", "right", "bottom", "left")}


def style(r, depth, is_root):
    s = {}
    if r.random() < 0.5:
        s["flexDirection"] = r.choice(["row", "column"])
    if r.random() < 0.4:
        s["justifyContent"] = r.choice(["flex-start", "flex-end", "center", "space-between",
                                        "space-around", "space-evenly"])
    if r.random() < 0.4:
        s["alignItems"] = r.choice(["flex-start", "flex-end", "center", "stretch"])
    if not is_root and r.random() < 0.25:
        s["alignSelf"] = r.choice(["auto", "flex-start", "flex-end", "center", "stretch"])
    for k in ("width", "height"):
        if r.random() < (0.5 if is_root else 0.35):
            s[k] = r.choice([r.randint(0, 200), r.randint(0, 60), round(r.uniform(0, 150), 2)])
    for k in ("minWidth", "minHeight"):
        if r.random() < 0.12:
            s[k] = r.randint(0, 150)
    if not is_root:
        if r.random() < 0.35:
            s["flexGrow"] = r.choice([0, 1, 1, 2, 0.5, 0.25, 3])
        if r.random() < 0.35:
            s["flexShrink"] = r.choice([0, 1, 2, 0.5, 3])
        if r.random() < 0.3:
            s["flexBasis"] = r.choice([0, r.randint(0, 150), round(r.uniform(0, 100), 2)])
        if r.random() < 0.06:
            s["display"] = "none"
    if r.random() < 0.2:
        s["rowGap"] = r.randint(0, 20)
    if r.random() < 0.2:
        s["columnGap"] = r.randint(0, 20)
    if r.random() < 0.3:
        s["margin"] = edges(r, -10 if r.random() < 0.2 else 0, 20)
    if r.random() < 0.3:
        s["padding"] = edges(r, 0, 25)
    return s


DEPTH, MAX_CHILDREN = 4, 4


def node(r, depth, is_root=False):
    kids = []
    if depth < DEPTH:
        n = r.randint(0, MAX_CHILDREN) if depth > 0 else r.randint(1, MAX_CHILDREN + 1)
        kids = [node(r, depth + 1) for _ in range(n)]
    return {"style": style(r, depth, is_root), "children": kids}


def main():
    global DEPTH, MAX_CHILDREN
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    if len(sys.argv) > 3:
        DEPTH = int(sys.argv[3])
    if len(sys.argv) > 4:
        MAX_CHILDREN = int(sys.argv[4])
    r = random.Random(seed)
    out = [{"id": f"random/{seed}-{DEPTH}-{MAX_CHILDREN}/{i}", "name": f"random_{seed}_{i}",
            "viewport": {"width": "max-content", "height": "max-content"},
            "root": node(r, 0, True)} for i in range(count)]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
