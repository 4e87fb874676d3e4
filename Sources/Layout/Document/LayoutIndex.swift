import Synchronization

/// Lookup structures over a layout's `rows` (id → position, parent positions), built once on
/// first use and shared by copies of the layout. `DocumentLayout` replaces its index whenever
/// `rows` changes, so an index always describes the rows it sits beside.
final class LayoutIndex: Sendable {
    private struct State {
        var positions: [RowID: Int]?
        var parentSlots: [Int32]?
    }

    private let state: Mutex<State>

    /// An empty index; `parentSlots` may be given when the builder of the rows knows them.
    init(parentSlots: [Int32]? = nil) {
        state = Mutex(State(positions: nil, parentSlots: parentSlots))
    }

    /// Position of `id` in `rows`, or nil. O(1) after an O(n) build on first use.
    func position(of id: RowID, in rows: [RowLayout]) -> Int? {
        state.withLock { st in
            if st.positions == nil {
                var map = [RowID: Int](minimumCapacity: rows.count)
                for (i, row) in rows.enumerated() where map[row.id] == nil { map[row.id] = i }
                st.positions = map
            }
            return st.positions?[id]
        }
    }

    /// For every row, the position of its parent row in `rows` (-1 for a root row or a parent
    /// that is not in `rows`).
    func parentSlots(of rows: [RowLayout]) -> [Int32] {
        if let known = state.withLock({ $0.parentSlots }) { return known }
        var slots = [Int32](repeating: -1, count: rows.count)
        for (i, row) in rows.enumerated() {
            if let p = row.parent, let at = position(of: p, in: rows) { slots[i] = Int32(at) }
        }
        state.withLock { $0.parentSlots = slots }
        return slots
    }
}

extension DocumentLayout {
    /// Position of row `id` in `rows`, or nil for an unknown id. O(1) (after a one-time O(n) build).
    public func position(of id: RowID) -> Int? {
        index.position(of: id, in: rows)
    }

    /// The layout of row `id`, or nil for an unknown id. O(1) (after a one-time O(n) build).
    public func row(_ id: RowID) -> RowLayout? {
        position(of: id).map { rows[$0] }
    }
}
