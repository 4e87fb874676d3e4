/// CSS Flexbox §9.5 — Main-Axis Alignment (`justify-content`; margins are never `auto` here).
extension FlexLayoutPass {
    /// How a line's leftover free space is placed, in layout units (`LayoutUnit`) as Chromium
    /// places it: the first item moves by `leading` (the raw offset truncated toward zero, as a
    /// `LayoutUnit` divided by an integer is), and item k (0-based, in order) by `leading` plus
    /// `extra(before: k)` — k shares of the space between items, rounded to the nearest unit
    /// (halves away from zero) as a whole, so that the gaps sum exactly to the distributed space
    /// (446 pt over three gaps is 148.671875, 148.65625, 148.671875: the last item ends flush).
    struct MainAxisDistribution {
        /// The first item's offset from the line's start.
        let leading: Double
        /// The free space the gaps share, in units of 1/64 pt (0: none).
        let sharedUnits: Double
        /// The number of shares it is cut into (1 when nothing is shared).
        let shares: Double

        /// The offset of item `k` beyond `leading`: k shares, rounded once, in points.
        @inline(__always) func extra(before k: Int) -> Double {
            guard k > 0, sharedUnits != 0 else { return 0 }
            return (Double(k) * sharedUnits / shares).rounded(.toNearestOrAwayFromZero) / LayoutUnit.perPoint
        }
    }

    /// The distribution of `freeSpace` for `justify` (a `FlexStylePacking` justify code) over a
    /// line of `itemCount` items. As in Chromium, negative free space makes `space-between`,
    /// `space-around` and `space-evenly` behave as `flex-start` (their fallback is `safe`);
    /// `flex-end` and `center` are unsafe and overflow at the start.
    @inline(__always)
    static func mainAxisDistribution(justify: UInt8, freeSpace: Double, itemCount: Int) -> MainAxisDistribution {
        let units = freeSpace * LayoutUnit.perPoint
        func make(_ leadingUnits: Double, shares: Int) -> MainAxisDistribution {
            MainAxisDistribution(leading: leadingUnits.rounded(.towardZero) / LayoutUnit.perPoint,
                                 sharedUnits: shares > 0 ? units : 0, shares: Double(Swift.max(shares, 1)))
        }
        switch justify {
        case FlexStylePacking.justifyEnd:
            return make(units, shares: 0)
        case FlexStylePacking.justifyCenter:
            return make(units / 2, shares: 0)
        case FlexStylePacking.justifyBetween where freeSpace > 0 && itemCount > 1:
            return make(0, shares: itemCount - 1)
        case FlexStylePacking.justifyAround where freeSpace > 0 && itemCount > 0:
            return make(units / Double(2 * itemCount), shares: itemCount)
        case FlexStylePacking.justifyEvenly where freeSpace > 0 && itemCount > 0:
            return make(units / Double(itemCount + 1), shares: itemCount + 1)
        default:
            return make(0, shares: 0)
        }
    }
}
