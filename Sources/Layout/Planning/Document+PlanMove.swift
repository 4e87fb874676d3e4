// Planning of `move ROW to INDEX|top|bottom | after ROW | before ROW [in ROW]` (SPEC §4.1).

extension Document {
    /// Moves a row with its subtree. The target stack is `in ROW` when given, else the stack of
    /// the `after`/`before` anchor, else the row's own stack; an index is the row's final index
    /// there. Moving a row after or before itself, or to where it is, plans nothing.
    func planMove(id: RowID, position: Position, parent: RowID?) throws -> [Change] {
        let config = try requireRow(id)
        let from = self.parent(of: id) ?? nil
        let fromIndex = index(of: id) ?? 0
        let stack = try targetStack(position: position, parent: parent, fallback: from)
        if let stack, isDescendant(stack, of: id) {
            throw StackDocError(.moveIntoItself(id))
        }
        switch position {
        case let .after(anchor), let .before(anchor):
            if anchor == id {
                guard stack == from else {
                    throw StackDocError(.notInStack(anchor, stack: stack))
                }
                return []
            }
        default:
            break
        }
        let toIndex = try insertionIndex(position, in: stack, moving: id, movingIndex: fromIndex)
        if stack == from, toIndex == fromIndex { return [] }
        let newDepth = depthOfRows(in: stack)
        if newDepth > depthOfRows(in: from) {
            let height = config.stack == nil ? 1 : subtreeHeight(id)
            try Document.checkDepth(newDepth + height - 1, row: id)
        }
        return [.moveRow(id: id, fromParent: from, fromIndex: fromIndex, toParent: stack, toIndex: toIndex)]
    }
}
