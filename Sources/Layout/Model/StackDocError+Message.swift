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
