/// CSS Flexbox §9.4 — Cross Size Determination for a single-line container whose size is
/// final: the line's cross size is the container's inner cross size (§9.4 step 8, single-line
/// with a definite cross size; an auto cross size was already computed from the items'
/// hypothetical cross sizes, §9.4 step 15), and stretched items fill it (step 11).
extension FlexLayoutPass {
    /// The `align-self` of item `c` resolved against its container's `align-items` flags.
    @inline(__always) func resolvedAlignment(_ c: Int, containerFlags: UInt16) -> UInt8 {
        let own = FlexStylePacking.alignSelf(flags[c])
        return own == FlexStylePacking.alignAuto ? FlexStylePacking.alignItems(containerFlags) : own
    }

    /// The used cross size (border box) of item `c` in a line of cross size `lineCross`:
    /// `align-self: stretch` with an `auto` cross size makes the outer cross size the line's,
    /// clamped by the max and min cross sizes; otherwise the hypothetical cross size (an `auto`
    /// width in a column is fit-content, which differs from max-content only with text).
    @inline(__always) func usedCrossSize(_ c: Int, _ column: Bool, alignment: UInt8, lineCross: Double) -> Double {
        if alignment == FlexStylePacking.alignStretch && crossSpec(c, column).isNaN {
            return clampCross(c, column, lineCross - marginCross(c, column))
        }
        if heightForWidth && column && crossSpec(c, column).isNaN {
            return fitContentWidth(c, available: lineCross - marginCross(c, column))
        }
        return hypotheticalCrossSize(c, column)
    }
}
