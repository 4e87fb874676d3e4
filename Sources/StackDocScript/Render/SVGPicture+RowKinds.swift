import Layout

/// SVG marks of a row's kind (issue 14, `RowKind`), drawn over its frame: a text row's wrapped
/// lines, one bar per line as wide as its glyphs (`class="text-line"`, the first
/// `maxTextLinesDrawn`); an aspect row's diagonal (`class="aspect"`); a sticky row's leading edge
/// (top in a vertical parent, left in a horizontal one) as a thick bar (`class="sticky"`). The
/// row's label then carries the kind's tag (`caption [3 lines]`). The legend names only the
/// kinds the picture has, so pictures of documents without them are unchanged.
extension SVGPicture {
    static let textLineColour = "#5C6BC0"
    static let aspectColour = "#00897B"
    static let stickyColour = "#8E24AA"
    /// The most text lines one row draws (a 10-million-glyph row stays a small picture).
    static let maxTextLinesDrawn = 200

    /// Which kinds a picture shows (for the legend).
    struct Kinds: OptionSet {
        let rawValue: Int
        static let text = Kinds(rawValue: 1), aspect = Kinds(rawValue: 2), sticky = Kinds(rawValue: 4)

        init(rawValue: Int) { self.rawValue = rawValue }

        init(_ kind: RowKind) {
            self = []
            if kind.text != nil { insert(.text) }
            if kind.aspect != nil { insert(.aspect) }
            if kind.sticky { insert(.sticky) }
        }
    }

    /// The marks of one row shown at `f` (its content frame `content`, both where shown);
    /// `verticalParent`: the axis its sticky edge follows.
    static func marks(_ kind: RowKind, frame f: Rect, content: Rect?, verticalParent: Bool) -> String {
        let n = Format.number
        var out = ""
        if let text = kind.text, let c = content, text.lineHeight > 0 {
            for k in 0..<min(kind.lines, maxTextLinesDrawn) {
                let y = c.minY + Double(k) * text.lineHeight
                guard y < c.maxY else { break }
                let w = min(Double(kind.glyphs(onLine: k)) * text.glyphWidth, c.width)
                let h = min(text.lineHeight * 0.5, c.maxY - y)
                out += "<rect class=\"text-line\" x=\"\(n(c.minX))\" y=\"\(n(y + text.lineHeight * 0.25))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"\(textLineColour)\" fill-opacity=\"0.35\"/>\n"
            }
        }
        if kind.aspect != nil {
            out += "<line class=\"aspect\" x1=\"\(n(f.minX))\" y1=\"\(n(f.maxY))\" x2=\"\(n(f.maxX))\" y2=\"\(n(f.minY))\" stroke=\"\(aspectColour)\" stroke-width=\"1\"/>\n"
        }
        if kind.sticky {
            let edge = verticalParent ? Rect(x: f.minX, y: f.minY, width: f.width, height: min(3, f.height))
                : Rect(x: f.minX, y: f.minY, width: min(3, f.width), height: f.height)
            out += "<rect class=\"sticky\" x=\"\(n(edge.x))\" y=\"\(n(edge.y))\" width=\"\(n(edge.width))\" height=\"\(n(edge.height))\" fill=\"\(stickyColour)\"/>\n"
        }
        return out
    }

    /// The legend's swatches for the kinds a picture shows.
    static func kindSwatches(_ kinds: Kinds) -> [(swatch: String, name: String)] {
        var out: [(String, String)] = []
        if kinds.contains(.text) { out.append(("fill=\"\(textLineColour)\" fill-opacity=\"0.35\"", "text line (its glyphs)")) }
        if kinds.contains(.aspect) { out.append(("fill=\"none\" stroke=\"\(aspectColour)\"", "aspect ratio (diagonal)")) }
        if kinds.contains(.sticky) { out.append(("fill=\"\(stickyColour)\"", "sticky row (leading edge)")) }
        return out
    }
}
