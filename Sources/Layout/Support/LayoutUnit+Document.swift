// Layout units (`LayoutUnit`, in the engine's folder) applied to the document's lengths.

extension LayoutUnit {
    /// Each edge snapped.
    @inline(__always) public static func snap(_ e: Edges) -> Edges {
        Edges(top: snap(e.top), left: snap(e.left), bottom: snap(e.bottom), right: snap(e.right))
    }
}

extension DocumentSettings {
    /// The root's padding as the layout uses it (in layout units): its own, the leading edge
    /// along the main axis plus the safe area's (SPEC §2.5: the first row rests below the top
    /// bar; the trailing edge extends the scroll range through the clamp, §2.6).
    var layoutPadding: Edges {
        var p = padding
        if axis == .vertical { p.top += safeArea.top } else { p.left += safeArea.left }
        return LayoutUnit.snap(p)
    }
    /// The root's spacing as the layout uses it (in layout units).
    var layoutSpacing: Double { LayoutUnit.snap(spacing) }
}

extension RowConfig {
    /// The row's margin as the layout uses it (in layout units).
    var layoutMargin: Edges { LayoutUnit.snap(margin) }
}
