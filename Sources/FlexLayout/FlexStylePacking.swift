/// Packing of a `FlexStyle` into the storage columns, and the sanitising rules for values CSS
/// would reject at parse time (they fall back to the property's initial value, as in CSS):
/// non-finite numbers anywhere, negative sizes, bases, min sizes, paddings, gaps and flex
/// factors. Margins may be negative (as in CSS) but not non-finite.
enum FlexStylePacking {
    // Bit layout of the `flags` column.
    static let hiddenBit: UInt16 = 1 << 0
    static let columnBit: UInt16 = 1 << 1
    static let justifyShift: UInt16 = 2   // 3 bits
    static let alignItemsShift: UInt16 = 5 // 2 bits
    static let alignSelfShift: UInt16 = 7  // 3 bits

    static func flags(of style: FlexStyle) -> UInt16 {
        var f: UInt16 = 0
        if !style.display { f |= hiddenBit }
        if style.direction == .column { f |= columnBit }
        f |= UInt16(justifyCode(style.justifyContent)) << justifyShift
        f |= UInt16(alignItemsCode(style.alignItems)) << alignItemsShift
        f |= UInt16(alignSelfCode(style.alignSelf)) << alignSelfShift
        return f
    }

    @inline(__always) static func isHidden(_ f: UInt16) -> Bool { f & hiddenBit != 0 }
    @inline(__always) static func isColumn(_ f: UInt16) -> Bool { f & columnBit != 0 }
    @inline(__always) static func justify(_ f: UInt16) -> UInt8 { UInt8((f >> justifyShift) & 7) }
    @inline(__always) static func alignItems(_ f: UInt16) -> UInt8 { UInt8((f >> alignItemsShift) & 3) }
    @inline(__always) static func alignSelf(_ f: UInt16) -> UInt8 { UInt8((f >> alignSelfShift) & 7) }

    // Codes. Align codes: 0 flex-start, 1 flex-end, 2 center, 3 stretch; align-self adds 4 = auto.
    static let alignStart: UInt8 = 0, alignEnd: UInt8 = 1, alignCenter: UInt8 = 2, alignStretch: UInt8 = 3
    static let alignAuto: UInt8 = 4
    static let justifyStart: UInt8 = 0, justifyEnd: UInt8 = 1, justifyCenter: UInt8 = 2
    static let justifyBetween: UInt8 = 3, justifyAround: UInt8 = 4, justifyEvenly: UInt8 = 5

    static func justifyCode(_ j: JustifyContent) -> UInt8 {
        switch j {
        case .flexStart: justifyStart
        case .flexEnd: justifyEnd
        case .center: justifyCenter
        case .spaceBetween: justifyBetween
        case .spaceAround: justifyAround
        case .spaceEvenly: justifyEvenly
        }
    }

    static func alignItemsCode(_ a: AlignItems) -> UInt8 {
        switch a {
        case .flexStart: alignStart
        case .flexEnd: alignEnd
        case .center: alignCenter
        case .stretch: alignStretch
        }
    }

    static func alignSelfCode(_ a: AlignSelfValue) -> UInt8 {
        switch a {
        case .auto: alignAuto
        case .flexStart: alignStart
        case .flexEnd: alignEnd
        case .center: alignCenter
        case .stretch: alignStretch
        }
    }

    static func justifyValue(_ code: UInt8) -> JustifyContent {
        switch code {
        case justifyEnd: .flexEnd
        case justifyCenter: .center
        case justifyBetween: .spaceBetween
        case justifyAround: .spaceAround
        case justifyEvenly: .spaceEvenly
        default: .flexStart
        }
    }

    static func alignItemsValue(_ code: UInt8) -> AlignItems {
        switch code {
        case alignEnd: .flexEnd
        case alignCenter: .center
        case alignStretch: .stretch
        default: .flexStart
        }
    }

    static func alignSelfValue(_ code: UInt8) -> AlignSelfValue {
        switch code {
        case alignAuto: .auto
        case alignEnd: .flexEnd
        case alignCenter: .center
        case alignStretch: .stretch
        default: .flexStart
        }
    }

    /// A size-like dimension as stored: NaN for `auto` (and for invalid values).
    @inline(__always) static func length(_ d: Dimension) -> Double {
        switch d {
        case .auto: .nan
        case .points(let v): (v.isFinite && v >= 0) ? v : .nan
        }
    }

    @inline(__always) static func dimension(_ v: Double) -> Dimension {
        v.isNaN ? .auto : .points(v)
    }

    /// A non-negative finite number, else `fallback`.
    @inline(__always) static func nonNegative(_ v: Double, else fallback: Double) -> Double {
        (v.isFinite && v >= 0) ? v : fallback
    }

    /// The interned part of `style`: max sizes (`auto` and invalid values → `.infinity`, none)
    /// and the intrinsic content box (invalid lengths → 0).
    static func extras(of style: FlexStyle) -> FlexExtras {
        func maxLength(_ d: Dimension) -> Double {
            let v = length(d)
            return v.isNaN ? .infinity : v
        }
        var x = FlexExtras(maxWidth: maxLength(style.maxWidth), maxHeight: maxLength(style.maxHeight),
                           intrinsicWidth: nonNegative(style.intrinsicSize.width, else: 0),
                           intrinsicHeight: nonNegative(style.intrinsicSize.height, else: 0))
        // Invalid text runs and ratios are none (CSS: an invalid declaration is ignored).
        if let t = style.text, t.count >= 0, t.glyphWidth.isFinite, t.glyphWidth > 0,
           t.lineHeight.isFinite, t.lineHeight >= 0 {
            x.textCount = Double(t.count)
            x.glyphWidth = t.glyphWidth
            x.lineHeight = t.lineHeight
        }
        if let a = style.aspectRatio, a.width.isFinite, a.width > 0, a.height.isFinite, a.height > 0 {
            x.aspectWidth = a.width
            x.aspectHeight = a.height
        }
        return x
    }

    static func padding(_ e: Edges) -> Edges {
        Edges(top: nonNegative(e.top, else: 0), left: nonNegative(e.left, else: 0),
              bottom: nonNegative(e.bottom, else: 0), right: nonNegative(e.right, else: 0))
    }

    static func margin(_ e: Edges) -> Edges {
        func finite(_ v: Double) -> Double { v.isFinite ? v : 0 }
        return Edges(top: finite(e.top), left: finite(e.left), bottom: finite(e.bottom), right: finite(e.right))
    }
}

extension FlexStorage {
    /// Writes `style` (sanitised) into the columns of node `i`.
    @inline(__always) func store(_ style: FlexStyle, at i: Int) {
        let c = columns
        c.flags[i] = FlexStylePacking.flags(of: style)
        c.width[i] = FlexStylePacking.length(style.width)
        c.height[i] = FlexStylePacking.length(style.height)
        c.minWidth[i] = FlexStylePacking.length(style.minWidth)
        c.minHeight[i] = FlexStylePacking.length(style.minHeight)
        c.flexBasis[i] = FlexStylePacking.length(style.flexBasis)
        c.flexGrow[i] = FlexStylePacking.nonNegative(style.flexGrow, else: 0)
        c.flexShrink[i] = FlexStylePacking.nonNegative(style.flexShrink, else: 1)
        c.marginIndex[i] = internMargin(FlexStylePacking.margin(style.margin))
        c.paddingIndex[i] = internPadding(FlexStylePacking.padding(style.padding))
        c.rowGap[i] = FlexStylePacking.nonNegative(style.rowGap, else: 0)
        c.columnGap[i] = FlexStylePacking.nonNegative(style.columnGap, else: 0)
        let x = FlexStylePacking.extras(of: style)
        c.extrasIndex[i] = internExtras(x)
        if x.heightForWidth { usesHeightForWidth = true }
    }

    /// The (sanitised) style of node `i`.
    func style(at i: Int) -> FlexStyle {
        let c = columns
        var s = FlexStyle()
        let f = c.flags[i]
        s.display = !FlexStylePacking.isHidden(f)
        s.direction = FlexStylePacking.isColumn(f) ? .column : .row
        s.justifyContent = FlexStylePacking.justifyValue(FlexStylePacking.justify(f))
        s.alignItems = FlexStylePacking.alignItemsValue(FlexStylePacking.alignItems(f))
        s.alignSelf = FlexStylePacking.alignSelfValue(FlexStylePacking.alignSelf(f))
        s.width = FlexStylePacking.dimension(c.width[i])
        s.height = FlexStylePacking.dimension(c.height[i])
        s.minWidth = FlexStylePacking.dimension(c.minWidth[i])
        s.minHeight = FlexStylePacking.dimension(c.minHeight[i])
        s.flexBasis = FlexStylePacking.dimension(c.flexBasis[i])
        s.flexGrow = c.flexGrow[i]
        s.flexShrink = c.flexShrink[i]
        s.margin = edgesTable[Int(c.marginIndex[i])]
        s.padding = edgesTable[Int(c.paddingIndex[i])]
        s.rowGap = c.rowGap[i]
        s.columnGap = c.columnGap[i]
        let x = extras[c.extrasIndex[i]]
        s.maxWidth = x.maxWidth.isFinite ? .points(x.maxWidth) : .auto
        s.maxHeight = x.maxHeight.isFinite ? .points(x.maxHeight) : .auto
        s.intrinsicSize = Size(width: x.intrinsicWidth, height: x.intrinsicHeight)
        if x.hasText { s.text = FlexText(count: Int(x.textCount), glyphWidth: x.glyphWidth, lineHeight: x.lineHeight) }
        if x.hasAspect { s.aspectRatio = Size(width: x.aspectWidth, height: x.aspectHeight) }
        return s
    }
}
