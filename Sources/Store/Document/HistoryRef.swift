import Layout

/// A point of a document's history (`REF` of `layout --at`, `export --at`, `diff`, `restore`):
/// the document right after one log entry.
public enum HistoryRef: Hashable, Sendable, CustomStringConvertible {
    /// Right after log entry N (entries are numbered from 1, `new`/`import` first; every
    /// command that writes the document is one entry: edits, scrolls, undo, redo, begin, commit,
    /// mark, restore).
    case entry(Int)
    /// Right after the mark's entry (the document as it was when `mark NAME` ran).
    case mark(String)
    /// N entries before the last one (`now` is `now~0`).
    case now(back: Int)

    /// How the REPL writes it: `12`, `v1`, `now`, `now~3`.
    public var description: String {
        switch self {
        case .entry(let n): return String(n)
        case .mark(let name): return name
        case .now(let back): return back == 0 ? "now" : "now~\(back)"
        }
    }

    /// Reads `12`, `now`, `now~3` or a mark name; nil for anything else.
    public init?(_ text: String) {
        if text == "now" { self = .now(back: 0); return }
        if text.hasPrefix("now~") {
            guard let n = Int(text.dropFirst(4)), n >= 0, text.dropFirst(4).allSatisfy(\.isASCII) else { return nil }
            self = .now(back: n)
            return
        }
        if let n = Int(text), text.allSatisfy({ $0.isASCII && $0.isNumber }) { self = .entry(n); return }
        guard HistoryRef.isValidMarkName(text) else { return nil }
        self = .mark(text)
    }

    /// A mark name: 1 to 64 characters of `[A-Za-z0-9_.-]`, starting with a letter or `_`, and
    /// not `now` (so that a REF is never ambiguous).
    public static func isValidMarkName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64, name != "now" else { return false }
        func word(_ c: Unicode.Scalar) -> Bool { c.isASCII && (c.properties.isAlphabetic || c == "_") }
        return word(first) && name.unicodeScalars.allSatisfy { word($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }
    }
}
