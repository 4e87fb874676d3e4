/// CSS Flexbox §9.6 — Cross-Axis Alignment (`align-self`; margins are never `auto` here).
extension FlexLayoutPass {
    /// The offset of an item's margin box inside the line for `alignment` (a `FlexStylePacking`
    /// align code), given the line's free cross space (line cross size − outer cross size).
    /// Overflow is unsafe, as in Chromium: `center` and `flex-end` may go negative. In layout
    /// units (`LayoutUnit`).
    @inline(__always) static func crossAxisOffset(alignment: UInt8, freeSpace: Double) -> Double {
        switch alignment {
        case FlexStylePacking.alignEnd: LayoutUnit.snap(freeSpace)
        case FlexStylePacking.alignCenter: LayoutUnit.snap(freeSpace / 2)
        default: 0 // flex-start, and stretch (which already fills the line or acts as flex-start)
        }
    }
}
