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
        case .cancelled:
            return "cancelled: nothing changed"
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
        case let .compactedEntry(document, entry, base):
            return "log entry \(entry) of \(q(document)) was dropped by history compact: its history starts after entry \(base)"
        case let .undoPastCompaction(document, count, available, base):
            return "cannot undo \(count) step\(count == 1 ? "" : "s"): " + (available == 0 ? "none is left" : "only \(available) can be undone")
                + ", the history of \(q(document)) before log entry \(base + 1) was compacted"
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
        case let .syntax(s):
            return text(s)
        case let .history(h):
            return text(h)
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

    static func text(_ s: Syntax) -> String {
        let q = Validation.quoted
        // A user's text inside a quoted message part: escaped like every quoted value.
        func inner(_ t: String) -> Substring { q(t).dropFirst().dropLast() }
        switch s {
        case let .expected(what, after, got):
            return "expected \(what)\(after.isEmpty ? "" : " after \(q(after))"), got \(got.map(q) ?? "end of line")"
        case let .unexpected(word, after, usage):
            return "unexpected \(q(word)) after \(q(after)) (usage: \(usage))"
        case let .unterminatedQuote(quote):
            return "unterminated quote: a word starting with \(quote) has no closing \(quote)"
        case let .badEscape(e):
            return "bad escape '\\\(inner(e))' in a quoted word (use \\\\, \\\", \\n, \\t, \\r or \\u{HEX})"
        case .unicodeEscapeWithoutBrace:
            return "bad escape: expected '{' after '\\u'"
        case let .unclosedUnicodeEscape(hex):
            return "bad escape: '\\u{\(inner(hex))' has no closing '}'"
        case let .notAUnicodeScalar(hex):
            return "bad escape: '\\u{\(inner(hex))}' is not a unicode scalar"
        case let .lineTooLong(bytes, limit):
            return "line too long: \(bytes) bytes (the limit is \(limit))"
        case let .quotedCommandWord(word):
            return "unknown command \(q("\"" + word + "\"")): a command word is not quoted"
        case let .unknownCommand(word, suggestion):
            return "unknown command \(q(word)) (\(suggestion.map { "did you mean \(q($0))? " } ?? "")type 'help' for the list)"
        case let .secondPosition(command, at):
            return "\(q(command)) takes one position, got a second one at \(q(at))"
        case let .secondParent(command):
            return "\(q(command)) takes one 'in ROW', got a second one"
        case let .noHelp(word, suggestion, commands):
            return "no help for \(q(word))\(suggestion.map { " (did you mean \(q($0))?)" } ?? ""): the commands are \(commands.joined(separator: " ")), and the topics rowspec, sepspec"
        case let .noHelpForm(word, command, forms):
            return "no help for \(q(word)): the forms of \(command) are \(forms.map { "'\($0)'" }.joined(separator: ", "))"
        case let .lookalikeKeyword(word, keyword):
            return "\(q(word)) is not a row spec word: did you mean \(q(keyword))? (quote a row id that looks like one: \"\(inner(word))\")"
        case let .foreignCommand(word, use):
            // The word comes from the table of sqlite3 and psql commands: printed as typed.
            return "unknown command '\(word)': \(use)"
        }
    }

    static func text(_ h: History) -> String {
        let q = Validation.quoted
        switch h {
        case let .invalidMarkName(name):
            return "invalid mark name \(q(name)): use 1 to 64 characters of A-Z a-z 0-9 _ . - starting with a letter or _ (not 'now')"
        case let .markInOpenGroup(label):
            return "cannot mark while a group is open (begin\(label.map { " " + q($0) } ?? "")): commit or rollback first"
        case let .markExists(name, seq):
            return "mark \(q(name)) already exists (log entry \(seq))"
        case let .noSuchMark(name, document):
            return "no mark \(q(name)) in \(q(document))"
        case let .markUnreachable(name):
            // The advice is a command line: a valid mark name needs no quotes.
            return "mark \(q(name)) cannot be reached by undo or redo: the steps it stood on were discarded by a later operation (use restore \(Validation.bare(name)))"
        case let .noLogEntry(n, document, last):
            return "no log entry \(n): the history of \(q(document)) has entries 1...\(last)"
        case let .beforeFirstEntry(back, document, entries):
            return "now~\(back) is before the first log entry: the history of \(q(document)) has \(entries) entries"
        case .snapshotInOpenGroup:
            return "cannot write a snapshot while a group is open: commit or rollback first"
        case let .undoMineBlocked(count, origin, step, by, mine):
            let steps = count == 1 ? "your last step" : "your last \(count) steps"
            return "cannot undo \(steps) (\(Validation.bare(origin))): step \(step) by \(by.map(q) ?? "an unknown origin") came after \(mine == 0 ? "it" : "them") and would be undone too"
        case let .notEnoughMine(count, origin, mine):
            return mine == 0 ? "nothing to undo for \(Validation.bare(origin)): no applied step is yours"
                             : "cannot undo \(count) of your steps (\(Validation.bare(origin))): only \(mine) applied"
        }
    }

    private static func staleCause(_ name: String, _ stored: Int, _ session: Int) -> String {
        "document \(Validation.quoted(name)) was changed by another process (stored version \(stored), this session has \(session))"
    }
}
