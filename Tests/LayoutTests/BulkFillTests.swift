import Foundation
import OrderStatistics
import Testing
@testable import Layout
import StackDocTestSupport

/// Issue 15 item 8: a run of inserts that fills an empty document at the root (the undo of a
/// `clear`) is built in bulk (`Document.filled(by:)`, through `DocumentLoader`) instead of
/// inserted row by row. It must end exactly as `apply(_:)` of each change: the same document,
/// export, order trees and layout, and edits after it behave the same; and every run it does not
/// take (another shape, a refused row) goes the row-by-row way, failing where that fails.
@Suite(.offThePool) struct BulkFillTests {
    /// The inverse of a `clear` of the root of a random document (rows and empty stacks at the
    /// root, random configs): the run an undo of that clear applies.
    static func fill(seed: UInt64, rows: Int) throws -> (settings: DocumentSettings, changes: [Change]) {
        var rng = SplitMix64(seed: seed)
        var doc = Document(name: "d")
        doc.settings.spacing = Double(seed % 3)
        for i in 0..<rows {
            let stack = Int.random(in: 0..<20, using: &rng) == 0
            try doc.appendRow("r\(i)", config: DocumentStoragePropertyTests.randomConfig(&rng, stack: stack), parent: nil)
        }
        return (doc.settings, try doc.plan(.clear(parent: nil)).inverse)
    }

    /// Applies `changes` one by one, as the row-by-row path does.
    static func oneByOne(_ start: Document, _ changes: [Change]) throws -> Document {
        var doc = start
        for change in changes { try doc.apply(change) }
        return doc
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aFillEndsAsOneByOne(seed: UInt64) throws {
        let (settings, changes) = try Self.fill(seed: seed, rows: 3_000 + Int(seed) * 1_111)
        let empty = Document(name: "d", settings: settings)
        let one = try Self.oneByOne(empty, changes)
        #expect(empty.filled(by: changes[...]) != nil, "the bulk path takes the run")
        var run = empty
        var applied = 0
        try run.apply(run: changes[...], applied: &applied)
        #expect(applied == changes.count)
        #expect(run == one, "the document")
        #expect(run.exportJSON() == one.exportJSON(), "its export")
        #expect(run.rows.orderInvariantViolation() == nil, "order trees")
        #expect(LiveLayout(run).layout() == LiveLayout(one).layout(), "its layout")
        var live = LiveLayout(empty)
        var liveOne = LiveLayout(empty)
        #expect(String(describing: live.apply(changes, to: run)) == String(describing: liveOne.apply(changes, to: one)), "the layout report")
        // Edits after the fill: the same on both (ids found, stacks, order trees, styles).
        var rng = SplitMix64(seed: seed)
        var a = run, b = one
        for step in 0..<300 {
            let edit: Edit
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: edit = .add(ids: ["n\(step)"], spec: [.fixed(Double(step % 50))], position: nil, parent: nil)
            case 1: edit = .remove(ids: [a.child(at: Int.random(in: 0..<a.childCount(of: nil), using: &rng), of: nil)!])
            case 2:
                let id = a.child(at: Int.random(in: 0..<a.childCount(of: nil), using: &rng), of: nil)!
                edit = .move(id: id, position: .before(a.child(at: 0, of: nil)!), parent: nil)
            default:
                let stack = a.children(of: nil).first { a.config(of: $0)?.stack != nil }
                edit = .add(ids: ["c\(step)"], spec: [.fixed(3)], position: nil, parent: stack)
            }
            let changes = try? a.plan(edit)
            #expect(changes == (try? b.plan(edit)), "step \(step): the plan")
            guard let changes else { continue }
            try a.apply(changes)
            try b.apply(changes)
        }
        #expect(a == b && a.exportJSON() == b.exportJSON(), "after the edits")
        #expect(a.rows.orderInvariantViolation() == nil)
        // And a clear of it, then the fill again (the store's clear, undo, redo, undo).
        var cleared = run
        applied = 0
        try cleared.apply(run: try run.plan(.clear(parent: nil))[...], applied: &applied)
        #expect(cleared.rowCount == 0)
        applied = 0
        try cleared.apply(run: changes[...], applied: &applied)
        #expect(cleared == one)
    }

    /// Runs the bulk path does not take: a document with rows, a run in a stack, indexes that do
    /// not go 0, 1, 2, …, a short run, a change that is not an insert. Each applies row by row.
    @Test func otherRunsAreNotFilled() throws {
        let (settings, changes) = try Self.fill(seed: 9, rows: 2_000)
        let empty = Document(name: "d", settings: settings)
        var withRow = empty
        try withRow.appendRow("x", config: RowConfig(stack: StackSettings()), parent: nil)
        #expect(withRow.filled(by: changes[...]) == nil, "a document with rows")
        #expect(empty.filled(by: changes.prefix(Document.bulkFillMinimum - 1)) == nil, "a short run")
        #expect(empty.filled(by: changes.prefix(Document.bulkFillMinimum)) != nil, "a run of the minimum")
        var shifted = changes
        shifted.swapAt(100, 101)
        #expect(empty.filled(by: shifted[...]) == nil, "indexes out of order")
        let inStack = changes.enumerated().map { i, c -> Change in
            guard case let .insertRow(id, config, _, index) = c else { return c }
            return i == 500 ? .insertRow(id: id, config: config, parent: "r0", index: index) : c
        }
        #expect(empty.filled(by: inStack[...]) == nil, "a row into a stack")
        var withSettings = changes
        withSettings[700] = .updateSettings(old: settings, new: settings)
        #expect(empty.filled(by: withSettings[...]) == nil, "a settings change")
        // A row-by-row run into a document with rows still ends as one by one.
        let more = changes.map { c -> Change in
            guard case let .insertRow(id, config, parent, index) = c else { return c }
            return .insertRow(id: id, config: config, parent: parent, index: index + 1)
        }
        var run = withRow
        var applied = 0
        try run.apply(run: more[...], applied: &applied)
        #expect(run == (try Self.oneByOne(withRow, more)))
    }

    /// A run the loader refuses — an id twice, an id a row cannot have, a value outside the
    /// document rules — fails (or not) exactly where `apply(_:)` one by one does, with the
    /// changes before it applied and counted.
    @Test func aRefusedFillFailsWhereOneByOneFails() throws {
        let (settings, changes) = try Self.fill(seed: 5, rows: 3_000)
        let empty = Document(name: "d", settings: settings)
        guard case let .insertRow(firstID, _, _, _) = changes[0], case let .insertRow(_, config, _, _) = changes[2_500] else { return }
        var twice = changes
        twice[2_500] = .insertRow(id: firstID, config: config, parent: nil, index: 2_500)
        var badID = changes
        badID[1_200] = .insertRow(id: "", config: config, parent: nil, index: 1_200)
        var badValue = changes
        var negative = config
        negative.content = Size(width: -5, height: 1)
        badValue[800] = .insertRow(id: "neg", config: negative, parent: nil, index: 800)
        for (name, run) in [("an id twice", twice), ("an empty id", badID), ("a negative content width", badValue)] {
            #expect(empty.filled(by: run[...]) == nil, "\(name): not filled")
            var one = empty
            var failing: Int?
            for (i, change) in run.enumerated() {
                do { try one.apply(change) } catch { failing = i; break }
            }
            var doc = empty
            var applied = 0
            do {
                try doc.apply(run: run[...], applied: &applied)
                #expect(failing == nil, "\(name): one by one fails at \(failing ?? -1)")
            } catch {
                #expect(failing == applied, "\(name): fails where one by one fails")
            }
            #expect(doc == one, "\(name): the document")
            #expect(doc.rows.orderInvariantViolation() == nil)
        }
    }
}
