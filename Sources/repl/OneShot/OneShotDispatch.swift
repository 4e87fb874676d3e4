import ArgumentParser

extension StackDocCommand {
    /// The subcommands that run without a database.
    static let oneShotCommands: [String: ParsableCommand.Type] = [
        "layout": LayoutFileCommand.self,
        "check": CheckFileCommand.self,
    ]

    /// Entry point: `stackdoc layout …` and `stackdoc check …` go to the one-shot commands;
    /// everything else to the root command. (The root's positional SCRIPT arguments would
    /// otherwise take `layout` and `check` for script names, as swift-argument-parser parses a
    /// command's own arguments before it looks for a subcommand. A script file with one of these
    /// names runs as `./layout`.)
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let first = arguments.first, let command = oneShotCommands[first] {
            command.main(Array(arguments.dropFirst()))  // exits on failure
            return
        }
        main(nil)
    }
}
