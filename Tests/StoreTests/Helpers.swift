import Foundation
import Layout
import Store
import StackDocTestSupport
import Testing

/// A fresh temporary directory, removed by the caller with `cleanup`.
func temporaryDirectory() -> URL {
    try! Scratch.url("store")
}

/// Hand-planned edits (what `Document.plan` returns for them) for the tests.
enum Ops {
    static func add(_ id: RowID, _ config: RowConfig = RowConfig(), at index: Int, in parent: RowID? = nil) -> (Edit, [Change]) {
        (.add(ids: [id], spec: [], position: .index(index), parent: parent),
         [.insertRow(id: id, config: config, parent: parent, index: index)])
    }

    static func append(_ id: RowID, _ config: RowConfig = RowConfig(), to doc: StoredDocument, in parent: RowID? = nil) -> (Edit, [Change]) {
        add(id, config, at: doc.document.children(of: parent).count, in: parent)
    }

    static func remove(_ id: RowID, from doc: Document) -> (Edit, [Change]) {
        (.remove(ids: [id]), RandomOps.removals(of: id, in: doc))
    }

    static func move(_ id: RowID, to index: Int, in parent: RowID? = nil, of doc: Document) -> (Edit, [Change]) {
        (.move(id: id, position: .index(index), parent: parent),
         [.moveRow(id: id, fromParent: doc.parent(of: id)!, fromIndex: doc.index(of: id)!, toParent: parent, toIndex: index)])
    }

    static func set(_ id: RowID, in doc: Document, _ body: (inout RowConfig) -> Void) -> (Edit, [Change]) {
        let old = doc.config(of: id)!
        var new = old
        body(&new)
        return (.set(id: id, spec: []), [.updateRow(id: id, old: old, new: new)])
    }

    static func spacing(_ value: Double, in doc: Document) -> (Edit, [Change]) {
        var s = doc.settings
        s.spacing = value
        return (.setStack(.spacing(value)), [.updateSettings(old: doc.settings, new: s)])
    }

    static func scroll(_ offset: Double, in doc: Document) -> (Edit, [Change]) {
        var s = doc.settings
        s.offset = offset
        return (.scroll(.offset(offset)), [.updateSettings(old: doc.settings, new: s)])
    }
}

extension StoredDocument {
    /// Performs a hand-planned edit.
    @discardableResult
    func run(_ op: (Edit, [Change])) throws -> [Change] {
        try perform(op.0, changes: op.1)
    }

    /// Ids of the root's rows, in order.
    var rootIDs: [RowID] { document.children(of: nil) }
}

/// Everything about a document's rows in document order (for equality across instances).
func snapshot(_ d: Document) -> [String] {
    var out = ["settings \(d.settings)"]
    d.forEachRow { id, parent, index, config in out.append("\(parent ?? "-")/\(index) \(id) \(config)") }
    return out
}

/// The path of a built executable of this package (beside the test bundle).
func builtExecutable(_ name: String) -> String {
    Binary.path(name) ?? name
}
