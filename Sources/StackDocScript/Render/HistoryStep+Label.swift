import Store

extension HistoryStep {
    /// The step's label as history, undo, redo and commit show it: its group label, or its
    /// operations' canonical text (three at most, then a count).
    var shownLabel: String {
        if let label { return label }
        let texts = edits.map(Printer.text)
        if texts.count <= 3 { return texts.joined(separator: "; ") }
        return texts.prefix(3).joined(separator: "; ") + "; … (\(texts.count) operations)"
    }
}
