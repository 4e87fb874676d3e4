/// The rarely varying part of a `RowConfig` (everything but size, content and hidden): most rows
/// of a document share a handful of these, so the document keeps each distinct one once. Kept as
/// a config with those three at their defaults (they live in the row's slots), so a new row field
/// is stored here without a line of its own.
struct RowStyle: Hashable, Sendable {
    /// The config with `size`, `content` and `hidden` at their defaults.
    private(set) var rest: RowConfig

    init(_ c: RowConfig) {
        rest = c
        rest.size = .fit
        rest.content = .zero
        rest.hidden = false
    }

    /// The stack settings (non-nil: the row is a stack).
    var stack: StackSettings? { rest.stack }

    static let placeholder = RowStyle(RowConfig())
}

/// Interned `RowStyle`s with reference counts: a record lives while some row uses it and is
/// freed (its number reused) when the last one lets go, so memory follows the distinct styles in
/// use, not the history. A one-entry memo makes runs of equal styles (a loader filling a stack)
/// cost one equality test each instead of a hash.
struct DocumentStylePool: Sendable {
    private(set) var records: [RowStyle] = []
    private var refs: [Int32] = []
    private var hashes: [Int] = []
    private var free: [Int32] = []
    private var table = DocumentIndexTable()
    private var memo: Int32 = -1
    /// The memo's `rest` (`setMemo`): compared as a stored property of the pool, in place (an
    /// element of `records` was copied, config and all, for each comparison).
    private var memoRest = RowConfig()

    /// Number of distinct styles in use.
    var liveCount: Int { table.count }

    /// True when a style in use scrolls on its own at a positive offset (`RowConfig.scrollOffset`;
    /// freed records are the placeholder, which does not scroll). O(records).
    var hasPositiveScrollOffset: Bool { records.contains { ($0.rest.scrollOffset ?? 0) > 0 } }

    @inline(__always)
    subscript(_ i: Int32) -> RowStyle { records[Int(i)] }

    /// The record number of the style of `config` (`RowStyle(config)`), adding it when new;
    /// takes one reference. A row of the memo's style costs a comparison in place, no copy.
    mutating func retain(styleOf config: RowConfig) -> Int32 {
        if memoIsStyle(of: config) {
            refs[Int(memo)] += 1
            return memo
        }
        return retain(RowStyle(config))
    }

    /// True when the memo is the style of `config`. Not mutating, so that the record is
    /// compared where it is (from a mutating method it was copied first).
    private func memoIsStyle(of config: RowConfig) -> Bool {
        memo >= 0 && refs[Int(memo)] > 0 && memoRest.hasSameStyle(as: config)
    }

    /// The record number of `style`, adding it when new; takes one reference.
    mutating func retain(_ style: RowStyle) -> Int32 {
        if memo >= 0, refs[Int(memo)] > 0, records[Int(memo)] == style {
            refs[Int(memo)] += 1
            return memo
        }
        let h = style.hashValue
        if let found = table.find(hash: h, { records[Int($0)] == style }) {
            refs[Int(found)] += 1
            setMemo(found)
            return found
        }
        let i: Int32
        if let reused = free.popLast() {
            i = reused
            records[Int(i)] = style
            refs[Int(i)] = 1
            hashes[Int(i)] = h
        } else {
            i = Int32(truncatingIfNeeded: records.count)
            records.append(style)
            refs.append(1)
            hashes.append(h)
        }
        let hs = hashes
        table.insert(i, hash: h, hashOf: { hs[Int($0)] })
        setMemo(i)
        return i
    }

    /// Makes record `i` the memo.
    private mutating func setMemo(_ i: Int32) {
        memo = i
        memoRest = records[Int(i)].rest
    }

    /// Takes `count` more references to record `i`.
    mutating func retain(_ i: Int32, count: Int32 = 1) { refs[Int(i)] += count }

    /// Drops one reference; the last one frees the record.
    mutating func release(_ i: Int32) {
        refs[Int(i)] -= 1
        guard refs[Int(i)] == 0 else { return }
        let hs = hashes
        table.remove(i, hash: hs[Int(i)], hashOf: { hs[Int($0)] })
        records[Int(i)] = .placeholder
        free.append(i)
        if memo == i { memo = -1 }
    }
}
