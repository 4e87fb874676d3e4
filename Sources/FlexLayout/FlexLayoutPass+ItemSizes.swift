/// Per-item sizes along a container's axes (CSS Flexbox §9.2 step 3, §4.5, §9.4 step 7).
/// All sizes are border-box sizes; a border box is never smaller than its padding
/// (its content box floors at zero).
extension FlexLayoutPass {
    /// §9.2 step 3 — the flex base size of item `i` in a container of direction `column`:
    /// a definite `flex-basis`; else (`flex-basis: auto`) the specified main size; else the
    /// max-content main size (`content`). The content box floors at zero, as in Chromium.
    @inline(__always) func flexBaseSize(_ i: Int, _ column: Bool) -> Double {
        let pad = paddingMain(i, column)
        let basis = flexBasis[i]
        if !basis.isNaN { return Swift.max(basis, pad) }
        let spec = mainSpec(i, column)
        if !spec.isNaN { return Swift.max(spec, pad) }
        if heightForWidth && !aspectBase[i].isNaN { return Swift.max(aspectBase[i], pad) }
        return mainContent(i, column)
    }

    /// The used minimum main size of item `i` (border box, at least its padding).
    /// An explicit `min-width`/`min-height` is used as is; `auto` is the automatic minimum size
    /// of flex items (§4.5, every item here has `overflow: visible`): the content-based minimum
    /// size = min(specified size suggestion, content size suggestion), where the content size
    /// suggestion is the min-content main size (equal to max-content except for widths with text),
    /// both clamped by the max main size when it is definite.
    @inline(__always) func minMainSize(_ i: Int, _ column: Bool) -> Double {
        let pad = paddingMain(i, column)
        let explicit = mainMin(i, column)
        if !explicit.isNaN { return Swift.max(explicit, pad) }
        let content = heightForWidth && !column ? minContentWidth[i] : mainContent(i, column)
        var m = Swift.min(content, mainMax(i, column))
        let spec = mainSpec(i, column)
        if !spec.isNaN { m = Swift.min(m, Swift.max(spec, pad)) }
        return Swift.max(m, pad)
    }

    /// `size` clamped by the item's max main size, then by its used min main size (a min larger
    /// than the max wins, as in CSS).
    @inline(__always) func clampMain(_ i: Int, _ column: Bool, _ size: Double) -> Double {
        Swift.max(Swift.min(size, mainMax(i, column)), minMainSize(i, column))
    }

    /// §9.2 step 3 — hypothetical main size: the flex base size clamped by the used min and
    /// max main sizes and floored at the padding.
    @inline(__always) func hypotheticalMainSize(_ i: Int, _ column: Bool, base: Double) -> Double {
        clampMain(i, column, base)
    }

    /// The used minimum cross size: an explicit min size, else 0 (`min-*: auto` is 0 in the
    /// cross axis); never below the padding.
    @inline(__always) func minCrossSize(_ i: Int, _ column: Bool) -> Double {
        let pad = paddingCross(i, column)
        let explicit = crossMin(i, column)
        return explicit.isNaN ? pad : Swift.max(explicit, pad)
    }

    /// `size` clamped by the max cross size, then by the used min cross size.
    @inline(__always) func clampCross(_ i: Int, _ column: Bool, _ size: Double) -> Double {
        Swift.max(Swift.min(size, crossMax(i, column)), minCrossSize(i, column))
    }

    /// §9.4 step 7 — hypothetical cross size: the specified cross size, else the content cross
    /// size (fit-content in a column container equals max-content here), clamped by the min
    /// and max cross sizes.
    @inline(__always) func hypotheticalCrossSize(_ i: Int, _ column: Bool) -> Double {
        let spec = crossSpec(i, column)
        return clampCross(i, column, spec.isNaN ? crossContent(i, column) : spec)
    }

    /// The main-size max-content (= min-content) contribution of item `i` (CSS Flexbox §9.9.1,
    /// as Chromium implements it): its specified size, else its content size,
    /// clamped by its flex base size as a maximum if it cannot grow (`flex-grow: 0`) and as a
    /// minimum if it cannot shrink (`flex-shrink: 0`), then by its used max and min main sizes.
    /// `base` is its flex base size.
    @inline(__always) func mainContribution(_ i: Int, _ column: Bool, base: Double) -> Double {
        let spec = mainSpec(i, column)
        var size = spec.isNaN ? mainContent(i, column) : Swift.max(spec, paddingMain(i, column))
        if flexGrow[i] == 0 { size = Swift.min(size, base) }
        if flexShrink[i] == 0 { size = Swift.max(size, base) }
        return clampMain(i, column, size)
    }
}
