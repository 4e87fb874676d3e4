import Layout

/// `draw`'s hint when ids are cut to fit their boxes: one last line naming a finer
/// `draw --scale`.
///
/// The scale named is the coarsest whole number of points per column at which every cut box
/// is as many columns wide as its id and borders need, kept within the picture's limits
/// (`Drawing.maxCells`); a box too narrow for any allowed scale is left out of that. The picture is drawn once more at that scale: when it cuts no id the
/// hint says the scale shows them whole, else that it gives more room. When no finer whole
/// scale is allowed the hint says so and points to `rows`, which lists every id whole.
extension Drawing {
    /// The hint line for the ids `cut` at `scale`, nil when none was cut.
    static func cutHint(_ cut: [CutID], layout: DocumentLayout, stacks: Set<RowID>, kinds: [RowID: RowKind],
                        scale: Scale) -> String? {
        guard !cut.isEmpty else { return nil }
        let finest = finestWholeScale(for: layout.viewport)
        // The coarsest scale each box needs, leaving out boxes too small for any allowed scale.
        let wanted = cut.map { $0.widthPoints / Double(max(1, $0.columnsNeeded)) }.filter { $0.isFinite && $0 >= finest }
        // Finer than now even when other ids, not the box, took the room.
        let named = max(finest, min(wanted.min()?.rounded(.down) ?? finest, scale.x.rounded(.up) - 1))
        guard !wanted.isEmpty, named < scale.x, (try? self.scale(.points(named), for: layout.viewport)) != nil else {
            return "(ids cut to fit, even at the finest 'draw --scale'; 'rows' lists them whole)"
        }
        let finer = picture(layout, stacks: stacks, kinds: kinds, scale: Scale(x: named, y: 2 * named))
        let verdict = finer.cut.isEmpty ? "shows them whole" : "gives more room"
        return "(ids cut to fit: 'draw --scale \(Format.number(named))' \(verdict))"
    }

    /// The smallest whole number of points per column (at least 1) whose picture of `viewport`
    /// has at most `maxCells` columns and lines.
    static func finestWholeScale(for viewport: Size) -> Double {
        let cells = Double(maxCells)
        let s = max(1, (viewport.width / cells).rounded(.up), (viewport.height / (2 * cells)).rounded(.up))
        return s.isFinite ? s : 1
    }
}
