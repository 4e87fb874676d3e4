import Foundation

import Layout
import StoreFormat

/// Rebuilds a document from its log, from the empty document: the history model of SPEC §3
/// in one place (used by `verify`, and by tests as the reference).
///
/// - `new` / `import` start the document (import carries its rows).
/// - `op` applies its changes; outside a group it discards the redo tail and becomes one step.
/// - `view` applies its changes and is never part of a step.
/// - `begin` … `commit` collect their `op`s into one step: the entries that name the `begin`
///   as their group (another origin's entries between them are their own, SPEC §3); a `commit`
///   that rolls its group back (`LogEntry.rollsBack`) applies its logged compensation instead.
/// - `undo N` / `redo N` apply the inverse / forward changes of the last / next N steps, their
///   operations in log order (`CursorWalk`: undo newest first, not step by step), keeping the current viewport and offset, then clamp the offset (SPEC §2.6) as the store
///   does (an `op`'s logged changes already hold its clamp).
public struct Replayer {
    /// The document rebuilt so far.
    public private(set) var document: Document
    /// Each step: its first and last log seq, label, and the changes of its operations.
    /// (each with its log entry's seq).
    public private(set) var steps: [(first: Int, last: Int, label: String?, ops: [(seq: Int, changes: [Change])])] = []
    /// Steps applied (as `StoredDocument.cursor`).
    public private(set) var cursor = 0
    /// The open `begin … commit` groups by the origin that began each ('' for none): its
    /// begin's seq, label and operations so far.
    public private(set) var groups: [String: (seq: Int, label: String?, ops: [(seq: Int, changes: [Change])])] = [:]
    /// The open group of a document only one origin edits (any open group: the first by origin).
    public var group: (seq: Int, label: String?, ops: [(seq: Int, changes: [Change])])? { groups.keys.sorted().first.flatMap { groups[$0] } }
    /// The last `undo`/`redo` entry replayed: the log entries of the steps it moved (in the order
    /// it moved them) and the changes it applied that are not row changes (the settings as
    /// applied, the offset's clamp) — what a format 3 entry of it records (`HistoryMoveLog`).
    public private(set) var lastMove: (steps: [ClosedRange<Int>], settingsChanges: [Change])?
    /// With `replan`, each logged edit is planned again on the replayed state and must give
    /// exactly the logged changes (so a `log export` script rebuilds the same document).
    public let replan: Bool
    /// Edits whose planning differs from the log (only with `replan`), in log order.
    public private(set) var problems: [String] = []
    /// With `replan`: the replayed document's layout, kept up to date with every applied change,
    /// so that planning a `scroll` and clamping the offset cost O(log n), not a layout each. It
    /// is bit for bit the full layout (layout units, docs/layout.md "Determinism"), so the plans
    /// are the same as `Document.plan`'s.
    private var live: LiveLayout?
    /// With `replan`: the rows the live layout has laid out so far (`LiveLayout.rowsLaidOut`,
    /// since the last `new`/`import` entry): the replay's layout work as a count.
    public var rowsLaidOut: Int { live?.rowsLaidOut ?? 0 }
    /// With `replan`: checks a `restore` entry (its target, the document before it, its logged
    /// changes) and returns a problem, or nil when planning the restore again gives those
    /// changes. Set by `StoredDocument.verify`, which knows the documents at the targets.
    var restoreCheck: ((Int, Document, [Change]) -> String?)?

    /// An empty replay of the document `name`; feed it the log with `replay(_:importedRows:)`.
    /// - Parameters:
    ///   - name: The document's name.
    ///   - replan: Also plan every logged edit again and check that it gives the logged changes.
    public init(name: String, replan: Bool = false) {
        document = Document(name: name)
        self.replan = replan
    }

    /// A replay that starts from `base`, the document right after the last entry a compacted
    /// history dropped (`history compact`): no undo step, cursor 0, as the store keeps it.
    /// - Parameters:
    ///   - base: The document the kept log starts from (its name is the document's).
    ///   - replan: Also plan every logged edit again and check that it gives the logged changes.
    public init(base: Document, replan: Bool = false) {
        document = base
        self.replan = replan
        if replan { live = LiveLayout(base) }
    }

    /// Applies the next log entry. `importedRows` supplies an import entry's document.
    /// - Parameters:
    ///   - entry: The next log entry.
    ///   - importedRows: The document an `import` entry brought in, by the entry's seq.
    /// - Throws: `StackDocError` naming the entry when it does not apply to the replayed state (or,
    ///   with `replan`, plans to other changes), or what `importedRows` throws.
    public mutating func replay(_ entry: LogEntry, importedRows: (Int) throws -> Document) throws {
        let at = "log entry \(entry.seq) (\(entry.kind.rawValue))"
        func fail(_ message: String) -> StackDocError { StackDocError("\(at): \(message)") }
        switch entry.kind {
        case .newDocument:
            guard let settings = entry.settings else { throw fail("no settings") }
            document = Document(name: document.name, settings: settings)
            steps = []; cursor = 0; groups = [:]
            if replan { live = LiveLayout(document) }
        case .importDocument:
            var imported = try importedRows(entry.seq)
            imported.name = document.name
            document = imported
            steps = []; cursor = 0; groups = [:]
            if replan { live = LiveLayout(document) }
        case .op, .view:
            if replan, let edit = entry.edit {
                let named = place(entry, at)
                let (document, live) = (document, live)
                let plan = { try live.map { try document.plan(edit, live: $0) } ?? document.plan(edit) }
                do {
                    let planned = try plan()
                    if !Self.matches(planned: planned, logged: entry.changes) {
                        problems.append("\(named): planning its edit again gives other changes than the logged ones")
                    }
                } catch {
                    // Logs written before stack words were refused on a leaf hold edits that
                    // only plan under that rule; such an edit is fine when it gives its changes.
                    let older = try? RowConfig.$leafStackWords.withValue(.makeStack) { try plan() }
                    if older.map({ !Self.matches(planned: $0, logged: entry.changes) }) ?? true {
                        problems.append("\(named): its edit no longer plans: \(error)")
                    }
                }
            }
            do { try apply(entry.changes) } catch { throw fail("\(error)") }
            if replan {
                for clamp in clampChanges() {
                    switch clamp {
                    case let .updateSettings(_, clamped):
                        problems.append("\(place(entry, at)): leaves the offset at \(document.settings.offset), past the end (the layout shows \(clamped.offset))")
                    case let .updateRow(id, old, new):
                        problems.append("\(place(entry, at)): leaves the offset of '\(id)' at \(old.scrollOffset ?? 0), past the end (the layout shows \(new.scrollOffset ?? 0))")
                    default: break
                    }
                }
            }
            let inGroup = try groupOrigin(of: entry, fail)
            guard entry.kind == .op, !entry.changes.isEmpty else { break }
            if let inGroup {
                groups[inGroup]!.ops.append((entry.seq, entry.changes))
            } else {
                steps.removeLast(steps.count - cursor)
                steps.append((entry.seq, entry.seq, nil, [(entry.seq, entry.changes)]))
                cursor += 1
            }
        case .mark:
            guard groups[entry.origin ?? ""] == nil else { throw fail("a mark inside a group") }
            if entry.markCursor != cursor {
                problems.append("\(at): the mark records undo cursor \(entry.markCursor ?? -1), the replay is at \(cursor)")
            }
        case .restore:
            guard entry.target != nil || entry.reverts != nil else { throw fail("no target") }
            if replan, let target = entry.target, let check = restoreCheck {
                if let problem = check(target, document, entry.changes) { problems.append("\(place(entry, at)): \(problem)") }
            }
            if replan, let revert = entry.reverts, let problem = revertProblem(revert, logged: entry.changes) {
                problems.append("\(place(entry, at)): \(problem)")
            }
            do { try apply(entry.changes) } catch { throw fail("\(error)") }
            let inGroup = try groupOrigin(of: entry, fail)
            guard !entry.changes.isEmpty else { break }
            if let inGroup {
                groups[inGroup]!.ops.append((entry.seq, entry.changes))
            } else {
                steps.removeLast(steps.count - cursor)
                steps.append((entry.seq, entry.seq, entry.label, [(entry.seq, entry.changes)]))
                cursor += 1
            }
        case .begin:
            guard groups[entry.origin ?? ""] == nil else { throw fail("a group is already open") }
            groups[entry.origin ?? ""] = (entry.seq, entry.label, [])
        case .commit:
            guard let origin = try groupOrigin(of: entry, fail), let g = groups[origin] else { throw fail("no group is open") }
            groups[origin] = nil
            if entry.rollsBack {
                // Its group's operations reverted as compensation (SPEC §3), no step.
                if replan, let problem = rollbackProblem(g.ops, logged: entry.changes) { problems.append("\(at): \(problem)") }
                do { try apply(entry.changes) } catch { throw fail("\(error)") }
                if !entry.changes.isEmpty { steps.removeLast(steps.count - cursor) }
                break
            }
            if !g.ops.isEmpty {
                steps.removeLast(steps.count - cursor)
                steps.append((g.seq, entry.seq, g.label, g.ops))
                cursor += 1
            }
        case .undo, .redo:
            guard let count = entry.count, count >= 1 else { throw fail("no count") }
            guard groups[entry.origin ?? ""] == nil else { throw fail("inside a group") }
            let moving = entry.kind == .undo ? Array(stride(from: cursor - 1, through: cursor - count, by: -1)) : Array(cursor..<(cursor + count))
            guard entry.kind == .redo || count <= cursor else { throw fail("only \(cursor) steps to undo") }
            guard entry.kind == .undo || cursor + count <= steps.count else { throw fail("only \(steps.count - cursor) steps to redo") }
            var settingsChanges: [Change] = []
            // The document takes the changes one by one (a kept settings change depends on the
            // settings before it); the live layout takes them all at once, as the store's
            // undo/redo gives them to it: one update per entry, not one per change (per change,
            // each insert of a sticky row laid the whole document out again, and each insert
            // into a stack nested in a root row laid that root row's subtree out again).
            var applied: [Change] = []
            // The moved steps' operations in log order (`CursorWalk`: undo newest first).
            for op in CursorWalk.ordered(moving.flatMap { steps[$0].ops }, undo: entry.kind == .undo) {
                for change in entry.kind == .undo ? op.changes.inverse : op.changes {
                    let kept = Self.keepingView(change, in: document)
                    do { try document.apply(kept) } catch { throw fail("\(error)") }
                    if live != nil { applied.append(kept) }
                    if !kept.isRowChange { settingsChanges.append(kept) }
                }
            }
            if live != nil, !applied.isEmpty { _ = live!.apply(applied, to: document) }
            settingsChanges += try applyClamps(at)
            cursor += entry.kind == .undo ? -count : count
            lastMove = (moving.map { steps[$0].first...steps[$0].last }, settingsChanges)
            // An entry naming its steps is read by the log's other readers (snapshots, time travel) as
            // the rows of the steps it names plus its logged settings changes: both must be
            // what the replay moved and applied.
            if let moved = entry.moved, let replayed = lastMove?.steps {
                if moved != replayed {
                    problems.append("\(at): it refers to the steps of log entries \(Self.ranges(moved)), the replay moves \(Self.ranges(replayed))")
                } else if settingsChanges != entry.changes {
                    problems.append("\(at): its logged settings changes are not the ones the replay applies")
                }
            }
        }
    }

    /// With `replan`: a compensating step (per-person undo or redo) planned again on the
    /// replayed state from the replayed steps it names must give its logged changes. Steps a
    /// compacted history dropped cannot be planned again: their compensating steps are not
    /// checked.
    private func revertProblem(_ revert: StepRevert, logged: [Change]) -> String? {
        var wanted: [Change] = []
        let ordered = revert.undo ? Array(revert.steps.reversed()) : revert.steps
        for range in ordered {
            guard let step = steps.first(where: { $0.first == range.lowerBound && $0.last == range.upperBound }) else { return nil }
            let changes = step.ops.flatMap(\.changes)
            wanted += revert.undo ? changes.inverse : changes
        }
        guard let planned = try? Compensation.plan(wanted, on: document) else {
            return "its \(revert.undo ? "undo" : "redo") of entries \(Self.ranges(revert.steps)) no longer plans"
        }
        return Self.matches(planned: planned, logged: logged) ? nil
            : "planning its \(revert.undo ? "undo" : "redo") of entries \(Self.ranges(revert.steps)) again gives other changes than the logged ones"
    }

    /// With `replan`: a rollback's compensation planned again on the replayed state from its
    /// group's replayed operations must give its logged changes.
    private func rollbackProblem(_ ops: [(seq: Int, changes: [Change])], logged: [Change]) -> String? {
        guard let planned = try? Compensation.plan(ops.flatMap(\.changes).inverse, on: document) else { return "its rollback no longer plans" }
        return Self.matches(planned: planned, logged: logged) ? nil : "planning its rollback again gives other changes than the logged ones"
    }

    /// `1...3, 7...7` for problem messages.
    static func ranges(_ ranges: [ClosedRange<Int>]) -> String {
        ranges.map { "\($0.lowerBound)...\($0.upperBound)" }.joined(separator: ", ")
    }

    /// Applies `changes` to the document (and, with `replan`, to its live layout).
    private mutating func apply(_ changes: [Change]) throws {
        try document.apply(changes)
        if live != nil, !changes.isEmpty { _ = live!.apply(changes, to: document) }
    }

    /// `at`, with the undo step an `op` entry outside a group becomes.
    private func place(_ entry: LogEntry, _ at: String) -> String {
        (entry.kind == .op || entry.kind == .restore) && !entry.changes.isEmpty && entry.group == nil ? "\(at), step \(cursor + 1)" : at
    }

    /// The origin whose open group `entry` belongs to (nil: none, it names no group); an entry
    /// naming a group that is not open, or another origin's, does not replay.
    private func groupOrigin(of entry: LogEntry, _ fail: (String) -> StackDocError) throws -> String? {
        guard let seq = entry.group else { return nil }
        guard let origin = groups.first(where: { $0.value.seq == seq })?.key else { throw fail("its group \(seq) is not open") }
        return origin
    }

    /// The changes that clamp the offsets to the content (as the store appends them): those of
    /// stacks that scroll on their own (SPEC §2.8), then the root's; [] when none is past the end.
    /// With `replan`, from the live layout kept up to date; otherwise lays the document out only
    /// when an offset is positive (a `LiveLayout`, as the store computes it): keeping one up to
    /// date through every change cost more than these rare layouts in the fuzzers' long logs of
    /// small documents (≈ 2.5× the replay time).
    private func clampChanges() -> [Change] {
        let nested = document.hasNestedOffsets
        guard document.settings.offset > 0 || nested else { return [] }
        let layout = live ?? LiveLayout(document)
        // A nested offset moves no frame: the root's range is the same after those clamps.
        var clamps = nested ? layout.nestedOffsetClamps(document) : []
        if let clamp = document.offsetClamp(maxOffset: layout.maxOffset) { clamps.append(clamp) }
        return clamps
    }

    /// Applies `clampChanges()` and returns them.
    private mutating func applyClamps(_ at: String) throws -> [Change] {
        let clamps = clampChanges()
        guard !clamps.isEmpty else { return [] }
        do { try apply(clamps) } catch { throw StackDocError("\(at): \(error)") }
        return clamps
    }
}

extension StoredDocument {
    /// The document rebuilt from its log alone (in memory).
    /// - Throws: `StoreError` when the log cannot be read; `StackDocError` when an entry does not replay.
    public func replayed() throws -> Document {
        try reading { tx in try replay(tx).document }
    }

    /// Rebuilds the document from its log in memory and compares it with the stored state:
    /// rows (ids, parents, order, configs), settings, the undo steps, the cursor and the open
    /// group, and every stored snapshot with the replay at its log entry (a damaged one is
    /// reported too). Returns one message per mismatch; empty means the document verifies.
    ///
    /// With `replan`, every logged edit is also planned again on the replayed state and must
    /// give the logged changes — the guarantee that `log export` (which prints the edits)
    /// rebuilds the same document, and the check that catches an operation planned from a stale
    /// state (a `scroll` to a row hidden meanwhile, an offset from an old layout). The messages
    /// come in log order and name the entry's seq (and its undo step), e.g.
    /// `log entry 7 (view): its edit no longer plans: cannot scroll to row 'c': it is hidden`.
    /// Costs one planning per operation: O(log n) each, `scroll` and the offset's clamp included
    /// (a `LiveLayout` of the replayed document, built once at the `new`/`import` entry).
    /// - Parameter replan: Also plan every logged edit again and compare its changes.
    /// - Throws: `StoreError` when the log or the stored document cannot be read.
    public func verify(replan: Bool = false) throws -> [String] {
        try verifyReport(replan: replan).messages
    }

    /// `verify(replan:)` with the damaged snapshots apart from the other problems: a snapshot
    /// is a cache, so a damaged one says nothing about the log or the stored document (and
    /// `rebuildSnapshots()` writes it again).
    /// - Parameter replan: Also plan every logged edit again and compare its changes.
    /// - Throws: `StoreError` when the log or the stored document cannot be read.
    public func verifyReport(replan: Bool = false) throws -> VerifyReport {
        try reading { tx in
            var problems: [String] = []
            func report(_ problems: [String]) -> VerifyReport { VerifyReport(problems: problems, damagedSnapshots: []) }
            let replayer: Replayer
            let snapshots = try SnapshotCheck(tx, document: self)
            do {
                replayer = try replay(tx, replan: replan) { seq, replayer in try snapshots.replayed(through: seq, replayer, tx) }
            } catch let error as StackDocError where error.kind == .cancelled {
                throw error
            } catch { return report(["replay failed: \(error)"]) }
            snapshots.finish(lastSeq: lastSeq)
            problems += replayer.problems
            guard let header = try tx.header(key) else {
                return report(["document '\(name)' no longer exists"])
            }
            let stored: Document
            do {
                stored = try tx.loadRows(key, name: name, settings: header.settings, cancellation: store.cancellation)
            } catch let error as StackDocError where error.kind == .cancelled {
                throw error
            } catch { return report(["stored rows cannot be loaded: \(error)"]) }
            try store.cancellation.check()
            problems += try Verification.compare(stored: stored, replayed: replayer.document, cancellation: store.cancellation)
            try store.cancellation.check()
            // History.
            let storedSteps = try tx.steps(key)
            if storedSteps.count != replayer.steps.count {
                problems.append("history: \(storedSteps.count) steps stored, \(replayer.steps.count) replayed")
            }
            for (i, s) in storedSteps.enumerated() where i < replayer.steps.count {
                let r = replayer.steps[i]
                let (first, last, label) = (s.first, s.last, s.label)
                if first != r.first || last != r.last || label != r.label {
                    problems.append("history: step \(i + 1) stored as entries \(first)...\(last) label \(label ?? "-"), replayed as \(r.first)...\(r.last) label \(r.label ?? "-")")
                }
            }
            let cursor = header.cursor
            if cursor != replayer.cursor { problems.append("history: cursor stored \(cursor), replayed \(replayer.cursor)") }
            let storedGroups = try tx.openGroups(key), replayed = replayer.groups.mapValues(\.seq)
            if storedGroups != replayed {
                func list(_ g: [String: Int]) -> String { g.isEmpty ? "none" : g.sorted { $0.key < $1.key }.map { "\($0.value) (\($0.key))" }.joined(separator: ", ") }
                problems.append("history: open groups stored \(list(storedGroups)), replayed \(list(replayed))")
            }
            return VerifyReport(problems: problems, damagedSnapshots: snapshots.damaged)
        }
    }

    /// Replays the log (up to entry `through`, all of it by default); `after` sees the replayer
    /// after each entry (its seq). With `replan`, a `restore` entry is planned again against the
    /// replayed document at its target, which is kept when the replay passes it.
    func replay(_ tx: any StoreReading, replan: Bool = false, through last: Int = Int.max,
                after: (Int, Replayer) throws -> Void = { _, _ in }) throws -> Replayer {
        var replayer = historyBase > 0 ? Replayer(base: try baseSnapshot(tx), replan: replan) : Replayer(name: name, replan: replan)
        final class Targets { var wanted = Set<Int>(); var states: [Int: Document] = [:] }
        let targets = Targets()
        if replan {
            for (_, target) in (try? tx.restoreTargets(key, after: 0)) ?? [] { targets.wanted.insert(target) }
            replayer.restoreCheck = { target, current, logged in
                guard let state = targets.states[target] else { return "its target, log entry \(target), is not an earlier entry" }
                do {
                    if Replayer.matches(planned: try current.planRestore(to: state), logged: logged) { return nil }
                    // A restore planned by an earlier release (which moved every row after a
                    // moved one) is fine when its changes give the target.
                    return Replayer.reachesTarget(current, state, logged)
                        ? nil : "planning the restore again gives other changes than the logged ones"
                } catch {
                    return "the restore no longer plans: \(error)"
                }
            }
        }
        if historyBase > 0 {
            targets.states[historyBase] = replayer.document
            try after(historyBase, replayer)
        }
        // The logged inverses are not read: replay computes undo from the forward changes (and
        // decoding them was a quarter of verify's time).
        try tx.forEachLogEntry(key, from: 1, through: last) { entry in
            try store.cancellation.check()
            try replayer.replay(entry) { seq in
                guard let settings = entry.settings else { throw StoreError.internal("import entry \(seq) has no settings") }
                return try tx.importedRows(key, name: name, seq: seq, settings: settings)
            }
            if targets.wanted.contains(entry.seq) { targets.states[entry.seq] = replayer.document }
            try after(entry.seq, replayer)
        }
        return replayer
    }
}
