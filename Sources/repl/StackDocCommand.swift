import ArgumentParser

/// `stackdoc`: the StackDoc command line (SPEC §4).
@main
struct StackDocCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stackdoc",
        abstract: "Stack layout documents with undo, redo and replay."
    )

    func run() throws {
        print("stackdoc: under construction")
    }
}
