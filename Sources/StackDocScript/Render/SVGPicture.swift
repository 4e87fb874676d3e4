import Layout

/// `export svg PATH`: the whole content at 1 SVG unit per point. Every laid-out row is a
/// rectangle (stack rows dashed) with its content frame shaded and its id at the top-left;
/// separators are filled in their effective color; a row's `background` fills its frame (its
/// `highlight` while the pointer is on it); the viewport is outlined in red, its
/// obscured edges (insets, the keyboard) greyed.
enum SVGPicture {
    static func render(_ layout: DocumentLayout, document: Document) -> String {
        let n = Format.number
        let w = max(layout.contentSize.width, layout.axis == .horizontal ? layout.offset + layout.viewport.width : layout.viewport.width)
        let h = max(layout.contentSize.height, layout.axis == .vertical ? layout.offset + layout.viewport.height : layout.viewport.height)
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(n(w))" height="\(n(h))" viewBox="0 0 \(n(w)) \(n(h))" font-family="monospace" font-size="10">
        <title>\(escape(layout.document))</title>
        <rect x="0" y="0" width="\(n(layout.contentSize.width))" height="\(n(layout.contentSize.height))" fill="#FFFFFF" stroke="#999999" stroke-width="0.5"/>

        """
        let defaults = document.settings.defaults
        for row in layout.rows {
            guard let f = row.frame else { continue }
            let config = document.config(of: row.id)
            let isStack = config?.stack != nil
            if let config, config.background != nil || config.highlight != nil {
                out += colours(f, background: config.background, highlight: config.highlight)
            }
            if let c = row.content, !isStack {
                out += "<rect x=\"\(n(c.x))\" y=\"\(n(c.y))\" width=\"\(n(c.width))\" height=\"\(n(c.height))\" fill=\"#EAF2FF\"/>\n"
            }
            out += "<rect x=\"\(n(f.x))\" y=\"\(n(f.y))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\" fill=\"none\" stroke=\"#3366CC\" stroke-width=\"1\"\(isStack ? " stroke-dasharray=\"4 2\"" : "")/>\n"
            if let s = row.separator {
                let color = config.map { $0.separator.resolved(over: defaults.separator).color } ?? defaults.separator.color
                let safeColor = Tokenizer.isColorLiteral(color) ? color : "#C6C6C8"
                out += "<rect x=\"\(n(s.x))\" y=\"\(n(s.y))\" width=\"\(n(s.width))\" height=\"\(n(s.height))\" fill=\"\(safeColor)\"/>\n"
            }
            out += "<text x=\"\(n(f.x + 2))\" y=\"\(n(f.y + 10))\">\(escape(row.id))</text>\n"
        }
        let vx = layout.axis == .vertical ? 0 : layout.offset
        let vy = layout.axis == .vertical ? layout.offset : 0
        // Obscured edges (insets, the keyboard): the viewport outside the unobscured rectangle, greyed.
        if layout.obscured != .zero {
            let u = layout.unobscuredRect
            let vw = layout.viewport.width, vh = layout.viewport.height
            let bands = [Rect(x: vx, y: vy, width: vw, height: u.minY - vy),
                         Rect(x: vx, y: u.maxY, width: vw, height: vy + vh - u.maxY),
                         Rect(x: vx, y: u.minY, width: u.minX - vx, height: u.height),
                         Rect(x: u.maxX, y: u.minY, width: vx + vw - u.maxX, height: u.height)]
            for b in bands where b.width > 0 && b.height > 0 {
                out += "<rect class=\"obscured\" x=\"\(n(b.x))\" y=\"\(n(b.y))\" width=\"\(n(b.width))\" height=\"\(n(b.height))\" fill=\"#000000\" fill-opacity=\"0.2\"/>\n"
            }
        }
        out += "<rect x=\"\(n(vx))\" y=\"\(n(vy))\" width=\"\(n(layout.viewport.width))\" height=\"\(n(layout.viewport.height))\" fill=\"none\" stroke=\"#E02020\" stroke-width=\"2\"/>\n"
        out += "</svg>\n"
        return out
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
