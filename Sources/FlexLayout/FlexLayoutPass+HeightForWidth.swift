/// Height for width: text runs (`FlexStyle.text`) and aspect ratios (`FlexStyle.aspectRatio`),
/// as Chromium lays out a wrapping flex container of glyph boxes and CSS `aspect-ratio` with
/// `box-sizing: border-box` (css-sizing-4).
///
/// Widths stay bottom-up (max-content, plus a min-content width: one glyph for a text run);
/// heights that depend on a width are measured top-down once the width is known:
/// - an item of a column container gets its width first (stretched: the container's inner
///   width; otherwise fit-content), then its height at that width (`prepareItems`);
/// - an item of a row container gets its width from flexing, then its height at that width
///   (`measureItems`); a container's auto height is measured the same way (`measure`).
/// An aspect ratio transfers the width to the height (snapped to layout units); in a row
/// container a definite height (specified, or stretched in a container of definite height)
/// transfers to the width instead. The automatic minimum size along the ratio-dependent axis
/// is the larger of the transferred size and the content.
///
/// Width for height, the other way round: an aspect leaf whose height is definite gets its
/// widths from that height, and so does a row container through its stretched items
/// (`widthsAtHeight`). Bottom-up that is the height the styles make definite (`styledHeight`);
/// top-down, a row container's definite inner height (`prepareItems`) and a column item's
/// definite post-flexing height (`widthsAfterFlexing`) replace it.
///
/// Only trees that use text or aspect ratios take these steps (`heightForWidth`); `sizing`
/// bit 0 marks the nodes whose height depends on their width, bit 1 the nodes whose widths
/// depend on a definite height, bit 2 a definite height.
extension FlexLayoutPass {
    static let dependsOnWidth: UInt8 = 1
    static let widthFromHeight: UInt8 = 2
    static let definiteHeight: UInt8 = 4

    // MARK: Bottom-up

    /// A childless node's widths (max- and min-content) and provisional height.
    @inline(__always) func startLeaf(_ i: Int, _ x: FlexExtras) {
        minContentWidth[i] = contentWidth[i]
        aspectBase[i] = .nan
        measuredWidth[i] = .nan
        guard x.heightForWidth else {
            sizing[i] = 0
            return
        }
        sizing[i] = Self.dependsOnWidth | (x.hasAspect ? Self.widthFromHeight : 0)
            | (height[i].isNaN ? 0 : Self.definiteHeight)
        leafWidths(i, definiteHeight: styledHeight(i))
        measureLeaf(i, width: clampWidth(i, width[i].isNaN ? contentWidth[i] : width[i]))
    }

    /// A container's min-content width and whether its height depends on its width.
    func startContainer(_ i: Int, _ column: Bool, gaps: Double) {
        var dependent = false, widthsFollowHeight = false
        var minSum = 0.0, minMax = 0.0
        let containerFlags = flags[i]
        var c = Int(firstChild[i])
        while c >= 0 {
            if state[c] == Self.laidOut {
                if sizing[c] & Self.dependsOnWidth != 0 { dependent = true }
                if column {
                    let w = width[c].isNaN ? minContentWidth[c] : width[c]
                    minMax = Swift.max(minMax, clampWidth(c, w) + margin[c].horizontal)
                } else {
                    minSum += minContentContribution(c) + margin[c].horizontal
                    if followsRowHeight(c, containerFlags: containerFlags) { widthsFollowHeight = true }
                }
            }
            c = Int(nextSibling[c])
        }
        minContentWidth[i] = padding[i].horizontal + (column ? minMax : Swift.max(0, minSum + gaps))
        sizing[i] = (dependent ? Self.dependsOnWidth : 0) | (widthsFollowHeight ? Self.widthFromHeight : 0)
            | (height[i].isNaN ? 0 : Self.definiteHeight)
        measuredWidth[i] = .nan
        aspectBase[i] = .nan
    }

    /// The root: its height is measured at its final width `w` before it is sized.
    func startRoot(_ root: Int, width w: Double) {
        if sizing[root] & Self.dependsOnWidth != 0 { measure(root, width: w) }
    }

    // MARK: Top-down

    /// Column container `i` (final width): every dependent item's width, then its height,
    /// flex base and hypothetical main size at that width. Row container `i`: the aspect
    /// ratios of items whose height is definite give their widths (bases). Either way the
    /// container's sum of hypothetical main sizes is brought up to date.
    /// `definite`: the container's height is definite (when it is measured it is not: its
    /// content height is laid out with an indefinite height, as Chromium sizes a flex item's
    /// content-based minimum and `auto` flex base).
    func prepareItems(of i: Int, _ column: Bool, innerCross: Double, definite: Bool) {
        let containerFlags = flags[i]
        var sum = 0.0
        var c = Int(firstChild[i])
        while c >= 0 {
            if state[c] == Self.laidOut {
                if sizing[c] & Self.dependsOnWidth != 0 {
                    let stretched = resolvedAlignment(c, containerFlags: containerFlags) == FlexStylePacking.alignStretch
                        && crossSpec(c, column).isNaN
                    let follows = sizing[c] & Self.widthFromHeight
                    if column {
                        let ownHeight = !height[c].isNaN || definite
                        sizing[c] = Self.dependsOnWidth | follows | (ownHeight ? Self.definiteHeight : 0)
                        measure(c, width: usedCrossSize(c, column, alignment: stretched ? FlexStylePacking.alignStretch
                                                          : FlexStylePacking.alignStart, lineCross: innerCross))
                    } else {
                        let h = !height[c].isNaN ? clampHeight(c, height[c])
                            : stretched && definite ? clampHeight(c, innerCross - margin[c].vertical) : Double.nan
                        sizing[c] = Self.dependsOnWidth | follows | (h.isNaN ? 0 : Self.definiteHeight)
                        if firstChild[c] < 0 {
                            leafWidths(c, definiteHeight: h)
                        } else if follows != 0 {
                            widthsAtHeight(c, h)
                        }
                    }
                    let base = flexBaseSize(c, column)
                    flexBase[c] = base
                    hypotheticalMain[c] = hypotheticalMainSize(c, column, base: base)
                }
                sum += hypotheticalMain[c] + marginMain(c, column)
            }
            c = Int(nextSibling[c])
        }
        childHypotheticalSum[i] = sum
    }

    /// Column container `i` after flexing (§9.4 step 7: an item's hypothetical cross size comes
    /// from laying it out at its used main size): an item whose widths follow its height, whose
    /// width is fit-content (not stretched, `auto`) and whose post-flexing height is definite
    /// (§9.8: its own height, or the container's definite height) gets its widths at that height.
    func widthsAfterFlexing(of i: Int, inflexible: Bool) {
        let containerFlags = flags[i]
        var c = Int(firstChild[i])
        while c >= 0 {
            if state[c] == Self.laidOut && sizing[c] & (Self.widthFromHeight | Self.definiteHeight)
                == Self.widthFromHeight | Self.definiteHeight && width[c].isNaN
                && resolvedAlignment(c, containerFlags: containerFlags) != FlexStylePacking.alignStretch {
                widthsAtHeight(c, inflexible ? hypotheticalMain[c] : frame[c].height)
            }
            c = Int(nextSibling[c])
        }
    }

    /// Node `i`'s widths when its border-box height is the definite `h` (NaN: indefinite): a
    /// leaf's (`leafWidths`); a row container's stretched items of `auto` height whose widths
    /// follow their height get theirs at the container's inner height (recursively), then the
    /// container's items' flex bases and hypothetical main sizes, its max- and min-content widths.
    func widthsAtHeight(_ i: Int, _ h: Double) {
        if firstChild[i] < 0 {
            leafWidths(i, definiteHeight: h)
            return
        }
        guard !isColumn(i) else { return }
        let inner = Swift.max(0, h - padding[i].vertical)
        let containerFlags = flags[i]
        var hypotheticalSum = 0.0, contributionSum = 0.0, minSum = 0.0
        var c = Int(firstChild[i])
        while c >= 0 {
            if state[c] == Self.laidOut {
                if followsRowHeight(c, containerFlags: containerFlags) {
                    widthsAtHeight(c, h.isNaN ? .nan : clampHeight(c, inner - margin[c].vertical))
                }
                let base = flexBaseSize(c, false)
                flexBase[c] = base
                hypotheticalMain[c] = hypotheticalMainSize(c, false, base: base)
                let m = margin[c].horizontal
                hypotheticalSum += hypotheticalMain[c] + m
                contributionSum += mainContribution(c, false, base: base) + m
                minSum += minContentContribution(c) + m
            }
            c = Int(nextSibling[c])
        }
        let count = Int(visibleChildCount[i])
        let gaps = count > 1 ? mainGap(i, false) * Double(count - 1) : 0
        childHypotheticalSum[i] = hypotheticalSum
        contentWidth[i] = padding[i].horizontal + Swift.max(0, contributionSum + gaps)
        minContentWidth[i] = padding[i].horizontal + Swift.max(0, minSum + gaps)
    }

    /// Item `c` of a row container (flags `containerFlags`) takes its widths from the
    /// container's height: they follow a definite height, and it is stretched with an `auto` height.
    @inline(__always) func followsRowHeight(_ c: Int, containerFlags: UInt16) -> Bool {
        sizing[c] & Self.widthFromHeight != 0 && height[c].isNaN
            && resolvedAlignment(c, containerFlags: containerFlags) == FlexStylePacking.alignStretch
    }

    /// The min-content contribution of item `c` to a row container, as Chromium sizes a
    /// single-line row: the larger of the min-content and the specified width, clamped by the
    /// min and max widths — not by the flex base size (unlike the max-content one). An aspect
    /// ratio's transferred width (`aspectBase`) counts as a specified width.
    @inline(__always) func minContentContribution(_ c: Int) -> Double {
        let specified = width[c].isNaN ? aspectBase[c] : width[c]
        let w = specified.isNaN ? minContentWidth[c] : Swift.max(specified, padding[c].horizontal)
        return clampMain(c, false, w)
    }

    /// Row container `i` once its line's cross size is known (its frame is final): a stretched
    /// item of `auto` height gets a definite height for its own items (§9.4 step 11: its contents
    /// are laid out again with the used cross size as its definite cross size), even when the
    /// container's height is not definite.
    func stretchedHeightsAreDefinite(of i: Int) {
        let containerFlags = flags[i]
        var c = Int(firstChild[i])
        while c >= 0 {
            if state[c] == Self.laidOut && sizing[c] & Self.dependsOnWidth != 0 && height[c].isNaN
                && resolvedAlignment(c, containerFlags: containerFlags) == FlexStylePacking.alignStretch {
                sizing[c] |= Self.definiteHeight
            }
            c = Int(nextSibling[c])
        }
    }

    /// Row container `i` after flexing: every dependent item's height at its used width.
    func measureItems(of i: Int, inflexible: Bool) {
        var c = Int(firstChild[i])
        while c >= 0 {
            if state[c] == Self.laidOut && sizing[c] & Self.dependsOnWidth != 0 {
                measure(c, width: inflexible ? hypotheticalMain[c] : frame[c].width)
            }
            c = Int(nextSibling[c])
        }
    }

    /// Sets `contentHeight[i]` to node `i`'s content height when its border-box width is `w`
    /// (and, for an aspect leaf in a column, the flex base its ratio gives). Recursive along
    /// dependent descendants (depth = the tree's nesting); measured once per width.
    func measure(_ i: Int, width w: Double) {
        if measuredWidth[i] == w { return }
        measuredWidth[i] = w
        if firstChild[i] < 0 {
            measureLeaf(i, width: w)
            return
        }
        let column = isColumn(i)
        let pad = padding[i]
        let inner = Swift.max(0, w - pad.horizontal)
        let count = Int(visibleChildCount[i])
        let gaps = count > 1 ? mainGap(i, column) * Double(count - 1) : 0
        if column {
            prepareItems(of: i, true, innerCross: inner, definite: false)
            contentHeight[i] = pad.vertical + Swift.max(0, childHypotheticalSum[i] + gaps)
            return
        }
        // A row: its items' widths come from flexing at `inner`, their heights from the widths.
        prepareItems(of: i, false, innerCross: 0, definite: false)
        let sum = childHypotheticalSum[i]
        let growing = sum + gaps < inner
        let flexFlags = childFlexFlags[i]
        let inflexible = sum + gaps == inner || (growing ? flexFlags & 1 == 0 : flexFlags & 2 == 0)
        if !inflexible { resolveFlexibleLengths(of: i, false, innerMain: inner, gaps: gaps) }
        measureItems(of: i, inflexible: inflexible)
        var maxCross = 0.0
        var c = Int(firstChild[i])
        while c >= 0 {
            if state[c] == Self.laidOut {
                maxCross = Swift.max(maxCross, hypotheticalCrossSize(c, false) + margin[c].vertical)
            }
            c = Int(nextSibling[c])
        }
        contentHeight[i] = pad.vertical + maxCross
    }

    /// A leaf's content height at border-box width `w`: its text wrapped at the content width
    /// (or its intrinsic box), at least the height its aspect ratio gives `w`; in a column
    /// that transferred height is also its flex base.
    @inline(__always) func measureLeaf(_ i: Int, width w: Double) {
        let x = extras[i]
        let pad = padding[i]
        var h = pad.vertical + (x.hasText ? x.textHeight(atWidth: w - pad.horizontal) : x.intrinsicHeight)
        if x.hasAspect {
            let t = LayoutUnit.snap(w * x.aspectHeight / x.aspectWidth)
            // The transferred height lies within the width's min and max (the min at least the
            // padding: border-box) converted through the ratio. The automatic minimum keeps the
            // content (at least the transferred height). Along a column's main axis it is the
            // flex item's content size suggestion, which those converted limits clamp too (CSS
            // Flexbox §4.5). Across a row it is the ratio-dependent axis's automatic minimum (a
            // stretched item of a row whose height is indefinite is as tall as its content, as in
            // Chromium), which a transferred max does not cap and an explicit min height
            // replaces: the height is then the transferred one (css-sizing-4 §5).
            let p = Int(parent[i])
            let inColumn = p < 0 || isColumn(p)
            let lo = LayoutUnit.snap(Swift.max(minWidth[i].isNaN ? 0 : minWidth[i], pad.horizontal)
                                     * x.aspectHeight / x.aspectWidth)
            let maxW = x.maxWidth
            let hi = maxW.isFinite ? LayoutUnit.snap(Swift.max(maxW, pad.horizontal) * x.aspectHeight / x.aspectWidth)
                : Double.infinity
            if inColumn {
                h = Swift.max(pad.vertical, Swift.max(Swift.min(Swift.max(h, t), hi), lo))
            } else {
                let transferred = Swift.max(Swift.min(t, hi), lo)
                h = Swift.max(pad.vertical, minHeight[i].isNaN ? Swift.max(h, transferred) : transferred)
            }
            if inColumn { aspectBase[i] = t }
        }
        contentHeight[i] = h
    }

    /// A leaf's max- and min-content widths: one line of its text (or its intrinsic box) and
    /// one glyph; with an aspect ratio and a definite height (NaN: none) in a row, at least the
    /// width the ratio gives it, which is then also its flex base.
    @inline(__always) func leafWidths(_ i: Int, definiteHeight h: Double) {
        let x = extras[i]
        let pad = padding[i].horizontal
        var maxContent = pad + x.intrinsicWidth, minContent = maxContent
        if x.hasText {
            maxContent = pad + x.textCount * x.glyphWidth
            minContent = pad + (x.textCount > 0 ? x.glyphWidth : 0)
        }
        aspectBase[i] = .nan
        if x.hasAspect {
            if !h.isNaN {
                // A definite height (already within its min and max) gives the preferred width:
                // the max-content width and the flex base are the transferred size; the content
                // counts only through the automatic minimum (the min-content width, at least the
                // transferred size), not clamped again by the height's limits.
                // With `min-width: auto` the width is at least that automatic minimum (the
                // content's min-content width, css-sizing-4 §5): also its max-content width, so a
                // column's intrinsic width and a fit-content width keep the content. An explicit
                // min width replaces that minimum: both widths are then the transferred one.
                let t = LayoutUnit.snap(h * x.aspectWidth / x.aspectHeight)
                aspectBase[i] = t
                minContentWidth[i] = Swift.max(pad, minWidth[i].isNaN ? Swift.max(minContent, t) : t)
                contentWidth[i] = minWidth[i].isNaN ? minContentWidth[i] : Swift.max(pad, t)
                return
            }
            // Within the height's min and max converted through the ratio.
            let lo = LayoutUnit.snap(Swift.max(minHeight[i].isNaN ? 0 : minHeight[i], padding[i].vertical)
                                     * x.aspectWidth / x.aspectHeight)
            let maxH = x.maxHeight
            let hi = maxH.isFinite ? LayoutUnit.snap(Swift.max(maxH, padding[i].vertical) * x.aspectWidth / x.aspectHeight)
                : Double.infinity
            maxContent = Swift.max(pad, Swift.max(Swift.min(maxContent, hi), lo))
            minContent = Swift.max(pad, Swift.max(Swift.min(minContent, hi), lo))
        }
        contentWidth[i] = maxContent
        minContentWidth[i] = minContent
    }

    /// The height of node `i` when its styles alone make it definite (NaN otherwise): its
    /// specified height, or the inner height of a row parent whose height is so definite, for
    /// a stretched item. (A height definite after a column's flexing is known top-down only.)
    func styledHeight(_ i: Int) -> Double {
        if !height[i].isNaN { return clampHeight(i, height[i]) }
        let p = Int(parent[i])
        guard p >= 0, !isColumn(p), crossSpec(i, false).isNaN,
              resolvedAlignment(i, containerFlags: flags[p]) == FlexStylePacking.alignStretch else { return .nan }
        let h = styledHeight(p)
        return h.isNaN ? .nan : clampHeight(i, Swift.max(0, h - padding[p].vertical) - margin[i].vertical)
    }

    /// fit-content width of item `c` in `available` space: min(max-content, max(min-content,
    /// available)), clamped by its min and max widths.
    @inline(__always) func fitContentWidth(_ c: Int, available: Double) -> Double {
        clampWidth(c, Swift.min(contentWidth[c], Swift.max(minContentWidth[c], available)))
    }

    /// A width clamped by the node's max, then min width (never below its padding).
    @inline(__always) func clampWidth(_ i: Int, _ w: Double) -> Double {
        let lo = minWidth[i].isNaN ? 0 : minWidth[i]
        return Swift.max(Swift.max(Swift.min(w, extras[i].maxWidth), lo), padding[i].horizontal)
    }

    /// A height clamped by the node's max, then min height (never below its padding).
    @inline(__always) func clampHeight(_ i: Int, _ h: Double) -> Double {
        let lo = minHeight[i].isNaN ? 0 : minHeight[i]
        return Swift.max(Swift.max(Swift.min(h, extras[i].maxHeight), lo), padding[i].vertical)
    }
}
