// Layout units (`LayoutUnit`, in the engine's folder) applied to the document's lengths.

extension LayoutUnit {
    /// Each edge snapped.
    @inline(__always) public static func snap(_ e: Edges) -> Edges {
        Edges(top: snap(e.top), left: snap(e.left), bottom: snap(e.bottom), right: snap(e.right))
    }
}

extension DocumentSettings {
    /// The root's padding as the layout uses it (in layout units).
    var layoutPadding: Edges { LayoutUnit.snap(padding) }
    /// The root's spacing as the layout uses it (in layout units).
    var layoutSpacing: Double { LayoutUnit.snap(spacing) }
}

extension RowConfig {
    /// The row's margin as the layout uses it (in layout units).
    var layoutMargin: Edges { LayoutUnit.snap(margin) }
}
