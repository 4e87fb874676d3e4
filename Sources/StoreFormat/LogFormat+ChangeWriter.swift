import Layout

/// Writes a log entry's `[Change]` (`forward`) straight to bytes: byte for byte the text of
/// `LogValue.array(changes.map(LogFormat.value))` — the spelling `LogFormat.value(_: Change)`
/// defines — without building a value tree (dictionaries of boxed values) per change. The tree
/// path cost ≈ 40 % of a 100k-row `clear` (building, sorting keys, writing, freeing), this one a
/// few percent. `ChangeCodingTests` compares the two on every case, random planner sessions and
/// edge values (non-finite numbers throw here as there).
///
/// Keys are written in the order the tree writer sorts them (bytewise): fixed per object, and
/// for a row config the format-1 keys merged with the optional fields' log keys
/// (`configMembers`, computed once from `RowField`).
package struct ChangeWriter {
    package private(set) var out: [UInt8] = []

    /// The compact JSON of `changes`, as `LogFormat.encode(_: [Change])` stores it.
    package static func text(_ changes: [Change]) throws -> String {
        var writer = ChangeWriter()
        writer.out.reserveCapacity(2 + changes.count * 96)
        writer.byte("[")
        for (i, change) in changes.enumerated() {
            if i > 0 { writer.byte(",") }
            try writer.write(change)
        }
        writer.byte("]")
        return String(decoding: writer.out, as: UTF8.self)
    }

    // MARK: Changes

    private mutating func write(_ change: Change) throws {
        var first = true
        switch change {
        case let .insertRow(id, config, parent, index), let .removeRow(id, config, parent, index):
            if case .insertRow = change { open("insertRow") } else { open("removeRow") }
            key("config", &first); try write(config)
            key("id", &first); string(id)
            key("index", &first); int(index)
            if let parent { key("parent", &first); string(parent) }
        case let .updateRow(id, old, new):
            open("updateRow")
            key("id", &first); string(id)
            key("new", &first); try write(new)
            key("old", &first); try write(old)
        case let .moveRow(id, fromParent, fromIndex, toParent, toIndex):
            open("moveRow")
            key("fromIndex", &first); int(fromIndex)
            if let fromParent { key("fromParent", &first); string(fromParent) }
            key("id", &first); string(id)
            key("toIndex", &first); int(toIndex)
            if let toParent { key("toParent", &first); string(toParent) }
        case .updateSettings:
            // Rare and small (one per settings edit): the tree writer's spelling as it is.
            try LogFormat.value(change).write(to: &out)
            return
        }
        close(first)
        byte("}")
    }

    /// `{"name":` — an enum case's object, whose fields follow.
    private mutating func open(_ name: StaticString) {
        byte("{")
        quotedKey(name)
    }

    // MARK: Row configs

    /// A member of a row config's object, in the sorted order of its keys.
    package enum ConfigMember {
        case alignSelf, content, grow, hidden, insets, margin, separator, shrink, size, stack, sticky, type
        case optional(RowField)
    }

    /// Every key a config object may have, sorted as the tree writer sorts them.
    package static let configMembers: [(key: [UInt8], member: ConfigMember)] = {
        let fixed: [(String, ConfigMember)] = [
            ("alignSelf", .alignSelf), ("content", .content), ("grow", .grow), ("hidden", .hidden), ("insets", .insets),
            ("margin", .margin), ("separator", .separator), ("shrink", .shrink), ("size", .size), ("stack", .stack),
            ("sticky", .sticky), ("type", .type),
        ]
        let all = fixed + RowField.optional.map { ($0.spec.log, ConfigMember.optional($0)) }
        return all.map { (Array($0.0.utf8), $0.1) }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    }()

    private mutating func write(_ c: RowConfig) throws {
        var first = true
        for (name, member) in Self.configMembers {
            switch member {
            case .alignSelf: key(name, &first); string(c.alignSelf.rawValue)
            case .content: key(name, &first); try write(c.content)
            case .grow: key(name, &first); try double(c.grow)
            case .hidden: key(name, &first); bool(c.hidden)
            case .insets: if let insets = c.insets { key(name, &first); try write(insets) }
            case .margin: key(name, &first); try write(c.margin)
            case .separator: key(name, &first); try write(c.separator)
            case .shrink: key(name, &first); try double(c.shrink)
            case .size:
                key(name, &first)
                switch c.size {
                case .fit: byte("{"); quotedKey("fit"); byte("{"); byte("}"); byte("}")
                case let .fixed(d): byte("{"); quotedKey("fixed"); byte("{"); quotedKey("_0"); try double(d); byte("}"); byte("}")
                }
            case .stack: if let s = c.stack { key(name, &first); try write(s) }
            case .sticky: if c.sticky { key(name, &first); bool(true) }
            case .type: key(name, &first); string(c.type)
            case let .optional(field):
                switch field.value(c) {
                case nil: break
                case let .number(n)?: key(name, &first); try double(n)
                case let .text(t)?: key(name, &first); string(t)
                }
            }
        }
        close(first)
    }

    private mutating func write(_ e: Edges) throws {
        byte("{"); quotedKey("bottom"); try double(e.bottom)
        byte(","); quotedKey("left"); try double(e.left)
        byte(","); quotedKey("right"); try double(e.right)
        byte(","); quotedKey("top"); try double(e.top)
        byte("}")
    }

    private mutating func write(_ s: Size) throws {
        byte("{"); quotedKey("height"); try double(s.height)
        byte(","); quotedKey("width"); try double(s.width)
        byte("}")
    }

    private mutating func write(_ s: SeparatorOverrides) throws {
        var first = true
        if let color = s.color { key("color", &first); string(color) }
        if let hidden = s.hidden { key("hidden", &first); bool(hidden) }
        if let insets = s.insets { key("insets", &first); try write(insets) }
        if let thickness = s.thickness { key("thickness", &first); try double(thickness) }
        close(first)
    }

    private mutating func write(_ s: StackSettings) throws {
        byte("{"); quotedKey("align"); string(s.align.rawValue)
        byte(","); quotedKey("axis"); string(s.axis.rawValue)
        byte(","); quotedKey("justify"); string(s.justify.rawValue)
        byte(","); quotedKey("spacing"); try double(s.spacing)
        byte("}")
    }

    // MARK: Scalars

    private mutating func byte(_ c: Unicode.Scalar) { out.append(UInt8(ascii: c)) }

    /// `"name":`
    private mutating func quotedKey(_ name: StaticString) {
        byte("\"")
        out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        byte("\"")
        byte(":")
    }

    /// The next member's key: `{` before the first, `,` before the others.
    private mutating func key(_ name: StaticString, _ first: inout Bool) {
        byte(first ? "{" : ",")
        first = false
        quotedKey(name)
    }

    private mutating func key(_ name: [UInt8], _ first: inout Bool) {
        byte(first ? "{" : ",")
        first = false
        byte("\"")
        out.append(contentsOf: name)
        byte("\"")
        byte(":")
    }

    /// Ends an object begun by `key` (`{}` when it has no member).
    private mutating func close(_ first: Bool) {
        if first { byte("{") }
        byte("}")
    }

    private mutating func string(_ s: String) { LogValue.writeString(s, to: &out) }

    private mutating func bool(_ b: Bool) { out.append(contentsOf: b ? Self.trueBytes : Self.falseBytes) }
    private static let trueBytes = Array("true".utf8), falseBytes = Array("false".utf8)

    private mutating func int(_ i: Int) {
        guard i > 0 else {
            if i == 0 { byte("0") } else { out.append(contentsOf: String(i).utf8) }
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = UInt(i), count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while n > 0 {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
                count += 1
            }
            out.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// A number as `LogValue.write` writes a `.double`: Swift's description without a final
    /// `.0`; integral values below 10^15 (all but a few) without formatting a description.
    private mutating func double(_ d: Double) throws {
        guard d.isFinite else { throw EncodingError.invalidValue(d, .init(codingPath: [], debugDescription: "non-finite number")) }
        if d == d.rounded(.towardZero), abs(d) < 1e15 {
            if d == 0 {
                if d.sign == .minus { byte("-") }
                byte("0")
            } else if d > 0 {
                int(Int(d))
            } else {
                byte("-")
                int(Int(-d))
            }
            return
        }
        var text = d.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        out.append(contentsOf: text.utf8)
    }
}
