import Layout
import Store

/// `log export`: a document's log as a script of canonical commands. Running the script on an
/// empty database rebuilds the document (its `export` is identical) with the same history.
enum LogScript {
    /// The script's lines; `cancellation` is asked at each log entry (an import's rows are
    /// loaded under the store's own).
    static func lines(_ doc: StoredDocument, cancellation: Cancellation = .never) throws -> [String] {
        var lines = ["# stackdoc log of '\(doc.name)': run with  stackdoc --db :memory: FILE"]
        // Each command is one log entry of the rebuilt document; an import (always entry 1) is
        // an `import begin … import commit` block, which is one entry too. A compacted history
        // starts with such a block of the rows of its base snapshot (the state after entry
        // `historyBase`), which becomes entry 1, followed by the kept entries: a restore names
        // its target entry shifted by as many.
        var shift = 0
        if let base = try doc.compactedBase() {
            lines.append("# history compacted: it starts from the document after log entry \(doc.historyBase)")
            lines += try importLines(base, cancellation: cancellation)
            shift = 1 - doc.historyBase
        }
        var origins = OriginLines()
        var owners = StepOwners()
        for entry in try doc.log() {
            try cancellation.check()
            if let line = origins.line(before: entry) { lines.append(line) }
            owners.note(entry)
            switch entry.kind {
            case .newDocument:
                lines.append(newLine(doc.name, entry.settings ?? DocumentSettings()))
            case .importDocument:
                lines += try importLines(try doc.importedDocument(at: entry.seq), cancellation: cancellation)
            case .op, .view, .undo, .redo, .begin, .commit, .mark, .restore:
                lines.append(try command(entry, shift: shift, base: doc.historyBase, owners: owners))
            }
        }
        return lines
    }

    /// The one command that performs `entry` again (`log export`'s line, the text of a change
    /// `watch` reports): a restore's target shifted by `shift`, a mark kept as its name only
    /// when it lies after `base`; with `owners` (the steps of the log read so far, as `log export`
    /// keeps them) a cursor move that plain `undo N` / `redo N` would not repeat is written with
    /// `--all`. `new` and `import` take more than one line: their kinds' name.
    static func command(_ entry: LogEntry, shift: Int = 0, base: Int = 0, owners: StepOwners? = nil) throws -> String {
        switch entry.kind {
        case .newDocument, .importDocument:
            return entry.kind.rawValue
        case .op, .view:
            guard let edit = entry.edit else { throw StackDocError("log entry \(entry.seq) has no operation") }
            return Printer.text(edit)
        case .undo:
            let n = entry.count ?? 1
            return Printer.text(owners?.plainMoves(entry) == false ? Command.undoAll(n) : Command.undo(n))
        case .redo:
            let n = entry.count ?? 1
            return Printer.text(owners?.plainMoves(entry) == false ? Command.redoAll(n) : Command.redo(n))
        case .restore where entry.reverts != nil:
            let count = entry.reverts?.steps.count ?? 1
            return Printer.text(entry.reverts?.undo == true ? Command.undo(count) : Command.redo(count))
        case .begin:
            return Printer.text(Command.begin(label: entry.label))
        case .commit:
            return entry.rollsBack ? "rollback" : "commit"
        case .mark:
            return Printer.text(Command.mark(entry.label ?? ""))
        case .restore:
            guard let target = entry.target else { throw StackDocError("log entry \(entry.seq) has no target") }
            return Printer.text(Command.restore(restoreRef(entry, target: target, shift: shift, base: base)))
        }
    }

    /// The `as NAME` / `as none` lines that give each entry of the rebuilt log the origin it
    /// has: one before the first entry that records an origin, and one wherever it changes. The
    /// entry that creates the document (`new`, an import) records none and needs none.
    struct OriginLines {
        /// The origin the lines so far leave the session writing as (`.some(nil)`: `as none`);
        /// nil before the first `as`.
        private var current: String??

        mutating func line(before entry: LogEntry) -> String? {
            switch entry.kind {
            case .newDocument, .importDocument: return nil
            default: break
            }
            if let current, current == entry.origin { return nil }
            current = .some(entry.origin)
            return Printer.text(Command.writeAs(origin: entry.origin))
        }
    }

    /// Whose each step's first entry is, to tell how an `undo`/`redo` entry is written: as plain
    /// `undo N` / `redo N` when that moves the same steps when run again (per-person undo moves
    /// the cursor over steps all of the entry's origin, none of them a compensating step; a
    /// session with no origin always does), else as `undo --all N` / `redo --all N`.
    struct StepOwners {
        private var first: [Int: (origin: String?, compensating: Bool)] = [:]

        mutating func note(_ entry: LogEntry) {
            first[entry.seq] = (entry.origin, entry.reverts != nil)
        }

        func plainMoves(_ entry: LogEntry) -> Bool {
            guard let origin = entry.origin, let moved = entry.moved else { return true }
            return moved.allSatisfy { range in
                first[range.lowerBound].map { $0.origin == origin && !(entry.kind == .undo && $0.compensating) } ?? false
            }
        }
    }

    /// The reference a `restore` line names: the one the user gave (its label, `restore REF`)
    /// when it names the same entry in the rebuilt log — a mark whose entry is kept, or `now~N`,
    /// which counts back from the entries before it — so that the rebuilt entry and its undo
    /// step have the same label (docs/store.md, "Log format"); else the target's number in the
    /// rebuilt log (an entry number, shifted as the history's base shifts it; a mark dropped by
    /// history compact).
    static func restoreRef(_ entry: LogEntry, target: Int, shift: Int, base: Int) -> HistoryRef {
        let given = entry.label.flatMap { $0.hasPrefix("restore ") ? HistoryRef(String($0.dropFirst(8))) : nil }
        switch given {
        case .mark? where target > base: return given!
        case .now(let back)? where entry.seq - 1 - back == target: return given!
        default: return .entry(target + shift)
        }
    }

    static func newLine(_ name: String, _ s: DocumentSettings) -> String {
        Printer.text(Command.new(name: name, axis: s.axis, viewport: s.viewport, insets: s.viewportInsets == .zero ? nil : s.viewportInsets,
                                 safeArea: s.safeArea == .zero ? nil : s.safeArea))
    }

    /// An imported document as an `import begin NAME AXIS viewport W H … import commit` block:
    /// its settings, its rows in document order, its offset; running it stores the same
    /// document as one `import` log entry (Session+ImportBlock).
    static func importLines(_ d: Document, cancellation: Cancellation = .never) throws -> [String] {
        let s = d.settings
        let base = DocumentSettings()
        var lines = [Printer.text(Command.importBegin(name: d.name, axis: s.axis, viewport: s.viewport))]
        var edits: [Edit] = []
        if s.padding != base.padding { edits.append(.setStack(.padding(s.padding))) }
        if s.spacing != base.spacing { edits.append(.setStack(.spacing(s.spacing))) }
        if s.justify != base.justify { edits.append(.setStack(.justify(s.justify))) }
        if s.align != base.align { edits.append(.setStack(.align(s.align))) }
        let dd = s.defaults, bd = base.defaults
        if dd.insets != bd.insets { edits.append(.defaults(.insets(dd.insets))) }
        var sep: [SeparatorSpec] = []
        if dd.separator.hidden != bd.separator.hidden { sep.append(dd.separator.hidden ? .hidden : .shown) }
        if dd.separator.insets != bd.separator.insets { sep.append(.insets(dd.separator.insets)) }
        if dd.separator.thickness != bd.separator.thickness { sep.append(.thickness(dd.separator.thickness)) }
        if dd.separator.color != bd.separator.color { sep.append(.color(dd.separator.color)) }
        if !sep.isEmpty { edits.append(.defaults(.separator(sep))) }
        if dd.autoHideLastSeparator != bd.autoHideLastSeparator { edits.append(.defaults(.autoHide(dd.autoHideLastSeparator))) }
        try d.forEachRow { id, parent, _, config in
            if edits.count % Cancellation.interval == 0 { try cancellation.check() }
            edits.append(.add(ids: [id], spec: config.specItems, position: nil, parent: parent))
        }
        try cancellation.check()
        // View state last, the offset after the obscured edges it is clamped with.
        if s.viewportInsets != base.viewportInsets { edits.append(.obscured(.insets(viewport: nil, insets: s.viewportInsets))) }
        if s.safeArea != base.safeArea { edits.append(.obscured(.safeArea(viewport: nil, safeArea: s.safeArea))) }
        if s.keyboard != base.keyboard { edits.append(.obscured(.keyboard(s.keyboard))) }
        if s.offset != 0 { edits.append(.scroll(.offset(s.offset))) }
        lines += edits.map(Printer.text)
        lines.append(Printer.text(Command.importCommit))
        return lines
    }
}
