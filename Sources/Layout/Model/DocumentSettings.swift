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
    /// The viewport's safe area: edges that are obscured *and* extend the scroll range (view
    /// state, `viewport W H safe-area T L B R`, SPEC §2.5): the layout adds the leading one along
    /// the main axis to the root's padding, so at offset 0 the first row rests below the top
    /// edge, and at the largest offset the last row ends above the bottom one (UIScrollView's
    /// adjusted content inset). Zero by default.
    public var safeArea: Edges
    /// The height of the keyboard obscuring the viewport's bottom edge; 0 is `keyboard off`
    /// (view state, SPEC §2.5).
    public var keyboard: Double

    /// Settings; every parameter defaults to the value of a new document.
    public init(axis: Axis = .vertical, viewport: Size = Size(width: 390, height: 844), offset: Double = 0,
                padding: Edges = .zero, spacing: Double = 0, justify: Justify = .start,
                align: Align = .stretch, defaults: DocumentDefaults = DocumentDefaults(),
                viewportInsets: Edges = .zero, keyboard: Double = 0, safeArea: Edges = .zero) {
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
        self.safeArea = safeArea
    }

    /// The edges of the viewport that something covers: each the larger of the insets and the
    /// safe area, the bottom one at least the keyboard's height (SPEC §2.5).
    public var obscured: Edges {
        Edges(top: max(viewportInsets.top, safeArea.top), left: max(viewportInsets.left, safeArea.left),
              bottom: max(viewportInsets.bottom, safeArea.bottom, keyboard),
              right: max(viewportInsets.right, safeArea.right))
    }
}
