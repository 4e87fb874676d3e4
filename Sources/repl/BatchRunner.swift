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
        if bytes.allSatisfy({ $0 < 0x80 }) {  // ASCII (almost every line): valid as it is
            self = .text(String(decoding: bytes, as: UTF8.self))
            return
        }
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
/// run, and always inside `read`) and, with `--json`, `{"ok":false,"error":…,"line":N}` to
/// standard output. The shell's own commands (`read`, `output`, `once`, `timer`) run here.
struct BatchRunner {
    enum Flow { case go, stop }

    let session: Session
    let json: Bool
    /// `--bail`: stop at the first failed command (never at the prompt).
    var bail: Bool
    let showFile: Bool
    let sink: Sink
    /// False on the interactive prompt: errors are `error: MESSAGE` without a line number.
    var showLine = true
    /// `--echo`: each command is printed (after the prompt) before its output, in text mode.
    var echo = false
    /// `-q` (and `--csv`): in text mode only what queries asked for reaches the output (tables,
    /// documents, pictures, help, `echo`), no reports of what a command did (`CommandResult.isData`).
    var quiet = false
    /// `--csv`: `layout`, `visible` and `rows` print CSV (`Command.csvForm`), as with their `--csv`.
    var csv = false
    /// Consecutive `add`s inside an open group run as one store transaction (the output is the
    /// same; false runs each alone, for the tests that compare both).
    var groupsAdds = true
    /// The replies of edits inside an `import begin` block (they store nothing) may wait in
    /// standard output's buffer (`Sink.held`): a script of 100k `add` lines then costs a
    /// write per buffer, not per line. False at the prompt, where every reply is written at once.
    var holdsRepliesThatStoreNothing = false
    /// `timer on`: each command's wall time after its output (`"ms"` in the JSON envelope).
    private(set) var timer = false
    /// Asked between the lines of a `read` file: true stops the file (Ctrl-C at the prompt).
    var interrupted: () -> Bool = { false }
    private(set) var failed = false
    /// The script files running, outermost first: a top-level script, then the files `read`
    /// is running (a file already here is not read again: a cycle).
    private var scripts: [RunningScript] = []
    /// The files `read` is running (a message inside one names the file).
    private var reading: ArraySlice<RunningScript> { scripts.drop { !$0.byRead } }
    /// Where the open `import begin` block began: the source's name, the line, and how many
    /// scripts were running (a source that ends inside a block it began fails).
    private var importBlockStart: (file: String?, line: Int, depth: Int)?
    /// `output PATH` and `once PATH`.
    private var redirection: OutputFile?
    private var onceFile: OutputFile?

    /// How deep `read` may nest (a file that reads itself stops here).
    static let maxReadDepth = 16

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

    /// Runs a top-level script file (read before the database was opened): as `run(bytes:file:)`,
    /// the file counting as being read (a `read` of it is a cycle), and a run that ends inside
    /// an `import begin` block fails.
    mutating func run(script path: String, bytes: [UInt8]) -> Flow {
        scripts.append(RunningScript(shown: path, path: path))
        defer { scripts.removeLast() }
        return endingSource(run(lines: ScriptLine.lines(of: bytes), file: path), file: path)
    }

    /// Runs lines of text (a final `\r` is dropped).
    mutating func run<S: Sequence>(lines: S, file: String?) -> Flow where S.Element == String {
        run(lines: lines.lazy.map { ScriptLine(bytes: Array($0.utf8)[...]) }, file: file)
    }

    /// Runs the lines, the first numbered `firstLine`; `.stop` after `quit`, or after an error
    /// with `--bail`.
    mutating func run<S: Sequence>(lines: S, file: String?, firstLine: Int = 1) -> Flow where S.Element == ScriptLine {
        run(source: ArrivedLines(base: lines.makeIterator()), file: file, firstLine: firstLine)
    }

    /// Runs the whole of a source (the `-c` commands, standard input): as `run(source:file:)`,
    /// and a source that ends inside an `import begin` block fails.
    mutating func run(wholeSource source: some ScriptLineSource, file: String) -> Flow {
        endingSource(run(source: source, file: file), file: file)
    }

    /// Runs the lines of `source`, the first numbered `firstLine`; `.stop` after `quit`, or after
    /// an error with `--bail`.
    mutating func run(source: some ScriptLineSource, file: String?, firstLine: Int = 1) -> Flow {
        var number = firstLine - 1
        var source = source
        // Lines read ahead by a group batch and not run by it, the next one last.
        var pushedBack: [ScriptLine] = []
        // How many of the next lines must run alone (a batch stopped before them).
        var alone = 0
        func next() -> ScriptLine? { pushedBack.popLast() ?? source.next() }
        // A batch gathers only lines that have already arrived: one still to come must not hold
        // back the replies of those before it (a client waits for each reply before it sends on).
        func nextArrived() -> ScriptLine? { pushedBack.popLast() ?? source.nextIfArrived() }
        while let line = next() {
            number += 1
            if let last = scripts.indices.last { scripts[last].line = number }
            if !reading.isEmpty, interrupted() {
                return report("interrupted: the rest of the file was not run", line: number, file: file)
            }
            if alone > 0 {
                alone -= 1
            } else if let first = groupBatchCommand(line) {
                // Consecutive `add`s inside an open group: one store transaction, each line's
                // output as if it ran alone; the lines from the first that fails run alone.
                var batch = [(line, first)]
                while batch.count < BatchRunner.groupBatchLimit, let ahead = nextArrived() {
                    guard let command = groupBatchCommand(ahead) else { pushedBack.append(ahead); break }
                    batch.append((ahead, command))
                }
                let results = session.runGroupBatch(batch.map(\.1))
                for (result, (_, command)) in zip(results, batch) { print(result, command: command) }
                number += max(results.count, 1) - 1
                if results.count < batch.count {
                    pushedBack += batch[results.count...].map(\.0).reversed()
                    if results.isEmpty { number -= 1 }
                    alone = 1
                }
                continue
            }
            let outcome: LineResult
            switch line {
            case .text(let text):
                if echo, !json, BatchRunner.isCommand(text) { out(Prompt.text(session) + text) }
                outcome = execute(text)
            case .invalid(let problem):
                outcome = .failure(problem)
            }
            switch outcome {
            case .success(let result):
                if result.quits { return .stop }
                if case .importBegun = result { importBlockStart = (file, number, scripts.count) }
            case .failure(let message):
                if report(message, line: number, file: file) == .stop { return .stop }
            case .stopped:
                return .stop
            case .nothing:
                break
            }
        }
        return .go
    }

    /// Records a failed line: `error: [FILE:]LINE: MESSAGE` (and the JSON envelope).
    mutating func report(_ message: String, line number: Int, file: String?) -> Flow {
        failed = true
        let named = showFile || !reading.isEmpty
        let place = named ? "\(file ?? "-"):\(number)" : "\(number)"
        // A failure's reply is on standard output even while `output`/`once` send results to a file.
        if json { sink.out(Envelope.failure(error: message, line: number, file: named ? file : nil)) }
        sink.err(showLine || !reading.isEmpty ? "\(place): \(message)" : message)
        return bail ? .stop : .go
    }

    /// True for a line that holds more than blanks and a comment (what `--echo` prints).
    static func isCommand(_ line: String) -> Bool {
        !Parser.isBlankOrComment(line)  // a line that does not parse is echoed before its error
    }

    enum LineResult {
        case success(CommandResult)
        case failure(String)
        /// A `read` file stopped the run (`quit`, or an error with `--bail`).
        case stopped
        case nothing
    }

    /// Parses and runs one line (parse → `Session.run` → `CommandResult`), printing the result
    /// with the renderer of the active mode.
    mutating func execute(_ line: String) -> LineResult {
        do {
            guard var command = try Parser.parse(line) else { return .nothing }
            if case .shell(let shell) = command { return try runShell(shell) }
            if csv, let table = command.csvForm { command = table }
            defer { onceFile = nil }
            return .success(try run(command))
        } catch {
            return .failure(ErrorReport.message(error))
        }
    }

    /// Runs one command and prints its result in the active mode (and its time with `timer on`).
    func run(_ command: Command) throws -> CommandResult {
        session.lastTimings = []
        let start = Timing.now()
        let result = try watching(command) { try session.run(command) }
        print(result, command: command, seconds: Timing.now() - start)
        return result
    }

    /// Runs `body`, the command `command`; for `watch`, each remote change is printed as it
    /// arrives (its text lines, or `{"change":…}` with --json; also with -q: they are what the
    /// command asked for), and Ctrl-C ends the watch — not stackdoc, at the prompt and in a
    /// script alike (the script goes on with its next line).
    private func watching(_ command: Command, _ body: () throws -> CommandResult) throws -> CommandResult {
        guard case .watch = command else { return try body() }
        session.remoteChangeHandler = { [self] change in
            if json { out(change.jsonLine) } else { change.textLines.forEach(out) }
        }
        defer { session.remoteChangeHandler = nil }
        return try Interrupts.ending(session.store, body)
    }

    /// Prints a command's result in the active mode (only that mode's output is rendered).
    private func print(_ result: CommandResult, command: Command, seconds: Double = 0) {
        if holdsRepliesThatStoreNothing, case .importPending = result, !timer, onceFile == nil, redirection == nil,
           let held = sink.held {
            if json {
                var line = ""
                Envelope.write(command: Printer.text(command), result: result, ms: nil) { line += String(decoding: $0, as: UTF8.self) }
                held(line)
            } else {
                held(result.text)
            }
            return
        }
        if quiet, !json, !result.isData { return }
        // Written as rendered: a whole layout's pieces come a block of rows at a time.
        if json {
            let ms = timer ? seconds * 1000 : nil
            outLine { part in Envelope.write(command: Printer.text(command), result: result, ms: ms) { part(String(decoding: $0, as: UTF8.self)) } }
        } else {
            result.writeText { out($0) }
            if timer { out(Timing.line(seconds: seconds, phases: session.lastTimings)) }
        }
        // A result sent to a file is acknowledged on standard output: always for `once`, and for
        // `output` with `--json` (every request gets its one reply line there).
        if let file = onceFile ?? redirection, json || file === onceFile {
            sink.out(file.acknowledgement(of: Printer.text(command), json: json))
        }
    }

    /// Lines per group batch (each batch is one store transaction).
    static let groupBatchLimit = 4096

    /// The command of `line` when it may join a group batch: an `add` inside an open group, in
    /// a run whose output does not interleave with anything else (no `--echo`, `timer`, `once`).
    private func groupBatchCommand(_ line: ScriptLine) -> Command? {
        guard groupsAdds, !echo, !timer, onceFile == nil, session.takesGroupBatches, case .text(let text) = line,
              let command = try? Parser.parse(text), session.joinsGroupBatch(command) else { return nil }
        return command
    }

    /// Runs a command that is not on any line (`--doc NAME` creating NAME): its output as a
    /// line's; a failure is an error without a line number.
    mutating func perform(_ command: Command) throws -> Flow {
        let result = try run(command)
        return result.quits ? .stop : .go
    }

    /// One line of standard output, or of the file `output`/`once` named.
    func out(_ text: String) {
        if let file = onceFile ?? redirection { file.write(text) } else { sink.out(text) }
    }

    /// One line of output made in parts: `produce` hands each part to the function it gets;
    /// the parts go out as they come where the destination takes parts of a line (a file,
    /// standard output), else they are joined into one `out`.
    func outLine(_ produce: ((String) -> Void) -> Void) {
        if let file = onceFile ?? redirection {
            produce { file.write(part: $0) }
            file.write(part: "\n")
        } else if let part = sink.part {
            produce(part)
            part("\n")
        } else {
            var line = ""
            produce { line += $0 }
            sink.out(line)
        }
    }

    // MARK: The shell's commands

    mutating func runShell(_ command: ShellCommand) throws -> LineResult {
        switch command {
        case .read(let path):
            return try read(path)
        case .output(let path):
            redirection = try path.map(openOutput)
        case .once(let path):
            onceFile = try openOutput(path)
        case .timer(let on):
            timer = on
        }
        // The shell's commands answer on standard output (`output PATH`'s reply is not in PATH).
        if json { sink.out(Envelope.success(command: Printer.text(.shell(command)), result: .shell(command))) }
        return .success(.shell(command))
    }

    /// `read PATH`: the file's lines as this runner's, errors named `FILE:LINE`. A file that is
    /// already running (it reads itself, or one it read reads it) is refused at once, naming
    /// the cycle; a diamond (two files reading a third) is no cycle.
    mutating func read(_ path: String) throws -> LineResult {
        guard reading.count < BatchRunner.maxReadDepth else {
            throw StackDocError("read \(Validation.quoted(path)): scripts read scripts more than \(BatchRunner.maxReadDepth) deep")
        }
        let expanded = Session.expandingTilde(path)
        let shown: String, opened: String
        if let parent = reading.last, !expanded.hasPrefix("/") {
            shown = BatchRunner.sibling(expanded, of: parent.shown)
            opened = BatchRunner.sibling(expanded, of: parent.path)
        } else {
            shown = path
            opened = session.resolve(expanded)
        }
        let script = RunningScript(shown: shown, path: opened, byRead: true)
        if let cycle = RunningScript.cycle(reading: script, in: scripts) { throw StackDocError(cycle) }
        let bytes = try FileIO.readBytes(opened, shown: shown)
        scripts.append(script)
        defer { scripts.removeLast() }
        let flow = endingSource(run(lines: ScriptLine.lines(of: bytes), file: shown), file: shown)
        if flow == .stop { return .stopped }
        if json { sink.out(Envelope.success(command: Printer.text(.shell(.read(path: path))), result: .shell(.read(path: path)))) }
        return .success(.shell(.read(path: path)))
    }

    /// After a source ran to its end (a script file, a `read` file, the `-c` commands, standard
    /// input): an `import begin` block it began and left open fails the run, naming the block
    /// and where it began, and is dropped (nothing of it was stored).
    mutating func endingSource(_ flow: Flow, file: String?) -> Flow {
        guard flow == .go, let name = session.importBlockName, let start = importBlockStart,
              start.depth == scripts.count, start.file == file else { return flow }
        importBlockStart = nil
        _ = try? session.run(.importRollback)
        return report("the input ended inside the import block of \(Printer.id(name)) begun on this line "
                      + "('import begin' without 'import commit'): nothing of it was imported", line: start.line, file: file)
    }

    /// `path` beside the file `file` (in its directory).
    static func sibling(_ path: String, of file: String) -> String {
        guard let slash = file.lastIndex(of: "/") else { return path }
        return String(file[...slash]) + path
    }

    /// Opens `path` for `output`/`once` by the one rule for written files (`FileIO.openForOutput`:
    /// a regular file truncated, a link followed, a device or FIFO written in place); never the
    /// open database or its files.
    func openOutput(_ path: String) throws -> OutputFile {
        OutputFile(try FileIO.openForOutput(session.resolve(path), shown: path, sparing: session.store), shown: path)
    }
}

/// The prompt, also printed before each command by `--echo`: `stackdoc(feed)> `, with a `*`
/// when a `begin … commit` group is open (`stackdoc(feed)*> `).
enum Prompt {
    static func text(_ session: Session) -> String {
        if let name = session.importBlockName { return "stackdoc(import \(Printer.id(name)))> " }
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
    /// Part of a line of standard output (nil: a line made in parts is joined, then `out`).
    var part: ((String) -> Void)? = nil
    /// One line of standard output that may wait in a buffer until the next `out`, `err` or
    /// read of input (nil: `out`). Only for replies of commands that stored nothing.
    var held: ((String) -> Void)? = nil

    static var standard: Sink {
        Sink(out: { Output.print($0) }, err: { Output.error($0) }, part: { Output.print(part: $0) }, held: { Output.printHeld($0) })
    }
}
