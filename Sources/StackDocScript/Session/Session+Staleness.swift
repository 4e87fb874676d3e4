import Layout
import Store

/// Another process writing or dropping the open document (issue 9).
///
/// - A query (`layout`, `status`, `history`, `export`, …) first catches up: when the document
///   was written elsewhere it is reloaded, and the query answers from the reloaded state (the
///   document rebuilds its layouts); when it was dropped, the session closes it and says so.
/// - An edit is planned on the state the user saw: when another process wrote since, the store
///   catches up and plans it again on the newest version, or refuses it as a conflict naming
///   the step and origin that changed what it depends on (StoredDocument+Replan); either way the
///   session is current after it.
/// - Any other command that changes the document (undo, redo, a group, an import block…), and
///   an edit the store would not plan again (a group open, a history rewritten meanwhile): when
///   another process wrote since, the store refuses it, the session reloads, and the error says
///   to run the command again (or that the document was closed, when it was dropped).
extension Session {
    /// Before a query on the open document: reload it when another process wrote it; close it
    /// (and fail) when another process dropped it.
    func refreshBeforeQuery(_ command: Command) throws {
        guard command.readsOpenDocument, let doc = current else { return }
        if try catchUp(doc) == .dropped {
            throw CommandError(.recovered(.store(doc.dropped.kind), closed(doc)))
        }
    }

    /// After a failed command: when another process wrote the open document, reload it; when
    /// it dropped it, close it; say which. Nil when the document is current and `error` is not
    /// a stale refusal (the failure had another cause; a stale edit the store refused after
    /// catching up is `.reloaded`).
    func recoverFromStale(after error: Error) -> CommandError.StaleRecovery? {
        guard let doc = current else { return nil }
        switch try? catchUp(doc) {
        case .current?:
            guard let error = error as? StoreError, case .staleDocument = error.kind else { return nil }
            return .reloaded
        case .reloaded?: return .reloaded
        case .dropped?: return closed(doc)
        case nil:
            current = nil
            return .closed
        }
    }

    /// Catches `doc` up with what other sessions committed, from the log
    /// (`StoredDocument.catchUp`), and keeps those changes for the prompt's announcement and the
    /// next `watch` (Session+Watch): a query that catches up by itself loses none of them.
    func catchUp(_ doc: StoredDocument) throws -> StoredDocument.Refresh {
        let before = doc.version
        do {
            remember(try doc.catchUp())
        } catch let error as StoreError {
            if case .droppedDocument = error.kind { return .dropped }
            throw error
        }
        return doc.version == before ? .current : .reloaded
    }

    /// Closes the dropped document `doc` (pointing at its namesake, if any).
    private func closed(_ doc: StoredDocument) -> CommandError.StaleRecovery {
        current = nil
        let namesake = (try? store.contains(doc.name)) == true
        return .closedDropped(namesake: namesake ? doc.name : nil)
    }
}

extension Command {
    /// True for the commands that only read the open document.
    var readsOpenDocument: Bool {
        switch self {
        case .csv(let query):
            return query.readsOpenDocument
        case .export, .layout, .visible, .rows, .row, .findType, .hit, .history, .historyLast, .status, .draw, .exportSVG, .verify, .logExport,
             .diff, .at:
            return true
        case .mark(let name):
            return name == nil
        case .new, .open, .close, .docs, .drop, .importDocument, .importBegin, .importCommit, .importRollback, .edit, .undo, .redo, .begin, .commit, .rollback, .help, .quit, .shell,
             .undoTo, .redoTo, .undoMine, .undoAll, .redoAll, .restore, .compactHistory, .writeAs, .echo, .rebuildSnapshots, .watch:
            return false
        }
    }
}
