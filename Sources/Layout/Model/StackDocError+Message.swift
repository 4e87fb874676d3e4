extension StackDocError {
    /// The error as one line of text: the one renderer of every error. Every user value goes
    /// through one quoting rule: `Validation.quoted` (quoted, escaped, cut) for names and ids,
    /// `Validation.quotedPath` (quoted, escaped, whole) for paths.
    public var message: String { Self.text(kind) }

    static func text(_ kind: Kind) -> String {
        let q = Validation.quoted
        switch kind {
        case .message(let text):
            return text
        case .noDocumentOpen:
            return "no document is open (use 'new NAME', 'open NAME' or 'import PATH')"
        case .nothingToClose:
            return "no document is open"
        case .noSuchDocument(let name):
            return "no document \(q(name))"
        case .noSuchRow(let id):
            return "no row \(q(id))"
        case .rowExists(let id):
            return "row \(q(id)) already exists"
        case .notAStack(let id):
            return "row \(q(id)) is not a stack"
        case let .stackNotEmpty(id, rows):
            return "row \(q(id)) still holds \(rows == 1 ? "1 row" : "\(rows) rows"): move or remove them before 'stack none'"
        case let .notInStack(id, stack):
            return "row \(q(id)) is not in " + (stack.map { "stack \(q($0))" } ?? "the root stack")
        case .moveIntoItself(let id):
            return "cannot move row \(q(id)) into itself"
        case let .hiddenScrollTarget(id, ancestor):
            return "cannot scroll to row \(q(id)): " + (ancestor.map { "it is inside hidden row \(q($0))" } ?? "it is hidden")
        case .documentExists(let name):
            return "document \(q(name)) already exists"
        case .nothingInHistory(let move):
            return "nothing to \(move.rawValue)"
        case let .tooManySteps(move, count, available):
            return "cannot \(move.rawValue) \(count) steps: only \(available) can be \(move == .undo ? "undone" : "redone")"
        case let .stepCountBelowOne(move, count):
            return "\(move.rawValue) count must be at least 1, not \(count)"
        case let .historyInOpenGroup(move, label):
            return "cannot \(move.rawValue) while a group is open (begin\(label.map { " " + q($0) } ?? "")): commit or rollback first"
        case .groupAlreadyOpen(let label):
            return "a group is already open (begin\(label.map { " " + q($0) } ?? "")): commit or rollback it first"
        case .noGroupOpen(let end):
            return "no group is open: nothing to \(end.rawValue)"
        case .invalidGroupLabel:
            return "invalid group label: use 1 to 256 characters on one line, without control characters"
        case .storeInvariant(let problem):
            return "internal store error: \(problem)"
        case let .notAStackDocDatabase(path, reason):
            return "database \(Validation.quotedPath(path)) is " + (reason.map { "not a StackDoc database: \($0)" } ?? "an SQLite database but not a StackDoc database")
        case let .newerSchema(path, version, supported):
            return "database \(Validation.quotedPath(path)) has schema version \(version), newer than this StackDoc supports (\(supported)); use a newer stackdoc"
        case let .databaseBusy(path, detail):
            return "database \(Validation.quotedPath(path)) is busy: another process holds it locked (\(detail))"
        case let .readOnlyDatabase(path, detail):
            return "database \(Validation.quotedPath(path)) is read-only: \(detail)"
        case .diskFull(let path):
            return "database \(Validation.quotedPath(path)): the disk is full"
        case let .ioError(path, detail):
            return "database \(Validation.quotedPath(path)): I/O error (\(detail))"
        case let .writeRefused(path, damage):
            return "database \(Validation.quotedPath(path)) is not written to any more: it was found damaged (\(damage))"
        case let .databaseError(path, detail):
            return "database \(Validation.quotedPath(path)): \(detail)"
        case let .invalidName(name, value, path):
            let rule = name == .rowID ? "expected 1 to 64 characters from A-Z a-z 0-9 _ . - starting with a letter or _"
                                      : "expected 1 to 64 characters from A-Z a-z 0-9 _ . -"
            return "\(path): invalid \(name.rawValue) \(q(value)): \(rule)"
        case let .badValue(path, problem):
            return "\(path): \(problem)"
        case let .staleDocument(name, stored, session):
            return staleCause(name, stored, session) + ": reload it and try again"
        case .droppedDocument(let name):
            return "document \(q(name)) was dropped by another process"
        case let .corruptFile(path, problem):
            return "database \(Validation.quotedPath(path)) is corrupt: \(problem)"
        case let .cannotOpenDatabase(path, verb, problem):
            return "cannot \(verb) database \(Validation.quotedPath(path)): \(problem)"
        case let .cannotRead(path, problem):
            return "cannot read \(Validation.quotedPath(path)): \(problem)"
        case let .cannotWrite(path, problem):
            return "cannot write \(Validation.quotedPath(path)): \(problem)"
        case let .inFile(path, inner):
            return "\(Validation.quotedPath(path)): \(text(inner))"
        case let .recovered(inner, recovery):
            // The stale error's advice is replaced by what the session did.
            let cause: String
            if case let .staleDocument(name, stored, session) = inner {
                cause = staleCause(name, stored, session)
            } else {
                cause = text(inner)
            }
            switch recovery {
            case .reloaded:
                return cause + "; reloaded it: run the command again"
            case .closed:
                return cause + "; the document is closed"
            case .closedDropped(let namesake):
                return cause + "; closed it"
                    + (namesake.map { " (a new document \(q($0)) exists: \(q("open " + $0)) to edit it)" } ?? "")
            }
        }
    }

    private static func staleCause(_ name: String, _ stored: Int, _ session: Int) -> String {
        "document \(Validation.quoted(name)) was changed by another process (stored version \(stored), this session has \(session))"
    }
}
