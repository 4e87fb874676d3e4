import ArgumentParser
import Foundation

/// `stackdoc`: the StackDoc command line (SPEC §4).
@main
struct StackDocCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stackdoc",
        abstract: "Stack layout documents with undo, redo and replay.",
        discussion: """
            With SCRIPT files, or with standard input that is not a terminal, runs commands in batch \
            (one per line, # starts a comment; errors go to standard error as 'error: LINE: MESSAGE'; \
            the exit status is 1 when any command failed). On a terminal: an interactive prompt. \
            Type 'help' for the command language.
            """,
        subcommands: [LayoutFileCommand.self, CheckFileCommand.self]
    )

    @Option(name: .long, help: "The database file ('stackdoc.sqlite' in the current directory by default; ':memory:' for none).")
    var db: String = "stackdoc.sqlite"

    @Option(name: .long, help: "Open this document at the start (created when the database has none of that name).")
    var doc: String?

    @Flag(name: .long, help: "Print every command's result as one JSON object per line.")
    var json = false

    @Flag(name: .long, help: "Stop at the first failed command.")
    var bail = false

    @Option(name: .customLong("as"), help: "Who the history records as making this session's changes ('history' shows it; 'undo --mine' undoes only its steps). Default: user:pid.")
    var origin: String?

    @Argument(help: "Script files to run in order (batch mode).")
    var scripts: [String] = []

    func run() throws {
        let options = Driver.Options(database: db, document: doc, json: json, bail: bail, scripts: scripts, origin: origin)
        let status = Driver(options: options).run()
        if status != 0 { throw ExitCode(status) }
    }
}
