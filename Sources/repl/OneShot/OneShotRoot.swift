import ArgumentParser

/// The parent of the one-shot commands when they run (`stackdoc layout …`, `stackdoc check …`):
/// named `stackdoc` and without SCRIPT arguments, so that usage lines, help and argument errors
/// say `stackdoc layout` and `stackdoc check`.
struct OneShotRoot: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stackdoc",
        subcommands: [LayoutFileCommand.self, CheckFileCommand.self]
    )
}
