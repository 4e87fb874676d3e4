import Layout

extension ChangeReport {
    /// Text lines under the headline: frames (the listed rows with their frames before and
    /// after), removed rows, offset, transitions (arrivals `(new) -> …`, departures
    /// `… -> (removed)`); bounded.
    var textLines: [String] {
        var lines: [String] = []
        if changedCount > 0 {
            // Visible rows by id (at most `listLimit`), then counts: bounded on any document.
            let listed = changedVisible.prefix(Self.listLimit)
            var words = listed.map(Printer.id)
            if changedVisible.count > listed.count { words.append("+\(changedVisible.count - listed.count) more") }
            let offscreen = changedCount - changedVisible.count
            if offscreen > 0 { words.append(words.isEmpty ? "\(offscreen) offscreen" : "(+\(offscreen) offscreen)") }
            lines.append("  frames: " + words.joined(separator: " "))
            // The listed rows' frames before and after (`-`: no frame, new or hidden).
            for m in moved.prefix(Self.listLimit) {
                lines.append("    \(Printer.id(m.row)): \(Format.rect(m.from)) -> \(Format.rect(m.to))")
            }
        }
        if !removed.isEmpty {
            let listed = removed.prefix(Self.listLimit).map(Printer.id).joined(separator: " ")
            lines.append("  removed: " + listed + (removed.count > Self.listLimit ? " (+\(removed.count - Self.listLimit) more)" : ""))
        }
        if offset.before != offset.after {
            lines.append("  offset: \(Format.number(offset.before)) -> \(Format.number(offset.after))")
        }
        if contentSize.before != contentSize.after {
            lines.append("  content: \(Format.size(contentSize.before)) -> \(Format.size(contentSize.after))")
        }
        for t in transitions.prefix(Self.listLimit * 2) {
            lines.append("  \(Printer.id(t.row)): \(t.from?.rawValue ?? "(new)") -> \(t.to?.rawValue ?? "(removed)")")
        }
        if transitions.count > Self.listLimit * 2 {
            lines.append("  (+\(transitions.count - Self.listLimit * 2) more transitions)")
        }
        for t in stuck.prefix(Self.listLimit * 2) {
            lines.append("  \(Printer.id(t.row)): \(t.stuck ? "stuck" : "unstuck")")
        }
        if stuck.count > Self.listLimit * 2 {
            lines.append("  (+\(stuck.count - Self.listLimit * 2) more stuck transitions)")
        }
        return lines
    }
}
