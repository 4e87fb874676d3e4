import Layout
import Store

/// One command of a script run and what it produced.
public struct ScriptStep {
    /// The line the command was read from.
    public var line: Script.Line
    /// What the command produced (render it with `text` or `jsonValue`).
    public var result: CommandResult
}

/// What running a script produced: every command's result, and the open document and its
/// layout afterwards.
public struct ScriptRun {
    /// The commands that ran, in order, with their results (a `quit` ends the list).
    public var steps: [ScriptStep]
    /// The document open after the script (nil when none is).
    public var document: Document?
    /// Its whole layout (SPEC §2.3–§2.6; nil when no document is open).
    public var layout: DocumentLayout?
}

extension Session {
    /// A session on the database at `path`, with no document open.
    ///
    /// - Parameters:
    ///   - path: A database file (created when missing), or `:memory:` for a database that
    ///     lives as long as the session.
    ///   - directory: The directory relative paths of commands (`import`, `export`, `log
    ///     export`) are resolved against; nil for the process's current directory.
    /// - Throws: `StackDocError` when the file cannot be opened or created, or is not a
    ///   StackDoc database.
    public convenience init(database path: String, directory: String? = nil) throws {
        self.init(store: try DocumentStore(path: path), directory: directory)
    }

    /// A session on a new in-memory database holding `document`, open (as `import` would
    /// open it: one undo step that `undo` takes back to an empty document).
    ///
    /// - Parameters:
    ///   - document: The document to work on; the session works on its own copy.
    ///   - directory: The directory relative paths of commands are resolved against.
    /// - Throws: `StackDocError` when the document breaks a rule of the store.
    public convenience init(document: Document, directory: String? = nil) throws {
        try self.init(database: ":memory:", directory: directory)
        current = try store.importDocument(document)
    }

    /// The document open in the session (nil when none is).
    public var document: Document? { current?.document }

    /// Parses and runs one line of the command language.
    ///
    /// - Parameter line: One command (`add a b fixed 50`, `layout --visible`, …).
    /// - Returns: What the command produced, or nil for a blank or comment-only line.
    /// - Throws: `StackDocError` when the line does not parse or the command fails; a command
    ///   that fails changes nothing.
    @discardableResult
    public func run(line: String) throws -> CommandResult? {
        guard let command = try Parser.parse(line) else { return nil }
        return try run(command)
    }

    /// Runs `script`'s commands in order, each as if typed (one undo step each, unless the
    /// script groups them with `begin … commit`), until the end or a `quit`.
    ///
    /// - Parameter script: The parsed script.
    /// - Returns: Every command's result, and the open document and its layout afterwards.
    /// - Throws: `ScriptError` for the first command that fails (naming its line): the failed
    ///   command changed nothing, the ones before it stay done.
    public func run(_ script: Script) throws(ScriptError) -> ScriptRun {
        var steps: [ScriptStep] = []
        for line in script.lines {
            let result: CommandResult
            do {
                result = try run(line.command)
            } catch {
                throw ScriptError(file: script.file, line: line.number, error: error)
            }
            steps.append(ScriptStep(line: line, result: result))
            if result.quits { break }
        }
        let layout: DocumentLayout?
        do {
            layout = try current.map { _ in try currentLayout() }
        } catch {
            throw ScriptError(file: script.file, line: 0, error: error)
        }
        return ScriptRun(steps: steps, document: document, layout: layout)
    }
}

extension Document {
    /// Runs `script` on a copy of this document in an in-memory database (the document is
    /// open when the script starts) and returns what it produced; this document is unchanged.
    ///
    /// - Parameter script: The commands to run (edits, queries, `undo`, …).
    /// - Returns: Every command's result, and the open document and its layout afterwards.
    /// - Throws: `ScriptError` for the first command that fails, or with line 0 when the
    ///   document cannot be stored.
    public func running(_ script: Script) throws(ScriptError) -> ScriptRun {
        let session: Session
        do {
            session = try Session(document: self)
        } catch {
            throw ScriptError(file: script.file, line: 0, error: error)
        }
        return try session.run(script)
    }
}
