/// Intrinsic (content) sizes, bottom-up (CSS Flexbox §9.9, as Chromium sizes single-line
/// flex containers). Without text or aspect ratios the min-content and max-content sizes of
/// every box coincide, and a box's size along one axis never depends on its size along the
/// other, so one content size per axis describes a subtree. With them (`heightForWidth`), the
/// widths are still bottom-up (plus a min-content width), and the heights that depend on a
/// width are provisional here and measured top-down (`FlexLayoutPass+HeightForWidth`).
extension FlexLayoutPass {
    /// Backward sweep over the subtree: children are finished before their parent.
    func computeIntrinsicSizes(root: Int) {
        var i = count - 1
        while i >= root {
            if state[i] == Self.laidOut { computeContentSize(of: i) }
            i -= 1
        }
    }

    /// Content size of node `i` (border box ignoring its own width/height) and, for each visible
    /// child, its flex base size and hypothetical main size along `i`'s main axis.
    ///
    /// - Main axis of a column container (its block axis): the sum of the items' outer
    ///   hypothetical main sizes plus gaps — the height the flex algorithm gives it when its
    ///   main size is indefinite.
    /// - Main axis of a row container: the sum of the items' outer max-content contributions
    ///   plus gaps (§9.9.1 for a single-line container; see `mainContribution`).
    /// - Cross axis: the largest outer hypothetical cross size.
    @inline(__always) func computeContentSize(of i: Int) {
        let pad = padding[i]
        var c = Int(firstChild[i])
        if c < 0 {
            let x = extras[i]
            contentWidth[i] = pad.horizontal + x.intrinsicWidth
            contentHeight[i] = pad.vertical + x.intrinsicHeight
            visibleChildCount[i] = 0
            childHypotheticalSum[i] = 0
            childFlexFlags[i] = 0
            if heightForWidth { startLeaf(i, x) }
            return
        }
        let column = isColumn(i)
        var hypotheticalSum = 0.0
        var contributionSum = 0.0
        var maxCross = 0.0
        var visible = 0
        var flexFlags: UInt8 = 0
        while c >= 0 {
            if state[c] == Self.laidOut {
                let base = flexBaseSize(c, column)
                let hypothetical = hypotheticalMainSize(c, column, base: base)
                flexBase[c] = base
                hypotheticalMain[c] = hypothetical
                let mm = marginMain(c, column)
                hypotheticalSum += hypothetical + mm
                if !column { contributionSum += mainContribution(c, column, base: base) + mm }
                let cross = hypotheticalCrossSize(c, column) + marginCross(c, column)
                if cross > maxCross { maxCross = cross }
                visible += 1
                if flexGrow[c] > 0 { flexFlags |= 1 }
                if flexShrink[c] > 0 { flexFlags |= 2 }
            }
            c = Int(nextSibling[c])
        }
        childHypotheticalSum[i] = hypotheticalSum
        visibleChildCount[i] = Int32(truncatingIfNeeded: visible)
        childFlexFlags[i] = flexFlags
        let gaps = visible > 1 ? mainGap(i, column) * Double(visible - 1) : 0
        if column {
            contentHeight[i] = pad.vertical + Swift.max(0, hypotheticalSum + gaps)
            contentWidth[i] = pad.horizontal + maxCross
        } else {
            contentWidth[i] = pad.horizontal + Swift.max(0, contributionSum + gaps)
            contentHeight[i] = pad.vertical + maxCross
        }
        if heightForWidth { startContainer(i, column, gaps: gaps) }
    }
}
