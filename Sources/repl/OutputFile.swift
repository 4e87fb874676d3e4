import Foundation
import Layout
import StackDocScript

/// A file that `output` or `once` writes to, closed when no runner holds it.
final class OutputFile {
    private let handle: UnsafeMutablePointer<FILE>
    /// The path as the command gave it (what acknowledgements name).
    let shown: String

    init(_ handle: UnsafeMutablePointer<FILE>, shown: String) {
        self.handle = handle
        self.shown = shown
    }

    /// One line (or block), written through (as standard output is: issue 9).
    func write(_ text: String) {
        write(part: text + "\n")
    }

    /// Part of a line, written through (a FIFO whose reader left fails the write, not the process).
    func write(part: String) {
        FileIO.withoutBrokenPipeSignal {
            fputs(part, handle)
            fflush(handle)
        }
    }

    /// The line on standard output for a command whose result went to this file: text
    /// `status: result written to 'once.txt'`; JSON, an envelope whose result says where
    /// (`{"ok":true,"command":"status","result":{"writtenTo":"once.txt"},"events":[]}`).
    func acknowledgement(of command: String, json: Bool) -> String {
        guard json else { return "\(command): result written to \(Validation.quotedPath(shown))" }
        return JSONWriter.compact(.object([JSONMember("ok", .bool(true)), JSONMember("command", .string(command)),
                                           JSONMember("result", .object([JSONMember("writtenTo", .string(shown))])),
                                           JSONMember("events", .array([]))]))
    }

    deinit { fclose(handle) }
}
