import Layout
import Store

/// The error `verify` gives for a report with problems: the log against the stored document
/// first, the damaged snapshots apart (a cache: what is damaged and how to rebuild it).
enum VerifyMessage {
    /// Problems shown in full; the others are counted.
    static let shown = 5

    /// Throws the error for `report`, nothing when it has no problem.
    /// - Throws: `StackDocError` naming the problems (and, for damaged snapshots, their entries
    ///   and `verify --rebuild-snapshots`).
    static func check(_ report: VerifyReport) throws {
        var parts: [String] = []
        if !report.problems.isEmpty {
            parts.append("the log does not replay to the stored document: " + listed(report.problems))
        }
        let damaged = report.damagedSnapshots
        if !damaged.isEmpty {
            let entries = damaged.map { String($0.seq) }.joined(separator: ", ")
            let what = damaged.count == 1 ? "the snapshot after log entry \(entries) is" : "the snapshots after log entries \(entries) are"
            let lead = report.problems.isEmpty ? "the log replays to the stored document, but " : ""
            parts.append(lead + what + " damaged (snapshots are a cache every read can do without; 'verify --rebuild-snapshots' writes "
                         + (damaged.count == 1 ? "it" : "them") + " again from the log): " + listed(damaged.flatMap(\.problems)))
        }
        guard !parts.isEmpty else { return }
        throw StackDocError("verify: " + parts.joined(separator: "; and "))
    }

    /// The first `shown` messages, then how many more.
    static func listed(_ messages: [String]) -> String {
        messages.prefix(shown).joined(separator: "; ") + (messages.count > shown ? " (+\(messages.count - shown) more)" : "")
    }
}
