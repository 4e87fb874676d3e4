import Layout

/// `export svg PATH [--viewport]`: a picture that explains the layout.
///
/// The whole content at 1 SVG unit per point. Every laid-out row is a rectangle
/// (`data-row="ID"`, `class="row VISIBILITY"`) stroked and lightly filled in its visibility's
/// colour — entire green, partial orange with its percentage after its id, offscreen grey —, stack
/// rows dashed and unfilled; a row's `background` fills its frame first (its `highlight` while the
/// pointer is on it), a leaf's content frame is shaded, separators are filled in their effective
/// colour. Rows moved by sticky positioning or by a stack that scrolls on its own are drawn
/// where they are shown; such a stack's visible window is outlined (`class="scroll-window"`). Labels are clipped
/// to or placed outside their boxes, in a colour chosen against the box's fill
/// (`SVGPicture+Labels`). The picture is as wide and tall as every row: a row wider than the
/// viewport is drawn whole, the viewport outlined over it. The viewport is
/// outlined in red (`id="viewport"`), its obscured insets greyed (`class="obscured"`) and the
/// keyboard shaded (`class="keyboard"`). Beside the content, a legend (`id="legend"`) names the
/// colours and lists the hidden rows (`id="hidden"`: rows with no frame, the first 100). Text,
/// aspect and sticky rows carry marks of their kind (`SVGPicture+RowKinds`).
///
/// With `viewportOnly`, the picture is just what the viewport shows, at screen scale: the SVG is
/// the viewport's size and its `viewBox` the viewport's rectangle in content coordinates; only
/// the rows it shows are drawn, and there is no legend.
enum SVGPicture {
    /// A visibility's colour (stroke, and fill at `tint` opacity).
    static func colour(_ v: Visibility) -> String {
        switch v {
        case .entire: return "#2E7D32"
        case .partial: return "#E69500"
        case .offscreen, .hidden: return "#9E9E9E"   // a hidden row has no frame: listed, not drawn
        }
    }

    static let tint = "0.12"
    static let viewportColour = "#E02020"
    static let legendWidth = 220.0
    static let maxHiddenListed = 100

    static func render(_ layout: DocumentLayout, document: Document, viewportOnly: Bool = false) -> String {
        var out = ""
        write(LayoutListing(layout), document: document, viewportOnly: viewportOnly) { out += $0 }
        return out
    }

    /// The picture in pieces, as it is made: the rows a block at a time (`LayoutListing`), so a
    /// million-row picture is written without holding its rows or its text (issue 11, item 4).
    /// The whole picture reads the rows twice: once for the hidden rows the legend lists (its
    /// height is in the header), once to draw.
    static func write(_ listing: LayoutListing, document: Document, viewportOnly: Bool = false,
                      _ piece: (String) throws -> Void) rethrows {
        let layout = listing.header
        let n = Format.number
        var w = max(layout.contentSize.width, layout.axis == .vertical ? layout.viewport.width : layout.offset + layout.viewport.width)
        var h = max(layout.contentSize.height, layout.axis == .vertical ? layout.offset + layout.viewport.height : layout.viewport.height)
        let vx = layout.axis == .vertical ? 0 : layout.offset
        let vy = layout.axis == .vertical ? layout.offset : 0
        let viewport = Rect(x: vx, y: vy, width: layout.viewport.width, height: layout.viewport.height)
        // The hidden rows the legend lists (the first `maxHiddenListed`) and how many there are.
        // and the row kinds the legend names.
        var hidden: [RowID] = []
        var hiddenCount = 0
        var kinds: Kinds = []
        if !viewportOnly {
            listing.forEachBlock { rows in
                for r in rows {
                    guard r.frame != nil else {
                        if hidden.count < maxHiddenListed { hidden.append(r.id) }
                        hiddenCount += 1
                        continue
                    }
                    let config = document.config(of: r.id)
                    let d = layout.displaced[r.id]
                    let kind = config.flatMap { RowKind($0, content: r.content, stuck: d != nil) }
                    if let kind { kinds.formUnion(Kinds(kind)) }
                    // The picture holds every row whole (one wider or taller than the viewport
                    // too) and the labels outside their boxes.
                    if let frame = r.frame {
                        let f = d?.moved(frame) ?? frame
                        w = max(w, f.maxX, outsideRightEdge(label(r, kind: kind), frame: f) ?? w)
                        h = max(h, f.maxY)
                    }
                }
            }
        }
        let swatches = kindSwatches(kinds)
        let legendLines = 9 + swatches.count + (hiddenCount == 0 ? 0 : 1 + min(hiddenCount, maxHiddenListed) + (hiddenCount > maxHiddenListed ? 1 : 0))
        var out: String
        if viewportOnly {
            out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(viewport.width))\" height=\"\(n(viewport.height))\" viewBox=\"\(n(vx)) \(n(vy)) \(n(viewport.width)) \(n(viewport.height))\" font-family=\"monospace\" font-size=\"10\">\n"
        } else {
            let totalW = w + legendWidth, totalH = max(h, Double(legendLines) * 14 + 10)
            out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(totalW))\" height=\"\(n(totalH))\" viewBox=\"0 0 \(n(totalW)) \(n(totalH))\" font-family=\"monospace\" font-size=\"10\">\n"
        }
        out += "<title>\(escape(layout.document))</title>\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(n(layout.contentSize.width))\" height=\"\(n(layout.contentSize.height))\" fill=\"#FFFFFF\" stroke=\"#999999\" stroke-width=\"0.5\"/>\n"
        let defaults = document.settings.defaults
        var clips = 0
        try listing.forEachBlock { rows in
            for row in rows {
                guard var f = row.frame else { continue }
                if viewportOnly && row.visibility == .offscreen { continue }
                let d = layout.displaced[row.id]
                if let d { f = d.moved(f) }
                let config = document.config(of: row.id)
                let isStack = config?.stack != nil
                if let config, config.background != nil || config.highlight != nil {
                    out += colours(f, background: config.background, highlight: config.highlight)
                }
                if var c = row.content, !isStack {
                    if let d { c = d.moved(c) }
                    out += "<rect x=\"\(n(c.x))\" y=\"\(n(c.y))\" width=\"\(n(c.width))\" height=\"\(n(c.height))\" fill=\"#3366CC\" fill-opacity=\"\(tint)\"/>\n"
                }
                let stroke = colour(row.visibility)
                let fill = isStack ? "fill=\"none\"" : "fill=\"\(stroke)\" fill-opacity=\"\(tint)\""
                out += "<rect data-row=\"\(escape(row.id))\" class=\"row \(row.visibility.rawValue)\" x=\"\(n(f.x))\" y=\"\(n(f.y))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\" \(fill) stroke=\"\(stroke)\" stroke-width=\"1\"\(isStack ? " stroke-dasharray=\"4 2\"" : "")/>\n"
                let kind = config.flatMap { RowKind($0, content: row.content, stuck: d != nil) }
                if let kind {
                    let parentAxis = row.parent.flatMap { document.config(of: $0)?.stack?.axis } ?? document.settings.axis
                    out += marks(kind, frame: f, content: row.content.map { d?.moved($0) ?? $0 }, verticalParent: parentAxis == .vertical)
                }
                if var s = row.separator {
                    if let d { s = d.moved(s) }
                    let color = config.map { $0.separator.resolved(over: defaults.separator).color } ?? defaults.separator.color
                    let safeColor = Tokenizer.isColorLiteral(color) ? color : "#C6C6C8"
                    out += "<rect x=\"\(n(s.x))\" y=\"\(n(s.y))\" width=\"\(n(s.width))\" height=\"\(n(s.height))\" fill=\"\(safeColor)\"/>\n"
                }
                // The label is drawn on the background with the row's tint over it (stacks: no tint).
                let background = config?.background.flatMap { Tokenizer.isColorLiteral($0) ? $0 : nil } ?? "#FFFFFF"
                let fillColour = isStack ? background : blend(stroke, opacity: Double(tint) ?? 0, over: background)
                out += labelElement(label(row, kind: kind), frame: f, fill: fillColour, room: viewportOnly ? vx...(vx + viewport.width) : nil, clip: clips)
                clips += 1
            }
            try piece(out)
            out = ""
        }
        out += scrollWindows(layout)
        out += obscuredEdges(layout, viewport: viewport, settings: document.settings)
        out += "<rect id=\"viewport\" x=\"\(n(vx))\" y=\"\(n(vy))\" width=\"\(n(viewport.width))\" height=\"\(n(viewport.height))\" fill=\"none\" stroke=\"\(viewportColour)\" stroke-width=\"2\"/>\n"
        let safeAreaKind = layout.safeArea == .zero ? [] : [(swatch: Self.safeAreaSwatch, name: "safe area (its bars)")]
        if !viewportOnly { out += legend(at: w + 20, hidden: hidden, count: hiddenCount, kinds: swatches + safeAreaKind) }
        out += "</svg>\n"
        try piece(out)
    }

    /// The visible window of every stack that scrolls on its own (SPEC §2.8): its shown box
    /// outlined in blue (`class="scroll-window"`, `data-stack="ID"`) with its offset and largest
    /// offset, over the rows (which are drawn whole, where they are shown).
    static func scrollWindows(_ layout: DocumentLayout) -> String {
        let n = Format.number
        var out = ""
        for s in layout.nestedScrolls {
            guard let f = s.shownFrame else { continue }
            out += "<rect class=\"scroll-window\" data-stack=\"\(escape(s.id))\" x=\"\(n(f.x))\" y=\"\(n(f.y))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\" fill=\"none\" stroke=\"#1565C0\" stroke-width=\"2\"/>\n"
            out += "<text x=\"\(n(f.x + 2))\" y=\"\(n(f.maxY - 3))\" fill=\"#1565C0\">\(escape(s.id)) scrolled \(n(s.offset)) of \(n(s.maxOffset))</text>\n"
        }
        return out
    }

    /// A row's label: its id, its percentage when partial, its kind's tag.
    static func label(_ row: RowLayout, kind: RowKind?) -> String {
        var label = row.visibility == .partial ? "\(row.id) \(Format.percent(row.percent))%" : row.id
        if let kind { label += " " + kind.tag }
        return label
    }

    /// The four bands of `v` outside `inner` (top, bottom, left, right; the side bands between
    /// the other two); a band is empty where `inner` reaches `v`'s edge.
    static func bands(of v: Rect, outside inner: Rect) -> [Rect] {
        [Rect(x: v.x, y: v.y, width: v.width, height: inner.minY - v.y),
         Rect(x: v.x, y: inner.maxY, width: v.width, height: v.maxY - inner.maxY),
         Rect(x: v.x, y: inner.minY, width: inner.minX - v.x, height: inner.height),
         Rect(x: inner.maxX, y: inner.minY, width: v.maxX - inner.maxX, height: inner.height)]
    }

    /// How the safe area's bars are drawn (and their legend swatch).
    static let safeAreaSwatch = "fill=\"#FF9800\" fill-opacity=\"0.3\" stroke=\"#E65100\" stroke-dasharray=\"2 2\""

    /// The viewport outside the unobscured rectangle: the insets greyed (`class="obscured"`),
    /// the keyboard (the bottom band as tall as it, when it is taller than the bottom inset)
    /// shaded darker with its name (`class="keyboard"`), and over them the safe area's bars
    /// (the viewport outside `safeAreaRect`, `class="safe-area"`).
    static func obscuredEdges(_ layout: DocumentLayout, viewport v: Rect, settings: DocumentSettings) -> String {
        guard layout.obscured != .zero else { return "" }
        let n = Format.number
        var out = ""
        let u = layout.unobscuredRect
        let keyboard = settings.keyboard
        let keyboardBand = keyboard > 0 && keyboard >= settings.viewportInsets.bottom
        for (i, b) in bands(of: v, outside: u).enumerated() where b.width > 0 && b.height > 0 {
            if i == 1 && keyboardBand {
                out += "<rect class=\"keyboard\" x=\"\(n(b.x))\" y=\"\(n(b.y))\" width=\"\(n(b.width))\" height=\"\(n(b.height))\" fill=\"#1A237E\" fill-opacity=\"0.35\"/>\n"
                out += "<text x=\"\(n(b.x + 4))\" y=\"\(n(b.maxY - 4))\" fill=\"#1A237E\">keyboard \(n(keyboard))</text>\n"
            } else {
                out += "<rect class=\"obscured\" x=\"\(n(b.x))\" y=\"\(n(b.y))\" width=\"\(n(b.width))\" height=\"\(n(b.height))\" fill=\"#000000\" fill-opacity=\"0.2\"/>\n"
            }
        }
        guard layout.safeArea != .zero else { return out }
        for b in bands(of: v, outside: layout.safeAreaRect) where b.width > 0 && b.height > 0 {
            out += "<rect class=\"safe-area\" x=\"\(n(b.x))\" y=\"\(n(b.y))\" width=\"\(n(b.width))\" height=\"\(n(b.height))\" \(safeAreaSwatch)/>\n"
        }
        return out
    }

    /// The legend beside the content at `x`: one swatch per colour (and per row kind in
    /// `kinds`), then the hidden rows. `hidden` are the first hidden rows (at most
    /// `maxHiddenListed`), `count` how many there are.
    static func legend(at x: Double, hidden: [RowID], count: Int, kinds: [(swatch: String, name: String)] = []) -> String {
        let n = Format.number
        var out = "<g id=\"legend\">\n<text x=\"\(n(x))\" y=\"14\" font-weight=\"bold\">legend</text>\n"
        var y = 28.0
        func entry(_ swatch: String, _ text: String) {
            out += "<rect x=\"\(n(x))\" y=\"\(n(y - 9))\" width=\"16\" height=\"10\" \(swatch)/>\n"
            out += "<text x=\"\(n(x + 22))\" y=\"\(n(y))\">\(escape(text))</text>\n"
            y += 14
        }
        for v in [Visibility.entire, .partial, .offscreen] {
            entry("fill=\"\(colour(v))\" fill-opacity=\"\(tint)\" stroke=\"\(colour(v))\"", v == .partial ? "partial (its percentage)" : v.rawValue)
        }
        entry("fill=\"none\" stroke=\"#666666\" stroke-dasharray=\"4 2\"", "stack row")
        entry("fill=\"#3366CC\" fill-opacity=\"\(tint)\"", "content frame")
        entry("fill=\"#000000\" fill-opacity=\"0.2\"", "obscured (insets)")
        entry("fill=\"#1A237E\" fill-opacity=\"0.35\"", "keyboard")
        entry("fill=\"none\" stroke=\"\(viewportColour)\" stroke-width=\"2\"", "viewport")
        for k in kinds { entry(k.swatch, k.name) }
        if count > 0 {
            out += "<g id=\"hidden\">\n<text x=\"\(n(x))\" y=\"\(n(y))\">hidden (\(count)):</text>\n"
            y += 14
            for id in hidden.prefix(maxHiddenListed) {
                out += "<text x=\"\(n(x + 8))\" y=\"\(n(y))\">\(escape(id))</text>\n"
                y += 14
            }
            if count > maxHiddenListed {
                out += "<text x=\"\(n(x + 8))\" y=\"\(n(y))\">… and \(count - maxHiddenListed) more</text>\n"
            }
            out += "</g>\n"
        }
        return out + "</g>\n"
    }

    /// A row's colours (issue 14): its frame filled with the background, switching to the
    /// highlight colour while the pointer is on it (SMIL `set`, the way a touched row shows its
    /// highlight). Colours are validated `#RRGGBB` on every path; anything else is not painted.
    static func colours(_ f: Rect, background: String?, highlight: String?) -> String {
        let n = Format.number
        let fill = background.flatMap { Tokenizer.isColorLiteral($0) ? $0 : nil } ?? "none"
        var rect = "<rect x=\"\(n(f.x))\" y=\"\(n(f.y))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\" fill=\"\(fill)\""
        guard let highlight, Tokenizer.isColorLiteral(highlight) else { return rect + "/>\n" }
        rect += " pointer-events=\"all\"><set attributeName=\"fill\" to=\"\(highlight)\" begin=\"mouseover\" end=\"mouseout\"/></rect>\n"
        return rect
    }

    /// Text safe inside an XML element or attribute.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if c.value < 0x20 && c != "\t" && c != "\n" { out += "?" } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }
}
