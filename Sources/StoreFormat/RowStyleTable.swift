import Layout

/// The part of a config that snapshot images and binary change lists intern: everything but
/// size, content and hidden, which every row record carries itself.
package struct RowStyleKey: Hashable {
    package var config: RowConfig
    package init(_ c: RowConfig) {
        config = c
        config.size = .fit
        config.content = .zero
        config.hidden = false
    }
}

/// The styles of the rows written so far, numbered in order of first use (0 is the default
/// config's style), and the row record that refers to them: the one row coding a snapshot image
/// (`SnapshotImage.Encoder`) and a log entry's binary changes (`ChangeBlob`) share.
///
/// A row record is `flags:u8` (hidden 1, fit 2, content 4, style 8), then the fixed size (f64)
/// unless fit, the content (two f64) when flag 4 is set, and the style number (varint) when
/// flag 8 is set.
package struct RowStyleTable {
    private var numbers: [RowStyleKey: Int] = [RowStyleKey(RowConfig()): 0]
    /// The styles in the order of their numbers, the default first (style parts only).
    package private(set) var styles: [RowConfig] = [RowConfig()]
    /// The previous row's style and its number (rows in a run often share one: no hashing then,
    /// and nothing stored). Not optional, so that comparing with it copies nothing; the number
    /// is -1 until a first row.
    private var lastKey = RowStyleKey(RowConfig())
    private var lastStyle = -1

    /// A table holding only the default style (number 0).
    package init() {}

    /// The number of `config`'s style, numbering it when it is new; `checkNew` sees a new
    /// style's part of the config before it is numbered, and may refuse it by throwing.
    package mutating func number(of config: RowConfig, checkingNew checkNew: (RowConfig) throws -> Void) rethrows -> Int {
        if isLastStyle(of: config) { return lastStyle }
        let key = RowStyleKey(config)
        let style: Int
        if let known = numbers[key] {
            style = known
        } else {
            try checkNew(key.config)
            style = styles.count
            numbers[key] = style
            styles.append(key.config)
        }
        lastKey = key
        lastStyle = style
        return style
    }

    /// True when `config` is of the previous row's style, compared in place: no key made, and
    /// not mutating, so that the previous key is not copied first.
    private func isLastStyle(of config: RowConfig) -> Bool {
        lastStyle >= 0 && lastKey.config.hasSameStyle(as: config)
    }

    /// The number of `config`'s style, numbering it when it is new.
    package mutating func number(of config: RowConfig) -> Int {
        number(of: config, checkingNew: { _ in })
    }

    /// Writes `config`'s row record, referring to style number `style` (from `number(of:)`):
    /// `flags:u8 [size] [content: width height] [style:uv]`, flags bit 0 hidden, 1 fit (no size
    /// follows), 2 content follows (else zero), 3 style follows (else style 0), 4 (only with
    /// `wholeLengths`) the lengths that follow are varints, else each is an f64.
    /// - Parameter wholeLengths: Write the size and the content as varints when every one of
    ///   them that follows is a whole number (`wholeLength`) — snapshot images from format 2:
    ///   1–2 bytes instead of 8 for the common `fixed 40`.
    package static func writeRecord(_ config: RowConfig, style: Int, wholeLengths: Bool, to out: inout ByteWriter) {
        var flags: UInt8 = 0
        if config.hidden { flags |= 1 }
        var fixed: Double?
        if case let .fixed(n) = config.size { fixed = n } else { flags |= 2 }
        let content = config.content != .zero ? config.content : nil
        if content != nil { flags |= 4 }
        if style != 0 { flags |= 8 }
        /// True when `x` is absent or a whole length.
        func isWhole(_ x: Double?) -> Bool { x.map { wholeLength($0) != nil } ?? true }
        let whole = wholeLengths && (fixed != nil || content != nil)
            && isWhole(fixed) && isWhole(content?.width) && isWhole(content?.height)
        if whole { flags |= 16 }
        out.u8(flags)
        // (Each length was checked above: a whole one converts exactly.)
        func length(_ x: Double) {
            if whole { out.varint(UInt64(x)) } else { out.f64(x) }
        }
        if let fixed { length(fixed) }
        if let content {
            length(content.width)
            length(content.height)
        }
        if style != 0 { out.varint(UInt64(style)) }
    }

    /// `x` as an integer when a varint holds it bit for bit: a whole number in 0..<2⁵³, not −0.
    package static func wholeLength(_ x: Double) -> UInt64? {
        guard x >= 0, x < 9_007_199_254_740_992, x.rounded(.towardZero) == x, x.sign == .plus else { return nil }
        return UInt64(x)
    }
}
