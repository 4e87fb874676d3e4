import Layout

/// A last line of defence before anything is written: the planner validates edits, but the
/// store still refuses ids and values that would break its storage (non-finite numbers,
/// ids outside SPEC §2.2 — the empty id would collide with the root marker).
enum ChangeValidation {
    static func check(_ changes: [Change]) throws {
        for change in changes {
            switch change {
            case let .insertRow(id, config, parent, _), let .removeRow(id, config, parent, _):
                try checkID(id)
                if let parent { try checkID(parent) }
                try checkConfig(config, row: id)
            case let .updateRow(id, _, new):
                try checkID(id)
                try checkConfig(new, row: id)
            case let .moveRow(id, _, _, toParent, _):
                try checkID(id)
                if let toParent { try checkID(toParent) }
            case let .updateSettings(_, new):
                try checkSettings(new)
            }
        }
    }

    /// `[A-Za-z_][A-Za-z0-9_.-]{0,63}`.
    static func checkID(_ id: RowID) throws {
        let bytes = Array(id.utf8)
        func letter(_ c: UInt8) -> Bool { (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F }
        func rest(_ c: UInt8) -> Bool { letter(c) || (c >= 0x30 && c <= 0x39) || c == 0x2E || c == 0x2D }
        guard let first = bytes.first, letter(first), bytes.count <= 64, bytes.dropFirst().allSatisfy(rest) else {
            let shown = id.count > 80 ? String(id.prefix(80)) + "…" : id
            throw StackDocError("invalid row id '\(shown)': use a letter or _ then up to 63 of A-Z a-z 0-9 _ . -")
        }
    }

    private static func finite(_ value: Double, _ what: @autoclosure () -> String) throws {
        guard value.isFinite else { throw StackDocError("invalid value \(value) for \(what()): numbers must be finite") }
    }

    private static func finite(_ e: Edges, _ what: @autoclosure () -> String) throws {
        for v in [e.top, e.left, e.bottom, e.right] { try finite(v, what()) }
    }

    static func checkConfig(_ c: RowConfig, row id: RowID) throws {
        if case .fixed(let n) = c.size { try finite(n, "row '\(id)' size") }
        try finite(c.content.width, "row '\(id)' content width")
        try finite(c.content.height, "row '\(id)' content height")
        if let insets = c.insets { try finite(insets, "row '\(id)' insets") }
        try finite(c.margin, "row '\(id)' margin")
        try finite(c.grow, "row '\(id)' grow")
        try finite(c.shrink, "row '\(id)' shrink")
        if let e = c.separator.insets { try finite(e, "row '\(id)' separator insets") }
        if let t = c.separator.thickness { try finite(t, "row '\(id)' separator thickness") }
        if let s = c.stack { try finite(s.spacing, "row '\(id)' spacing") }
    }

    static func checkSettings(_ s: DocumentSettings) throws {
        try finite(s.viewport.width, "viewport width")
        try finite(s.viewport.height, "viewport height")
        try finite(s.offset, "offset")
        try finite(s.padding, "padding")
        try finite(s.spacing, "spacing")
        try finite(s.defaults.insets, "default insets")
        try finite(s.defaults.separator.insets, "separator insets")
        try finite(s.defaults.separator.thickness, "separator thickness")
    }
}
