import Layout

/// The text of a row's optional fields (issue 14), shared by `rows` (its flags column) and
/// `row` (one line each): only the fields the row sets, so rows without them print as before.
enum RowConfigText {
    static func optionalFields(_ c: RowConfig) -> [(String, String)] {
        guard c.hasOptionalFields else { return [] }
        var out: [(String, String)] = []
        if let n = c.minMain { out.append(("min", Format.number(n))) }
        if let n = c.maxMain { out.append(("max", Format.number(n))) }
        if let n = c.minCross { out.append(("min-cross", Format.number(n))) }
        if let n = c.maxCross { out.append(("max-cross", Format.number(n))) }
        if let s = c.background { out.append(("background", s)) }
        if let s = c.highlight { out.append(("highlight", s)) }
        if let t = c.text {
            out.append(("text", "\(t.count) char \(Format.number(t.glyphWidth)) line \(Format.number(t.lineHeight))"))
        }
        if let a = c.aspect { out.append(("aspect", "\(Format.number(a.width)) \(Format.number(a.height))")) }
        return out
    }
}
