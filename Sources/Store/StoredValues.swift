import Layout

/// Checks the values read back from a database file against the document rules (ids, types,
/// colours, `DocumentLimits`). No command can write a value outside them, so one that is there
/// means the file was edited by hand or damaged in a way SQLite does not notice: the document is
/// refused as corrupt, naming the row and the value, instead of being laid out (a size of 1e308
/// or infinity would give infinite frames). O(1) per row, no allocation when the row is valid.
enum StoredValues {
    /// Throws `database 'F' is corrupt: document 'd': row 'a' content.height: must be ≤ …`.
    static func check(id: RowID, parent: RowID?, config c: RowConfig, document: String, path: String) throws {
        if isValidID(id), parent.map(isValidID) ?? true, isValid(c) { return }
        do {
            try Validation.checkRowID(id, "row id")
            if let parent { try Validation.checkRowID(parent, "row \(Validation.quoted(id)) parent") }
            let p = "row \(Validation.quoted(id))"
            try Validation.checkTypeName(c.type, p + " type")
            if case .fixed(let n) = c.size { _ = try Validation.length(n, p + " size") }
            _ = try Validation.size(c.content, p + " content")
            if let e = c.insets { _ = try Validation.edges(e, p + " insets") }
            _ = try Validation.edges(c.margin, p + " margin")
            _ = try Validation.length(c.grow, p + " grow")
            _ = try Validation.length(c.shrink, p + " shrink")
            if let e = c.separator.insets { _ = try Validation.edges(e, p + " separator.insets") }
            if let t = c.separator.thickness { _ = try Validation.length(t, p + " separator.thickness") }
            if let color = c.separator.color { _ = try Validation.color(color, p + " separator.color") }
            if let s = c.stack { _ = try Validation.length(s.spacing, p + " stack.spacing") }
        } catch let error as StackDocError {
            throw StoreFailure.corrupt(path, "document '\(document)': \(error.message)")
        }
    }

    /// Throws when a stored setting is outside the rules (the offset only has to be finite).
    static func check(settings s: DocumentSettings, document: String, path: String) throws {
        do {
            _ = try Validation.size(s.viewport, "viewport")
            _ = try Validation.finite(s.offset, "offset")
            _ = try Validation.edges(s.padding, "padding")
            _ = try Validation.length(s.spacing, "spacing")
            _ = try Validation.edges(s.defaults.insets, "defaults.insets")
            _ = try Validation.edges(s.defaults.separator.insets, "defaults.separator.insets")
            _ = try Validation.length(s.defaults.separator.thickness, "defaults.separator.thickness")
            _ = try Validation.color(s.defaults.separator.color, "defaults.separator.color")
        } catch let error as StackDocError {
            throw StoreFailure.corrupt(path, "document '\(document)': \(error.message)")
        }
    }

    private static func isValidID(_ id: RowID) -> Bool { Validation.isValidRowID(id) }

    /// A length within the limits (false for NaN).
    @inline(__always)
    private static func ok(_ v: Double) -> Bool { v >= 0 && v <= DocumentLimits.maxLength }

    @inline(__always)
    private static func ok(_ e: Edges) -> Bool { ok(e.top) && ok(e.left) && ok(e.bottom) && ok(e.right) }

    /// The fast path: every value of a valid row passes without building a message.
    private static func isValid(_ c: RowConfig) -> Bool {
        if case .fixed(let n) = c.size, !ok(n) { return false }
        guard ok(c.content.width), ok(c.content.height), ok(c.margin), ok(c.grow), ok(c.shrink) else { return false }
        if let e = c.insets, !ok(e) { return false }
        if let e = c.separator.insets, !ok(e) { return false }
        if let t = c.separator.thickness, !ok(t) { return false }
        if let s = c.stack, !ok(s.spacing) { return false }
        if let color = c.separator.color, (try? Validation.color(color, "")) == nil { return false }
        return c.type == "view" || Validation.isValidTypeName(c.type)
    }
}
