internal import OrderStatistics
import StackDocRuntime

/// The rows of a `Document` in dense, slot-indexed arrays (struct of arrays):
///
/// - per slot, hot and compact: `ids`, `parent` slot (-1 = root), `sizeValue` (the N of
///   `fixed N`), `content`, `flags` (live, hidden, fit), `style` (number of an interned
///   `RowStyle`), `childRoot` (the treap root of a stack's rows, -1 when none);
/// - `order`: every stack's child order (one `ImplicitTreap` per stack, node = slot), whose
///   free list is also the list of free slots;
/// - `table`: id → slot (open addressing over the slot numbers, keys read from `ids`);
/// - `styles`: the interned rest of each config, reference counted.
///
/// A removed row's slot goes to the order's free list and is reused by the next insert. Being a struct of
/// arrays, copying is cheap and a mutation copies (once) only the arrays it touches while
/// another copy shares them.
struct DocumentRows: Sendable {
    static let live: UInt8 = 1
    static let hidden: UInt8 = 2
    static let fit: UInt8 = 4

    private(set) var ids: [RowID] = []
    private(set) var parent: [Int32] = []
    private(set) var sizeValue: [Double] = []
    private(set) var content: [Size] = []
    private(set) var flags: [UInt8] = []
    private(set) var style: [Int32] = []
    private(set) var childRoot: [Int32] = []
    private(set) var order = ImplicitTreap<ElementCount>()
    private(set) var styles = DocumentStylePool()
    /// The treap root of the document root's rows.
    private(set) var rootRoot: Int32 = -1
    /// id → slot. `LiveLayout` takes it as its root rows' table when its nodes are the slots.
    private(set) var table = DocumentIndexTable()

    /// Number of live rows.
    var count: Int { table.count }

    // MARK: Slots

    /// The slot of `id`, or nil.
    @inline(__always)
    func slot(of id: RowID) -> Int32? {
        let h = DocumentIndexTable.hash(id)
        return ids.withUnsafeBufferPointer { ids in
            table.find(hash: h) { ids[Int($0)] == id }
        }
    }

    /// The treap root of a stack's rows (`-1` = the document root).
    @inline(__always)
    func root(of stack: Int32) -> Int32 { stack < 0 ? rootRoot : childRoot[Int(stack)] }

    /// Number of rows of a stack (`-1` = the document root).
    @inline(__always)
    func childCount(of stack: Int32) -> Int { order.count(root(of: stack)) }

    /// Calls `body` with each row of a stack (`-1` = the document root) in order: its index
    /// and slot. O(rows of the stack).
    @inline(__always)
    func forEachChild(of stack: Int32, _ body: (_ index: Int, _ slot: Int32) throws -> Void) rethrows {
        var c = order.first(root(of: stack))
        var index = 0
        while c >= 0 {
            try body(index, c)
            index += 1
            c = order.successor(c)
        }
    }

    @inline(__always)
    func isStack(_ s: Int32) -> Bool { styles[style[Int(s)]].stack != nil }

    @inline(__always)
    func isHidden(_ s: Int32) -> Bool { flags[Int(s)] & Self.hidden != 0 }

    @inline(__always)
    func rowSize(_ s: Int32) -> RowSize {
        flags[Int(s)] & Self.fit != 0 ? .fit : .fixed(sizeValue[Int(s)])
    }

    /// The full config of a live slot.
    @inline(__always)
    func config(_ s: Int32) -> RowConfig {
        let i = Int(s)
        var c = styles[style[i]].rest
        c.size = rowSize(s)
        c.content = content[i]
        c.hidden = flags[i] & Self.hidden != 0
        return c
    }

    /// The next slot of document order (depth first, a stack before its rows) after `s`, or -1.
    @inline(__always)
    func nextInDocumentOrder(_ s: Int32) -> Int32 {
        let kids = childRoot[Int(s)]
        if kids >= 0 { return order.first(kids) }
        var c = s
        while c >= 0 {
            let n = order.successor(c)
            if n >= 0 { return n }
            c = parent[Int(c)]
        }
        return -1
    }

    /// The first slot of document order, or -1.
    var firstInDocumentOrder: Int32 { order.first(rootRoot) }

    /// True when `self` and `other` share every buffer (one is an unchanged copy of the other),
    /// so their rows are the same without looking at them. O(1).
    func sharesStorage(with other: DocumentRows) -> Bool {
        func same<T>(_ a: [T], _ b: [T]) -> Bool {
            a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress && x.count == y.count } }
        }
        return rootRoot == other.rootRoot && same(ids, other.ids) && same(parent, other.parent)
            && same(sizeValue, other.sizeValue) && same(content, other.content) && same(flags, other.flags)
            && same(style, other.style) && same(childRoot, other.childRoot) && same(styles.records, other.styles.records)
            && order.sharesStorage(with: other.order)
    }

    /// The first broken rule of the child-order trees (`ImplicitTreap.invariantViolation`), or
    /// of their agreement with the rows: every live slot in its parent's tree, nil when all
    /// hold. O(n); for tests.
    func orderInvariantViolation() -> String? {
        if let broken = order.invariantViolation(roots: [rootRoot] + childRoot) { return broken }
        if order.nodeCount != ids.count { return "\(order.nodeCount) order nodes for \(ids.count) slots" }
        for s in 0..<Int32(truncatingIfNeeded: ids.count) where flags[Int(s)] & Self.live != 0 {
            if order.root(of: s) != root(of: parent[Int(s)]) { return "slot \(s) is not in its parent's order" }
        }
        return nil
    }

    /// True when more than half of the slots are free (and enough of them to matter): time to
    /// `compacted()`, so that memory follows the rows, not the history.
    var wantsCompaction: Bool { order.freeCount >= 4096 && order.freeCount > count }

    /// The same rows in fresh storage: slots renumbered in document order, no free slots,
    /// capacity for the live rows only. O(n).
    func compacted() -> DocumentRows {
        var fresh = DocumentRows()
        fresh.reserve(rows: count)
        var newSlot = [Int32](repeating: -1, count: ids.count)
        var s = firstInDocumentOrder
        while s >= 0 {
            let p = parent[Int(s)]
            // Parents come before their rows in document order, so `newSlot[p]` is set.
            if let n = fresh.append(ids[Int(s)], config(s), parent: p < 0 ? -1 : newSlot[Int(p)]) {
                newSlot[Int(s)] = n
            }
            s = nextInDocumentOrder(s)
        }
        return fresh
    }

    // MARK: Changing

    /// Room for `rows` rows; `indexing` false leaves the id table alone (a bulk append
    /// indexes every id at once at the end: `placeAndIndex()`).
    mutating func reserve(rows: Int, indexing: Bool = true) {
        ids.reserveCapacity(rows)
        parent.reserveCapacity(rows)
        sizeValue.reserveCapacity(rows)
        content.reserveCapacity(rows)
        flags.reserveCapacity(rows)
        style.reserveCapacity(rows)
        childRoot.reserveCapacity(rows)
        guard indexing else { return }
        order.reserveCapacity(rows)
        let ids = self.ids
        table.reserve(rows, hashOf: { DocumentIndexTable.hash(ids[Int($0)]) })
    }

    /// The `flags` and `sizeValue` of a row of `config`.
    @inline(__always)
    private static func flagsAndSize(_ config: RowConfig) -> (flags: UInt8, size: Double) {
        var f = Self.live
        if config.hidden { f |= Self.hidden }
        switch config.size {
        case .fit: return (f | Self.fit, 0)
        case .fixed(let v): return (f, v)
        }
    }

    /// Adds a row (no children yet) with parent slot `p`, not yet placed in any order; returns
    /// its slot. The id must be new.
    private mutating func allocate(_ id: RowID, _ config: RowConfig, parent p: Int32, hash: Int) -> Int32 {
        let (f, n) = Self.flagsAndSize(config)
        let st = styles.retain(styleOf: config)
        let s = order.makeNode(.one)
        let i = Int(s)
        if i < ids.count {
            ids[i] = id
            parent[i] = p
            sizeValue[i] = n
            content[i] = config.content
            flags[i] = f
            style[i] = st
            childRoot[i] = -1
        } else {
            ids.append(id)
            parent.append(p)
            sizeValue.append(n)
            content.append(config.content)
            flags.append(f)
            style.append(st)
            childRoot.append(-1)
        }
        let ids = self.ids
        table.insert(s, hash: hash, hashOf: { DocumentIndexTable.hash(ids[Int($0)]) })
        return s
    }

    // MARK: Bulk loading

    /// Takes a reference to the style record of `config` for a bulk load (`appendUnindexed`
    /// takes one more per row; the caller releases its own at the end).
    mutating func retainStyle(_ config: RowConfig) -> Int32 { styles.retain(styleOf: config) }

    /// Drops a reference taken by `retainStyle`.
    mutating func releaseStyle(_ record: Int32) { styles.release(record) }

    /// Fills fresh storage with rows in bulk: slot i holds row i of every column, a row's
    /// `parent` slot (-1: the root) precedes it, `flags` are this type's bits (`live` set),
    /// `style` holds records taken with `retainStyle` (each row takes one reference more),
    /// `hashes[i]` is the 32 low bits of `DocumentIndexTable.hash(ids[i])` and `trees` are the stacks' orders of
    /// these parents (`OrderTrees`, which another thread may have made meanwhile). Indexes the
    /// ids in one pass. Returns the slot of a row whose id another row has (the index is then
    /// empty), nil when all ids are distinct.
    mutating func load(ids: [RowID], parent: [Int32], sizeValue: [Double], content: [Size], flags: [UInt8],
                       style: [Int32], hashes: [UInt32], trees: OrderTrees) -> Int32? {
        let n = ids.count
        precondition(self.ids.isEmpty && order.nodeCount == 0, "bulk loading needs fresh storage")
        precondition(parent.count == n && sizeValue.count == n && content.count == n && flags.count == n
                     && style.count == n && hashes.count == n, "one value per row in every column")
        precondition(trees.order.nodeCount == n && trees.childRoot.count == n, "the order trees of these rows")
        var uses = [Int32](repeating: 0, count: styles.records.count)
        for record in style { uses[Int(record)] += 1 }
        for (record, count) in uses.enumerated() where count > 0 { styles.retain(Int32(record), count: count) }
        self.ids = ids
        self.parent = parent
        self.sizeValue = sizeValue
        self.content = content
        self.flags = flags
        self.style = style
        order = trees.order
        rootRoot = trees.rootRoot
        childRoot = trees.childRoot
        let ids = self.ids
        return table.build(hashes: hashes, isEqual: { ids[Int($0)] == ids[Int($1)] })
    }

    /// Appends a row at the end of stack `p` (an earlier slot, -1: the root) without placing it
    /// in its stack's order or indexing its id: rows appended so, into fresh storage and with
    /// nothing else changed in between, are placed and indexed all at once by
    /// `placeAndIndex()`, as `load` does (an import: no lookup of a random bucket per row).
    /// Until then the rows are not `count`ed, found by id or ordered. Returns the row's slot.
    mutating func appendUnplaced(_ id: RowID, _ config: RowConfig, parent p: Int32) -> Int32 {
        precondition(order.nodeCount == 0 && table.count == 0, "unplaced rows go into fresh storage")
        let (f, n) = Self.flagsAndSize(config)
        let s = Int32(truncatingIfNeeded: ids.count)
        ids.append(id)
        parent.append(p)
        sizeValue.append(n)
        content.append(config.content)
        flags.append(f)
        style.append(styles.retain(styleOf: config))
        childRoot.append(-1)
        return s
    }

    /// Places the rows of `appendUnplaced` in their stacks (each stack's rows in slot order) and
    /// indexes their ids in one pass each. Returns the slot of a row whose id another row has
    /// (the index is then empty: the rows must not be used), nil when all ids are distinct.
    mutating func placeAndIndex() -> Int32? {
        precondition(order.nodeCount == 0 && table.count == 0, "unplaced rows go into fresh storage")
        let n = ids.count
        let parents = parent
        let trees = BackgroundTask(n < DocumentLoader.helperRows ? .callingThread : .pool) { OrderTrees(parents: parents) }
        let ids = self.ids
        let duplicate = table.build(count: n, hashOf: { DocumentIndexTable.hash(ids[Int($0)]) },
                                    isEqual: { ids[Int($0)] == ids[Int($1)] })
        guard let built = trees.value else { preconditionFailure("unplaced rows come after their stacks") }
        order = built.order
        rootRoot = built.rootRoot
        childRoot = built.childRoot
        return duplicate
    }

    /// Every stack's order of a bulk load (`load`), made from the rows' parents alone — so it
    /// can be built on another thread while the rows are checked and their ids indexed: one
    /// node per slot, each stack's rows in slot order (a counting sort by parent, then one
    /// `build` per stack with rows).
    struct OrderTrees: Sendable {
        private(set) var order = ImplicitTreap<ElementCount>()
        private(set) var rootRoot: Int32 = -1
        private(set) var childRoot: [Int32]

        /// The trees of rows whose stacks are `parents` (slot i's parent slot, -1 for the
        /// root); nil when a parent is not an earlier slot.
        init?(parents: [Int32]) {
            let n = parents.count
            for (i, p) in parents.enumerated() where p < -1 || Int(p) >= i { return nil }
            childRoot = [Int32](repeating: -1, count: n)
            order.makeNodes(n, .one)
            if parents.allSatisfy({ $0 == -1 }) {
                // Root rows only (a flat document): the root's tree is every slot in order,
                // without grouping the slots by stack first.
                if n > 0 { rootRoot = order.build(0..<Int32(truncatingIfNeeded: n)) }
                return
            }
            // start[p + 1] … start[p + 2]: the rows of stack p (-1 = root) in `grouped`.
            var start = [Int32](repeating: 0, count: n + 2)
            for p in parents { start[Int(p) + 2] += 1 }
            for i in 1..<start.count { start[i] += start[i - 1] }
            var grouped = [Int32](repeating: 0, count: n)
            var next = start
            for s in 0..<n {
                let b = Int(parents[s]) + 1
                grouped[Int(next[b])] = Int32(truncatingIfNeeded: s)
                next[b] += 1
            }
            next = []
            for b in 0...n where start[b + 1] > start[b] {
                let root = order.build(grouped[Int(start[b])..<Int(start[b + 1])])
                if b == 0 { rootRoot = root } else { childRoot[b - 1] = root }
            }
        }
    }

    /// Inserts a new row at `index` of stack `p` (-1 = root). Preconditions checked by Document.
    mutating func insert(_ id: RowID, _ config: RowConfig, parent p: Int32, at index: Int) {
        let s = allocate(id, config, parent: p, hash: DocumentIndexTable.hash(id))
        insertInOrder(s, parent: p, at: index)
    }

    /// Appends a new row to stack `p`; nil (nothing changed) when the id exists.
    mutating func append(_ id: RowID, _ config: RowConfig, parent p: Int32) -> Int32? {
        let h = DocumentIndexTable.hash(id)
        let exists = ids.withUnsafeBufferPointer { ids in table.find(hash: h) { ids[Int($0)] == id } }
        if exists != nil { return nil }
        let s = allocate(id, config, parent: p, hash: h)
        if p < 0 {
            order.append(s, root: &rootRoot)
        } else {
            order.append(s, root: &childRoot[Int(p)])
        }
        return s
    }

    /// Removes a live row without children.
    mutating func remove(_ s: Int32) {
        removeFromOrder(s)
        let i = Int(s)
        do {
            let ids = self.ids  // released before `self.ids` is written below (no copy)
            table.remove(s, hash: DocumentIndexTable.hash(ids[i]), hashOf: { DocumentIndexTable.hash(ids[Int($0)]) })
        }
        styles.release(style[i])
        self.ids[i] = ""
        parent[i] = -1
        flags[i] = 0
        style[i] = -1
        childRoot[i] = -1
        order.free(s)
    }

    /// Replaces a live row's config.
    mutating func update(_ s: Int32, _ config: RowConfig) {
        let i = Int(s)
        var f = Self.live
        if config.hidden { f |= Self.hidden }
        switch config.size {
        case .fit:
            f |= Self.fit
            if sizeValue[i] != 0 { sizeValue[i] = 0 }
        case .fixed(let v):
            sizeValue[i] = v
        }
        if flags[i] != f { flags[i] = f }
        if content[i] != config.content { content[i] = config.content }
        let new = RowStyle(config)
        if styles[style[i]] != new {
            let old = style[i]
            style[i] = styles.retain(new)
            styles.release(old)
        }
    }

    /// Moves a live row to `index` of stack `p` (index counted after it has left its place).
    mutating func move(_ s: Int32, to p: Int32, at index: Int) {
        removeFromOrder(s)
        parent[Int(s)] = p
        insertInOrder(s, parent: p, at: index)
    }

    private mutating func insertInOrder(_ s: Int32, parent p: Int32, at index: Int) {
        if p < 0 {
            order.insert(s, at: index, root: &rootRoot)
        } else {
            order.insert(s, at: index, root: &childRoot[Int(p)])
        }
    }

    private mutating func removeFromOrder(_ s: Int32) {
        let p = parent[Int(s)]
        if p < 0 {
            order.remove(s, root: &rootRoot)
        } else {
            order.remove(s, root: &childRoot[Int(p)])
        }
    }
}
