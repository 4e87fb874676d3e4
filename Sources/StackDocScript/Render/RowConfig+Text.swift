import Layout

/// The text of a row's optional fields (`RowField.optional`), shared by `rows` (its flags column) and
/// `row` (one line each): only the fields the row sets, so rows without them print as before.
enum RowConfigText {
    /// `except`: fields a caller shows its own way (the row detail shows the sticky offset on
    /// its `sticky` line).
    static func optionalFields(_ c: RowConfig, except: Set<RowField> = []) -> [(String, String)] {
        guard c.hasOptionalFields else { return [] }
        var out: [(String, String)] = []
        for field in RowField.optional where !except.contains(field) {
            switch field.value(c) {
            case let .number(n)?: out.append((field.spec.word, Format.number(n)))
            case let .text(t)?: out.append((field.spec.word, Printer.label(t)))
            case nil: break
            }
        }
        return out
    }
}
