import ArgumentParser
import Foundation
import Layout

extension StackDocCommand {
    /// The subcommands that run without a database.
    static let oneShotCommands: [String: ParsableCommand.Type] = [
        "layout": LayoutFileCommand.self,
        "check": CheckFileCommand.self,
    ]

    /// The root options that take a value (the word after them is never a subcommand).
    static let optionsWithValue: Set<String> = ["--db", "--doc", "-c", "--command", "--init"]

    /// Entry point. `stackdoc help [layout|check]` prints that help; `stackdoc [FLAGS] layout …`
    /// and `stackdoc [FLAGS] check …` go to the one-shot commands, with the flags before the
    /// subcommand word passed on to it (`stackdoc --json layout f.json`); everything else goes
    /// to the root command. (The root's positional SCRIPT arguments would otherwise take
    /// `layout` and `check` for script names, as swift-argument-parser parses a command's own
    /// arguments before it looks for a subcommand. A script file with one of these names, or
    /// named `help`, runs as `./layout` or `./help`.)
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch route(arguments) {
        case let .help(command):
            print(command.map { OneShotRoot.helpMessage(for: $0) } ?? StackDocCommand.helpMessage(columns: nil))
        case let .unknownHelp(topic):
            Output.error("no subcommand \(Validation.quoted(topic)): the subcommands are layout and check ('help' at the prompt describes the command language)")
            Glibc.exit(1)
        case let .oneShot(name, arguments):
            OneShotRoot.main([name] + arguments)  // exits on failure
        case .root:
            main(nil)
        }
    }

    enum Route {
        case help(ParsableCommand.Type?)
        case unknownHelp(String)
        /// The subcommand's word and its arguments (those before the word included).
        case oneShot(String, [String])
        case root
    }

    /// Where the arguments go (a pure function, tested without a process).
    static func route(_ arguments: [String]) -> Route {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" { return .root }
            if optionsWithValue.contains(word) {
                index += 2
                continue
            }
            if word.hasPrefix("-") && word != "-" {
                index += 1
                continue
            }
            break
        }
        guard index < arguments.count else { return .root }
        let word = arguments[index]
        let before = Array(arguments[..<index])
        let after = Array(arguments[(index + 1)...])
        if word == "help", before.isEmpty, after.count <= 1 {
            guard let topic = after.first else { return .help(nil) }
            if let command = oneShotCommands[topic] { return .help(command) }
            return .unknownHelp(topic)
        }
        if oneShotCommands[word] != nil { return .oneShot(word, before + after) }
        return .root
    }
}
