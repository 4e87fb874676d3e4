import ArgumentParser
import Foundation
import Layout
import StackDocRuntime
import Store

/// `stackdoc`: the StackDoc command line (SPEC §4).
@main
struct StackDocCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stackdoc",
        abstract: "Stack layout documents with undo, redo and replay.",
        usage: """
            stackdoc [--db PATH] [--readonly] [--doc NAME] [--as NAME] [--json | --csv] [-q] [--bail] [--echo]
                       [--init PATH | --no-init] [-c CMD …] [SCRIPT …]
              stackdoc layout FILE.json [--offset N] [--json]
              stackdoc check FILE.json … [--json]
              stackdoc help [layout|check]
            """,
        discussion: """
            With SCRIPT files (- is standard input), -c commands, or standard input that is not a \
            terminal, runs commands in batch (one per line, # starts a comment; errors go to \
            standard error as 'error: LINE: MESSAGE'; the exit status is 1 when any command \
            failed). -c commands run first, in order, then the scripts, then stackdoc exits. On a \
            terminal: an interactive prompt, after the init file. Every script file is read before \
            the database is opened: a missing one runs nothing and creates no database. Type \
            'help' at the prompt for the command language.

            Environment:
              STACKDOC_INIT     the init file of the interactive prompt (default ~/.stackdocrc)
              STACKDOC_HISTORY  the prompt's history file (default ~/.stackdoc_history)
              STACKDOC_TIMING   1: print each change's store and layout time to standard error
            """,
        version: StackDocVersion.text,
        subcommands: [LayoutFileCommand.self, CheckFileCommand.self]
    )

    @Option(name: .long, help: "The database file ('stackdoc.sqlite' in the current directory by default; ':memory:' for none).")
    var db: String = "stackdoc.sqlite"

    @Flag(name: .long, help: "Open the database read-only (it must exist; a read-only file or directory is fine): queries and export work, changes are refused.")
    var readonly = false

    @Option(name: .long, help: "Open this document at the start (created, and said so, when the database has none of that name).")
    var doc: String?

    @Option(name: [.customShort("c"), .customLong("command")],
            help: ArgumentHelp("Run this command (repeatable, in order) before the scripts, then exit.", valueName: "CMD"))
    var commands: [String] = []

    @Flag(name: .long, help: "Print every command's result as one JSON object per line.")
    var json = false

    @Flag(name: .long, help: "Print every table query (layout, visible, rows) as CSV and nothing but what queries print on standard output.")
    var csv = false

    @Flag(name: [.customShort("q"), .long], help: "Quiet: no change summaries or other reports on standard output (query results still; errors on standard error).")
    var quiet = false

    @Flag(name: .long, help: "Stop at the first failed command.")
    var bail = false

    @Flag(name: .long, help: "Print each command (after a prompt naming the document) before its output, for logs.")
    var echo = false

    @Option(name: .customLong("init"), help: ArgumentHelp("Run this file first, in any mode (instead of the interactive init file).", valueName: "PATH"))
    var initFile: String?

    @Flag(name: .long, help: "Do not run the init file ($STACKDOC_INIT or ~/.stackdocrc) before the interactive prompt.")
    var noInit = false

    @Option(name: .customLong("as"), help: "Who the history records as making this session's changes ('history' shows it; 'undo' and 'redo' act on its steps). Default: the operating-system user name.")
    var origin: String?

    @Argument(help: "Script files to run in order (batch mode); - is standard input.")
    var scripts: [String] = []

    func run() throws {
        HeapGrowth.configure()
        let options = Driver.Options(database: db, document: doc, json: json, bail: bail, echo: echo,
                                     commands: commands, scripts: scripts, initFile: initFile, noInit: noInit, origin: origin, readOnly: readonly,
                                     quiet: quiet, csv: csv)
        let status = Driver(options: options).run()
        if status != 0 { throw ExitCode(status) }
    }
}

/// What `stackdoc --version` prints: the release, the file format and the newest schema.
enum StackDocVersion {
    /// The release of this source tree.
    static let release = "0.9.0"

    static var text: String {
        "stackdoc \(release) (format \(Document.formatName), database schema \(Schema.currentVersion))"
    }
}
