/// The rarely varying part of a `RowConfig` (everything but size, content and hidden): most rows
/// of a document share a handful of these, so the document keeps each distinct one once.
struct RowStyle: Hashable, Sendable {
    var type: String
    var insets: Edges?
    var margin: Edges
    var grow: Double
    var shrink: Double
    var alignSelf: AlignSelf
    var separator: SeparatorOverrides
    var stack: StackSettings?
    var sticky: Bool
    var minMain: Double?
    var maxMain: Double?
    var minCross: Double?
    var maxCross: Double?
    var background: String?
    var highlight: String?
    var text: TextRun?
    var aspect: Size?

    init(_ c: RowConfig) {
        type = c.type
        insets = c.insets
        margin = c.margin
        grow = c.grow
        shrink = c.shrink
        alignSelf = c.alignSelf
        separator = c.separator
        stack = c.stack
        sticky = c.sticky
        minMain = c.minMain
        maxMain = c.maxMain
        minCross = c.minCross
        maxCross = c.maxCross
        background = c.background
        highlight = c.highlight
        text = c.text
        aspect = c.aspect
    }

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

    /// Number of distinct styles in use.
    var liveCount: Int { table.count }

    @inline(__always)
    subscript(_ i: Int32) -> RowStyle { records[Int(i)] }

    /// The record number of `style`, adding it when new; takes one reference.
    mutating func retain(_ style: RowStyle) -> Int32 {
        if memo >= 0, refs[Int(memo)] > 0, records[Int(memo)] == style {
            refs[Int(memo)] += 1
            return memo
        }
        let h = style.hashValue
        if let found = table.find(hash: h, { records[Int($0)] == style }) {
            refs[Int(found)] += 1
            memo = found
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
        memo = i
        return i
    }

    /// Takes one more reference to record `i`.
    mutating func retain(_ i: Int32) { refs[Int(i)] += 1 }

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
