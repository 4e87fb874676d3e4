/// The separator geometry of SPEC §2.4 (ScrollStackController semantics).
enum SeparatorRule {
    /// The separator frame of a row with frame `frame` in a stack along `parentAxis`, or nil when
    /// the row has none: the effective style is hidden, the row is the last non-hidden row of its
    /// stack while `autoHideLast` is on (`isLastShown`), or the row frame or the separator frame
    /// lacks a positive width and height.
    ///
    /// In a vertical stack the separator overlays the bottom edge:
    /// (x + s.left, maxY − t, width − s.left − s.right, t); in a horizontal stack the trailing
    /// edge: (maxX − t, y + s.top, t, height − s.top − s.bottom); s and t in layout units.
    static func frame(row frame: Rect, parentAxis: Axis, style: SeparatorStyle,
                      isLastShown: Bool, autoHideLast: Bool) -> Rect? {
        if style.hidden || (isLastShown && autoHideLast) { return nil }
        guard frame.width > 0, frame.height > 0 else { return nil }
        let s = LayoutUnit.snap(style.insets), t = LayoutUnit.snap(style.thickness)
        let sep: Rect
        switch parentAxis {
        case .vertical:
            sep = Rect(x: frame.x + s.left, y: frame.maxY - t, width: frame.width - s.left - s.right, height: t)
        case .horizontal:
            sep = Rect(x: frame.maxX - t, y: frame.y + s.top, width: t, height: frame.height - s.top - s.bottom)
        }
        guard sep.width > 0, sep.height > 0 else { return nil }
        return sep
    }
}
