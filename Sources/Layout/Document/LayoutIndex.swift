import Synchronization

/// Lookup structures over a layout's `rows` (id → position, parent positions), built once on
/// first use and shared by copies of the layout. `DocumentLayout` replaces its index whenever
/// `rows` changes, so an index always describes the rows it sits beside.
final class LayoutIndex: Sendable {
    private struct State {
        var positions: [RowID: Int]?
        var parentSlots: [Int32]?
        /// Lookups answered by a linear scan so far (the map is built at the second lookup: a
        /// layout that is asked once, like most in the REPL, never pays for the map).
        var scans = 0
    }

    private let state: Mutex<State>

    /// An empty index; `parentSlots` may be given when the builder of the rows knows them.
    init(parentSlots: [Int32]? = nil) {
        state = Mutex(State(positions: nil, parentSlots: parentSlots))
    }

    /// Position of `id` in `rows`, or nil. The first lookup scans (O(n), cheap); later ones use a
    /// map built once (O(n)), then O(1).
    func position(of id: RowID, in rows: [RowLayout]) -> Int? {
        state.withLock { st in
            if st.positions == nil, st.scans == 0 {
                st.scans += 1
                return rows.firstIndex { $0.id == id }
            }
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
    /// Position of row `id` in `rows`, or nil for an unknown id. Amortized O(1): the first lookup
    /// of a layout scans, the second builds an id map once.
    public func position(of id: RowID) -> Int? {
        index.position(of: id, in: rows)
    }

    /// Row `id` as shown at this offset: its layout and, for a row sticky positioning moves,
    /// its `shownFrame`; nil for an unknown id. Amortized O(1), see `position(of:)`.
    public func row(_ id: RowID) -> ShownRow? {
        position(of: id).map { ShownRow(rows[$0], displacement: displaced.isEmpty ? nil : displaced[id]) }
    }
}
