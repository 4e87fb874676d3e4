import Layout

/// What `draw` and SVG show of a row beyond its box (issue 14): a text row's wrapped lines, an
/// aspect row's ratio, a sticky row (stuck while sticky positioning moves it). Nil for a row
/// with none of these, so pictures of documents without them are unchanged.
struct RowKind: Equatable {
    /// The text run and how it wraps at the row's content width.
    var text: TextRun?
    var lines = 0
    var perLine = 0
    var aspect: Size?
    var sticky = false
    var stuck = false

    init?(_ config: RowConfig, content: Rect?, stuck: Bool) {
        guard config.text != nil || config.aspect != nil || config.sticky else { return nil }
        if let t = config.text {
            text = t
            (lines, perLine) = t.lines(atWidth: content?.width ?? 0)
        }
        aspect = config.aspect
        sticky = config.sticky
        self.stuck = stuck && config.sticky
    }

    /// The tag written after the row's id: `[3 lines]`, `[16:9]`, `[sticky]` / `[stuck]`,
    /// joined with `, ` when a row has several.
    var tag: String {
        var parts: [String] = []
        if text != nil { parts.append(lines == 1 ? "1 line" : "\(lines) lines") }
        if let a = aspect { parts.append("\(Format.number(a.width)):\(Format.number(a.height))") }
        if sticky { parts.append(stuck ? "stuck" : "sticky") }
        return "[" + parts.joined(separator: ", ") + "]"
    }

    /// The glyphs on line `k` (0-based) of the wrapped text: a full line but the last.
    func glyphs(onLine k: Int) -> Int {
        guard let t = text, k >= 0, k < lines else { return 0 }
        return k < lines - 1 ? perLine : t.count - k * perLine
    }
}
