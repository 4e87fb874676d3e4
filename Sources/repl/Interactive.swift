import CEditLine
import Foundation
import Layout
import StackDocScript
import Store

/// The interactive REPL on a terminal: a prompt naming the open document (`*` when a group is
/// open), line editing and a persistent history through libedit. Ctrl-D (end of input) leaves; Ctrl-C abandons the line
/// being typed and shows a fresh prompt, and cancels a running command (the store's
/// `Cancellation` asks the interrupt flag).
struct Interactive {
    let session: Session
    let json: Bool

    /// `$STACKDOC_HISTORY`, else `~/.stackdoc_history`.
    static var historyPath: String {
        if let path = ProcessInfo.processInfo.environment["STACKDOC_HISTORY"], !path.isEmpty { return path }
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "."
        return home + "/.stackdoc_history"
    }

    /// Runs the prompt with `runner`, the one that ran the init file (its `timer`, `output` and
    /// origin carry over).
    func run(_ batchRunner: BatchRunner) -> Int32 {
        // With standard output piped (`stackdoc --json | jq`), the prompt, the echo of the keys
        // and the banner go to standard error: standard output carries only results. (Set before
        // libedit initializes, which `using_history` does.)
        let outputIsTerminal = isatty(STDOUT_FILENO) != 0
        stackdoc_editline_output(outputIsTerminal ? 0 : 1)
        Interactive.echoDescriptor = outputIsTerminal ? STDOUT_FILENO : STDERR_FILENO
        let historyFile = Interactive.historyPath
        // The key reader and libedit's signal handling are read when libedit initializes (which
        // `using_history` does): set first.
        stackdoc_editline_setup { _ in Interactive.readKey() }
        using_history()
        _ = read_history(historyFile)
        stifle_history(1000)
        Interrupts.install()
        // Ctrl-C while a command runs cancels it: the store's long loops ask this flag.
        session.store.cancellation = Cancellation { Interrupts.fired }
        Interactive.completionSession = session
        stackdoc_editline_completion { text, start, _ in Interactive.complete(text, start: Int(start)) }
        let banner = "stackdoc: \(session.store.path). Type 'help' for the commands, Ctrl-L to clear the screen, Ctrl-D to leave."
        if outputIsTerminal && !json { Output.print(banner) } else { Output.standardError(banner) }
        /// What the terminal shows of the keys (`^C`, the newline of Ctrl-D) goes where the prompt goes.
        func terminal(_ text: String) {
            if outputIsTerminal { Output.print(text) } else { Output.standardError(text) }
        }
        var runner = batchRunner
        runner.bail = false
        runner.echo = false  // the terminal shows what was typed
        runner.showLine = false
        runner.interrupted = { Interrupts.fired }  // Ctrl-C stops a `read` file between commands
        var number = 0
        while true {
            Interrupts.reset()
            // What other sessions committed since the last command, in one line (the document
            // is caught up with it).
            if let line = RemoteChange.announcement(session.remoteChangesSinceLastCommand()) { terminal(line) }
            guard let raw = readline(Prompt.text(session)) else {
                if Interrupts.fired {
                    // Ctrl-C: drop the line, prompt again.
                    terminal("^C")
                    continue
                }
                terminal("")
                break
            }
            let line = String(cString: raw)
            free(raw)
            if Interrupts.fired { continue }  // Ctrl-C: the key reader showed `^C`; drop the line
            number += 1
            if !line.allSatisfy(\.isWhitespace) {
                add_history(line)
                _ = write_history(historyFile)
            }
            if let question = Interactive.question(for: line, session: session) {
                guard let answer = readline(question) else {
                    terminal(Interrupts.fired ? "not done: nothing changed" : "")
                    continue
                }
                let yes = ["y", "yes"].contains(String(cString: answer).trimmingCharacters(in: .whitespaces).lowercased())
                free(answer)
                if Interrupts.fired || !yes {
                    terminal("not done: nothing changed")
                    continue
                }
            }
            // Numbered like a script's lines (the JSON envelope of an error has its "line").
            if runner.run(lines: [ScriptLine(bytes: Array(line.utf8)[...])], file: nil, firstLine: number) == .stop { break }
        }
        _ = write_history(historyFile)
        return 0
    }
}

extension Interactive {
    /// The question the prompt asks before a line that deletes much at once (`clear`, `drop`),
    /// or nil. Only at the prompt: scripts and batch runs are never asked.
    static func question(for line: String, session: Session) -> String? {
        guard let command = try? Parser.parse(line) else { return nil }
        switch command {
        case .edit(.clear(nil)):
            guard let doc = session.current else { return nil }
            return "remove every row of \(Validation.quoted(doc.name)) (\(doc.document.rowCount) row\(doc.document.rowCount == 1 ? "" : "s"))? [y/N] "
        case .edit(.clear(let stack?)):
            return "remove every row of the stack row \(Validation.quoted(stack))? [y/N] "
        case .drop(let name):
            return "delete the document \(Validation.quoted(name)) and its whole history? [y/N] "
        default:
            return nil
        }
    }

    /// Where the echo of the keys goes (the prompt's stream).
    nonisolated(unsafe) static var echoDescriptor = STDOUT_FILENO

    /// libedit's key reader: one byte from the terminal. Ctrl-C — as a SIGINT that interrupts
    /// the read, or as the byte 3 when the terminal passes it through — sets the interrupt flag,
    /// shows `^C` after the keys typed and ends the line, which the prompt loop then drops.
    static func readKey() -> Int32 {
        var byte: UInt8 = 0
        func interrupted() -> Int32 {
            Interrupts.flag = 1
            _ = write(echoDescriptor, "^C", 2)
            return 10
        }
        while true {
            let n = read(STDIN_FILENO, &byte, 1)
            if n == 1 { return byte == 3 ? interrupted() : Int32(byte) }
            if n == 0 { return -1 }  // EOF
            if errno == EINTR {
                if Interrupts.fired { return interrupted() }
                continue
            }
            return -1
        }
    }
}

/// SIGINT while reading a line: a flag the prompt loop checks. Installed without SA_RESTART so
/// that the terminal read is interrupted.
enum Interrupts {
    nonisolated(unsafe) static var flag: sig_atomic_t = 0

    static var fired: Bool { flag != 0 }
    static func reset() { flag = 0 }

    /// Runs `body` with Ctrl-C requesting `store`'s cancellation (`watch`): at the prompt, where
    /// the handler is installed already, as every command; in batch mode, where SIGINT otherwise
    /// ends stackdoc, only while `body` runs (the previous handler and cancellation come back).
    static func ending<T>(_ store: DocumentStore, _ body: () throws -> T) rethrows -> T {
        var previous = sigaction()
        sigaction(SIGINT, nil, &previous)
        let cancellation = store.cancellation
        reset()
        install()
        store.cancellation = Cancellation { Interrupts.fired }
        defer {
            sigaction(SIGINT, &previous, nil)
            store.cancellation = cancellation
        }
        return try body()
    }

    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Interrupts.flag = 1 }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        // A parent may have started us with SIGINT blocked; the prompt needs it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

extension Interactive {
    /// The session whose documents and rows Tab completes (libedit's callbacks take no context).
    nonisolated(unsafe) static var completionSession: Session?
    /// The words the current completion offers, handed out one by one to libedit.
    nonisolated(unsafe) static var completionWords: [String] = []
    nonisolated(unsafe) static var completionNext = 0

    /// libedit's completion hook: the matches for the word `text` starting at byte `start` of
    /// the line (`Completion.candidates`), or nil for libedit's file name completion.
    static func complete(_ text: UnsafePointer<CChar>?, start: Int) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        let line = stackdoc_line_buffer().map { Array(String(cString: $0).utf8) } ?? []
        let before = String(decoding: line.prefix(start), as: UTF8.self)
        let prefix = text.map { String(cString: $0) } ?? ""
        switch Completion.candidates(line: before, start: before.count, prefix: prefix, session: completionSession) {
        case .files:
            // Our own list (libedit's would offer the database's -wal and -shm files); no space
            // after a directory, so that Tab goes on into it.
            let paths = Completion.fileNames(prefix, session: completionSession)
            stackdoc_completion_set_over(1)
            stackdoc_completion_append(paths.count == 1 && paths[0].hasSuffix("/") ? 0 : 32)
            return offer(paths, for: text)
        case .words(let words):
            stackdoc_completion_set_over(1)  // no file names where a word of the language goes
            stackdoc_completion_append(32)
            return offer(words, for: text)
        }
    }

    /// Hands `words` to libedit as the matches for `text`.
    static func offer(_ words: [String], for text: UnsafePointer<CChar>?) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard !words.isEmpty, let text else { return nil }
        completionWords = words
        return stackdoc_completion_matches(text) { _, state in
            if state == 0 { Interactive.completionNext = 0 }
            guard Interactive.completionNext < Interactive.completionWords.count else { return nil }
            defer { Interactive.completionNext += 1 }
            return strdup(Interactive.completionWords[Interactive.completionNext])
        }
    }
}
