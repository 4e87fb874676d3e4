// Lookups and checks shared by the edit planners. Each is O(depth) or O(siblings), never
// O(document).

extension Document {
    /// The row's config, or an error naming the unknown id.
    func requireRow(_ id: RowID) throws -> RowConfig {
        guard let config = config(of: id) else { throw StackDocError(.noSuchRow(id)) }
        return config
    }

    /// Throws unless `parent` is the root (`nil`) or an existing stack row.
    func requireStack(_ parent: RowID?) throws {
        guard let parent else { return }
        let config = try requireRow(parent)
        guard config.stack != nil else {
            throw StackDocError(.notAStack(parent))
        }
    }

    /// Throws when `ids` is empty or names a row twice.
    func requireDistinct(_ ids: [RowID], command: String) throws {
        guard !ids.isEmpty else { throw StackDocError("\(command): expected at least one row id") }
        var seen = Set<RowID>()
        for id in ids where !seen.insert(id).inserted {
            throw StackDocError("\(command): row \(Validation.quoted(id)) is named twice")
        }
    }

    /// Depth of a stack's rows: 1 for the root's rows, 1 + the stack row's depth otherwise.
    /// O(depth).
    func depthOfRows(in parent: RowID?) -> Int {
        var depth = 1
        var current = parent
        while let c = current {
            depth += 1
            current = self.parent(of: c) ?? nil
        }
        return depth
    }

    /// Levels of rows in the subtree of `id`: 1 for a leaf or an empty stack. O(subtree).
    func subtreeHeight(_ id: RowID) -> Int {
        var height = 1
        var pending: [(RowID, Int)] = [(id, 1)]
        while let (row, level) = pending.popLast() {
            height = max(height, level)
            for child in children(of: row) { pending.append((child, level + 1)) }
        }
        return height
    }

    /// `" of stack 's'"` or `" of the root stack"` for messages.
    static func stackName(_ parent: RowID?) -> String {
        parent.map { "stack \(Validation.quoted($0))" } ?? "the root stack"
    }

    /// Throws when rows at `depth` would nest deeper than `DocumentLimits.maxDepth`.
    static func checkDepth(_ depth: Int, row: RowID) throws {
        guard depth <= DocumentLimits.maxDepth else {
            throw StackDocError("row \(Validation.quoted(row)) would be nested \(depth) deep; the limit is \(DocumentLimits.maxDepth)")
        }
    }

    /// The index `position` means among the rows of `stack`, counted without `moving` when that
    /// row is in `stack` (so it is the row's final index). O(log n).
    /// `movingIndex`, when given, is `moving`'s index in its stack (saves a lookup).
    func insertionIndex(_ position: Position, in stack: RowID?, moving: RowID?, movingIndex known: Int? = nil) throws -> Int {
        let movingIndex: Int? = moving.flatMap { m in parent(of: m) == .some(stack) ? (known ?? index(of: m)) : nil }
        let count = childCount(of: stack) - (movingIndex == nil ? 0 : 1)
        switch position {
        case .top:
            return 0
        case .bottom:
            return count
        case let .index(i):
            guard i >= 0, i <= count else {
                throw StackDocError("index \(i) is out of range 0...\(count) of \(Document.stackName(stack))")
            }
            return i
        case let .after(anchor), let .before(anchor):
            _ = try requireRow(anchor)
            guard parent(of: anchor) == .some(stack), var i = index(of: anchor) else {
                throw StackDocError(.notInStack(anchor, stack: stack))
            }
            if let m = movingIndex, m < i { i -= 1 }
            if case .after = position { i += 1 }
            return i
        }
    }

    /// The stack a positioned edit targets: `in ROW` when given (it must be a stack), else the
    /// stack of the `after`/`before` anchor, else `fallback`.
    func targetStack(position: Position?, parent: RowID?, fallback: RowID?) throws -> RowID? {
        if let parent {
            try requireStack(parent)
            return parent
        }
        switch position {
        case let .after(anchor)?, let .before(anchor)?:
            _ = try requireRow(anchor)
            return self.parent(of: anchor) ?? nil
        default:
            return fallback
        }
    }

    /// `removeRow` changes that remove the subtree of `id` (at `index` of `parent`), children
    /// before their stack and later siblings first, so each change is a primitive that applies.
    /// Iterative: O(subtree).
    func removalChanges(of id: RowID, parent: RowID?, index: Int, into changes: inout [Change]) {
        guard let s = rows.slot(of: id) else { return }
        removalChanges(ofSlot: s, parent: parent, index: index, into: &changes)
    }

    /// `removalChanges` of the row in slot `s`, walking slots (no id lookup, no array of
    /// children per row: a 100k-row `clear` plans in one pass over the rows).
    private func removalChanges(ofSlot s: Int32, parent: RowID?, index: Int, into changes: inout [Change]) {
        // A row without children (most rows): its one change, without the walk's stack.
        guard rows.childCount(of: s) > 0 else {
            changes.append(.removeRow(id: rows.ids[Int(s)], config: rows.config(s), parent: parent, index: index))
            return
        }
        struct Item { var slot: Int32; var parent: RowID?; var index: Int; var expanded: Bool }
        var pending = [Item(slot: s, parent: parent, index: index, expanded: false)]
        while var item = pending.popLast() {
            if !item.expanded, rows.childCount(of: item.slot) > 0 {
                item.expanded = true
                pending.append(item)
                let stack = rows.ids[Int(item.slot)]
                rows.forEachChild(of: item.slot) { i, c in pending.append(Item(slot: c, parent: stack, index: i, expanded: false)) }
            } else {
                changes.append(.removeRow(id: rows.ids[Int(item.slot)], config: rows.config(item.slot), parent: item.parent, index: item.index))
            }
        }
    }

    /// `removalChanges` of every row of stack `parent` (nil: the root), the last row first.
    func removalChangesOfAllRows(in parent: RowID?, into changes: inout [Change]) {
        guard let p = stackSlot(parent) else { return }
        var slots: [Int32] = []
        slots.reserveCapacity(rows.childCount(of: p))
        rows.forEachChild(of: p) { _, c in slots.append(c) }
        if parent == nil { changes.reserveCapacity(changes.count + rows.count) }
        for (index, slot) in slots.enumerated().reversed() {
            removalChanges(ofSlot: slot, parent: parent, index: index, into: &changes)
        }
    }
}
