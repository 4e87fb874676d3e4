internal import OrderStatistics
import StackDocRuntime

/// The root stack's rows in order, on the generic augmented implicit treap (`AugmentedTreap`),
/// so that `LiveLayout` can insert, remove, move and resize root rows and find positions and the
/// rows in a main-axis range in O(log n).
///
/// Every entry is one root row with its whole subtree laid out on its own (`LiveEntries`), in
/// coordinates relative to the row's margin-box start along the main axis. The tree keeps one
/// `Summary` per subtree and none per entry: an entry's own summary is computed from the
/// entries' columns when needed (`Elements`), so the tree costs its links and totals only.
struct RootLine: Sendable {
    /// What the tree keeps for a run of entries: entry count, shown entries, `sum` of
    /// contributions (outer length + gap of each shown entry), the main-axis extent `lo…hi` of
    /// every framed row below (relative to the run's first position; negative margins and
    /// overflowing nested rows make it differ from `sum`; `lo > hi` when there is none), rows at
    /// every depth, and — for the change report — touched entries and framed rows of untouched
    /// entries.
    ///
    /// Counts are 32-bit (a document's rows are numbered by `Int32` slots): 48 bytes per node.
    struct Summary: TreapSummary {
        var sum: Double
        var lo: Double
        var hi: Double
        private var rowCount: Int32
        private var untouchedFramedCount: Int32
        var entries: Int32
        var shown: Int32
        var touched: Int32

        init(sum: Double, lo: Double, hi: Double, rows: Int, untouchedFramed: Int, entries: Int32, shown: Int32,
             touched: Int32) {
            self.sum = sum
            self.lo = lo
            self.hi = hi
            rowCount = Int32(truncatingIfNeeded: rows)
            untouchedFramedCount = Int32(truncatingIfNeeded: untouchedFramed)
            self.entries = entries
            self.shown = shown
            self.touched = touched
        }

        static let zero = Summary(sum: 0, lo: .infinity, hi: -.infinity, rows: 0, untouchedFramed: 0,
                                  entries: 0, shown: 0, touched: 0)

        /// Rows at every depth.
        var rows: Int { Int(rowCount) }
        /// Framed rows of untouched entries.
        var untouchedFramed: Int { Int(untouchedFramedCount) }

        var count: Int { Int(entries) }

        /// Entries not touched by the update under way.
        var untouched: Int { Int(entries - touched) }

        @inline(__always)
        static func + (a: Summary, b: Summary) -> Summary {
            Summary(sum: a.sum + b.sum, lo: min(a.lo, a.sum + b.lo), hi: max(a.hi, a.sum + b.hi),
                    rows: a.rows &+ b.rows, untouchedFramed: a.untouchedFramed &+ b.untouchedFramed,
                    entries: a.entries &+ b.entries, shown: a.shown &+ b.shown, touched: a.touched &+ b.touched)
        }

        /// Bit for bit (`lo`/`hi` are ±infinity for runs without framed rows).
        static func == (a: Summary, b: Summary) -> Bool {
            a.sum.bitPattern == b.sum.bitPattern && a.lo.bitPattern == b.lo.bitPattern
                && a.hi.bitPattern == b.hi.bitPattern && a.rows == b.rows && a.untouchedFramed == b.untouchedFramed
                && a.entries == b.entries && a.shown == b.shown && a.touched == b.touched
        }
    }

    /// The entries as the tree's elements: their layouts, their contributions and the touched
    /// flags of an update, one per node; an entry's summary is computed from them.
    struct Elements: TreapElements {
        var entries = LiveEntries(axis: .vertical)
        var contribution: [Double] = []
        var touched: [Bool] = []

        var count: Int { entries.count }

        @inline(__always)
        func summary(of x: Int32) -> Summary {
            let i = Int(x)
            return Self.summary(of: i, in: entries, contribution: contribution[i], touched: touched[i])
        }

        /// The summary of entry `i` of `entries` alone.
        @inline(__always)
        static func summary(of i: Int, in entries: LiveEntries, contribution: Double, touched isTouched: Bool) -> Summary {
            let shown = entries.shown(i)
            let (elo, ehi) = entries.extent(i)
            let framed = shown && elo <= ehi
            return Summary(sum: contribution, lo: framed ? elo : .infinity, hi: framed ? ehi : -.infinity,
                           rows: entries.rowCount(i), untouchedFramed: isTouched ? 0 : entries.framedCount(i),
                           entries: 1, shown: shown ? 1 : 0, touched: isTouched ? 1 : 0)
        }

        @inline(__always)
        func count(of x: Int32) -> Int { 1 }

        mutating func store(_ element: (entry: LocalRows, contribution: Double, touched: Bool), at x: Int32) {
            let i = Int(x)
            if i == entries.count {
                entries.append(element.entry, config: nil, defaults: DocumentDefaults())
                contribution.append(element.contribution)
                touched.append(element.touched)
            } else {
                entries.set(i, element.entry, config: nil, defaults: DocumentDefaults())
                contribution[i] = element.contribution
                touched[i] = element.touched
            }
        }

        mutating func release(_ x: Int32) {
            let i = Int(x)
            entries.clear(i)
            contribution[i] = 0
            touched[i] = false
        }
    }

    private(set) var tree = AugmentedTreap(elements: Elements())
    private(set) var root: Int32 = -1

    init() {}

    /// A line of `entries` in order with contributions `contributions`, in O(n).
    init(entries list: LiveEntries, contributions: [Double]) {
        let elements = Elements(entries: list, contribution: contributions,
                                touched: Array(repeating: false, count: list.count))
        // Every entry's summary in one pass (untouched, all of them; 48 bytes each, a big line's
        // largest column, filled by two threads a half each), then the tree over them.
        let n = list.count
        let summaries = [Summary](unsafeUninitializedCapacity: n) { out, initialized in
            let shared = SharedBuffer(buffer: out)
            Halves.forEach(count: n) { half in
                for i in half {
                    shared.buffer.initializeElement(at: i, to: Elements.summary(of: i, in: list, contribution: contributions[i],
                                                                                touched: false))
                }
            }
            initialized = n
        }
        // The tree in two halves at once (`AugmentedTreap.init(building:summaries:root:inHalves:)`).
        tree = AugmentedTreap(building: elements, summaries: summaries, root: &root) { half in Halves.both(count: n, half) }
    }

    // MARK: The entries

    var entries: LiveEntries {
        get { tree.elements.entries }
        _modify { yield &tree.elements.entries }
    }

    var contribution: [Double] {
        get { tree.elements.contribution }
        _modify { yield &tree.elements.contribution }
    }

    var touched: [Bool] {
        get { tree.elements.touched }
        _modify { yield &tree.elements.touched }
    }

    /// Updates the aggregates above `node` after its entry, contribution or touched flag changed.
    mutating func elementChanged(_ node: Int32) { tree.elementChanged(node) }

    // MARK: Aggregates

    /// The summary of the whole line.
    var summary: Summary { tree.summary(of: root) }

    var count: Int { tree.count(root) }

    // MARK: Edits

    /// Inserts `entry` at `index` and returns its node.
    mutating func insert(_ entry: LocalRows, contribution c: Double, touched isTouched: Bool, at index: Int) -> Int32 {
        let node = tree.makeNode((entry, c, isTouched))
        tree.insert(node, at: index, root: &root)
        return node
    }

    /// Takes the entry at `index` out of the tree; its node stays allocated (for `reinsert`).
    mutating func detach(at index: Int) -> Int32 {
        let node = tree.node(at: index, in: root)
        tree.remove(node, root: &root)
        return node
    }

    /// Puts a detached node back at `index`.
    mutating func reinsert(_ node: Int32, at index: Int) {
        tree.insert(node, at: index, root: &root)
    }

    /// Frees a detached node (its entry is cleared).
    mutating func release(_ node: Int32) { tree.free(node) }

    // MARK: Queries

    /// The node at `index`.
    func node(at index: Int) -> Int32 { tree.node(at: index, in: root) }

    /// Position facts of a node: its index, the sum of contributions before it, the rows (every
    /// depth) before it and the touched entries before it. O(log n).
    func locate(_ node: Int32) -> (index: Int, before: Double, rowsBefore: Int, touchedBefore: Int) {
        let s = tree.summary(before: node)
        return (s.count, s.sum, s.rows, Int(s.touched))
    }

    /// The last shown entry's node, or -1. O(log n).
    func lastShown() -> Int32 {
        let all = summary.shown
        guard all > 0 else { return -1 }
        return tree.firstNode(in: root) { $0.shown >= all }?.node ?? -1
    }

    /// Calls `body(node, start)` in order for every shown entry whose extent meets
    /// [`from`, `to`] (edges inclusive), `start` being the sum of contributions before it.
    /// O(log n + k) when extents follow positions.
    func forEachEntry(meeting from: Double, _ to: Double, _ body: (Int32, Double) -> Void) {
        let entries = tree.elements.entries
        tree.forEach(in: root, mayContain: { before, run in before.sum + run.lo <= to && before.sum + run.hi >= from }) {
            node, before in
            let i = Int(node)
            let start = before.sum
            let (elo, ehi) = entries.extent(i)
            if entries.shown(i), elo <= ehi, start + elo <= to, start + ehi >= from { body(node, start) }
        }
    }

    /// The node holding document-order row `k` (every depth) and `k` relative to it. O(log n).
    func entry(atRow k: Int) -> (node: Int32, offset: Int)? {
        guard k >= 0, let (node, before) = tree.firstNode(in: root, where: { $0.rows > k }) else { return nil }
        return (node, k - before.rows)
    }

    /// The in-order successor of `t`, or -1.
    func successor(_ t: Int32) -> Int32 { tree.successor(t) }

    /// The first node in order, or -1.
    func first() -> Int32 { tree.first(root) }

    /// Untouched entries before `rank` (counted among untouched entries only): how many
    /// framed rows they hold. O(log n).
    func untouchedFramedRows(beforeUntouchedRank rank: Int) -> Int {
        guard rank > 0 else { return 0 }
        guard rank < summary.untouched else { return summary.untouchedFramed }
        return tree.firstNode(in: root) { $0.untouched > rank }?.before.untouchedFramed ?? summary.untouchedFramed
    }

    /// Clears every touched flag (after a change report). O(touched · log n).
    mutating func clearTouched(_ nodes: [Int32]) {
        for t in nodes where touched[Int(t)] {
            touched[Int(t)] = false
            elementChanged(t)
        }
    }
}
