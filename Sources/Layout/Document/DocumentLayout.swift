/// How much of a row the viewport shows (SPEC §2.5).
public enum Visibility: String, CaseIterable, Hashable, Sendable {
    /// `hidden`: the row (or a stack above it) is hidden; `entire`: the viewport shows all of its
    /// frame; `partial`: some of it; `offscreen`: none of it.
    case hidden, entire, partial, offscreen
}

/// One row of a computed layout (SPEC §4.2 `rows[]`). Frames are absolute, in the root's content
/// coordinates; hidden rows (and rows under a hidden row) have no frames.
public struct RowLayout: Hashable, Sendable {
    /// The row's id.
    public var id: RowID
    /// The stack row it is in (nil: the root stack).
    public var parent: RowID?
    /// Its 0-based index among its stack's rows.
    public var index: Int
    /// Its type.
    public var type: String
    /// True when the row itself is hidden (`visibility` is also `hidden` under a hidden stack).
    public var hidden: Bool
    /// The row's frame: the content frame plus its insets (nil when hidden).
    public var frame: Rect?
    /// The content frame, inside the insets (nil when hidden).
    public var content: Rect?
    /// The separator's frame (nil when the row shows none, SPEC §2.4).
    public var separator: Rect?
    /// How much of the row the viewport shows (SPEC §2.5).
    public var visibility: Visibility
    /// 100 × visible area / frame area; 100 for `entire`, 0 for `offscreen` and `hidden`.
    public var percent: Double

    /// A row's layout from its fields.
    public init(id: RowID, parent: RowID?, index: Int, type: String, hidden: Bool, frame: Rect?,
                content: Rect?, separator: Rect?, visibility: Visibility, percent: Double) {
        self.id = id
        self.parent = parent
        self.index = index
        self.type = type
        self.hidden = hidden
        self.frame = frame
        self.content = content
        self.separator = separator
        self.visibility = visibility
        self.percent = percent
    }
}

/// A row whose visibility state changed between two layouts (SPEC §2.5 transitions), or that
/// arrived in the document (`from` nil) or left it (`to` nil).
public struct VisibilityTransition: Hashable, Sendable {
    /// The row whose visibility changed.
    public var row: RowID
    /// Its visibility before the change; nil for a row the change inserted.
    public var from: Visibility?
    /// Its visibility after the change; nil for a row the change removed.
    public var to: Visibility?

    /// A transition of `row` from `from` to `to`.
    ///
    /// - Parameters:
    ///   - row: The row.
    ///   - from: Its visibility before (nil: the row is new).
    ///   - to: Its visibility after (nil: the row was removed).
    public init(row: RowID, from: Visibility?, to: Visibility?) {
        self.row = row
        self.from = from
        self.to = to
    }
}

/// A document laid out: every row's frames and visibility, the content size and the clamped
/// offset (SPEC §2.3–§2.6, §4.2).
public struct DocumentLayout: Hashable, Sendable {
    /// The document's name.
    public var document: String
    /// The root stack's axis (the scroll direction).
    public var axis: Axis
    /// The viewport's size.
    public var viewport: Size
    /// The viewport's obscured edges (insets, the keyboard at the bottom; SPEC §2.5): visibility
    /// and scroll targets use the unobscured rectangle.
    public var obscured: Edges
    /// The viewport's safe area (SPEC §2.5), already part of `obscured` and of the root's
    /// padding: shown by `status`, `layout`, `draw` and the SVG picture.
    public var safeArea: Edges
    /// The offset clamped to [0, max(0, content main − viewport main)].
    public var offset: Double
    /// The size of the whole content (the root stack's frame).
    public var contentSize: Size
    /// Every row at every depth, in document order.
    public var rows: [RowLayout] {
        didSet { index = LayoutIndex() }
    }
    /// Rows shown away from their frame by sticky positioning at this offset (SPEC §2.7) and by
    /// the offsets of stacks that scroll on their own (SPEC §2.8), by id: stuck sticky rows, the
    /// rows inside them and the rows inside scrolled stacks. Empty in a document without sticky rows.
    public var displaced: [RowID: StuckRow] = [:]
    /// The shown sticky rows' offset-independent facts (what `atOffset` recomputes `displaced`
    /// from); not part of equality.
    var stickyBases: [StickyBasis] = []
    /// The shown stacks that scroll on their own (SPEC §2.8) with their offset-independent facts
    /// and stored offsets; not part of equality (their effect is: `displaced`, visibility).
    var scrollerBases: [ScrollerBasis] = []
    /// The rows inside stacks that scroll on their own (SPEC §2.8), by id: the rectangle they
    /// can be seen in (the unobscured rectangle cut to their scrolling ancestors' shown boxes),
    /// what visibility is measured against and `draw` clips them to. Derived from the offsets,
    /// so not part of equality.
    public internal(set) var clips: [RowID: Rect] = [:]
    /// Lookup structures over `rows`, built when first needed; replaced whenever `rows` changes.
    var index: LayoutIndex

    /// A layout from its fields (`offset` is taken as given).
    public init(document: String, axis: Axis, viewport: Size, offset: Double, contentSize: Size, rows: [RowLayout],
                obscured: Edges = .zero, safeArea: Edges = .zero) {
        self.document = document
        self.axis = axis
        self.viewport = viewport
        self.obscured = obscured
        self.safeArea = safeArea
        self.offset = offset
        self.contentSize = contentSize
        self.rows = rows
        self.index = LayoutIndex()
    }

    /// Equal when every public field is equal (the lookup cache does not count).
    public static func == (a: DocumentLayout, b: DocumentLayout) -> Bool {
        a.document == b.document && a.axis == b.axis && a.viewport == b.viewport && a.obscured == b.obscured
            && a.safeArea == b.safeArea
            && a.offset == b.offset
            && a.contentSize == b.contentSize && a.rows == b.rows && a.displaced == b.displaced
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(document)
        hasher.combine(axis)
        hasher.combine(viewport)
        hasher.combine(obscured)
        hasher.combine(safeArea)
        hasher.combine(offset)
        hasher.combine(contentSize)
        hasher.combine(rows)
        hasher.combine(displaced)
    }
}
