import Layout

/// The `stackdoc/1` importer's rules under fuzzing: any bytes give a document or at least one
/// one-line problem; an accepted document exports as JSON that imports to the same document and
/// lays out with finite frames.
public enum JSONHarness {
    public static func check(_ bytes: [UInt8]) {
        let result = Document.importJSON(bytes)
        let shown = String(decoding: bytes, as: UTF8.self)
        guard let doc = result.document else {
            if result.problems.isEmpty { FuzzInput.broken("refused without a problem", shown) }
            for problem in result.problems where problem.isEmpty || problem.count >= 2000 || problem.contains("\n") {
                FuzzInput.broken("bad problem \(problem.debugDescription)", shown)
            }
            return
        }
        if !result.problems.isEmpty { FuzzInput.broken("accepted with problems \(result.problems)", shown) }
        if (try? Document(json: doc.exportJSON())) != doc { FuzzInput.broken("the export does not import to the same document", shown) }
        let layout = doc.layout()
        func finite(_ r: Rect?) -> Bool { r.map { $0.x.isFinite && $0.y.isFinite && $0.width.isFinite && $0.height.isFinite } ?? true }
        let ok = layout.contentSize.width.isFinite && layout.contentSize.height.isFinite
            && layout.rows.allSatisfy { finite($0.frame) && finite($0.content) && finite($0.separator) && $0.percent.isFinite }
        if !ok { FuzzInput.broken("an accepted document lays out with non-finite frames", shown) }
    }
}
