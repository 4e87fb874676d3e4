// Import of `stackdoc/1` JSON (SPEC §5): strict validation with messages that name the path of
// the bad value (`rows[3].insets.top: must be ≥ 0, got -1`). Rules in docs/format.md.

extension Document {
    /// Reads a `stackdoc/1` document from JSON text. `name` (from `import PATH as NAME`)
    /// replaces the file's name. Throws the first problem (and how many more there are).
    /// - Parameters:
    ///   - text: The saved document (SPEC §5).
    ///   - name: A name to use instead of the file's (nil: the file's).
    /// - Throws: `StackDocError` with the first problem (`badValue`/`invalidName` at its JSON path)
    ///   and how many more there are.
    public init(json text: String, name: String? = nil) throws {
        try self.init(jsonBytes: Array(text.utf8), name: name)
    }

    /// Reads a `stackdoc/1` document from UTF-8 bytes; see `init(json:name:)`.
    /// - Parameters:
    ///   - bytes: The saved document as UTF-8.
    ///   - name: A name to use instead of the file's.
    /// - Throws: `StackDocError` with the first problem and how many more there are.
    public init(jsonBytes bytes: [UInt8], name: String? = nil) throws {
        self = try Document.read(jsonBytes: bytes, name: name, rows: { _ in true }).document
    }

    /// Reads a `stackdoc/1` document from UTF-8 bytes as `init(jsonBytes:name:)` does, handing
    /// its rows to `rows` while it reads (`importJSON(_:name:rows:)`, which says when the rows
    /// handed over are the document's).
    /// - Parameters:
    ///   - bytes: The saved document as UTF-8.
    ///   - name: A name to use instead of the file's.
    ///   - rows: Takes each batch of rows once checked; false stops the reading.
    /// - Throws: `StackDocError` with the first problem and how many more there are.
    public static func read(jsonBytes bytes: [UInt8], name: String? = nil, rows: ([ImportedRow]) -> Bool) throws
        -> (document: Document, rowsHandedOver: Bool) {
        let result = Document.importJSON(bytes, name: name, rows: rows)
        guard let document = result.document else {
            let first = result.problems.first ?? "invalid document"
            let more = result.problems.count - 1
            throw StackDocError(more > 0 ? "\(first) (and \(more) more problem\(more == 1 ? "" : "s"))" : first)
        }
        return (document, result.rowsHandedOver)
    }

    /// Reads a `stackdoc/1` document, collecting every problem (at most
    /// `DocumentImporter.maxProblems`): a document when there is none, else the messages in
    /// document order. A JSON syntax error is the only problem reported.
    /// - Parameters:
    ///   - bytes: The saved document as UTF-8.
    ///   - name: A name to use instead of the file's.
    public static func importJSON(_ bytes: [UInt8], name: String? = nil) -> (document: Document?, problems: [String]) {
        let result = importJSON(bytes, name: name, rows: { _ in true })
        return (result.document, result.problems)
    }

    /// Reads a `stackdoc/1` document as `importJSON(_:name:)` does, and hands its rows to `rows`
    /// while it reads, in batches, each row once it is checked and appended (document order: a
    /// stack row before its rows): the top-level rows are read one at a time as the parser
    /// finishes each, so the file never stands as one JSON tree, and a caller can store rows
    /// while the rest is read. The rows handed over are the document's only when the import
    /// succeeds and `rowsHandedOver` is true; it is false when the file's `defaults` came after
    /// its rows (the rows were read again with them: take the rows from the document).
    /// - Parameters:
    ///   - bytes: The saved document as UTF-8.
    ///   - name: A name to use instead of the file's.
    ///   - rows: Takes a batch of rows (id, parent, config); returning false stops the reading
    ///     (the result is then a problem `stopped`, and the caller knows why).
    public static func importJSON(_ bytes: [UInt8], name: String? = nil, rows: (_ batch: [ImportedRow]) -> Bool)
        -> (document: Document?, problems: [String], rowsHandedOver: Bool) {
        importJSON(bytes, name: name, scanningRows: true, rows: rows)
    }

    /// `importJSON(_:name:rows:)`; `scanningRows` false reads every row through a JSON tree
    /// (the reading `JSONRowScanner` must agree with, for its tests). `indexingAtEnd` false
    /// looks each row's id up as it is appended (`DocumentImporter.indexesAtEnd`), the reading
    /// that names a repeated id where it comes.
    static func importJSON(_ bytes: [UInt8], name: String? = nil, scanningRows: Bool, indexingAtEnd: Bool = true,
                           rows: (_ batch: [ImportedRow]) -> Bool)
        -> (document: Document?, problems: [String], rowsHandedOver: Bool) {
        if let problem = DocumentLimits.jsonSizeProblem(bytes.count) { return (nil, [problem], true) }
        // Not optional: every row goes through it, and a force-unwrapped optional's members are
        // reached through a copy of the whole reader.
        var topRows = TopRowReading(bytes: bytes.count, indexingAtEnd: indexingAtEnd)
        let root: JSONValue
        do {
            root = try bytes.withUnsafeBufferPointer { buffer in
                // (One call per row on `topRows`: each reach of a variable a closure captures is
                // checked for exclusive access at run time.)
                try JSONParser.parse(bytes, rows: { element, before in
                    try topRows.read(element, after: before, handingOver: rows)
                }, scanning: { at, before in
                    // The common row read straight from the bytes; any other is read as a tree.
                    guard scanningRows else { return nil }
                    return try topRows.scan(buffer, at: at, after: before, handingOver: rows)
                }).value
            }
        } catch is TopRowReading.Stop {
            return (nil, ["stopped"], true)
        } catch let error as StackDocError {
            return (nil, [error.message], true)
        } catch {
            return (nil, ["\(error)"], true)
        }
        var importer = DocumentImporter()
        var document = importer.read(root, name: name)
        var rowReader = topRows.takeReader()
        guard rowReader.keepsRows else {
            return importer.problems.isEmpty ? (document, [], true) : (nil, importer.problems, true)
        }
        if rowReader.document.settings.defaults != document.settings.defaults {
            // `defaults` came after the rows, which were read with the standard ones.
            let again = treeImport(bytes, name: name)
            return (again.document, again.problems, false)
        }
        guard rowReader.placeAndIndexRows() else {
            // Two rows have an id: read again, looking each id up as it comes, for the problems
            // in the order (and with the paths) of that reading.
            let again = importJSON(bytes, name: name, scanningRows: scanningRows, indexingAtEnd: false, rows: { _ in true })
            return (again.document, again.problems, false)
        }
        // The problems in the order of the one-tree reading: the document's, then its rows'.
        let problems = Array((importer.problems + rowReader.problems).prefix(DocumentImporter.maxProblems))
        guard problems.isEmpty else { return (nil, problems, true) }
        if !rowReader.pending.isEmpty {
            guard rows(rowReader.pending) else { return (nil, ["stopped"], true) }
        }
        rowReader.document.name = document.name
        rowReader.document.settings = document.settings
        document = rowReader.document
        return (document, [], true)
    }

    /// The reading of the whole file as one JSON tree (a file whose `defaults` follow its rows).
    static func treeImport(_ bytes: [UInt8], name: String?) -> (document: Document?, problems: [String]) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch let error as StackDocError {
            return (nil, [error.message])
        } catch {
            return (nil, ["\(error)"])
        }
        var importer = DocumentImporter()
        let document = importer.read(value, name: name)
        return importer.problems.isEmpty ? (document, []) : (nil, importer.problems)
    }
}

/// A row as the importer hands it over while it reads (`Document.importJSON(_:name:rows:)`):
/// its id, its stack (nil: the root) and its config, checked.
public struct ImportedRow: Sendable {
    /// The row's id.
    public var id: RowID
    /// Its stack row (nil: the root).
    public var parent: RowID?
    /// Its configuration.
    public var config: RowConfig

    /// Row `id` in stack `parent` (nil: the root) with `config`.
    public init(id: RowID, parent: RowID?, config: RowConfig) {
        self.id = id
        self.parent = parent
        self.config = config
    }
}

/// Turns a parsed JSON value into a `Document`, recording each problem with its path.
struct DocumentImporter {
    static let maxProblems = 100
    /// The keys of a row object: `id` and every field's (`RowField`), in order.
    static let rowKeys = (["id"] + RowField.allCases.map(\.spec.json)).joined(separator: ", ")

    /// Rows handed over per batch by `importJSON(_:name:rows:)`: few enough that a batch
    /// (≈ 460 bytes a row: the id, the parent and a 424-byte `RowConfig`) is still in the core's
    /// cache when the taker reads it (4,096 rows, ≈ 1.8 MB, were read back from memory: ≈ 0.1 s
    /// of a 1M-row import's reading).
    static let batch = 512

    private(set) var problems: [String] = []
    fileprivate(set) var document = Document(name: "")
    private var tooManyRows = false
    /// Rows appended and not yet handed over (only a row reader keeps them).
    fileprivate var pending: [ImportedRow] = []
    /// True for a reader of the top-level rows (`init(rowsAfter:capacity:indexingAtEnd:)`): it
    /// keeps the rows it reads to hand them over.
    private(set) var keepsRows = false
    private var topRows = 0
    /// Rows appended to `document`.
    private var rowsKept = 0
    /// True: rows are appended without looking their ids up (`DocumentRows.appendUnplaced`),
    /// and `placeAndIndexRows()` places and indexes them all at the end, where a repeated id is
    /// found — without saying where it came, nor leaving out the rows after it (and a repeated
    /// stack's rows) as the reading that looks each id up does. False: each id is looked up as
    /// its row comes, and a repeated one is a problem at its path.
    private var indexesAtEnd = false
    /// A row that `indexesAtEnd` cannot judge came (a stack's row whose stack is not a stack):
    /// the file is to be read again, looking each id up.
    private var readAgain = false

    init() {}

    /// A reader of the top-level rows one at a time (`readTopRow`), with the defaults of the
    /// document members read before them (`membersBefore`); `capacity` is the file's size.
    fileprivate init(rowsAfter membersBefore: [JSONMember], capacity bytes: Int, indexingAtEnd: Bool) {
        if let d = membersBefore.first(where: { $0.key == "defaults" }) {
            var scratch = DocumentImporter()
            document.settings.defaults = scratch.readDefaults(d.value, "defaults")
        }
        keepsRows = true
        indexesAtEnd = indexingAtEnd
        pending.reserveCapacity(DocumentImporter.batch)
        // Room for as many rows as the smallest row the file could hold (`{"id":"a"}`, 11 bytes).
        document.rows.reserve(rows: min(bytes / 11, DocumentLimits.maxRows), indexing: !indexingAtEnd)
    }

    /// After a reading that indexes at the end (`indexesAtEnd`): places and indexes the rows;
    /// false when two rows have an id, or a row came that only the reading that looks each id
    /// up can judge (`readAgain`): the document must then be dropped and the file read so.
    fileprivate mutating func placeAndIndexRows() -> Bool {
        guard indexesAtEnd else { return true }
        indexesAtEnd = false
        return !readAgain && document.rows.placeAndIndex() == nil
    }

    /// Reads the next element of the top-level `rows` array, as `readRows` reads each one.
    fileprivate mutating func readTopRow(_ element: JSONValue) {
        defer { topRows += 1 }
        if problems.count >= DocumentImporter.maxProblems || tooManyRows { return }
        readRow(element, "rows[\(topRows)]", parent: nil, depth: 1)
    }

    /// Takes the next element of the top-level `rows` array read already, without a problem
    /// (`JSONRowScanner`): row `id` with `config`, as `readTopRow(_:)` would have read it.
    fileprivate mutating func readTopRow(id: consuming RowID, config: consuming RowConfig) {
        defer { topRows += 1 }
        if problems.count >= DocumentImporter.maxProblems || tooManyRows { return }
        let index = topRows
        keep(consume id, consume config, "rows[\(index)]", parent: nil)
    }

    mutating func read(_ root: JSONValue, name override: String?) -> Document {
        guard case let .object(members) = root else {
            fail("document", "expected an object, got \(root.kindDescription)")
            return document
        }
        var settings = DocumentSettings()
        // Defaults first: partial edge objects of rows take their missing edges from them.
        if let d = members.first(where: { $0.key == "defaults" }) {
            settings.defaults = readDefaults(d.value, "defaults")
        }
        var format: JSONValue?
        var name: String?
        var rows: JSONValue?
        for m in members {
            func path() -> String { m.key }
            switch m.key {
            case "format": format = m.value
            case "name": name = string(m.value, path())
            case "axis": settings.axis = enumValue(m.value, path()) ?? settings.axis
            case "viewport": settings.viewport = size(m.value, path(), base: settings.viewport)
            case "offset":
                if case let .number(n) = m.value {
                    settings.offset = check { try Validation.nonNegative(n, "offset") } ?? 0
                } else {
                    fail("offset", "expected a number, got \(m.value.kindDescription)")
                }
            case "padding": settings.padding = edges(m.value, path(), base: .zero) ?? .zero
            case "spacing": settings.spacing = length(m.value, path()) ?? 0
            case "justify": settings.justify = enumValue(m.value, path()) ?? settings.justify
            case "align": settings.align = enumValue(m.value, path()) ?? settings.align
            case "viewportInsets": settings.viewportInsets = edges(m.value, path(), base: .zero) ?? .zero
            case "keyboard": settings.keyboard = length(m.value, path()) ?? 0
            case "safeArea": settings.safeArea = edges(m.value, path(), base: .zero) ?? .zero
            case "defaults": break
            case "rows": rows = m.value
            default: unknown("", m.key, "format, name, axis, viewport, viewportInsets, keyboard, safeArea, offset, padding, spacing, justify, align, defaults, rows")
            }
        }
        switch format {
        case nil:
            fail("format", "missing: a saved document has \"format\": \"\(Document.formatName)\"")
        case .string(Document.formatName)?:
            break
        case let .string(other)?:
            fail("format", "unknown format \(Validation.quoted(other)), expected \"\(Document.formatName)\"")
        case let other?:
            fail("format", "expected the string \"\(Document.formatName)\", got \(other.kindDescription)")
        }
        if let override {
            check { try Validation.checkDocumentName(override, "name") }
            if let name { check { try Validation.checkDocumentName(name, "name") } }
            name = override
        } else if let name {
            check { try Validation.checkDocumentName(name, "name") }
        } else {
            fail("name", "missing: a saved document has a name")
        }
        document.name = name ?? ""
        document.settings = settings
        if case let .array(elements)? = rows {
            document.reserveCapacity(rows: min(elements.count, DocumentLimits.maxRows), rootRows: elements.count)
        }
        if let rows { readRows(rows, "rows", parent: nil, depth: 1) }
        return document
    }

    // MARK: Rows

    /// A stack row, as its rows refer to it: its id and its slot in `document`.
    private typealias Parent = (id: RowID, slot: Int32)

    private mutating func readRows(_ value: JSONValue, _ path: String, parent: Parent?, depth: Int) {
        guard case let .array(elements) = value else {
            fail(path, "expected an array of rows, got \(value.kindDescription)")
            return
        }
        for (i, element) in elements.enumerated() {
            if problems.count >= DocumentImporter.maxProblems || tooManyRows { return }
            readRow(element, "\(path)[\(i)]", parent: parent, depth: depth)
        }
    }

    private mutating func readRow(_ value: JSONValue, _ path: String, parent: Parent?, depth: Int) {
        guard depth <= DocumentLimits.maxDepth else {
            fail(path, "rows nested deeper than \(DocumentLimits.maxDepth) levels")
            return
        }
        guard case let .object(members) = value else {
            fail(path, "expected a row object, got \(value.kindDescription)")
            return
        }
        var id: RowID?
        var config = RowConfig()
        var stackRows: JSONValue?
        let defaults = document.settings.defaults
        for m in members {
            func p() -> String { path + "." + m.key }
            switch m.key {
            case "id":
                guard let s = string(m.value, p()) else { break }
                if Validation.isValidRowID(s) || check({ try Validation.checkRowID(s, p()) }) != nil { id = s }
            case "type":
                guard let s = string(m.value, p()) else { break }
                if Validation.isValidTypeName(s) || check({ try Validation.checkTypeName(s, p()) }) != nil { config.type = s }
            case "size": config.size = rowSize(m.value, p())
            case "content": config.content = size(m.value, p(), base: .zero)
            case "insets":
                config.insets = m.value == .null ? nil : edges(m.value, p(), base: defaults.insets)
            case "margin": config.margin = edges(m.value, p(), base: .zero) ?? .zero
            case "grow": config.grow = length(m.value, p()) ?? 0
            case "shrink": config.shrink = length(m.value, p()) ?? 0
            case "alignSelf": config.alignSelf = enumValue(m.value, p()) ?? .auto
            case "hidden": config.hidden = bool(m.value, p()) ?? false
            case "sticky": config.sticky = bool(m.value, p()) ?? false
            case "separator": config.separator = separatorOverrides(m.value, p(), base: defaults.separator)
            case "stack":
                if m.value != .null {
                    config.stack = stackSettings(m.value, p(), rows: &stackRows)
                }
            default:
                // The optional fields (`RowField.optional`): absent or null is not set.
                guard let field = RowField.optional(json: m.key) else {
                    unknown(path + ".", m.key, DocumentImporter.rowKeys)
                    break
                }
                field.set(m.value == .null ? nil : optionalValue(field, m.value, p()), &config)
            }
        }
        guard let id else {
            if !members.contains(where: { $0.key == "id" }) { fail(path + ".id", "missing: every row needs an id") }
            return
        }
        // The rules over the row's fields together (text or aspect, not both; neither on a
        // stack): the one validator's, as the store checks every row it writes.
        if config.hasHeightForWidth, check({ try Validation.checkLeafOnly(config, path + ".") }) == nil { return }
        guard let slot = keep(id, config, path, parent: parent) else { return }
        if let stackRows { readRows(stackRows, path + ".stack.rows", parent: (id, slot), depth: depth + 1) }
    }

    /// Appends row `id` (read at `path`) to `parent`, and keeps it for handing over while there
    /// is no problem; returns its slot, nil (and a problem) when the document is full or has
    /// the id (found here only when not `indexesAtEnd`).
    @discardableResult
    private mutating func keep(_ id: consuming RowID, _ config: consuming RowConfig, _ path: @autoclosure () -> String,
                               parent: Parent?) -> Int32? {
        guard rowsKept < DocumentLimits.maxRows else {
            fail("rows", "a document holds at most \(DocumentLimits.maxRows) rows")
            tooManyRows = true
            return nil
        }
        // Rows are kept while the document is valid so far, which also finds duplicate ids
        // (one lookup: the append refuses an id the document has).
        let slot: Int32
        if indexesAtEnd {
            if let parent, !document.rows.isStack(parent.slot) {
                // Which problem this is depends on the ids before it: the reading that looks
                // each id up says (`placeAndIndexRows()` asks for it).
                readAgain = true
                return nil
            }
            slot = document.rows.appendUnplaced(id, config, parent: parent?.slot ?? -1)
        } else {
            do {
                slot = try document.appendRowGivingSlot(id, config: config, parent: parent?.id)
            } catch {
                if document.contains(id) {
                    fail(path() + ".id", "duplicate id \(Validation.quoted(id))")
                } else {
                    fail(path(), "\(error)")
                }
                return nil
            }
        }
        rowsKept += 1
        // (The row's own id and config, moved: a copy of the config was a tenth of the reading.)
        if keepsRows, problems.isEmpty {
            let row = ImportedRow(id: consume id, parent: parent?.id, config: consume config)
            pending.append(consume row)
        }
        return slot
    }

    /// The value of optional field `field` at `path`, checked by its rule; nil (and a problem)
    /// when it is of the wrong JSON type or out of the rule.
    private mutating func optionalValue(_ field: RowField, _ value: JSONValue, _ path: @autoclosure () -> String) -> RowField.Value? {
        let raw: RowField.Value
        switch field.kind {
        case .format1: return nil
        case .number:
            guard case let .number(n) = value else {
                fail(path(), "expected a number, got \(value.kindDescription)")
                return nil
            }
            raw = .number(n)
        case .text:
            guard let s = string(value, path()) else { return nil }
            raw = .text(s)
        }
        return check { try Validation.check(field, raw, path()) }
    }

    private mutating func stackSettings(_ value: JSONValue, _ path: @autoclosure () -> String, rows: inout JSONValue?) -> StackSettings? {
        guard case let .object(members) = value else {
            fail(path(), "expected null or a stack object, got \(value.kindDescription)")
            return nil
        }
        var stack = StackSettings()
        for m in members {
            func p() -> String { path() + "." + m.key }
            switch m.key {
            case "axis": stack.axis = enumValue(m.value, p()) ?? stack.axis
            case "justify": stack.justify = enumValue(m.value, p()) ?? stack.justify
            case "align": stack.align = enumValue(m.value, p()) ?? stack.align
            case "spacing": stack.spacing = length(m.value, p()) ?? 0
            case "rows": rows = m.value
            default: unknown(path() + ".", m.key, "axis, justify, align, spacing, rows")
            }
        }
        return stack
    }

    private mutating func rowSize(_ value: JSONValue, _ path: @autoclosure () -> String) -> RowSize {
        switch value {
        case .string("fit"):
            return .fit
        case let .object(members) where members.count == 1 && members[0].key == "fixed":
            return .fixed(length(members[0].value, path() + ".fixed") ?? 0)
        case let .object(members) where !members.isEmpty && members.allSatisfy({ $0.key != "fixed" }):
            unknown(path() + ".", members[0].key, "fixed")
        default:
            fail(path(), "expected \"fit\" or {\"fixed\": N}")
        }
        return .fit
    }

    // MARK: Defaults and separators

    fileprivate mutating func readDefaults(_ value: JSONValue, _ path: @autoclosure () -> String) -> DocumentDefaults {
        var defaults = DocumentDefaults()
        guard case let .object(members) = value else {
            fail(path(), "expected an object, got \(value.kindDescription)")
            return defaults
        }
        for m in members {
            func p() -> String { path() + "." + m.key }
            switch m.key {
            case "insets": defaults.insets = edges(m.value, p(), base: defaults.insets) ?? defaults.insets
            case "separator": defaults.separator = separatorStyle(m.value, p())
            case "autoHideLastSeparator": defaults.autoHideLastSeparator = bool(m.value, p()) ?? true
            default: unknown(path() + ".", m.key, "insets, separator, autoHideLastSeparator")
            }
        }
        return defaults
    }

    private mutating func separatorStyle(_ value: JSONValue, _ path: @autoclosure () -> String) -> SeparatorStyle {
        let overrides = separatorOverrides(value, path(), base: .standard, allowNull: false)
        return overrides.resolved(over: .standard)
    }

    private mutating func separatorOverrides(_ value: JSONValue, _ path: @autoclosure () -> String, base: SeparatorStyle,
                                             allowNull: Bool = true) -> SeparatorOverrides {
        var o = SeparatorOverrides()
        guard case let .object(members) = value else {
            fail(path(), "expected an object, got \(value.kindDescription)")
            return o
        }
        for m in members {
            func p() -> String { path() + "." + m.key }
            if allowNull, m.value == .null, ["hidden", "insets", "thickness", "color"].contains(m.key) { continue }
            switch m.key {
            case "hidden": o.hidden = bool(m.value, p())
            case "insets": o.insets = edges(m.value, p(), base: base.insets)
            case "thickness": o.thickness = length(m.value, p())
            case "color":
                if let s = string(m.value, p()) { o.color = check { try Validation.color(s, p()) } }
            default: unknown(path() + ".", m.key, "hidden, insets, thickness, color")
            }
        }
        return o
    }

    // MARK: Values

    private mutating func edges(_ value: JSONValue, _ path: @autoclosure () -> String, base: Edges) -> Edges? {
        guard case let .object(members) = value else {
            fail(path(), "expected an object {top, left, bottom, right}, got \(value.kindDescription)")
            return nil
        }
        var e = base
        for m in members {
            func p() -> String { path() + "." + m.key }
            switch m.key {
            case "top": e.top = length(m.value, p()) ?? 0
            case "left": e.left = length(m.value, p()) ?? 0
            case "bottom": e.bottom = length(m.value, p()) ?? 0
            case "right": e.right = length(m.value, p()) ?? 0
            default: unknown(path() + ".", m.key, "top, left, bottom, right")
            }
        }
        return e
    }

    private mutating func size(_ value: JSONValue, _ path: @autoclosure () -> String, base: Size) -> Size {
        guard case let .object(members) = value else {
            fail(path(), "expected an object {width, height}, got \(value.kindDescription)")
            return base
        }
        var s = base
        for m in members {
            func p() -> String { path() + "." + m.key }
            switch m.key {
            case "width": s.width = length(m.value, p()) ?? 0
            case "height": s.height = length(m.value, p()) ?? 0
            default: unknown(path() + ".", m.key, "width, height")
            }
        }
        return s
    }

    private mutating func length(_ value: JSONValue, _ path: @autoclosure () -> String) -> Double? {
        guard case let .number(n) = value else {
            fail(path(), "expected a number, got \(value.kindDescription)")
            return nil
        }
        if n >= 0, n <= DocumentLimits.maxLength { return n + 0 }  // the common case: no message to build
        return check { try Validation.length(n, path()) }
    }

    private mutating func bool(_ value: JSONValue, _ path: @autoclosure () -> String) -> Bool? {
        guard case let .bool(b) = value else {
            fail(path(), "expected true or false, got \(value.kindDescription)")
            return nil
        }
        return b
    }

    private mutating func string(_ value: JSONValue, _ path: @autoclosure () -> String) -> String? {
        guard case let .string(s) = value else {
            fail(path(), "expected a string, got \(value.kindDescription)")
            return nil
        }
        return s
    }

    private mutating func enumValue<T: RawRepresentable & CaseIterable>(_ value: JSONValue, _ path: @autoclosure () -> String) -> T?
    where T.RawValue == String {
        func choices() -> String { T.allCases.map(\.rawValue).joined(separator: ", ") }
        guard case let .string(s) = value else {
            fail(path(), "expected one of \(choices()), got \(value.kindDescription)")
            return nil
        }
        guard let v = T(rawValue: s) else {
            fail(path(), "expected one of \(choices()), got \(Validation.quoted(s))")
            return nil
        }
        return v
    }

    // MARK: Problems

    private mutating func fail(_ path: @autoclosure () -> String, _ message: @autoclosure () -> String) {
        if problems.count < DocumentImporter.maxProblems { problems.append("\(path()): \(message())") }
    }

    /// An unknown key: hostile keys are shown quoted and cut, like every echoed value.
    private mutating func unknown(_ prefix: @autoclosure () -> String, _ key: String, _ expected: String) {
        let simple = key.utf8.count <= 40 && key.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "'") }
        fail(prefix() + (simple ? key : Validation.quoted(key)), "unknown field (expected one of \(expected))")
    }


    /// Runs a validation that throws a message naming its path; records the message.
    @discardableResult
    private mutating func check<T>(_ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            if problems.count < DocumentImporter.maxProblems { problems.append("\(error)") }
            return nil
        }
    }
}

/// The reading of the top-level rows of a saved document by `Document.importJSON`: each row
/// read (from its JSON tree or straight from the bytes, `JSONRowScanner`) by the reader of the
/// rows, which is made at the first row with the members before them, and handed over in
/// batches (`DocumentImporter.batch`).
private struct TopRowReading {
    /// The batch's taker said stop.
    struct Stop: Error {}
    private let bytes: Int
    private let indexingAtEnd: Bool
    private var reader = DocumentImporter()

    init(bytes: Int, indexingAtEnd: Bool) {
        self.bytes = bytes
        self.indexingAtEnd = indexingAtEnd
    }

    /// Reads the next row from its tree.
    mutating func read(_ element: JSONValue, after before: [JSONMember], handingOver rows: ([ImportedRow]) -> Bool) throws {
        start(before)
        reader.readTopRow(element)
        try handOver(rows)
    }

    /// Reads the next row straight from the bytes: the position after it, nil when the scanner
    /// does not read it (then read it from its tree).
    mutating func scan(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int, after before: [JSONMember],
                       handingOver rows: ([ImportedRow]) -> Bool) throws -> Int? {
        // Read into fresh values and moved on: into the document and the batch handed over,
        // without a copy.
        var id: RowID = ""
        var config = RowConfig()
        guard let end = JSONRowScanner.scan(buffer, at: start, id: &id, config: &config) else { return nil }
        self.start(before)
        reader.readTopRow(id: consume id, config: consume config)
        try handOver(rows)
        return end
    }

    /// The reader of the rows, taken (so that it is not shared: its document's storage is
    /// changed next).
    mutating func takeReader() -> DocumentImporter {
        let taken = reader
        reader = DocumentImporter()
        return taken
    }

    private mutating func start(_ before: [JSONMember]) {
        guard !reader.keepsRows else { return }
        reader = DocumentImporter(rowsAfter: before, capacity: bytes, indexingAtEnd: indexingAtEnd)
    }

    private mutating func handOver(_ rows: ([ImportedRow]) -> Bool) throws {
        if reader.pending.count >= DocumentImporter.batch {
            guard rows(reader.pending) else { throw Stop() }
            reader.pending.removeAll(keepingCapacity: true)
        }
    }
}
