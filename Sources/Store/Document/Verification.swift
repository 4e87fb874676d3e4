import Layout

/// Compares two documents row by row, field by field.
public enum Verification {
    /// One message per difference between the stored and the replayed document. Works on the
    /// two documents' own indexes (no extra copy of a large document).
    /// - Parameters:
    ///   - stored: The document as stored.
    ///   - replayed: The document rebuilt from the log.
    ///   - cancellation: Checked every `Cancellation.interval` rows (a 1M-row comparison takes
    ///     a while).
    /// - Throws: `StackDocError` of kind `.cancelled` when `cancellation` is requested.
    public static func compare(stored: Document, replayed: Document, cancellation: Cancellation = .never) throws -> [String] {
        var problems: [String] = []
        problems += fieldDiff("settings", stored.settings, replayed.settings)
        var stacks: [RowID?] = [nil]
        func place(_ parent: RowID?) -> String { parent.map { "'\($0)'" } ?? "the root" }
        var seen = 0
        try replayed.forEachRow { id, parent, _, config in
            seen += 1
            if seen % Cancellation.interval == 0 { try cancellation.check() }
            if config.stack != nil { stacks.append(id) }
            guard let storedConfig = stored.config(of: id), let storedParent = stored.parent(of: id) else {
                problems.append("row '\(id)': in the log's document but not stored")
                return
            }
            if storedParent != parent {
                problems.append("row '\(id)': stored in \(place(storedParent)), replayed in \(place(parent))")
            }
            problems += fieldDiff("row '\(id)'", storedConfig, config)
        }
        for stack in stacks where stack == nil || stored.contains(stack!) {
            let s = stored.children(of: stack), r = replayed.children(of: stack)
            guard s != r else { continue }
            let i = (0..<min(s.count, r.count)).first { s[$0] != r[$0] } ?? min(s.count, r.count)
            problems.append("rows of \(place(stack)): stored \(s.count), replayed \(r.count), first difference at index \(i): stored \(i < s.count ? "'\(s[i])'" : "none"), replayed \(i < r.count ? "'\(r[i])'" : "none")")
        }
        if stored.rowCount != replayed.rowCount || problems.contains(where: { $0.hasSuffix("but not stored") }) {
            stored.forEachRow { id, _, _, _ in
                if !replayed.contains(id) { problems.append("row '\(id)': stored but not in the log's document") }
            }
        }
        return problems
    }

    /// Field-level differences of two values of the same type (recursing into structs).
    static func fieldDiff<T: Equatable>(_ path: String, _ a: T, _ b: T) -> [String] {
        if a == b { return [] }
        return mirrorDiff(path, a, b)
    }

    private static func mirrorDiff(_ path: String, _ a: Any, _ b: Any) -> [String] {
        let ma = Mirror(reflecting: a), mb = Mirror(reflecting: b)
        if ma.displayStyle == .struct, mb.displayStyle == .struct, ma.children.count == mb.children.count, !ma.children.isEmpty {
            var out: [String] = []
            for (ca, cb) in zip(ma.children, mb.children) {
                let sa = String(reflecting: ca.value), sb = String(reflecting: cb.value)
                if sa != sb { out += mirrorDiff("\(path).\(ca.label ?? "?")", ca.value, cb.value) }
            }
            return out
        }
        return ["\(path): stored \(shown(a)), replayed \(shown(b))"]
    }

    /// A field's value as the command language writes it (never Swift's debug text): numbers
    /// as `JSONNumber` writes them (`99`, not `99.0`), `fixed 99`/`fit`, edges `T L B R`, sizes
    /// `W H`, keywords by their raw value, `none` for an absent value, text quoted.
    static func shown(_ value: Any) -> String {
        switch value {
        case let d as Double: return JSONNumber.describe(d)
        case let s as RowSize:
            if case .fixed(let n) = s { return "fixed \(JSONNumber.describe(n))" }
            return "fit"
        case let e as Edges: return [e.top, e.left, e.bottom, e.right].map(JSONNumber.describe).joined(separator: " ")
        case let s as Size: return "\(JSONNumber.describe(s.width)) \(JSONNumber.describe(s.height))"
        case let b as Bool: return b ? "on" : "off"
        case let s as String: return Validation.quoted(s)
        case let r as any RawRepresentable:
            if let raw = r.rawValue as? String { return raw }
        default: break
        }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let some = mirror.children.first else { return "none" }
            return shown(some.value)
        }
        if mirror.displayStyle == .struct {
            return "{" + mirror.children.map { "\($0.label ?? "?") \(shown($0.value))" }.joined(separator: ", ") + "}"
        }
        return String(describing: value)
    }
}
