/// Where a row goes among its stack's rows (SPEC §4.1 `at top|bottom|INDEX | after ROW | before ROW`).
public enum Position: Hashable, Sendable, Codable {
    case top
    case bottom
    case index(Int)
    case after(RowID)
    case before(RowID)
}

/// One word group of SEPSPEC (SPEC §4.1): a change to separator overrides or defaults.
public enum SeparatorSpec: Hashable, Sendable, Codable {
    case hidden
    case shown
    case insets(Edges)
    case thickness(Double)
    case color(String)
    /// Drop every override: follow the document default again.
    case `default`
}

/// One word group of ROWSPEC (SPEC §4.1). Applied left to right; a later item wins.
public enum RowSpecItem: Hashable, Sendable, Codable {
    case type(String)
    case fixed(Double)
    case fit
    case content(Size)
    case insets(Edges)
    /// `insets default`: inherit the document's live default again.
    case insetsDefault
    case margin(Edges)
    case grow(Double)
    case shrink(Double)
    /// `align A`: the row's own `alignSelf`.
    case align(AlignSelf)
    case hidden
    /// `stack vertical|horizontal`: makes the row a nested stack (or changes its axis).
    case stack(Axis)
    /// `justify J`: a stack row's main-axis distribution (makes the row a stack if it is not).
    case justify(Justify)
    /// `align-items A`: a stack row's cross alignment of its rows (the spec is silent on how to
    /// set it; see docs/decisions.md).
    case alignItems(Align)
    /// `spacing N`: a stack row's gap (makes the row a stack if it is not).
    case spacing(Double)
    case separator(SeparatorSpec)
}

/// A root-stack setting (SPEC §4.1 `set stack …`).
public enum StackSettingSpec: Hashable, Sendable, Codable {
    case axis(Axis)
    case padding(Edges)
    case spacing(Double)
    case justify(Justify)
    case align(Align)
}

/// A change of the document's live defaults (SPEC §4.1 `defaults …`).
public enum DefaultsSpec: Hashable, Sendable, Codable {
    case insets(Edges)
    case separator([SeparatorSpec])
    case autoHide(Bool)
}

/// Where `scroll to ROW` aims (SPEC §2.6).
public enum ScrollPosition: String, CaseIterable, Hashable, Sendable, Codable {
    case top, middle, bottom, auto
}

/// A scroll command (SPEC §4.1 View).
public enum ScrollSpec: Hashable, Sendable, Codable {
    case offset(Double)
    case by(Double)
    case to(RowID, ScrollPosition)
}

/// Every command that changes a document (SPEC §4.1), as data. One edit is one operation of the
/// log; `Document.plan(_:)` turns it into primitive `Change`s or throws without changing anything.
public enum Edit: Hashable, Sendable, Codable {
    case add(ids: [RowID], spec: [RowSpecItem], position: Position?, parent: RowID?)
    case remove(ids: [RowID])
    case clear(parent: RowID?)
    case replace(id: RowID, newID: RowID, spec: [RowSpecItem])
    case move(id: RowID, position: Position, parent: RowID?)
    case hide(ids: [RowID])
    case show(ids: [RowID])
    case set(id: RowID, spec: [RowSpecItem])
    /// `set ROW ROW … ROWSPEC…`: the same spec on several rows, in one operation (all or
    /// nothing: one unknown id and nothing changes), like ScrollStackController's
    /// `setRowsInsets` and `setRowsHidden`.
    case setRows(ids: [RowID], spec: [RowSpecItem])
    case setStack(StackSettingSpec)
    case defaults(DefaultsSpec)
    case scroll(ScrollSpec)
    case viewport(Size)

    /// View-state edits are logged and replayed but are not undo steps (SPEC §3).
    public var isViewState: Bool {
        switch self {
        case .scroll, .viewport: return true
        default: return false
        }
    }
}
