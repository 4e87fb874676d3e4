import Layout

/// The binary image of a document that a snapshot stores (format 3): its settings and rows in
/// document order, compact and checksummed. Byte layout, little endian:
///
/// ```
/// "SDSNAP" format:u16                     magic and format number (3; 0020 converts 1 and 2)
/// uid:str version:uv seq:uv rows:uv       what the image is of: identity, version, last log entry
/// settings                                axis, viewport, offset, padding, spacing, justify, align,
///                                         defaults, viewport insets, keyboard, safe area
///                                         (format 3; formats 1 and 2 end at the keyboard)
/// styles:uv × style                       the distinct "rest of a config" (type, insets, margin,
///                                         grow, shrink, alignSelf, separator overrides, stack, sticky,
///                                         then the optional fields: `RowField.optional`)
/// rows × row                              id:str parent:uv flags:u8 [size] [content:2 lengths] [style:uv]
/// checksum:u64                            `SnapshotImage.checksum` of every byte before it
/// ```
///
/// `uv` is an unsigned LEB128 varint, `str` a varint length and UTF-8 bytes, `f64` the IEEE bit
/// pattern (so every Double comes back bit for bit). A row's `parent` is 0 for the root, else
/// the ordinal (1-based) of its stack among the stack rows in document order; `flags` bit 0 =
/// hidden, 1 = fit (no size follows), 2 = content follows (else zero), 3 = style follows (else
/// style 0), 4 = the lengths that follow (size, content) are `uv`s, each a whole number in
/// 0..<2⁵³, else each is an `f64` (format 1 has no bit 4: every length is an `f64`).
/// `RowStyleTable.writeRecord` writes a row's flags and lengths. Enum values are stored as their
/// raw text, so reordering a Swift enum cannot change an image's meaning. A flat million rows
/// with ids like `r123456` and `fixed` sizes of 20–200 take ≈ 11.6 B per row (≈ 18 B in
/// format 1).
public enum SnapshotImage {
    /// The format this binary writes.
    public static let format: UInt16 = 3
    /// The formats this binary reads on its running path: today's alone (migration 0020 converts
    /// every older image of a file to it).
    public static let readableFormats: ClosedRange<UInt16> = format...format
    /// The formats migration 0020 converts from (`decodeAnyFormat`): format 2 is format 3 without
    /// the safe area in the settings (StackDoc wrote it in schema 18), format 1 is format 2
    /// without flag bit 4 (whole lengths as varints; schemas up to 17).
    package static let upgradableFormats: ClosedRange<UInt16> = 1...format
    package static let magic: [UInt8] = Array("SDSNAP".utf8)

    /// What an image says about itself (checked against the `snapshot` row that holds it).
    public struct Header: Equatable, Sendable {
        /// The uid of the document the image is of.
        public var uid: String
        /// The document's version.
        public var version: Int
        /// The last log entry the image includes.
        public var seq: Int
        /// Rows in the image.
        public var rows: Int

        package init(uid: String, version: Int, seq: Int, rows: Int) {
            (self.uid, self.version, self.seq, self.rows) = (uid, version, seq, rows)
        }
    }

    /// Why an image was refused.
    public struct Damage: Error, CustomStringConvertible, Sendable {
        /// What is wrong with the image.
        public let description: String

        package init(description: String) { self.description = description }
    }

    // MARK: Encoding

    /// The image of `document` at `version` after log entry `seq` of the document `uid`.
    public static func encode(_ document: Document, uid: String, version: Int, seq: Int) -> [UInt8] {
        encodeRows(document).image(uid: uid, version: version, seq: seq, settings: document.settings)
    }

    /// The image of `document` in an older `format` (2: settings without the safe area), as an
    /// older StackDoc wrote it: what the tests of reading older images start from.
    package static func encode(_ document: Document, uid: String, version: Int, seq: Int, format: UInt16) -> [UInt8] {
        encodeRows(document).image(uid: uid, version: version, seq: seq, settings: document.settings, format: format)
    }

    /// The rows of `document` encoded (`Encoder`), ready for `image(uid:version:seq:settings:)`:
    /// the part of an image that costs O(rows), which a write can make on another thread
    /// (`StoredDocument.apply(_:keepingView:final:db:journal:)`).
    package static func encodeRows(_ document: Document) -> Encoder {
        var encoder = Encoder(capacity: document.rowCount)
        document.forEachRow { id, parent, _, config in encoder.add(id, parent: parent, config: config) }
        return encoder
    }

    /// Encodes rows as they come, in document order (a stack row before its rows, each stack's
    /// rows in order), then makes the image of them (`image(uid:version:seq:settings:)`): what
    /// `encode` does for a whole document, and what an import does while its file is read, so
    /// that the image is ready when the last row is.
    package struct Encoder {
        private var styleTable = RowStyleTable()
        private var rowsOut: ByteWriter
        private var stackOrdinal: [RowID: Int] = [:]
        /// Rows encoded.
        package private(set) var rows = 0
        /// False once a row came whose stack had not come before it (not in document order): it
        /// was left out, and the image is not the rows'.
        package private(set) var isInOrder = true

        /// An encoder with room for `rows` rows.
        package init(capacity rows: Int) {
            rowsOut = ByteWriter(capacity: rows * 20)
        }

        /// Encodes the next row in document order. Returns the number of its config's style
        /// (`RowStyleTable.number(of:)`), nil when the row was left out (`isInOrder`).
        @discardableResult
        package mutating func add(_ id: RowID, parent: RowID?, config: RowConfig) -> Int? {
            var parentOrdinal = 0
            if let parent {
                guard let ordinal = stackOrdinal[parent] else {
                    isInOrder = false
                    return nil
                }
                parentOrdinal = ordinal
            }
            rows += 1
            rowsOut.string(id)
            rowsOut.varint(UInt64(parentOrdinal))
            if config.stack != nil { stackOrdinal[id] = stackOrdinal.count + 1 }
            let style = styleTable.number(of: config)
            RowStyleTable.writeRecord(config, style: style, wholeLengths: true, to: &rowsOut)
            return style
        }

        /// The image of the rows encoded, with `settings`, at `version` after log entry `seq` of
        /// the document `uid`.
        package func image(uid: String, version: Int, seq: Int, settings: DocumentSettings,
                   format: UInt16 = SnapshotImage.format) -> [UInt8] {
            var out = ByteWriter(capacity: 256 + styleTable.styles.count * 64 + rowsOut.buffer.count)
            out.bytes(magic)
            out.u16(format)
            out.string(uid)
            out.varint(UInt64(version))
            out.varint(UInt64(seq))
            out.varint(UInt64(rows))
            writeSettings(settings, &out, format: format)
            out.varint(UInt64(styleTable.styles.count))
            for config in styleTable.styles { writeStyle(config, &out) }
            out.bytes(rowsOut.buffer)
            out.u64(checksum(out.buffer[...]))
            return out.buffer
        }
    }

    /// The header of an image (checks its magic, format and checksum first).
    /// - Parameter image: The bytes of a snapshot image.
    /// - Throws: `Damage` when the bytes are not an image of this format or fail the checksum.
    public static func header(_ image: [UInt8]) throws -> Header {
        try image.withUnsafeBytes { bytes in
            var (reader, _) = try checkedReader(bytes, formats: readableFormats)
            return try readHeader(&reader)
        }
    }

    // MARK: Decoding

    /// The document of an image, named `name`.
    /// - Parameters:
    ///   - image: The bytes of a snapshot image.
    ///   - name: The name the document gets (images do not keep it).
    /// - Throws: `Damage` when the bytes are not a whole image of this format (checksum, lengths,
    ///   values out of their ranges or outside the document rules).
    public static func decode(_ image: [UInt8], name: String) throws -> (header: Header, document: Document) {
        try image.withUnsafeBytes { try decode(bytes: $0, name: name) }
    }

    /// `decode(_:name:)` of an image in memory the caller owns (a blob SQLite holds), read in
    /// place: one pass over the rows into columns, then the bulk load (`DocumentLoader`).
    package static func decode(bytes image: UnsafeRawBufferPointer, name: String) throws -> (header: Header, document: Document) {
        try decode(bytes: image, name: name, formats: readableFormats)
    }

    /// `decode(_:name:)` of an image of any format an older StackDoc wrote
    /// (`upgradableFormats`): only migration 0020, which rewrites such images in today's
    /// format, reads them.
    package static func decodeAnyFormat(_ image: [UInt8], name: String) throws -> (header: Header, document: Document) {
        try image.withUnsafeBytes { try decode(bytes: $0, name: name, formats: upgradableFormats) }
    }

    /// The format number of an image (its magic checked, nothing else).
    package static func formatNumber(_ image: [UInt8]) -> UInt16? {
        guard image.count >= magic.count + 2, image[0..<magic.count].elementsEqual(magic) else { return nil }
        return UInt16(image[magic.count]) | UInt16(image[magic.count + 1]) << 8
    }

    private static func decode(bytes image: UnsafeRawBufferPointer, name: String,
                               formats: ClosedRange<UInt16>) throws -> (header: Header, document: Document) {
        var (r, format) = try checkedReader(image, formats: formats)
        let header = try readHeader(&r)
        let settings = try readSettings(&r, format: format)
        let knownFlags: UInt8 = format >= 2 ? 31 : 15
        do { try Validation.check(settings) } catch { throw Damage(description: "settings: \(error)") }
        let styleCount = try r.count(limit: header.rows + 1)
        // The bulk path: styles interned once, each row a reference to its style, the rows
        // checked, placed and indexed in one pass each at the end (`DocumentLoader`).
        var loader = DocumentLoader(name: name, settings: settings, rows: header.rows)
        for _ in 0..<styleCount {
            guard loader.addStyle(try readStyle(&r)) else { throw Damage(description: "a style holds a value outside the document rules") }
        }
        guard styleCount > 0 else { throw Damage(description: "no styles") }
        var rows = DocumentLoader.Rows(capacity: header.rows)
        // Row numbers of the stacks, in document order: a row's parent ordinal k is stacks[k - 1].
        var stacks: [Int32] = []
        for row in 0..<header.rows {
            let id = try r.string()
            let parentOrdinal = try r.count(limit: stacks.count)
            let flags = try r.u8()
            guard flags & ~knownFlags == 0 else { throw Damage(description: "row '\(id)': unknown flags \(flags)") }
            let whole = flags & 16 != 0
            let size = flags & 2 != 0 ? 0 : try r.length(whole: whole)
            let content = flags & 4 != 0 ? Size(width: try r.length(whole: whole), height: try r.length(whole: whole)) : .zero
            let style = flags & 8 != 0 ? try r.count(limit: styleCount - 1) : 0
            rows.append(id, parent: parentOrdinal == 0 ? -1 : stacks[parentOrdinal - 1], size: size, content: content,
                        flags: (flags & 1 != 0 ? DocumentLoader.Rows.hidden : 0) | (flags & 2 != 0 ? DocumentLoader.Rows.fit : 0),
                        style: Int32(style))
            if loader.isStack(style: style) { stacks.append(Int32(row)) }
        }
        guard r.remaining == 8 else { throw Damage(description: "\(r.remaining - 8) bytes after the last row") }
        switch loader.finish(rows) {
        case let .success(document):
            return (header, document)
        case let .failure(.invalidRow(_, id)):
            throw Damage(description: "row '\(id)' holds a value outside the document rules")
        case let .failure(.duplicateID(id)):
            throw Damage(description: "row '\(id)': \(StackDocError(.rowExists(id)))")
        }
    }

    /// A 64-bit checksum of `bytes` (8 bytes at a time; not cryptographic: it detects damage).
    public static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes(checksum)
    }

    /// `checksum(_:)` of bytes in memory.
    package static func checksum(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count)
        let words = raw.count / 8
        for i in 0..<words {
            let w = raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
            h = rotl(h ^ (w &* 0xC2B2_AE3D_27D4_EB4F)) &* 0x9E37_79B9_7F4A_7C15
        }
        var tail: UInt64 = 0
        for i in (words * 8)..<raw.count { tail = tail << 8 | UInt64(raw[i]) }
        h = rotl(h ^ (tail &* 0xC2B2_AE3D_27D4_EB4F)) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        return h ^ (h >> 33)
    }

    @inline(__always) private static func rotl(_ x: UInt64) -> UInt64 { x << 31 | x >> 33 }

    /// A reader after the image's format number, and the number.
    private static func checkedReader(_ image: UnsafeRawBufferPointer, formats: ClosedRange<UInt16>) throws -> (ByteReader, format: UInt16) {
        guard image.count >= magic.count + 2 + 8, image[0..<magic.count].elementsEqual(magic) else {
            throw Damage(description: "not a snapshot image")
        }
        var r = ByteReader(image)
        r.position = magic.count
        let format = try r.u16()
        guard formats.contains(format) else {
            let reads = formats.count == 1 ? "\(formats.lowerBound)" : "\(formats.lowerBound)–\(formats.upperBound)"
            throw Damage(description: "image format \(format), this StackDoc reads \(reads)")
        }
        let stored = image.loadUnaligned(fromByteOffset: image.count - 8, as: UInt64.self)
        guard UInt64(littleEndian: stored) == checksum(UnsafeRawBufferPointer(rebasing: image[0..<(image.count - 8)])) else {
            throw Damage(description: "checksum mismatch")
        }
        return (r, format)
    }

    private static func readHeader(_ r: inout ByteReader) throws -> Header {
        let uid = try r.string()
        let version = try r.count(limit: Int(Int64.max))
        let seq = try r.count(limit: Int(Int64.max))
        let rows = try r.count(limit: DocumentLimits.maxRows)
        return Header(uid: uid, version: version, seq: seq, rows: rows)
    }

    // MARK: Settings and styles

    private static func writeSettings(_ s: DocumentSettings, _ out: inout ByteWriter, format: UInt16) {
        out.string(s.axis.rawValue)
        out.f64(s.viewport.width); out.f64(s.viewport.height)
        out.f64(s.offset)
        out.edges(s.padding)
        out.f64(s.spacing)
        out.string(s.justify.rawValue)
        out.string(s.align.rawValue)
        out.edges(s.defaults.insets)
        out.u8(s.defaults.separator.hidden ? 1 : 0)
        out.edges(s.defaults.separator.insets)
        out.f64(s.defaults.separator.thickness)
        out.string(s.defaults.separator.color)
        out.u8(s.defaults.autoHideLastSeparator ? 1 : 0)
        out.edges(s.viewportInsets)
        out.f64(s.keyboard)
        if format >= 3 { out.edges(s.safeArea) }
    }

    private static func readSettings(_ r: inout ByteReader, format: UInt16) throws -> DocumentSettings {
        var s = DocumentSettings()
        s.axis = try r.value(Axis.self)
        s.viewport = Size(width: try r.f64(), height: try r.f64())
        s.offset = try r.f64()
        s.padding = try r.edges()
        s.spacing = try r.f64()
        s.justify = try r.value(Justify.self)
        s.align = try r.value(Align.self)
        s.defaults.insets = try r.edges()
        s.defaults.separator.hidden = try r.flag()
        s.defaults.separator.insets = try r.edges()
        s.defaults.separator.thickness = try r.f64()
        s.defaults.separator.color = try r.string()
        s.defaults.autoHideLastSeparator = try r.flag()
        s.viewportInsets = try r.edges()
        s.keyboard = try r.f64()
        if format >= 3 { s.safeArea = try r.edges() }
        return s
    }

    /// Presence bits of a style: which optional parts follow.
    private enum StyleBit {
        static let insets: UInt8 = 1, sepHidden: UInt8 = 2, sepInsets: UInt8 = 4, sepThickness: UInt8 = 8
        static let sepColor: UInt8 = 16, stack: UInt8 = 32, sticky: UInt8 = 64
        /// The presence bits of the optional fields follow, as a varint: bit k says that
        /// `RowField.optional[k]` is set (and its value follows). Issue 14's six fields take
        /// bits 0–5, so their images are what the one byte of format 1 held.
        static let extras: UInt8 = 128
    }

    /// Every presence bit of an optional field.
    private static let allExtras: UInt64 = (1 << UInt64(RowField.optional.count)) - 1

    /// Writes the style part of `c` (what `RowStyleKey` keeps, in `RowStyleTable.swift`); a log entry's binary changes
    /// (`ChangeBlob`) write their styles so too.
    package static func writeStyle(_ c: RowConfig, _ out: inout ByteWriter) {
        var bits: UInt8 = 0
        if c.insets != nil { bits |= StyleBit.insets }
        if c.separator.hidden != nil { bits |= StyleBit.sepHidden }
        if c.separator.insets != nil { bits |= StyleBit.sepInsets }
        if c.separator.thickness != nil { bits |= StyleBit.sepThickness }
        if c.separator.color != nil { bits |= StyleBit.sepColor }
        if c.stack != nil { bits |= StyleBit.stack }
        if c.sticky { bits |= StyleBit.sticky }
        var extras: UInt64 = 0
        for (k, field) in RowField.optional.enumerated() where field.isSet(c) { extras |= 1 << UInt64(k) }
        if extras != 0 { bits |= StyleBit.extras }
        out.u8(bits)
        if extras != 0 { out.varint(extras) }
        out.string(c.type)
        if let insets = c.insets { out.edges(insets) }
        out.edges(c.margin)
        out.f64(c.grow)
        out.f64(c.shrink)
        out.string(c.alignSelf.rawValue)
        if let hidden = c.separator.hidden { out.u8(hidden ? 1 : 0) }
        if let insets = c.separator.insets { out.edges(insets) }
        if let thickness = c.separator.thickness { out.f64(thickness) }
        if let color = c.separator.color { out.string(color) }
        if let stack = c.stack {
            out.string(stack.axis.rawValue)
            out.string(stack.justify.rawValue)
            out.string(stack.align.rawValue)
            out.f64(stack.spacing)
        }
        for field in RowField.optional {
            switch field.value(c) {
            case let .number(n)?: out.f64(n)
            case let .text(t)?: out.string(t)
            case nil: break
            }
        }
    }

    /// Reads what `writeStyle` wrote.
    package static func readStyle(_ r: inout ByteReader) throws -> RowConfig {
        let bits = try r.u8()
        let extras = bits & StyleBit.extras != 0 ? try r.varint() : 0
        guard extras & ~allExtras == 0 else { throw Damage(description: "unknown style bits \(extras)") }
        var c = RowConfig()
        c.type = try r.string()
        if bits & StyleBit.insets != 0 { c.insets = try r.edges() }
        c.margin = try r.edges()
        c.grow = try r.f64()
        c.shrink = try r.f64()
        c.alignSelf = try r.value(AlignSelf.self)
        if bits & StyleBit.sepHidden != 0 { c.separator.hidden = try r.flag() }
        if bits & StyleBit.sepInsets != 0 { c.separator.insets = try r.edges() }
        if bits & StyleBit.sepThickness != 0 { c.separator.thickness = try r.f64() }
        if bits & StyleBit.sepColor != 0 { c.separator.color = try r.string() }
        if bits & StyleBit.stack != 0 {
            c.stack = StackSettings(axis: try r.value(Axis.self), justify: try r.value(Justify.self),
                                    align: try r.value(Align.self), spacing: try r.f64())
        }
        c.sticky = bits & StyleBit.sticky != 0
        for (k, field) in RowField.optional.enumerated() where extras & (1 << UInt64(k)) != 0 {
            switch field.kind {
            case .number: field.setNumber(try r.f64(), &c)
            case .text: field.setText(try r.string(), &c)
            case .format1: break
            }
        }
        return c
    }
}
