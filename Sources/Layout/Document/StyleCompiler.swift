/// Builds the engine style of the root stack and of each row (SPEC §2.3).
enum StyleCompiler {
    /// The root: a flex container along the document's axis whose cross size is the viewport's
    /// and whose main size is auto with a minimum of the viewport's main size.
    static func root(_ s: DocumentSettings) -> FlexStyle {
        var style = FlexStyle()
        style.direction = s.axis.flexDirection
        style.justifyContent = s.justify.flex
        style.alignItems = s.align.flex
        style.padding = s.layoutPadding
        style.rowGap = s.layoutSpacing
        style.columnGap = s.layoutSpacing
        switch s.axis {
        case .vertical:
            style.width = .points(s.viewport.width)
            style.minHeight = .points(s.viewport.height)
        case .horizontal:
            style.height = .points(s.viewport.height)
            style.minWidth = .points(s.viewport.width)
        }
        return style
    }

    /// A row in a stack whose axis is `parentAxis` and whose `align` is `parentAlign`, with
    /// effective insets `insets` (already in layout units). "Main" is the parent's main axis.
    /// A leaf's `content W H` is an intrinsic W×H box in its content box.
    /// Every length is snapped to layout units (`LayoutUnit`).
    static func row(_ config: RowConfig, insets: Edges, parentAxis: Axis, parentAlign: Align) -> FlexStyle {
        if config.hidden { return hidden }
        return row(shared(config, insets: insets, parentAxis: parentAxis, parentAlign: parentAlign),
                   size: config.size, content: config.content)
    }

    /// The style of a hidden row (`display: none`).
    static let hidden: FlexStyle = {
        var style = FlexStyle()
        style.display = false
        return style
    }()

    /// The part of a shown row's style that its size and content do not change: rows that share
    /// a style record (`RowStyle`) and a parent axis and align share it (the compile walk
    /// computes it once per such pair).
    struct Shared {
        var style: FlexStyle
        var isStack: Bool
        /// A `fit` leaf with text or an aspect ratio: its main size is `auto`.
        var autoMain: Bool
        /// A leaf's cross size is its content's (not stretched, no text).
        var contentCross: Bool
        var parentAxis: Axis
        var mainInsets: Double
        var crossInsets: Double
    }

    /// The shared part of `row(_:insets:parentAxis:parentAlign:)` (`config`'s size, content and
    /// hidden flag are not read).
    static func shared(_ config: RowConfig, insets: Edges, parentAxis: Axis, parentAlign: Align) -> Shared {
        var style = FlexStyle()
        style.padding = insets
        style.margin = config.layoutMargin
        style.flexGrow = config.grow
        style.flexShrink = config.shrink
        style.alignSelf = config.alignSelf.flex
        if config.hasSizeLimits { limits(config, parentAxis, &style) }
        let crossAxis: Axis = parentAxis == .vertical ? .horizontal : .vertical
        var shared = Shared(style: style, isStack: config.stack != nil, autoMain: config.hasHeightForWidth,
                            contentCross: config.alignSelf.resolved(in: parentAlign) != .stretch && config.text == nil,
                            parentAxis: parentAxis, mainInsets: insets.sum(along: parentAxis),
                            crossInsets: insets.sum(along: crossAxis))
        if let stack = config.stack {
            // A scroll container's automatic minimum size is 0 (CSS Flexbox §4.5): a stack that
            // scrolls on its own (`scrolls`, SPEC §2.8) may shrink below its content.
            if config.scrollOffset != nil && config.minMain == nil {
                if parentAxis == .vertical { shared.style.minHeight = .points(0) } else { shared.style.minWidth = .points(0) }
            }
            shared.style.direction = stack.axis.flexDirection
            shared.style.justifyContent = stack.justify.flex
            shared.style.alignItems = stack.align.flex
            shared.style.rowGap = LayoutUnit.snap(stack.spacing)
            shared.style.columnGap = LayoutUnit.snap(stack.spacing)
            return shared
        }
        if let t = config.text {
            shared.style.text = FlexText(count: t.count, glyphWidth: LayoutUnit.snap(t.glyphWidth),
                                         lineHeight: LayoutUnit.snap(t.lineHeight))
        }
        shared.style.aspectRatio = config.aspect
        return shared
    }

    /// A shown row's style: `shared` with the row's `size` and `content`.
    @inline(__always)
    static func row(_ shared: Shared, size: RowSize, content: Size) -> FlexStyle {
        var style = shared.style
        let parentAxis = shared.parentAxis
        if shared.isStack {
            if case .fixed(let n) = size {
                setMain(&style, parentAxis, .points(LayoutUnit.snap(n) + shared.mainInsets))
            }
            return style
        }
        let contentMain: Double?
        switch size {
        case .fit:
            // A fit text or aspect row has an auto main size: its text or ratio decides it.
            contentMain = shared.autoMain ? nil : parentAxis == .vertical ? content.height : content.width
        case .fixed(let n): contentMain = n
        }
        if let contentMain { setMain(&style, parentAxis, .points(LayoutUnit.snap(contentMain) + shared.mainInsets)) }
        // The content is an intrinsic box in the content box (issue 14): a stretched leaf makes
        // an auto-sized container at least as large as its content, and the automatic minimum
        // size follows it (a `fit` leaf never shrinks below its content).
        style.intrinsicSize = Size(width: LayoutUnit.snap(content.width), height: LayoutUnit.snap(content.height))
        if shared.contentCross {
            let contentCross = parentAxis == .vertical ? content.width : content.height
            setCross(&style, parentAxis, .points(LayoutUnit.snap(contentCross) + shared.crossInsets))
        }
        return style
    }

    /// `min`/`max` and `min-cross`/`max-cross` (issue 14): CSS min-/max- sizes of the border box
    /// along the parent's main and cross axes, in layout units.
    private static func limits(_ c: RowConfig, _ parentAxis: Axis, _ style: inout FlexStyle) {
        func points(_ v: Double?) -> Dimension { v.map { .points(LayoutUnit.snap($0)) } ?? .auto }
        if parentAxis == .vertical {
            style.minHeight = points(c.minMain); style.maxHeight = points(c.maxMain)
            style.minWidth = points(c.minCross); style.maxWidth = points(c.maxCross)
        } else {
            style.minWidth = points(c.minMain); style.maxWidth = points(c.maxMain)
            style.minHeight = points(c.minCross); style.maxHeight = points(c.maxCross)
        }
    }

    private static func setMain(_ style: inout FlexStyle, _ parentAxis: Axis, _ value: Dimension) {
        if parentAxis == .vertical { style.height = value } else { style.width = value }
    }

    private static func setCross(_ style: inout FlexStyle, _ parentAxis: Axis, _ value: Dimension) {
        if parentAxis == .vertical { style.width = value } else { style.height = value }
    }
}
