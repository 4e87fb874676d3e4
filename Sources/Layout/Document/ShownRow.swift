/// One row of a layout as the viewport shows it, what `DocumentLayout.row(_:)` and
/// `LiveLayout.row(_:)` answer: the row's `RowLayout`, whose fields read through
/// (`layout.row("h")?.frame`), and where sticky positioning shows it at the layout's offset
/// (SPEC §2.7), under the names JSON gives them (`shownFrame`, `stuck`).
///
/// Built when a row is asked for: a layout's `rows` hold only `RowLayout`s (no per-row cost in a
/// large document), the shift comes from `DocumentLayout.displaced`.
@dynamicMemberLookup
public struct ShownRow: Hashable, Sendable {
    /// The row's layout: its frames in flow, visibility and place.
    public var layout: RowLayout
    /// Its sticky shift at the offset; nil when the row is shown at its frame.
    public var displacement: StuckRow?

    /// The row's layout with its sticky shift (nil: shown at its frame).
    public init(_ layout: RowLayout, displacement: StuckRow? = nil) {
        self.layout = layout
        self.displacement = displacement
    }

    /// Where the row is shown at the offset when sticky positioning moves it (a stuck sticky
    /// row, or a row inside one): its frame moved by the shift, as JSON's `shownFrame`. Nil when
    /// the row is shown at its frame (and for a hidden row); `frame` is then where it is shown.
    public var shownFrame: Rect? {
        guard let displacement, let frame = layout.frame else { return nil }
        return displacement.moved(frame)
    }

    /// True for a sticky row moved by its own shift (JSON's `stuck`); false for a row shown at
    /// its frame or moved only with a stuck ancestor.
    public var stuck: Bool { displacement?.stuck ?? false }

    /// A field of the row's layout (`id`, `frame`, `visibility`, `percent`, …).
    public subscript<T>(dynamicMember field: KeyPath<RowLayout, T>) -> T { layout[keyPath: field] }
}
