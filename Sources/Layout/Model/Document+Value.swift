// Value semantics of `Document` over its logical content: equality and hashing see the
// name, the settings and the rows (ids, configs, parents, order), never slots or history.

extension Document: Hashable {
    public static func == (a: Document, b: Document) -> Bool {
        guard a.name == b.name, a.settings == b.settings, a.rowCount == b.rowCount else { return false }
        let ra = a.rows
        let rb = b.rows
        if ra.sharesStorage(with: rb) { return true }
        var sa = ra.firstInDocumentOrder
        var sb = rb.firstInDocumentOrder
        while sa >= 0, sb >= 0 {
            let ia = Int(sa)
            let ib = Int(sb)
            guard ra.ids[ia] == rb.ids[ib],
                  ra.flags[ia] == rb.flags[ib],
                  ra.sizeValue[ia] == rb.sizeValue[ib],
                  ra.content[ia] == rb.content[ib],
                  ra.styles[ra.style[ia]] == rb.styles[rb.style[ib]] else { return false }
            // Same parent: compare the parents' ids (both documents walk in the same order, so
            // equal parent ids at every row mean equal trees).
            let pa = ra.parent[ia]
            let pb = rb.parent[ib]
            guard (pa < 0) == (pb < 0) else { return false }
            if pa >= 0, ra.ids[Int(pa)] != rb.ids[Int(pb)] { return false }
            sa = ra.nextInDocumentOrder(sa)
            sb = rb.nextInDocumentOrder(sb)
        }
        return sa < 0 && sb < 0
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(settings)
        hasher.combine(rowCount)
        var s = rows.firstInDocumentOrder
        while s >= 0 {
            let i = Int(s)
            hasher.combine(rows.ids[i])
            let p = rows.parent[i]
            hasher.combine(p < 0 ? nil : rows.ids[Int(p)])
            hasher.combine(rows.config(s))
            s = rows.nextInDocumentOrder(s)
        }
    }
}
