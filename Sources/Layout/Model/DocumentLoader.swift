import StackDocRuntime

/// Builds a `Document` from rows given column by column in document order (parents first, each
/// row at the end of its stack: a snapshot image's order), in bulk: the distinct styles are
/// interned once (`addStyle(_:)`), each row only takes a reference to its style, the rows are
/// checked in one pass, placed in their stacks in one pass, and the id index is filled in one
/// pass (`DocumentIndexTable.build`), instead of a lookup and an insert per row as
/// `Document.appendRow` does.
public struct DocumentLoader {
    private var document: Document
    private var records: [Int32] = []
    private var stackStyles: [Bool] = []

    /// Loads of fewer rows build everything on the calling thread (a helper costs more than
    /// it saves).
    static let helperRows = 16_384

    /// A loader for a document named `name` with `settings` and room for `rows` rows.
    public init(name: String, settings: DocumentSettings, rows: Int) {
        document = Document(name: name, settings: settings)
    }

    /// Adds style number `styleCount` (0, 1, …): the part of `config` that is not size,
    /// content or hidden. Returns false, adding nothing, when it breaks a document rule.
    public mutating func addStyle(_ config: RowConfig) -> Bool {
        guard Validation.isValid(config) else { return false }
        records.append(document.rows.retainStyle(config))
        stackStyles.append(config.stack != nil)
        return true
    }

    /// The styles added so far.
    public var styleCount: Int { records.count }

    /// Whether rows of style `style` (< `styleCount`) are stacks.
    public func isStack(style: Int) -> Bool { stackStyles[style] }

    /// The rows of a load, one column per value: row `i` is the `i`-th value of each.
    public struct Rows: Sendable {
        /// Flag bit: the row is hidden.
        public static let hidden: UInt8 = 1
        /// Flag bit: the row's size is `fit` (its `sizes` value is ignored).
        public static let fit: UInt8 = 2

        /// The rows' ids.
        public private(set) var ids: [RowID] = []
        /// The number of each row's stack among the rows (an earlier row that is a stack), or
        /// -1 for the document root.
        public private(set) var parents: [Int32] = []
        /// The N of each `fixed N` size.
        public private(set) var sizes: [Double] = []
        /// The rows' content sizes.
        public private(set) var contents: [Size] = []
        /// `hidden` and `fit` bits.
        public private(set) var flags: [UInt8] = []
        /// The number of each row's style (`addStyle(_:)`).
        public private(set) var styles: [Int32] = []

        /// No rows yet, room for `capacity`.
        public init(capacity: Int) {
            ids.reserveCapacity(capacity)
            parents.reserveCapacity(capacity)
            sizes.reserveCapacity(capacity)
            contents.reserveCapacity(capacity)
            flags.reserveCapacity(capacity)
            styles.reserveCapacity(capacity)
        }

        /// Number of rows.
        public var count: Int { ids.count }

        /// Adds a row (checked by `DocumentLoader.finish(_:)`, not here).
        @inline(__always)
        public mutating func append(_ id: RowID, parent: Int32, size: Double, content: Size, flags: UInt8, style: Int32) {
            ids.append(id)
            parents.append(parent)
            sizes.append(size)
            contents.append(content)
            self.flags.append(flags)
            styles.append(style)
        }
    }

    /// Why `finish(_:)` refused the rows.
    public enum Failure: Error, Sendable, Equatable {
        /// Row `index` (`id`) breaks a document rule: its id, a length out of range, an unknown
        /// style or flag, or a parent that is not an earlier stack row.
        case invalidRow(index: Int, id: RowID)
        /// Two rows have the id.
        case duplicateID(RowID)
    }

    /// The document holding `rows` (with their ids indexed), or the first problem. O(n).
    public mutating func finish(_ rows: Rows) -> Result<Document, Failure> {
        let n = rows.count
        // The stacks' order trees need only the parents: a large load builds them on a helper
        // thread while this one checks the rows, hashes their ids and indexes them.
        let parents = rows.parents
        let trees = BackgroundTask(n < Self.helperRows ? .callingThread : .pool) { DocumentRows.OrderTrees(parents: parents) }
        var hashes = [UInt32](repeating: 0, count: n)  // the 32 low bits, all the bulk build reads
        var flags = [UInt8](repeating: 0, count: n)
        var styleRecords = [Int32](repeating: 0, count: n)
        var sizes = rows.sizes
        var bad: Int?
        for i in 0..<n {
            let st = Int(rows.styles[i]), p = Int(rows.parents[i]), f = rows.flags[i], content = rows.contents[i]
            guard st >= 0, st < records.count, f & ~(Rows.hidden | Rows.fit) == 0,
                  p == -1 || (p >= 0 && p < i && stackStyles[Int(rows.styles[p])]),
                  Validation.isLength(content.width), Validation.isLength(content.height),
                  f & Rows.fit != 0 || Validation.isLength(sizes[i]) else { bad = i; break }
            var rowFlags = DocumentRows.live
            if f & Rows.hidden != 0 { rowFlags |= DocumentRows.hidden }
            if f & Rows.fit != 0 {
                rowFlags |= DocumentRows.fit
                sizes[i] = 0
            }
            var id = rows.ids[i]
            guard let h = id.withUTF8({ Validation.isValidRowID(utf8: $0) ? DocumentIndexTable.hash(ascii: $0) : nil }) else {
                bad = i
                break
            }
            hashes[i] = UInt32(truncatingIfNeeded: h)
            flags[i] = rowFlags
            styleRecords[i] = records[st]
        }
        // A parent that is not an earlier row gives no trees, and its row is `bad`.
        let built = trees.value
        let duplicate = bad == nil ? document.rows.load(ids: rows.ids, parent: rows.parents, sizeValue: sizes, content: rows.contents,
                                                        flags: flags, style: styleRecords, hashes: hashes, trees: built!) : nil
        // The loader's own references to the styles go before the document is handed out.
        for record in records { document.rows.releaseStyle(record) }
        records = []
        stackStyles = []
        if let bad { return .failure(.invalidRow(index: bad, id: rows.ids[bad])) }
        if let duplicate { return .failure(.duplicateID(document.rows.ids[Int(duplicate)])) }
        return .success(document)
    }
}
