import Foundation
import Layout
import StackDocScript
import Store

/// Runs `stackdoc`: reads every script first, opens the database, then runs the init file, the
/// `-c` commands and the scripts (batch), or piped standard input, or the interactive prompt.
/// Prints results to standard output and errors to standard error.
struct Driver {
    struct Options {
        var database: String
        var document: String?
        var json: Bool
        var bail: Bool
        var echo: Bool = false
        /// `-c`/`--command`, in order.
        var commands: [String] = []
        var scripts: [String]
        /// `--init PATH`: a file to run first in any mode.
        var initFile: String? = nil
        /// `--no-init`: no init file before the interactive prompt.
        var noInit: Bool = false
        /// `--as NAME`: the origin the history records (nil: the user name).
        var origin: String? = nil
        /// `--readonly`: open the database for queries and export only.
        var readOnly: Bool = false
        /// `-q`: no reports of what commands did on standard output (errors still on standard error).
        var quiet: Bool = false
        /// `--csv`: every table query as CSV, and nothing but what queries print (implies `-q`).
        var csv: Bool = false
    }

    let options: Options

    /// True when the run is the interactive prompt: nothing to run in batch and a terminal on
    /// standard input.
    var interactive: Bool {
        options.commands.isEmpty && options.scripts.isEmpty && isatty(STDIN_FILENO) != 0
    }

    /// One source of commands, read before the database is opened.
    enum Source {
        /// A file's bytes, named as given.
        case file(name: String, bytes: [UInt8])
        /// `-`: standard input, read as it comes.
        case standardInput
        /// The `-c` commands.
        case commands([String])
    }

    /// The exit status: 0 when every command succeeded, 1 otherwise.
    func run() -> Int32 {
        var sources: [Source] = []
        var problems: [String] = []
        func readFile(_ path: String) {
            do {
                sources.append(.file(name: path, bytes: try FileIO.readBytes(path)))
            } catch {
                problems.append(ErrorReport.message(error))
            }
        }
        if let initFile = options.initFile {
            readFile(initFile)
        } else if interactive, !options.noInit, let found = InitFile.find() {
            // The default init file may be missing; one that $STACKDOC_INIT names must be there.
            if found.required || FileManager.default.fileExists(atPath: found.path) { readFile(found.path) }
        }
        let initRuns = !sources.isEmpty || !problems.isEmpty
        if !options.commands.isEmpty { sources.append(.commands(options.commands)) }
        for path in options.scripts {
            if path == "-" { sources.append(.standardInput) } else { readFile(path) }
        }
        guard problems.isEmpty else {
            // Nothing ran and no database was opened: every file is checked first.
            problems.forEach(Output.error)
            return 1
        }
        if options.csv && options.json {
            Output.error("--csv and --json are two output formats: give one")
            return 1
        }
        let session: Session
        do {
            if let origin = options.origin, !StoredDocument.isValidOrigin(origin) {
                throw StackDocError("invalid origin for --as: use 1 to 64 characters of A-Z a-z 0-9 _ . - : @")
            }
            let store = try DocumentStore(url: Session.expandingTilde(options.database), options: StoreOptions(readOnly: options.readOnly))
            session = Session(store: store, origin: options.origin)
        } catch {
            let report = ErrorReport(error)
            Output.error(report.message)
            return report.exitStatus
        }
        let batch = !interactive
        let pipedInput = batch && options.commands.isEmpty && options.scripts.isEmpty
        // Errors name the file when more than one source runs, or an init file does.
        var runner = BatchRunner(session: session, json: options.json, bail: options.bail,
                                 showFile: initRuns || sources.count + (pipedInput ? 1 : 0) > 1)
        runner.echo = options.echo
        runner.quiet = options.quiet || options.csv
        runner.csv = options.csv
        runner.holdsRepliesThatStoreNothing = true
        defer { Driver.warnAboutOpenGroup(session) }
        if let name = options.document {
            do {
                if try session.store.contains(name) {
                    _ = try session.run(.open(name: name))
                } else if try runner.perform(.new(name: name, axis: nil, viewport: nil)) == .stop {
                    return 1
                }
            } catch {
                let report = ErrorReport(error)
                Output.error(report.message)
                return report.exitStatus
            }
        }
        for source in sources {
            let flow: BatchRunner.Flow
            switch source {
            case let .file(name, bytes): flow = runner.run(script: name, bytes: bytes)
            case .standardInput: flow = runner.run(wholeSource: StandardInputLines(), file: "-")
            case .commands(let lines): flow = runner.run(wholeSource: ArrivedLines(base: lines.map(ScriptLine.text).makeIterator()), file: "-c")
            }
            if flow == .stop { return runner.failed ? 1 : 0 }
        }
        if !batch {
            // The init file's settings (`timer on`, `output PATH`, …) stay in force at the prompt.
            runner.holdsRepliesThatStoreNothing = false
            let initFailed = runner.failed
            let status = Interactive(session: session, json: options.json).run(runner)
            return initFailed ? 1 : status
        }
        if pipedInput {
            _ = runner.run(wholeSource: StandardInputLines(), file: "-")
        }
        return runner.failed ? 1 : 0
    }

    /// A session that ends with a `begin … commit` group open says so: its operations stay
    /// pending in the database until a later session commits or rolls them back.
    static func warnAboutOpenGroup(_ session: Session) {
        guard let doc = session.current, let group = doc.openGroup else { return }
        let label = group.label.map { " " + Validation.quoted($0) } ?? ""
        Output.warning("document \(Validation.quoted(doc.name)) ends with the group\(label) open: its operations stay pending until 'commit' or 'rollback' (in this or a later session)")
    }
}

/// The interactive init file: `$STACKDOC_INIT`, else `~/.stackdocrc`.
enum InitFile {
    /// The path, and whether it must exist (it must when `$STACKDOC_INIT` names it).
    static func find() -> (path: String, required: Bool)? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["STACKDOC_INIT"], !path.isEmpty { return (path, true) }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home + "/.stackdocrc", false)
    }
}

/// Standard output and standard error, line by line. Every call writes its text through to
/// the file descriptor before returning (issue 9): a program driving `stackdoc` over a pipe
/// gets each reply as soon as its command completes, and a reply that was sent survives a
/// SIGKILL of the process. One flush per command's output: the cost is one write per command.
enum Output {
    static func print(_ text: String) {
        Swift.print(text)
        fflush(nil)  // all output streams (`stdout` itself is not concurrency-safe to name)
    }

    /// One line of standard output that may wait in the buffer: the reply of a command that
    /// stored nothing (an edit inside an `import begin` block, which a SIGKILL loses anyway).
    /// It goes out with the next line written through, the next error, before standard input
    /// is read again (so a client that waits for it gets it), or at exit.
    static func printHeld(_ text: String) {
        // `puts` (the line and a line break into standard output's buffer, as `print` does,
        // without its boxing of the text); a text holding a NUL byte goes through `print`.
        if text.utf8.contains(0) {
            Swift.print(text)
        } else {
            _ = text.withCString { puts($0) }
        }
    }

    /// Part of a line of standard output (no line break added), written through.
    static func print(part: String) {
        Swift.print(part, terminator: "")
        fflush(nil)
    }

    static func error(_ text: String) {
        standardError("error: " + text)
    }

    static func warning(_ text: String) {
        standardError("warning: " + text)
    }

    /// One line on standard error (after what standard output has so far).
    static func standardError(_ line: String) {
        fflush(nil)
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
