import Layout

extension CommandError {
    /// The error as one line of text: the one renderer of the command language's errors. Every
    /// user value goes through one quoting rule: `Validation.quoted` for names and words,
    /// `Validation.quotedPath` for paths.
    public var message: String {
        switch kind {
        case let .syntax(s):
            return Self.text(s)
        case let .cannotRead(path, problem):
            return "cannot read \(Validation.quotedPath(path)): \(problem)"
        case let .cannotWrite(path, problem):
            return "cannot write \(Validation.quotedPath(path)): \(problem)"
        case let .inFile(path, inner):
            return "\(Validation.quotedPath(path)): \(StackDocError(inner).message)"
        case let .recovered(inner, recovery):
            // The stale error's advice is replaced by what the session did.
            let cause = inner.cause
            switch recovery {
            case .reloaded:
                return cause + "; reloaded it: run the command again"
            case .closed:
                return cause + "; the document is closed"
            case .closedDropped(let namesake):
                return cause + "; closed it"
                    + (namesake.map { " (a new document \(Validation.quoted($0)) exists: \(Validation.quoted("open " + $0)) to edit it)" } ?? "")
            }
        }
    }
}
