import Foundation
import Layout
import StackDocScript

/// Batch mode (SPEC §4): one command per line, no prompt; each failure prints
/// `error: LINE: MESSAGE` to standard error (`error: FILE:LINE: MESSAGE` when several scripts
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
    private(set) var failed = false

    init(session: Session, json: Bool, bail: Bool, showFile: Bool, sink: Sink = .standard) {
        self.session = session
        self.json = json
        self.bail = bail
        self.showFile = showFile
        self.sink = sink
    }

    mutating func run(text: String, file: String?) -> Flow {
        run(lines: Script.split(text), file: file)
    }

    /// Runs the lines; `.stop` after `quit`, or after an error with `--bail`.
    mutating func run<S: Sequence>(lines: S, file: String?) -> Flow where S.Element == String {
        var number = 0
        for raw in lines {
            number += 1
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
            switch execute(line) {
            case .success(let result):
                if result.quits { return .stop }
            case .failure(let message):
                failed = true
                let place = showFile ? "\(file ?? "-"):\(number)" : "\(number)"
                if json { sink.out(Envelope.failure(error: message, line: number, file: showFile ? file : nil)) }
                sink.err(showLine ? "\(place): \(message)" : message)
                if bail { return .stop }
            case .nothing:
                break
            }
        }
        return .go
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
            let result = try session.run(command)
            // Only the active mode's output is rendered.
            if json {
                sink.out(Envelope.success(command: Printer.text(command), result: result))
            } else {
                let text = result.text
                if !text.isEmpty { sink.out(text) }
            }
            return .success(result)
        } catch {
            return .failure(Driver.message(error))
        }
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
