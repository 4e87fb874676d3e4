import Foundation
import Layout
import Store
import StackDocScript

/// The executor's rules under fuzzing: each input is a script run by the REPL's `Session` on a
/// small document in an in-memory store (commands that touch files, other documents or quit are
/// skipped, decided on the parsed command as in Tests/FuzzTests). Rules: no crash or hang; a
/// failed command has a one-line message and changes nothing (document, log, history status);
/// after the script the log replays to the stored state (`verify`), the store holds what the
/// session holds, and the live (incremental) layout equals a full layout.
public final class ExecutorHarness {
    let store: DocumentStore
    let session: Session
    static let setup = ["new fuzz viewport 300 400", "add a b c d e fixed 50", "add s stack vertical", "add s1 s2 fixed 20 in s"]

    public init() {
        do {
            store = try DocumentStore(path: ":memory:")
        } catch {
            fatalError("fuzz: cannot open an in-memory store: \(error)")
        }
        session = Session(store: store, directory: NSTemporaryDirectory())
    }

    /// True for a command that stays on the open document and writes no file.
    public static func staysOnOneDocument(_ command: Command) -> Bool {
        switch command {
        case .new, .open, .close, .drop, .importDocument, .exportSVG, .logExport, .quit: return false
        case .export(let path): return path == nil
        default: return true
        }
    }

    /// Starts every input on the same fresh document.
    func reset() throws {
        if session.current?.openGroup != nil { _ = try session.run(.rollback) }
        if try store.contains("fuzz") { _ = try session.run(.drop(name: "fuzz")) }
        for line in Self.setup {
            guard let command = try Parser.parse(line) else { continue }
            _ = try session.run(command)
        }
    }

    public func run(_ lines: [String]) {
        let script = lines.joined(separator: "\n")
        do { try reset() } catch { FuzzInput.broken("reset failed: \(error)", script) }
        for line in lines {
            guard let command = try? Parser.parse(line), Self.staysOnOneDocument(command) else { continue }
            guard let doc = session.current else { FuzzInput.broken("no open document before '\(line)'", script) }
            let before = doc.document
            let statusBefore: DocumentStatus
            do { statusBefore = try doc.status() } catch { FuzzInput.broken("status: \(error)", script) }
            do {
                _ = try session.run(command)
            } catch let error as any UserFacingError {
                if !FuzzInput.isOneLine(error.message) { FuzzInput.broken("bad message \(error.message.debugDescription) for '\(line)'", script) }
                if doc.document != before { FuzzInput.broken("'\(line)' failed (\(error.message)) but changed the document", script) }
                if (try? doc.status()) != statusBefore { FuzzInput.broken("'\(line)' failed (\(error.message)) but changed the history", script) }
            } catch {
                FuzzInput.broken("'\(line)': not a UserFacingError: \(error)", script)
            }
            if session.current !== doc { FuzzInput.broken("'\(line)' closed the document", script) }
        }
        guard let doc = session.current else { FuzzInput.broken("no open document after the script", script) }
        do {
            let problems = try doc.verify()
            if !problems.isEmpty { FuzzInput.broken("verify: \(problems)", script) }
            if try store.open("fuzz").document != doc.document { FuzzInput.broken("the stored state is not the session's", script) }
            if try session.liveLayout().layout() != doc.document.layout() { FuzzInput.broken("the live layout is not the full layout", script) }
        } catch {
            FuzzInput.broken("checking after the script: \(error)", script)
        }
    }
}
