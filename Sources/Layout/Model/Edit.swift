/// Where a row goes among its stack's rows (SPEC §4.1 `at top|bottom|INDEX | after ROW | before ROW`).
public enum Position: Hashable, Sendable, Codable {
    /// First among the stack's rows.
    case top
    /// Last among the stack's rows (the default of `add`).
    case bottom
    /// At this 0-based index among the stack's rows (0 through their count; another index is an error).
    case index(Int)
    /// Right after this sibling row.
    case after(RowID)
    /// Right before this sibling row.
    case before(RowID)
}

/// One word group of SEPSPEC (SPEC §4.1): a change to separator overrides or defaults.
public enum SeparatorSpec: Hashable, Sendable, Codable {
    /// Hide the separator.
    case hidden
    /// Show the separator.
    case shown
    /// The separator's insets.
    case insets(Edges)
    /// The separator's thickness in points (> 0).
    case thickness(Double)
    /// The separator's color, `#RRGGBB`.
    case color(String)
    /// Drop every override: follow the document default again.
    case `default`
}

/// One word group of ROWSPEC (SPEC §4.1). Applied left to right; a later item wins.
public enum RowSpecItem: Hashable, Sendable, Codable {
    /// `type T`: the row's type (a name, used by `find type` and hosts).
    case type(String)
    /// `fixed N`: a fixed content length along the parent's main axis.
    case fixed(Double)
    /// `fit`: the content length comes from `content` (a leaf) or the rows (a stack).
    case fit
    /// `content W H`: the intrinsic content size of a leaf row.
    case content(Size)
    /// `insets T L B R`: the row's own insets (over the document default).
    case insets(Edges)
    /// `insets default`: inherit the document's live default again.
    case insetsDefault
    /// `margin T L B R`: space around the row.
    case margin(Edges)
    /// `grow N`: the row's share of free space (flex-grow).
    case grow(Double)
    /// `shrink N`: the row's share of missing space (flex-shrink).
    case shrink(Double)
    /// `align A`: the row's own `alignSelf`.
    case align(AlignSelf)
    /// `hidden`: the row takes no space and has no frame.
    case hidden
    /// `stack vertical|horizontal`: makes the row a nested stack (or changes its axis).
    case stack(Axis)
    /// `stack none`: makes a stack row a leaf again; refused while it has rows
    /// (`StackDocError.Kind.stackNotEmpty`).
    case unstack
    /// `justify J`: a stack row's main-axis distribution. The row must be a stack, or the same
    /// ROWSPEC makes it one (`stack A`); on a leaf it is refused.
    case justify(Justify)
    /// `align-items A`: a stack row's cross alignment of its rows (the spec is silent on how to
    /// set it; see docs/decisions.md). Like `justify`, only for a stack.
    case alignItems(Align)
    /// `spacing N`: a stack row's gap. Like `justify`, only for a stack.
    case spacing(Double)
    /// `separator SEPSPEC`: one override of the row's separator.
    case separator(SeparatorSpec)
    /// `sticky` (true) / `sticky off` (false; drops the sticky offset too): SPEC §2.7.
    case sticky(Bool)
    /// `sticky N`: the row is sticky and sticks N past the unobscured leading edge; `sticky
    /// none` drops the offset (nil), the row stays sticky (SPEC §2.7).
    case stickyOffset(Double?)
    /// `row-insets T L B R|none` (`defaults insets T L B R in STACK`): a stack row's default
    /// insets for the rows inside it (nil: none; issue 33).
    case rowInsets(Edges?)
    /// `scrolls` (true: the stack scrolls on its own, keeping its offset when it already does) /
    /// `scrolls off` (false: it does not, and its offset goes): SPEC §2.8.
    case scrolls(Bool)
    /// `scrolls N|none`: the stack scrolls, shown at offset N along its axis (nil: it does not
    /// scroll). What `log export` writes for a scrolling stack; `scroll STACK N` is the command.
    case scrollOffset(Double?)
    /// `row-separator SEPSPEC` (`defaults separator SEPSPEC… in STACK`): one override of a stack
    /// row's separator defaults for the rows inside it; `row-separator default` drops them all
    /// (issue 33).
    case rowSeparator(SeparatorSpec)
    /// `min N|none`: the border box's minimum length along the parent's main axis (nil: none).
    case min(Double?)
    /// `max N|none`: the maximum along the parent's main axis (nil: none).
    case max(Double?)
    /// `min-cross N|none`: the minimum along the parent's cross axis (nil: none).
    case minCross(Double?)
    /// `max-cross N|none`: the maximum along the parent's cross axis (nil: none).
    case maxCross(Double?)
    /// `background #RRGGBB|none`: the row's background colour (nil: none).
    case background(String?)
    /// `highlight #RRGGBB|none`: the row's highlight colour (nil: none).
    case highlight(String?)
    /// `text N [char W] [line H]|none`: the leaf's glyph run (nil: none; issue 14).
    case text(TextRun?)
    /// `aspect W H|none`: the leaf's aspect ratio W:H (nil: none; issue 14).
    case aspect(Size?)
}

extension RowSpecItem {
    /// For the item of an optional field (`RowField.optional`): the field and the value it sets
    /// (nil: `none`, not set); nil for every other item. With `init?(_:_:)`, the one place that
    /// pairs the items with their fields: the planner, the printer, log scripts and the log
    /// format handle every optional field's item through them.
    public var optionalField: (field: RowField, value: RowField.Value?)? {
        switch self {
        case let .min(n): return (.minMain, n.map(RowField.Value.number))
        case let .max(n): return (.maxMain, n.map(RowField.Value.number))
        case let .minCross(n): return (.minCross, n.map(RowField.Value.number))
        case let .maxCross(n): return (.maxCross, n.map(RowField.Value.number))
        case let .background(c): return (.background, c.map(RowField.Value.text))
        case let .highlight(c): return (.highlight, c.map(RowField.Value.text))
        case let .stickyOffset(n): return (.stickyOffset, n.map(RowField.Value.number))
        case let .scrollOffset(n): return (.scrollOffset, n.map(RowField.Value.number))
        // Every other item, listed so that a new item must say here whether it is a field's:
        // the planner, the printer and the log format send every item not in their own
        // switches through `optionalField`.
        case .type, .fixed, .fit, .content, .insets, .insetsDefault, .margin, .grow, .shrink, .align, .hidden,
             .stack, .unstack, .justify, .alignItems, .spacing, .separator, .sticky, .scrolls:
            return nil
        // Optional fields whose items carry structured values (a glyph run, a ratio), while the
        // table holds them as text in the REPL's words: the planner, printer, log scripts and
        // log format handle these two items in their own switches.
        case .text, .aspect, .rowInsets, .rowSeparator:
            return nil
        }
    }

    /// The item that sets optional field `field` to `value` (nil: `none`; `text` and `aspect`
    /// read their value from the REPL's words); nil for a field that is not optional.
    public init?(_ field: RowField, _ value: RowField.Value?) {
        switch field {
        case .minMain: self = .min(value?.number)
        case .maxMain: self = .max(value?.number)
        case .minCross: self = .minCross(value?.number)
        case .maxCross: self = .maxCross(value?.number)
        case .background: self = .background(value?.text)
        case .highlight: self = .highlight(value?.text)
        case .stickyOffset: self = .stickyOffset(value?.number)
        case .scrollOffset: self = .scrollOffset(value?.number)
        case .text: self = .text(value?.text.flatMap(TextRun.init(words:)))
        case .aspect: self = .aspect(value?.text.flatMap(TextRun.ratio(words:)))
        case .rowInsets: self = .rowInsets(value?.text.flatMap(TextRun.edges(words:)))
        // Overrides are several items; `RowConfig.specItems` writes them (`rowSeparatorItems`).
        case .rowSeparator: return nil
        case .type, .size, .content, .insets, .margin, .grow, .shrink, .alignSelf, .hidden, .sticky, .separator, .stack:
            return nil
        }
    }
}

/// A root-stack setting (SPEC §4.1 `set stack …`).
public enum StackSettingSpec: Hashable, Sendable, Codable {
    /// `set stack axis`: the root stack's axis.
    case axis(Axis)
    /// `set stack padding`: the root stack's padding.
    case padding(Edges)
    /// `set stack spacing`: the gap between root rows.
    case spacing(Double)
    /// `set stack justify`: the root stack's main-axis distribution.
    case justify(Justify)
    /// `set stack align`: the root stack's cross alignment.
    case align(Align)
}

/// A change of the document's live defaults (SPEC §4.1 `defaults …`).
public enum DefaultsSpec: Hashable, Sendable, Codable {
    /// `defaults insets`: the insets of rows that set none.
    case insets(Edges)
    /// `defaults separator`: changes to the default separator.
    case separator([SeparatorSpec])
    /// `defaults autohide on|off`: hide the last row's separator.
    case autoHide(Bool)
}

/// Where `scroll to ROW` aims (SPEC §2.6).
public enum ScrollPosition: String, CaseIterable, Hashable, Sendable, Codable {
    /// The row's start at the viewport's start (`top`), its middle at the viewport's middle, its
    /// end at the viewport's end (`bottom`), or the least scroll that shows it (`auto`).
    case top, middle, bottom, auto
}

/// A scroll command (SPEC §4.1 View).
public enum ScrollSpec: Hashable, Sendable, Codable {
    /// `scroll N`: to this offset (clamped).
    case offset(Double)
    /// `scroll by N`: by this amount from the current offset (clamped).
    case by(Double)
    /// `scroll to ROW POS`: so that the row sits at `POS` in the viewport.
    case to(RowID, ScrollPosition)
    /// `focus ROW`: the `auto` rule against the unobscured rectangle (SPEC §2.6), the way a
    /// stack view controller scrolls a focused field into view above the keyboard.
    case focus(RowID)
    /// `scroll STACK N`: a stack that scrolls on its own (`scrolls`) to offset N along its axis,
    /// clamped to its content (SPEC §2.8).
    case stack(RowID, Double)
}

/// A change of the viewport's obscured edges (SPEC §2.5), view state like the viewport.
public enum ObscuredSpec: Hashable, Sendable, Codable {
    /// `viewport W H insets T L B R` (both) or `viewport insets T L B R` (the size unchanged).
    case insets(viewport: Size?, insets: Edges)
    /// `viewport W H safe-area T L B R` (both) or `viewport safe-area T L B R` (the size
    /// unchanged): edges that are obscured and extend the scroll range (SPEC §2.5).
    case safeArea(viewport: Size?, safeArea: Edges)
    /// `keyboard H`; nil is `keyboard off`.
    case keyboard(Double?)
}

/// Every command that changes a document (SPEC §4.1), as data. One edit is one operation of the
/// log; `Document.plan(_:)` turns it into primitive `Change`s or throws without changing anything.
public enum Edit: Hashable, Sendable, Codable {
    /// `add ID… ROWSPEC [POSITION] [in STACK]`: new rows (`parent` nil: the root stack).
    case add(ids: [RowID], spec: [RowSpecItem], position: Position?, parent: RowID?)
    /// `remove ID…`: rows and everything under them.
    case remove(ids: [RowID])
    /// `clear [in STACK]`: every row of a stack (nil: the root).
    case clear(parent: RowID?)
    /// `replace ID with NEW ROWSPEC`: a new row in the old one's place.
    case replace(id: RowID, newID: RowID, spec: [RowSpecItem])
    /// `move ID to|after|before … [in STACK]`: a row (with its rows) to another place.
    case move(id: RowID, position: Position, parent: RowID?)
    /// `hide ID…`.
    case hide(ids: [RowID])
    /// `show ID…`.
    case show(ids: [RowID])
    /// `set ID ROWSPEC`: changes the row's configuration.
    case set(id: RowID, spec: [RowSpecItem])
    /// `set ROW ROW … ROWSPEC…`: the same spec on several rows, in one operation (all or
    /// nothing: one unknown id and nothing changes), like ScrollStackController's
    /// `setRowsInsets` and `setRowsHidden`.
    case setRows(ids: [RowID], spec: [RowSpecItem])
    /// `set stack …`: a root-stack setting.
    case setStack(StackSettingSpec)
    /// `defaults …`: the document's live defaults.
    case defaults(DefaultsSpec)
    /// `scroll …` (view state: logged, not an undo step).
    case scroll(ScrollSpec)
    /// `viewport W H` (view state: logged, not an undo step).
    case viewport(Size)
    /// `viewport [W H] insets T L B R`, `keyboard H|off`: the obscured edges (view state).
    case obscured(ObscuredSpec)

    /// View-state edits are logged and replayed but are not undo steps (SPEC §3).
    public var isViewState: Bool {
        switch self {
        case .scroll, .viewport, .obscured: return true
        default: return false
        }
    }
}
