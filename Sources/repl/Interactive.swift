import CEditLine
import Foundation
import Layout
import StackDocScript

/// The interactive REPL on a terminal: a prompt naming the open document, line editing and a
/// persistent history through libedit. Ctrl-D (end of input) leaves; Ctrl-C abandons the line
/// being typed and shows a fresh prompt.
struct Interactive {
    let session: Session
    let json: Bool

    /// `$STACKDOC_HISTORY`, else `~/.stackdoc_history`.
    static var historyPath: String {
        if let path = ProcessInfo.processInfo.environment["STACKDOC_HISTORY"], !path.isEmpty { return path }
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "."
        return home + "/.stackdoc_history"
    }

    func run() -> Int32 {
        let historyFile = Interactive.historyPath
        using_history()
        _ = read_history(historyFile)
        stifle_history(1000)
        Interrupts.install()
        stackdoc_editline_setup { _ in Interactive.readKey() }
        print("stackdoc: \(session.store.path). Type 'help' for the commands, Ctrl-D to leave.")
        var runner = BatchRunner(session: session, json: json, bail: false, showFile: false)
        runner.showLine = false
        var number = 0
        while true {
            Interrupts.reset()
            let prompt = "stackdoc" + (session.current.map { "(\($0.name))" } ?? "") + "> "
            guard let raw = readline(prompt) else {
                if Interrupts.fired {
                    // Ctrl-C: drop the line, prompt again.
                    print("^C")
                    continue
                }
                print("")
                break
            }
            let line = String(cString: raw)
            free(raw)
            if Interrupts.fired {
                print("^C")
                continue
            }
            number += 1
            if !line.allSatisfy(\.isWhitespace) {
                add_history(line)
                _ = write_history(historyFile)
            }
            if runner.run(lines: [line], file: nil) == .stop { break }
        }
        _ = write_history(historyFile)
        return 0
    }
}

extension Interactive {
    /// libedit's key reader: one byte from the terminal. Ctrl-C — as a SIGINT that interrupts
    /// the read, or as the byte 3 when the terminal passes it through — sets the interrupt flag
    /// and ends the line, which the prompt loop then drops.
    static func readKey() -> Int32 {
        var byte: UInt8 = 0
        while true {
            let n = read(STDIN_FILENO, &byte, 1)
            if n == 1 {
                if byte == 3 {
                    Interrupts.flag = 1
                    return 10
                }
                return Int32(byte)
            }
            if n == 0 { return -1 }  // EOF
            if errno == EINTR {
                if Interrupts.fired { return 10 }
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
