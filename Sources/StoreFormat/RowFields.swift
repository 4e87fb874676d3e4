import Layout

/// The coding of column `row.fields` (migrations/0016): every field of a row's config but its
/// size (column `size`), NULL when all of them are at their defaults (`RowConfig()`), which most
/// rows of a large document are. Byte layout, little endian (`ByteWriter`/`ByteReader`):
///
/// ```
/// flags:u8                 1 hidden, 2 content follows, 4 style follows; no other bit, not 0
/// [content:2×f64]          width, height (flag 2; else zero)
/// [style]                  `SnapshotImage.writeStyle`: type, insets, margin, grow, shrink,
///                          alignSelf, separator overrides, stack, sticky, the optional fields
///                          (flag 4; else the default config's)
/// ```
///
/// The style is the snapshot image's and the binary change list's (one coding of a row's style
/// in the store); Doubles are their IEEE bit patterns, so every value comes back bit for bit.
/// A blob with bytes after its last part, an unknown flag or no flag at all is damage.
package enum RowFields {
    package static let hidden: UInt8 = 1, content: UInt8 = 2, style: UInt8 = 4

    /// The style part of `config` (`SnapshotImage.writeStyle`), nil when it is the default
    /// config's. Rows of one style (`RowStyleKey`) share it: a bulk writer codes it once.
    package static func style(_ config: RowConfig) -> [UInt8]? {
        guard RowStyleKey(config) != RowStyleKey(RowConfig()) else { return nil }
        var out = ByteWriter(capacity: 64)
        SnapshotImage.writeStyle(config, &out)
        return out.buffer
    }

    /// Appends the blob of a config with `hidden`, `content` and style part `style` (from
    /// `style(_:)`) to `out`. Returns false, appending nothing, when the blob is NULL (every
    /// field at its default).
    @inline(__always)
    package static func append(hidden: Bool, content: Size, style: [UInt8]?, to out: inout [UInt8]) -> Bool {
        var flags: UInt8 = 0
        if hidden { flags |= Self.hidden }
        if content != .zero { flags |= Self.content }
        if style != nil { flags |= Self.style }
        guard flags != 0 else { return false }
        out.append(flags)
        if flags & Self.content != 0 {
            ByteWriter.append(f64: content.width, to: &out)
            ByteWriter.append(f64: content.height, to: &out)
        }
        if let style { out.append(contentsOf: style) }
        return true
    }

    /// The blob of `config`, nil when it is NULL.
    package static func encode(_ config: RowConfig) -> [UInt8]? {
        var out: [UInt8] = []
        return append(hidden: config.hidden, content: config.content, style: style(config), to: &out) ? out : nil
    }

    /// Why a `fields` blob was refused (the loader names the file, document and row).
    package struct Damage: Error, CustomStringConvertible {
        /// What is wrong with the blob.
        package let description: String

        package init(description: String) { self.description = description }
    }

    /// The config of a row whose `fields` are `bytes` (nil: NULL), with size `.fit` (the caller
    /// sets it from column `size`).
    /// - Throws: `Damage` naming the problem when the bytes are not one whole blob.
    @inline(__always)
    package static func decode(_ bytes: UnsafeRawBufferPointer?) throws -> RowConfig {
        guard let bytes else { return RowConfig() }
        do {
            var r = ByteReader(bytes)
            let flags = try r.u8()
            guard flags != 0, flags & ~(hidden | content | style) == 0 else {
                throw Damage(description: "flags \(flags)")
            }
            let size = flags & content != 0 ? Size(width: try r.f64(), height: try r.f64()) : .zero
            var c = flags & style != 0 ? try SnapshotImage.readStyle(&r) : RowConfig()
            c.hidden = flags & hidden != 0
            c.content = size
            guard r.remaining == 0 else { throw Damage(description: "\(r.remaining) bytes after its end") }
            return c
        } catch let damage as SnapshotImage.Damage {
            // The byte reader's words are an image's: here the bytes are a blob.
            throw Damage(description: damage.description.replacing("the image", with: "the blob"))
        }
    }

    /// `decode(_:)` of bytes in an array.
    package static func decode(_ bytes: [UInt8]?) throws -> RowConfig {
        guard let bytes else { return try decode(nil as UnsafeRawBufferPointer?) }
        return try bytes.withUnsafeBytes { try decode($0) }
    }
}
