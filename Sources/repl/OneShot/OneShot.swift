import Foundation
import Layout
import StackDocScript

/// The one-shot commands without a database (SPEC §4): `stackdoc layout FILE.json` and
/// `stackdoc check FILE.json…`. Each returns what to print and the exit status, so tests run
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
        case let .failure(result, _): return result
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
        check(paths: [path], json: false)
    }

    /// `stackdoc check FILE… [--json]`: every file is checked, in order, whatever the others
    /// give; the status is 1 when any is bad or unreadable. In text, each good file's
    /// `FILE: ok (…)` on standard output and each problem as `FILE: MESSAGE` (or `error: cannot
    /// read …`) on standard error; with `json`, one object per file on standard output:
    /// `{"file":F,"ok":true,"document":NAME,"rows":N}` or `{"file":F,"ok":false,"problems":[…]}`.
    static func check(paths: [String], json: Bool) -> Result {
        var out = "", err = "", status: Int32 = 0
        for path in paths {
            let members: [JSONMember]
            switch load(path) {
            case let .failure(result, problems):
                status = 1
                err += json ? "" : result.stderr
                members = [JSONMember("ok", .bool(false)), JSONMember("problems", .array(problems.map { .string($0) }))]
            case let .success(doc):
                let rows = doc.rowCount == 1 ? "1 row" : "\(doc.rowCount) rows"
                out += json ? "" : "\(path): ok (\(Document.formatName) document '\(doc.name)', \(rows))\n"
                members = [JSONMember("ok", .bool(true)), JSONMember("document", .string(doc.name)),
                           JSONMember("rows", .number(Double(doc.rowCount)))]
            }
            if json { out += JSONWriter.compact(.object([JSONMember("file", .string(path))] + members)) + "\n" }
        }
        return Result(status: status, stdout: out, stderr: err)
    }

    /// Reads and imports a saved document; on failure, the result to return (status 1).
    static func load(_ path: String) -> LoadResult {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readBytes(path)
        } catch {
            let report = ErrorReport(error)
            return .failure(Result(status: report.exitStatus, stdout: "", stderr: "error: \(report.message)\n"), problems: [report.message])
        }
        let imported = Document.importJSON(bytes)
        guard let document = imported.document else {
            let lines = imported.problems.map { "\(path): \($0)\n" }.joined()
            return .failure(Result(status: 1, stdout: "", stderr: lines), problems: imported.problems)
        }
        return .success(document)
    }

    enum LoadResult {
        case success(Document)
        /// What to print, and the problems without the file's name (for `check --json`).
        case failure(Result, problems: [String])
    }
}
