import ArgumentParser
import Foundation
import Layout

/// `stackdoc layout FILE.json [--offset N] [--json]` (SPEC §4).
struct LayoutFileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Print the layout of a saved document (stackdoc/1 JSON) without a database."
    )

    @Argument(help: "The saved document (stackdoc/1 JSON).")
    var file: String

    @Option(name: .long, parsing: .unconditional, help: "Scroll offset to use instead of the document's (clamped to the content; --offset -5 is fine).")
    var offset: Double?

    @Flag(name: .long, help: "Print the layout as one JSON object (SPEC §4.2) instead of the table.")
    var json = false

    func run() throws {
        try OneShotCommandOutput.emit(OneShot.layout(path: file, offset: offset, json: json))
    }
}

/// `stackdoc check FILE.json… [--json]` (SPEC §4).
struct CheckFileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate saved documents (stackdoc/1 JSON); exit 1 with every problem when any is bad."
    )

    @Argument(help: "The saved documents (stackdoc/1 JSON); every one is checked.")
    var files: [String]

    @Flag(name: .long, help: "Print one JSON object per file: {\"file\",\"ok\",\"document\",\"rows\"} or {\"file\",\"ok\":false,\"problems\"}.")
    var json = false

    func run() throws {
        try OneShotCommandOutput.emit(OneShot.check(paths: files, json: json))
    }
}

/// Prints a one-shot result and turns its status into the process's exit status.
enum OneShotCommandOutput {
    static func emit(_ result: OneShot.Result) throws {
        if !result.out.isEmpty { FileHandle.standardOutput.write(Data(result.out)) }
        if !result.stderr.isEmpty { FileHandle.standardError.write(Data(result.stderr.utf8)) }
        if result.status != 0 { throw ExitCode(result.status) }
    }
}
