import Foundation
import Layout
import StackDocScript

/// The one-shot commands without a database (SPEC §4): `stackdoc layout FILE.json` and
/// `stackdoc check FILE.json`. Each returns what to print and the exit status, so tests run
/// them in-process.
enum OneShot {
    /// What a one-shot command prints and its exit status.
    struct Result: Equatable {
        var status: Int32
        /// Standard output as UTF-8 bytes (a large layout is never copied into a String).
        var out: [UInt8]
        var stderr: String

        init(status: Int32, stdout: String, stderr: String) {
            self.init(status: status, out: Array(stdout.utf8), stderr: stderr)
        }

        init(status: Int32, out: [UInt8], stderr: String) {
            self.status = status
            self.out = out
            self.stderr = stderr
        }

        /// Standard output as text.
        var stdout: String { String(decoding: out, as: UTF8.self) }
    }

    /// `stackdoc layout FILE [--offset N] [--json]`: the layout of a saved document exactly as
    /// the REPL's `layout` prints it after `import` (the table, or with `json` the SPEC §4.2
    /// result object on one line). `offset` replaces the document's offset; it is clamped.
    static func layout(path: String, offset: Double?, json: Bool) -> Result {
        let document: Document
        switch load(path) {
        case let .failure(result): return result
        case let .success(doc): document = doc
        }
        var doc = document
        if let offset {
            guard offset.isFinite else {
                return Result(status: 1, stdout: "", stderr: "error: --offset: must be a finite number, got \(JSONNumber.describe(offset))\n")
            }
            doc.settings.offset = offset
        }
        let layout = doc.layout()
        var out = json ? LayoutOutput.jsonBytes(layout) : Array(LayoutOutput.table(layout).utf8)
        out.append(0x0A)
        return Result(status: 0, out: out, stderr: "")
    }

    /// `stackdoc check FILE`: `FILE: ok (…)` and status 0 for a good document; every problem
    /// as `FILE: MESSAGE` on standard error and status 1 for a bad one.
    static func check(path: String) -> Result {
        switch load(path) {
        case let .failure(result):
            return result
        case let .success(doc):
            let rows = doc.rowCount == 1 ? "1 row" : "\(doc.rowCount) rows"
            return Result(status: 0, stdout: "\(path): ok (\(Document.formatName) document '\(doc.name)', \(rows))\n", stderr: "")
        }
    }

    /// Reads and imports a saved document; on failure, the result to return (status 1).
    static func load(_ path: String) -> LoadResult {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBytes(path)
        } catch {
            return .failure(Result(status: 1, stdout: "", stderr: "error: \(error)\n"))
        }
        let imported = Document.importJSON(bytes)
        guard let document = imported.document else {
            let lines = imported.problems.map { "\(path): \($0)\n" }.joined()
            return .failure(Result(status: 1, stdout: "", stderr: lines))
        }
        return .success(document)
    }

    enum LoadResult {
        case success(Document)
        case failure(Result)
    }
}
