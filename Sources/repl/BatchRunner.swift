import Foundation
import Layout
import StackDocScript

/// One line of a script: its text, or why it is not text (a byte that is not UTF-8).
enum ScriptLine: Equatable {
    case text(String)
    /// The line's problem (`not UTF-8 text: byte 0xFF at column 7`).
    case invalid(String)

    /// The line's bytes (without the `\n`; a final `\r` is dropped) as a line of a script.
    init(bytes: ArraySlice<UInt8>) {
        var bytes = bytes
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                offset += scalar.count
            case .emptyInput:
                self = .text(String(decoding: bytes, as: UTF8.self))
                return
            case .error:
                let byte = bytes[bytes.startIndex + offset]
                self = .invalid("not UTF-8 text: byte 0x\(String(byte, radix: 16, uppercase: true)) at column \(offset + 1)")
                return
            }
        }
    }

    /// `bytes` without a UTF-8 byte order mark at its start.
    static func droppingByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    }

    /// The lines of a script's bytes (split on `\n`; a final `\n` ends the last line).
    static func lines(of bytes: [UInt8]) -> [ScriptLine] {
        let body = droppingByteOrderMark(bytes)
        var lines = body.split(separator: 0x0A, omittingEmptySubsequences: false)
        if body.last == 0x0A { lines.removeLast() }
        return lines.map(ScriptLine.init(bytes:))
    }
}

/// Batch mode (SPEC §4): one command per line, no prompt; each failure prints
/// `error: LINE: MESSAGE` to standard error (`error: FILE:LINE: MESSAGE` when several sources
/// run) and, with `--json`, `{"ok":false,"error":…,"line":N}` to standard output.
struct BatchRunner {
    enum Flow { case go, stop }

    let session: Session
    let json: Bool
    let bail: Bool
    let showFile: Bool
    let sink: Sink
    /// False on the interactive prompt: errors are `error: MESSAGE` without a line number.
    var showLine = true
    /// `--echo`: each command is printed (after the prompt) before its output, in text mode.
    var echo = false
    private(set) var failed = false

    init(session: Session, json: Bool, bail: Bool, showFile: Bool, sink: Sink = .standard) {
        self.session = session
        self.json = json
        self.bail = bail
        self.showFile = showFile
        self.sink = sink
    }

    mutating func run(text: String, file: String?) -> Flow {
        run(bytes: Array(text.utf8), file: file)
    }

    /// Runs a script's bytes; a line that is not UTF-8 fails alone, with its number.
    mutating func run(bytes: [UInt8], file: String?) -> Flow {
        run(lines: ScriptLine.lines(of: bytes), file: file)
    }

    /// Runs lines of text (a final `\r` is dropped).
    mutating func run<S: Sequence>(lines: S, file: String?) -> Flow where S.Element == String {
        run(lines: lines.lazy.map { ScriptLine(bytes: Array($0.utf8)[...]) }, file: file)
    }

    /// Runs the lines, the first numbered `firstLine`; `.stop` after `quit`, or after an error
    /// with `--bail`.
    mutating func run<S: Sequence>(lines: S, file: String?, firstLine: Int = 1) -> Flow where S.Element == ScriptLine {
        var number = firstLine - 1
        for line in lines {
            number += 1
            let outcome: LineResult
            switch line {
            case .text(let text):
                if echo, !json, BatchRunner.isCommand(text) { sink.out(Prompt.text(session) + text) }
                outcome = execute(text)
            case .invalid(let problem):
                outcome = .failure(problem)
            }
            switch outcome {
            case .success(let result):
                if result.quits { return .stop }
            case .failure(let message):
                if report(message, line: number, file: file) == .stop { return .stop }
            case .nothing:
                break
            }
        }
        return .go
    }

    /// Records a failed line: `error: [FILE:]LINE: MESSAGE` (and the JSON envelope).
    mutating func report(_ message: String, line number: Int, file: String?) -> Flow {
        failed = true
        let place = showFile ? "\(file ?? "-"):\(number)" : "\(number)"
        if json { sink.out(Envelope.failure(error: message, line: number, file: showFile ? file : nil)) }
        sink.err(showLine ? "\(place): \(message)" : message)
        return bail ? .stop : .go
    }

    /// True for a line that holds more than blanks and a comment (what `--echo` prints).
    static func isCommand(_ line: String) -> Bool {
        !Parser.isBlankOrComment(line)  // a line that does not parse is echoed before its error
    }

    enum LineResult {
        case success(CommandResult)
        case failure(String)
        case nothing
    }

    /// Parses and runs one line (parse → `Session.run` → `CommandResult`), printing the result
    /// with the renderer of the active mode.
    func execute(_ line: String) -> LineResult {
        do {
            guard let command = try Parser.parse(line) else { return .nothing }
            return .success(try run(command))
        } catch {
            return .failure(Driver.message(error))
        }
    }

    /// Runs one command and prints its result in the active mode.
    func run(_ command: Command) throws -> CommandResult {
        let result = try session.run(command)
        // Only the active mode's output is rendered.
        if json {
            sink.out(Envelope.success(command: Printer.text(command), result: result))
        } else {
            let text = result.text
            if !text.isEmpty { sink.out(text) }
        }
        return result
    }

    /// Runs a command that is not on any line (`--doc NAME` creating NAME): its output as a
    /// line's; a failure is an error without a line number.
    mutating func perform(_ command: Command) throws -> Flow {
        let result = try run(command)
        return result.quits ? .stop : .go
    }
}

/// The prompt, also printed before each command by `--echo`: `stackdoc(feed)> `, with a `*`
/// when a `begin … commit` group is open (`stackdoc(feed)*> `).
enum Prompt {
    static func text(_ session: Session) -> String {
        guard let doc = session.current else { return "stackdoc> " }
        return "stackdoc(\(Printer.id(doc.name)))" + (doc.openGroup != nil ? "*" : "") + "> "
    }
}

/// Where batch output goes: standard output and standard error, or a test's buffers.
struct Sink {
    /// One line (or block) of standard output.
    var out: (String) -> Void
    /// One error message, printed as `error: MESSAGE`.
    var err: (String) -> Void

    static var standard: Sink { Sink(out: { Output.print($0) }, err: { Output.error($0) }) }
}
