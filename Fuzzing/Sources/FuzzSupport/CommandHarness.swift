import Layout
import StackDocScript

/// The command parser's rules under fuzzing: every line parses to a command, to nothing (blank
/// or comment), or to a one-line error (`UserFacingError`); a parsed command prints (`Printer`) as text
/// that parses to the same command. A crash, a hang or a broken rule stops the fuzzer.
public enum CommandHarness {
    public static func check(_ line: String) {
        do {
            guard let command = try Parser.parse(line) else { return }
            let printed = Printer.text(command)
            let again: Command?
            do { again = try Parser.parse(printed) } catch {
                FuzzInput.broken("the printed command '\(printed)' does not parse: \(error)", line)
            }
            if again != command { FuzzInput.broken("the printed command '\(printed)' parses to another command", line) }
        } catch let error as any UserFacingError {
            if !FuzzInput.isOneLine(error.message) { FuzzInput.broken("bad message \(error.message.debugDescription)", line) }
        } catch {
            FuzzInput.broken("not a UserFacingError: \(error)", line)
        }
    }
}
