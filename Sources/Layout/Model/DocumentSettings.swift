/// Live defaults of a document: rows that override nothing follow them (SPEC §2.1).
public struct DocumentDefaults: Hashable, Sendable, Codable {
    /// The insets of rows that set none (12, 15, 12, 15 by default).
    public var insets: Edges
    /// The separator of rows that override nothing.
    public var separator: SeparatorStyle
    /// Hides the separator of the last row of every stack (on by default).
    public var autoHideLastSeparator: Bool

    /// Defaults; every parameter defaults to the spec's value.
    public init(insets: Edges = Edges(top: 12, left: 15, bottom: 12, right: 15),
                separator: SeparatorStyle = .standard,
                autoHideLastSeparator: Bool = true) {
        self.insets = insets
        self.separator = separator
        self.autoHideLastSeparator = autoHideLastSeparator
    }
}

/// The root stack's settings and the view state of a document (SPEC §2.1), everything but its
/// name and rows.
public struct DocumentSettings: Hashable, Sendable, Codable {
    /// The root stack's axis (the scroll direction).
    public var axis: Axis
    /// The viewport's size in points.
    public var viewport: Size
    /// Scroll offset along the main axis; kept clamped by the layout (SPEC §2.6).
    public var offset: Double
    /// The root stack's padding.
    public var padding: Edges
    /// The gap between root rows.
    public var spacing: Double
    /// The root stack's main-axis distribution.
    public var justify: Justify
    /// The root stack's cross alignment.
    public var align: Align
    /// The live defaults rows follow.
    public var defaults: DocumentDefaults
    /// The viewport's obscured edges (safe area, bars): view state, `viewport W H insets T L B R`
    /// (SPEC §2.5). Zero by default.
    public var viewportInsets: Edges
    /// The height of the keyboard obscuring the viewport's bottom edge; 0 is `keyboard off`
    /// (view state, SPEC §2.5).
    public var keyboard: Double

    /// Settings; every parameter defaults to the value of a new document.
    public init(axis: Axis = .vertical, viewport: Size = Size(width: 390, height: 844), offset: Double = 0,
                padding: Edges = .zero, spacing: Double = 0, justify: Justify = .start,
                align: Align = .stretch, defaults: DocumentDefaults = DocumentDefaults(),
                viewportInsets: Edges = .zero, keyboard: Double = 0) {
        self.axis = axis
        self.viewport = viewport
        self.offset = offset
        self.padding = padding
        self.spacing = spacing
        self.justify = justify
        self.align = align
        self.defaults = defaults
        self.viewportInsets = viewportInsets
        self.keyboard = keyboard
    }

    /// The edges of the viewport that something covers: the insets, the bottom one at least the
    /// keyboard's height (SPEC §2.5).
    public var obscured: Edges {
        Edges(top: viewportInsets.top, left: viewportInsets.left,
              bottom: max(viewportInsets.bottom, keyboard), right: viewportInsets.right)
    }
}
