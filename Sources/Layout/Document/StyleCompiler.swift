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
        var style = FlexStyle()
        if config.hidden {
            style.display = false
            return style
        }
        style.padding = insets
        style.margin = config.layoutMargin
        style.flexGrow = config.grow
        style.flexShrink = config.shrink
        style.alignSelf = config.alignSelf.flex
        let mainInsets = insets.sum(along: parentAxis)
        if config.hasSizeLimits { limits(config, parentAxis, &style) }
        if let stack = config.stack {
            style.direction = stack.axis.flexDirection
            style.justifyContent = stack.justify.flex
            style.alignItems = stack.align.flex
            style.rowGap = LayoutUnit.snap(stack.spacing)
            style.columnGap = LayoutUnit.snap(stack.spacing)
            if case .fixed(let n) = config.size {
                setMain(&style, parentAxis, .points(LayoutUnit.snap(n) + mainInsets))
            }
            return style
        }
        let contentMain: Double?
        switch config.size {
        case .fit:
            // A fit text or aspect row has an auto main size: its text or ratio decides it.
            contentMain = config.hasHeightForWidth ? nil
                : parentAxis == .vertical ? config.content.height : config.content.width
        case .fixed(let n): contentMain = n
        }
        if let contentMain { setMain(&style, parentAxis, .points(LayoutUnit.snap(contentMain) + mainInsets)) }
        if let t = config.text {
            style.text = FlexText(count: t.count, glyphWidth: LayoutUnit.snap(t.glyphWidth),
                                  lineHeight: LayoutUnit.snap(t.lineHeight))
        }
        style.aspectRatio = config.aspect
        // The content is an intrinsic box in the content box (issue 14): a stretched leaf makes
        // an auto-sized container at least as large as its content, and the automatic minimum
        // size follows it (a `fit` leaf never shrinks below its content).
        style.intrinsicSize = Size(width: LayoutUnit.snap(config.content.width),
                                   height: LayoutUnit.snap(config.content.height))
        if config.alignSelf.resolved(in: parentAlign) != .stretch && config.text == nil {
            let crossAxis: Axis = parentAxis == .vertical ? .horizontal : .vertical
            let contentCross = parentAxis == .vertical ? config.content.width : config.content.height
            setCross(&style, parentAxis, .points(LayoutUnit.snap(contentCross) + insets.sum(along: crossAxis)))
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
