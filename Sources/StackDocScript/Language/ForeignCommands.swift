/// The commands of sqlite3 and psql a newcomer types from habit (`\q`, `.mode csv`), each with
/// the stackdoc way to do it: the parser answers them with a pointer instead of a guess at the
/// nearest command (`.mode` is not `move`).
enum ForeignCommands {
    /// What to use instead of each word (lowercased), as the error says it.
    static let pointers: [String: String] = {
        var table: [String: String] = [:]
        func add(_ words: [String], _ use: String) { for w in words { table[w] = use } }
        add(["\\q", "\\quit", ".quit", ".exit", ".q"], "use 'quit' (or Ctrl-D)")
        add(["\\i", "\\ir", "\\include", ".read"], "use 'read PATH'")
        add(["\\o", "\\out", ".output"], "use 'output PATH' ('output' alone: back to standard output)")
        add([".once"], "use 'once PATH'")
        add(["\\timing", ".timer"], "use 'timer on|off'")
        add([".mode", "mode", "\\pset", "\\a", ".headers", ".csv"],
            "use --csv on the command line (every table as CSV), or 'layout --csv', 'visible --csv', 'rows --csv'; --json for JSON")
        add([".tables", "tables", ".databases", "\\d", "\\dt", "\\l", "\\list"], "use 'docs' (the documents) or 'rows' (the open document's rows)")
        add([".schema", "schema", "\\d+"], "use 'rows' (each row's config) or 'help rowspec'")
        add([".dump", "dump"], "use 'log export PATH' (a script that rebuilds the document) or 'export PATH' (JSON)")
        add([".help", "\\?", "\\h", "\\help"], "use 'help'")
        add([".open", "\\c", "\\connect"], "use 'stackdoc --db PATH' for a database, 'open NAME' for a document")
        add([".echo", "\\echo"], "use 'echo TEXT', or 'stackdoc --echo' to print each command")
        return table
    }()

    /// The pointer for `word` when it is a sqlite3 or psql command (nil otherwise).
    static func pointer(for word: String) -> String? {
        pointers[word.lowercased()]
    }
}
