import Layout
import Store

/// The document an `import begin … import commit` block is building, in memory only.
final class PendingImport {
    /// The document so far (its name and settings from `import begin`, then every edit).
    var document: Document

    init(_ document: Document) { self.document = document }
}

/// `import begin NAME … import commit`: a document built by edits in memory and stored as one
/// import (`DocumentStore.importDocument`: one transaction, one `import` log entry holding its
/// rows; like any import, not an undo step). It is how `log export` writes an imported document
/// (or the base of a compacted history), so that running the script rebuilds the same log entry
/// through the same bulk path instead of one `add` operation per row (issue 15 item 8).
extension Session {
    /// The name of the document an open `import begin` block is building (nil: none is open).
    public var importBlockName: String? { importing?.document.name }

    /// Runs `command` when it belongs to an import block: `import begin`, `import commit`,
    /// `import rollback`, or an edit while a block is open (applied to the block's document).
    /// Any other command while a block is open is refused. Nil: `command` runs as usual.
    func runImportBlock(_ command: Command) throws -> CommandResult? {
        switch command {
        case let .importBegin(name, axis, viewport):
            if let pending = importing { throw Self.blockOpen(pending, refusing: command) }
            try Validation.checkDocumentName(name)
            let settings = try Self.newSettings(name, axis, viewport)
            try Validation.check(settings)
            if try store.contains(name) { throw StackDocError(.documentExists(name: name)) }
            importing = PendingImport(Document(name: name, settings: settings))
            return .importBegun(name: name)
        case .importCommit:
            guard let pending = importing else { throw StackDocError("import commit: no 'import begin' block is open") }
            // Stored through the import's own path: checked, written in one transaction, logged
            // as one `import` entry whose rows are this document.
            let stored = try store.importDocument(pending.document)
            importing = nil
            return opened(stored, verb: .imported)
        case .importRollback:
            guard let pending = importing else { throw StackDocError("import rollback: no 'import begin' block is open") }
            importing = nil
            return .importRolledBack(name: pending.document.name, rows: pending.document.rowCount)
        case .edit(let edit):
            guard let pending = importing else { return nil }
            // Planned and checked as the store checks an operation, applied all or nothing (a
            // failing line changes nothing); in place: the document is never copied.
            let changes = try pending.document.plan(edit)
            for change in changes { try Validation.check(change) }
            try pending.document.apply(changes)
            return .importPending(name: pending.document.name, operation: Printer.text(edit), rows: pending.document.rowCount)
        case .help, .quit, .shell:
            return nil
        default:
            guard let pending = importing else { return nil }
            throw Self.blockOpen(pending, refusing: command)
        }
    }

    private static func blockOpen(_ pending: PendingImport, refusing command: Command) -> StackDocError {
        StackDocError("'\(Printer.text(command).prefix(40))' cannot run inside the import block of \(Printer.id(pending.document.name)): "
                      + "only edits until 'import commit' (or 'import rollback')")
    }
}
