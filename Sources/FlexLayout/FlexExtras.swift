/// The rarely set part of a node's style, interned per storage (most nodes share `none`):
/// max sizes (`.infinity` = `none`), the intrinsic box a childless node's content box holds,
/// its text run (`textCount` < 0 = none) and its aspect ratio (0 = none).
struct FlexExtras: Hashable {
    var maxWidth: Double = .infinity
    var maxHeight: Double = .infinity
    var intrinsicWidth: Double = 0
    var intrinsicHeight: Double = 0
    var textCount: Double = -1
    var glyphWidth: Double = 0
    var lineHeight: Double = 0
    var aspectWidth: Double = 0
    var aspectHeight: Double = 0

    /// The node's height depends on its width (text or an aspect ratio).
    var heightForWidth: Bool { textCount >= 0 || aspectWidth > 0 }
    var hasText: Bool { textCount >= 0 }
    var hasAspect: Bool { aspectWidth > 0 }

    /// The text run's height at content width `width` (0 without text runs or glyphs).
    @inline(__always) func textHeight(atWidth width: Double) -> Double {
        FlexText.height(count: textCount, glyphWidth: glyphWidth, lineHeight: lineHeight, atWidth: width)
    }

    static let none = FlexExtras()
}

/// A table of distinct values, each stored once, addressed by a 4-byte index; values are never
/// removed. Backed by a raw buffer so layout passes read it without ARC or bounds checks.
/// A one-entry memo makes runs of equal values cost one equality test.
struct InternTable<Value: Hashable> {
    private(set) var base: UnsafeMutablePointer<Value>
    private(set) var count = 1
    private var capacity = 8
    private var lookup: [Value: UInt32]
    private var last: (Value, UInt32)

    init(first: Value) {
        base = .allocate(capacity: capacity)
        base.initialize(to: first)
        lookup = [first: 0]
        last = (first, 0)
    }

    @inline(__always) subscript(i: UInt32) -> Value { base[Int(i)] }

    /// The index of `value`, adding it when new.
    mutating func intern(_ value: Value) -> UInt32 {
        if value == last.0 { return last.1 }
        let index: UInt32
        if let known = lookup[value] {
            index = known
        } else {
            if count == capacity {
                let grown = UnsafeMutablePointer<Value>.allocate(capacity: capacity * 2)
                grown.moveInitialize(from: base, count: count)
                base.deallocate()
                base = grown
                capacity *= 2
            }
            precondition(count < Int(UInt32.max), "FlexTree: too many distinct values")
            index = UInt32(count)
            (base + count).initialize(to: value)
            count += 1
            lookup[value] = index
        }
        last = (value, index)
        return index
    }

    /// An independent copy (for copy-on-write of the storage).
    func copy() -> InternTable<Value> {
        var c = self
        c.base = .allocate(capacity: capacity)
        c.base.initialize(from: base, count: count)
        return c
    }

    func deallocate() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
