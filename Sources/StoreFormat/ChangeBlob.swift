import Layout

/// The binary coding of a log entry's `[Change]` (`forward`) in log format 3 (issue 15 item 8,
/// schema 15): a BLOB instead of format 1's JSON text. A 100k-row `clear` logged 24.7 MB of
/// JSON (every removed row's whole config, keys spelled out), which the clear wrote and every
/// undo and redo of it read back; its blob is ≈ 2 MB, written and read in one pass each.
///
/// Byte layout, little endian (`ByteWriter`/`ByteReader`, the snapshot image's primitives):
///
/// ```
/// "SDCH" coding:u8                         magic and coding number (1)
/// styles:uv × style                        the distinct "rest of a config", as a snapshot image
///                                          writes them (`SnapshotImage.writeStyle`); style 0 is
///                                          `RowConfig()`'s and not written
/// changes:uv × change                      tag:u8 then its fields, below
/// checksum:u64                             `SnapshotImage.checksum` of every byte before it
/// ```
///
/// | tag | change | fields |
/// |---|---|---|
/// | 1 | insertRow | id:str parent:ostr index:iv config |
/// | 2 | removeRow | id:str parent:ostr index:iv config |
/// | 3 | updateRow | id:str old:config new:config |
/// | 4 | moveRow | id:str fromParent:ostr fromIndex:iv toParent:ostr toIndex:iv |
/// | 5 | any change (the store writes `updateSettings` so) | its format 1 JSON text as a str |
///
/// `ostr` is an optional string (varint 0 = nil, else length + 1 and the UTF-8 bytes), `iv` a
/// zigzag varint, and `config` is `flags:u8 [size:f64] [content:2×f64] [style:uv]` with the
/// flags of a snapshot row (bit 0 hidden, 1 fit, 2 content follows, 3 style follows). Every
/// Double is its bit pattern, so every value comes back bit for bit — but a negative zero in a
/// style or the content, which reads as zero (styles are told apart by `==`, as in a snapshot
/// image; the row table stores such a zero as zero too); non-finite numbers are refused, as the
/// JSON writer refuses them. Enum values are their raw text (in the styles).
package enum ChangeBlob {
    package static let magic: [UInt8] = Array("SDCH".utf8)
    /// The coding number this build writes and reads.
    package static let coding: UInt8 = 1

    private enum Tag {
        static let insert: UInt8 = 1, remove: UInt8 = 2, update: UInt8 = 3, move: UInt8 = 4, json: UInt8 = 5
    }

    /// The blob of an empty list (what a group's no-op `op` entries log; `commit` looks for it).
    package static let empty: [UInt8] = (try? encode([])) ?? []

    // MARK: Encoding

    /// The blob of `changes`.
    /// - Throws: `LogFormatError` for a non-finite number (as the JSON writer).
    package static func encode(_ changes: [Change]) throws -> [UInt8] {
        var encoder = Encoder(capacity: changes.count)
        for change in changes { try encoder.add(change) }
        return encoder.blob(count: changes.count)
    }

    private struct Encoder {
        var styleTable = RowStyleTable()
        var body: ByteWriter

        init(capacity: Int) { body = ByteWriter(capacity: 16 + capacity * 24) }

        mutating func add(_ change: Change) throws {
            switch change {
            case let .insertRow(id, config, parent, index), let .removeRow(id, config, parent, index):
                if case .insertRow = change { body.u8(Tag.insert) } else { body.u8(Tag.remove) }
                body.string(id)
                optional(parent)
                signed(index)
                try add(config)
            case let .updateRow(id, old, new):
                body.u8(Tag.update)
                body.string(id)
                try add(old)
                try add(new)
            case let .moveRow(id, fromParent, fromIndex, toParent, toIndex):
                body.u8(Tag.move)
                body.string(id)
                optional(fromParent)
                signed(fromIndex)
                optional(toParent)
                signed(toIndex)
            case .updateSettings:
                // Rare and small (one per settings edit): the JSON text of format 1.
                body.u8(Tag.json)
                body.string(try LogFormat.value(change).text())
            }
        }

        mutating func optional(_ s: String?) {
            guard var text = s else { return body.varint(0) }
            text.withUTF8 { utf8 in
                body.varint(UInt64(utf8.count) + 1)
                for b in utf8 { body.u8(b) }
            }
        }

        mutating func signed(_ v: Int) { body.varint(UInt64(bitPattern: Int64(v << 1 ^ v >> 63))) }

        mutating func add(_ config: RowConfig) throws {
            let style = try styleTable.number(of: config, checkingNew: ChangeBlob.checkFinite)
            if case let .fixed(n) = config.size, !n.isFinite { throw LogFormatError("size: \(n) is not a finite number") }
            guard config.content.width.isFinite, config.content.height.isFinite else {
                throw LogFormatError("content: not a finite size")
            }
            RowStyleTable.writeRecord(config, style: style, wholeLengths: false, to: &body)
        }

        func blob(count: Int) -> [UInt8] {
            var out = ByteWriter(capacity: 32 + (styleTable.styles.count - 1) * 64 + body.buffer.count)
            out.bytes(magic)
            out.u8(coding)
            out.varint(UInt64(styleTable.styles.count - 1))
            for config in styleTable.styles.dropFirst() { SnapshotImage.writeStyle(config, &out) }
            out.varint(UInt64(count))
            out.bytes(body.buffer)
            out.u64(SnapshotImage.checksum(out.buffer[...]))
            return out.buffer
        }
    }

    /// Refuses a style holding a non-finite number (the JSON writer cannot write one).
    private static func checkFinite(_ c: RowConfig) throws {
        var numbers = [c.margin.top, c.margin.left, c.margin.bottom, c.margin.right, c.grow, c.shrink]
        if let e = c.insets { numbers += [e.top, e.left, e.bottom, e.right] }
        if let e = c.separator.insets { numbers += [e.top, e.left, e.bottom, e.right] }
        if let t = c.separator.thickness { numbers.append(t) }
        if let s = c.stack { numbers.append(s.spacing) }
        for field in RowField.optional { if case let .number(n)? = field.value(c) { numbers.append(n) } }
        if let bad = numbers.first(where: { !$0.isFinite }) { throw LogFormatError("config: \(bad) is not a finite number") }
    }

    // MARK: Decoding

    /// The changes of `blob`; with `inverse`, the changes that take them back (`[Change].inverse`:
    /// each change's inverse, last first), made directly.
    /// - Throws: `LogFormatError` saying what is wrong (the caller names the entry).
    /// - Parameter splitMinimum: lists of at least this many changes are decoded in two halves
    ///   (tests lower it; the answer and any error are those of one pass).
    /// - Parameter halves: runs the two halves, at once if it has a thread for the first (the
    ///   store passes one that has); one after the other by default.
    package static func decode(_ blob: UnsafeRawBufferPointer, inverse: Bool = false, splitMinimum: Int = splitMinimum,
                               halves: any HalvesRunner = OneAfterTheOther()) throws -> [Change] {
        do {
            return try read(blob, inverse: inverse, splitMinimum: splitMinimum, halves: halves)
        } catch let damage as SnapshotImage.Damage {
            throw LogFormatError(damage.description)
        }
    }

    /// Blobs of at least this many changes are decoded in two halves at once, the first on a
    /// thread of its own (the store's `HalvesRunner`): the undo of a 100k-row `clear` decodes 100k boxed
    /// changes before anything else of it can start (≈ 60–100 ms on one thread).
    package static let splitMinimum = 16_384

    private static func read(_ blob: UnsafeRawBufferPointer, inverse: Bool, splitMinimum: Int, halves: any HalvesRunner) throws -> [Change] {
        guard blob.count >= magic.count + 1 + 8, blob.starts(with: magic) else { throw LogFormatError("not a list of changes in binary") }
        let coding = blob[magic.count]
        guard coding == self.coding else { throw LogFormatError("binary changes of coding \(coding), which this StackDoc does not read") }
        let stored = UInt64(littleEndian: blob.loadUnaligned(fromByteOffset: blob.count - 8, as: UInt64.self))
        let body = UnsafeRawBufferPointer(rebasing: blob[..<(blob.count - 8)])
        guard SnapshotImage.checksum(body) == stored else { throw LogFormatError("checksum mismatch") }
        var r = ByteReader(body)
        r.position = magic.count + 1
        let styleCount = try r.count(limit: r.remaining)
        var styles = [RowConfig()]
        styles.reserveCapacity(styleCount + 1)
        for _ in 0..<styleCount { styles.append(try SnapshotImage.readStyle(&r)) }
        let count = try r.count(limit: r.remaining)
        let changes = Changes(body: body, styles: styles, total: count, inverse: inverse)
        let begin = r.position
        // Where the second half starts (nil: one pass; a blob `skip` cannot cross is decoded in
        // one pass, which says what is wrong with it).
        let half = count >= max(2, splitMinimum) ? try? changes.skip(count / 2, from: begin) : nil
        return try [Change](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let slots = buffer.baseAddress else {
                guard r.remaining == 0 else { throw LogFormatError("\(r.remaining) bytes after the last change") }
                return
            }
            let end: Int
            if let half {
                let lent = LentSlots(slots: slots)
                let (first, second) = halves.both(
                    { Result { try changes.decode(count / 2, from: begin, first: 0, into: lent.slots) } },
                    { Result { try changes.decode(count - count / 2, from: half, first: count / 2, into: slots) } })
                switch (first, second) {
                case let (.success(firstEnd), .success(secondEnd)) where firstEnd == half:
                    end = secondEnd
                default:
                    // The first failure in the blob's order is the one a single pass meets.
                    if case .success = first { changes.empty(count / 2, first: 0, in: slots) }
                    if case .success = second { changes.empty(count - count / 2, first: count / 2, in: slots) }
                    if case let .failure(error) = first { throw error }
                    if case let .failure(error) = second { throw error }
                    throw LogFormatError("the changes end at byte \(try first.get()), not \(half)")
                }
            } else {
                end = try changes.decode(count, from: begin, first: 0, into: slots)
            }
            guard end == body.count else {
                changes.empty(count, first: 0, in: slots)
                throw LogFormatError("\(body.count - end) bytes after the last change")
            }
            initialized = count
        }
    }

    /// The answer's storage lent to the thread that decodes the first half.
    private struct LentSlots: @unchecked Sendable {
        let slots: UnsafeMutablePointer<Change>
    }

    /// The changes of a blob's body (its styles read), decoded from any change on: change `i`
    /// of `total` goes to slot `i`, or (`inverse`) its inverse to slot `total - 1 - i` — the
    /// inverse list is the changes taken back, last first.
    private struct Changes: @unchecked Sendable {
        let body: UnsafeRawBufferPointer
        let styles: [RowConfig]
        let total: Int
        let inverse: Bool

        func slot(_ i: Int) -> Int { inverse ? total - 1 - i : i }

        /// Deinitializes the slots of changes `first ..< first + n`.
        func empty(_ n: Int, first: Int, in slots: UnsafeMutablePointer<Change>) {
            guard n > 0 else { return }
            let low = min(slot(first), slot(first + n - 1))
            (slots + low).deinitialize(count: n)
        }

        /// Decodes `n` changes, numbers `first…`, starting at byte `from`, into their slots;
        /// returns the byte after them. On a failure the slots it filled are empty again.
        func decode(_ n: Int, from: Int, first: Int, into slots: UnsafeMutablePointer<Change>) throws -> Int {
            var r = ByteReader(body)
            r.position = from
            var done = 0
            do {
                while done < n {
                    (slots + slot(first + done)).initialize(to: try change(&r, number: first + done))
                    done += 1
                }
            } catch let damage as SnapshotImage.Damage {
                empty(done, first: first, in: slots)
                throw LogFormatError(damage.description)
            } catch {
                empty(done, first: first, in: slots)
                throw error
            }
            return r.position
        }

        /// Change number `number` (its inverse with `inverse`), read at `r`.
        private func change(_ r: inout ByteReader, number: Int) throws -> Change {
            let tag = try r.u8()
            switch tag {
            case Tag.insert, Tag.remove:
                let id = try r.string(), parent = try optional(&r), index = try signed(&r), c = try config(&r)
                return (tag == Tag.insert) != inverse ? .insertRow(id: id, config: c, parent: parent, index: index)
                    : .removeRow(id: id, config: c, parent: parent, index: index)
            case Tag.update:
                let id = try r.string(), old = try config(&r), new = try config(&r)
                return inverse ? .updateRow(id: id, old: new, new: old) : .updateRow(id: id, old: old, new: new)
            case Tag.move:
                let id = try r.string(), fromParent = try optional(&r), fromIndex = try signed(&r)
                let toParent = try optional(&r), toIndex = try signed(&r)
                return inverse ? .moveRow(id: id, fromParent: toParent, fromIndex: toIndex, toParent: fromParent, toIndex: fromIndex)
                    : .moveRow(id: id, fromParent: fromParent, fromIndex: fromIndex, toParent: toParent, toIndex: toIndex)
            case Tag.json:
                let text = try r.string()
                let one = try LogFormat.change(LogReader(try LogValue.parse(text), path: "change[\(number)]"))
                return inverse ? one.inverse : one
            default:
                throw LogFormatError("unknown change tag \(tag) (at byte \(r.position - 1))")
            }
        }

        /// The byte after the `n` changes that start at byte `from`, read as `decode` reads
        /// them but making none (a blob it cannot read fails here, and is decoded in one pass).
        func skip(_ n: Int, from: Int) throws -> Int {
            var r = ByteReader(body)
            r.position = from
            for _ in 0..<n {
                let tag = try r.u8()
                try skipString(&r)
                switch tag {
                case Tag.insert, Tag.remove:
                    try skipOptional(&r)
                    _ = try r.varint()
                    try skipConfig(&r)
                case Tag.update:
                    try skipConfig(&r)
                    try skipConfig(&r)
                case Tag.move:
                    try skipOptional(&r)
                    _ = try r.varint()
                    try skipOptional(&r)
                    _ = try r.varint()
                case Tag.json:
                    break
                default:
                    throw LogFormatError("unknown change tag \(tag)")
                }
            }
            return r.position
        }

        private func skipString(_ r: inout ByteReader) throws {
            r.position += try r.count(limit: r.remaining)
        }

        private func skipOptional(_ r: inout ByteReader) throws {
            let n = try r.count(limit: r.remaining + 1)
            if n > 0 { r.position += n - 1 }
        }

        private func skipConfig(_ r: inout ByteReader) throws {
            let flags = try r.u8()
            let bytes = (flags & 2 == 0 ? 8 : 0) + (flags & 4 != 0 ? 16 : 0)
            guard flags & ~15 == 0, bytes <= r.remaining else { throw LogFormatError("a config ends early") }
            r.position += bytes
            if flags & 8 != 0 { _ = try r.count(limit: styles.count - 1) }
        }

        private func config(_ r: inout ByteReader) throws -> RowConfig {
            let flags = try r.u8()
            guard flags & ~15 == 0 else { throw LogFormatError("unknown config flags \(flags) (at byte \(r.position))") }
            let size = flags & 2 != 0 ? RowSize.fit : .fixed(try r.f64())
            let content = flags & 4 != 0 ? Size(width: try r.f64(), height: try r.f64()) : .zero
            var c = styles[flags & 8 != 0 ? try r.count(limit: styles.count - 1) : 0]
            c.size = size
            c.content = content
            c.hidden = flags & 1 != 0
            return c
        }

        private func optional(_ r: inout ByteReader) throws -> String? {
            let n = try r.count(limit: r.remaining + 1)
            guard n > 0 else { return nil }
            defer { r.position += n - 1 }
            return String(decoding: UnsafeRawBufferPointer(rebasing: body[r.position..<(r.position + n - 1)]), as: UTF8.self)
        }

        private func signed(_ r: inout ByteReader) throws -> Int {
            let z = try r.varint()
            return Int(Int64(bitPattern: z >> 1 ^ (0 &- (z & 1))))
        }
    }
}

/// Runs the two halves of a long decoding (`ChangeBlob.decode`): StoreFormat starts no thread,
/// so the caller says how — the store runs `first` on a thread of its own while `second` runs on
/// the caller's.
package protocol HalvesRunner {
    /// The results of `first` and `second`, both finished.
    func both<T: Sendable>(_ first: @escaping @Sendable () -> T, _ second: () -> T) -> (T, T)
}

/// Runs the halves one after the other on the caller's thread.
package struct OneAfterTheOther: HalvesRunner {
    package init() {}
    package func both<T: Sendable>(_ first: @escaping @Sendable () -> T, _ second: () -> T) -> (T, T) { (first(), second()) }
}

