import Foundation
import Layout
import StackDocScript
import Store

/// Runs `stackdoc`: opens the database, then batch (scripts or piped standard input) or the
/// interactive prompt. Prints results to standard output and errors to standard error.
struct Driver {
    struct Options {
        var database: String
        var document: String?
        var json: Bool
        var bail: Bool
        var scripts: [String]
    }

    let options: Options

    /// The exit status: 0 when every command succeeded, 1 otherwise.
    func run() -> Int32 {
        let session: Session
        do {
            session = try Driver.openSession(options)
        } catch {
            Output.error(Driver.message(error))
            return 1
        }
        if !options.scripts.isEmpty {
            var runner = BatchRunner(session: session, json: options.json, bail: options.bail,
                                     showFile: options.scripts.count > 1)
            for path in options.scripts {
                let text: String
                do {
                    text = try FileIO.read(path)
                } catch {
                    Output.error(Driver.message(error))
                    return 1
                }
                if runner.run(text: text, file: path) == .stop { break }
            }
            return runner.failed ? 1 : 0
        }
        if isatty(STDIN_FILENO) != 0 {
            return Interactive(session: session, json: options.json).run()
        }
        var runner = BatchRunner(session: session, json: options.json, bail: options.bail, showFile: false)
        _ = runner.run(lines: StandardInputLines(), file: nil)
        return runner.failed ? 1 : 0
    }

    static func openSession(_ options: Options) throws -> Session {
        let store = try DocumentStore(path: options.database)
        let session = Session(store: store)
        if let name = options.document {
            let command: Command = try store.contains(name) ? .open(name: name) : .new(name: name, axis: nil, viewport: nil)
            _ = try session.run(command)
        }
        return session
    }

    static func message(_ error: Error) -> String {
        if let e = error as? StackDocError { return e.message }
        return "\(error)"
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

    static func error(_ text: String) {
        fflush(nil)
        FileHandle.standardError.write(Data(("error: " + text + "\n").utf8))
    }
}

/// Lines of standard input, read lazily (a script may be piped in slowly).
struct StandardInputLines: Sequence, IteratorProtocol {
    mutating func next() -> String? {
        readLine(strippingNewline: true)
    }
}
