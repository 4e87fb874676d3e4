/// CSS Flexbox §9.5 — Main-Axis Alignment (`justify-content`; margins are never `auto` here).
extension FlexLayoutPass {
    /// The offset of the first item and the extra space between consecutive items for
    /// `justify` (a `FlexStylePacking` justify code) given the line's leftover free space and
    /// its number of items. As in Chromium, negative free space makes `space-between`,
    /// `space-around` and `space-evenly` behave as `flex-start` (their fallback is `safe`);
    /// `flex-end` and `center` are unsafe and overflow at the start.
    /// Both are snapped to layout units (`LayoutUnit`), so positions stay exact sums.
    @inline(__always)
    static func mainAxisDistribution(justify: UInt8, freeSpace: Double, itemCount: Int) -> (leading: Double, between: Double) {
        let (leading, between) = rawDistribution(justify: justify, freeSpace: freeSpace, itemCount: itemCount)
        return (LayoutUnit.snap(leading), LayoutUnit.snap(between))
    }

    @inline(__always)
    private static func rawDistribution(justify: UInt8, freeSpace: Double, itemCount: Int) -> (leading: Double, between: Double) {
        switch justify {
        case FlexStylePacking.justifyEnd:
            return (freeSpace, 0)
        case FlexStylePacking.justifyCenter:
            return (freeSpace / 2, 0)
        case FlexStylePacking.justifyBetween:
            if freeSpace > 0 && itemCount > 1 { return (0, freeSpace / Double(itemCount - 1)) }
            return (0, 0)
        case FlexStylePacking.justifyAround:
            if freeSpace > 0 && itemCount > 0 {
                let share = freeSpace / Double(itemCount)
                return (share / 2, share)
            }
            return (0, 0)
        case FlexStylePacking.justifyEvenly:
            if freeSpace > 0 && itemCount > 0 {
                let share = freeSpace / Double(itemCount + 1)
                return (share, share)
            }
            return (0, 0)
        default:
            return (0, 0)
        }
    }
}
