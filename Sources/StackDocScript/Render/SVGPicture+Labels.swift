import Foundation
import Layout

/// Where `export svg` writes a row's label, and in which colour.
///
/// A label (monospace, 10 points: `glyphWidth` a glyph) goes inside its box, 2 points in from
/// the top-left, when the box is at least `labelHeight` tall and `minInsideWidth` wide; a label
/// wider than its box is clipped to the box (`clipPath`), so it never runs over its
/// neighbours. A box too small for that has its label outside, just right of it, centred on
/// it (left of it, or inside and clipped, in a `--viewport` picture with no room on that
/// side). The colour is chosen against what the label is drawn on, by relative luminance: dark
/// on light fills, light on dark ones (`textColour(on:)`).
extension SVGPicture {
    /// One glyph's advance in the label font (monospace at 10 points: 0.6 em).
    static let glyphWidth = 6.0
    /// The least height a box needs for its label inside it.
    static let labelHeight = 12.0
    /// The least width a box needs for its label inside it (two glyphs and the margins).
    static let minInsideWidth = 16.0
    /// Dark and light label colours.
    static let darkText = "#000000", lightText = "#FFFFFF"

    /// Where a label goes: inside its box (clipped to it or not), or outside to its right or left.
    enum LabelPlacement: Equatable {
        case inside(clipped: Bool)
        case right
        case left
    }

    /// A label's width in points.
    static func labelWidth(_ label: String) -> Double { Double(label.count) * glyphWidth }

    /// Where `label` goes for a box at `f`; `room`: the x range an outside label must stay in
    /// (nil: any, the whole picture widens to hold it).
    static func placement(_ label: String, frame f: Rect, room: ClosedRange<Double>?) -> LabelPlacement {
        let width = labelWidth(label)
        if f.height >= labelHeight && f.width >= minInsideWidth { return .inside(clipped: 2 + width > f.width) }
        guard let room else { return .right }
        if f.maxX + 2 + width <= room.upperBound { return .right }
        if f.minX - 2 - width >= room.lowerBound { return .left }
        return .inside(clipped: true)
    }

    /// The right edge of `label` placed outside right of `f`, or nil when it goes elsewhere:
    /// what the whole picture widens to.
    static func outsideRightEdge(_ label: String, frame f: Rect) -> Double? {
        placement(label, frame: f, room: nil) == .right ? f.maxX + 2 + labelWidth(label) : nil
    }

    /// The `<text>` of a row's label (and its `clipPath`, named `label-clip-N` with `clip` its
    /// number, when it is clipped). `fill`: the colour the box is filled with (its background
    /// with the row's tint over it); an outside label is drawn on the picture's white.
    static func labelElement(_ label: String, frame f: Rect, fill: String, room: ClosedRange<Double>?, clip: Int) -> String {
        let n = Format.number
        let text = escape(label)
        switch placement(label, frame: f, room: room) {
        case .inside(let clipped):
            let colour = textColour(on: fill)
            guard clipped else { return "<text x=\"\(n(f.x + 2))\" y=\"\(n(f.y + 10))\" fill=\"\(colour)\">\(text)</text>\n" }
            let id = "label-clip-\(clip)"
            return "<clipPath id=\"\(id)\"><rect x=\"\(n(f.x))\" y=\"\(n(f.y))\" width=\"\(n(f.width))\" height=\"\(n(f.height))\"/></clipPath>\n"
                + "<text x=\"\(n(f.x + 2))\" y=\"\(n(f.y + 10))\" fill=\"\(colour)\" clip-path=\"url(#\(id))\">\(text)</text>\n"
        case .right:
            return "<text class=\"outside\" x=\"\(n(f.maxX + 2))\" y=\"\(n(f.minY + f.height / 2 + 3.5))\" fill=\"\(textColour(on: "#FFFFFF"))\">\(text)</text>\n"
        case .left:
            return "<text class=\"outside\" x=\"\(n(f.minX - 2))\" y=\"\(n(f.minY + f.height / 2 + 3.5))\" text-anchor=\"end\" fill=\"\(textColour(on: "#FFFFFF"))\">\(text)</text>\n"
        }
    }

    /// The label colour for a `#RRGGBB` background: dark when the background's relative
    /// luminance (WCAG) is above 0.179 — where dark text has the better contrast —, else light.
    /// An unreadable colour counts as white.
    static func textColour(on background: String) -> String {
        (relativeLuminance(background) ?? 1) > 0.179 ? darkText : lightText
    }

    /// The WCAG relative luminance (0 black … 1 white) of a `#RRGGBB` colour; nil for anything else.
    static func relativeLuminance(_ colour: String) -> Double? {
        guard let rgb = components(colour) else { return nil }
        func linear(_ c: Double) -> Double { c <= 0.03928 ? c / 12.92 : Foundation.pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(rgb.r) + 0.7152 * linear(rgb.g) + 0.0722 * linear(rgb.b)
    }

    /// `top` at `opacity` over `bottom` (both `#RRGGBB`; an unreadable one counts as white).
    static func blend(_ top: String, opacity: Double, over bottom: String) -> String {
        let t = components(top) ?? (1, 1, 1), b = components(bottom) ?? (1, 1, 1)
        func mix(_ x: Double, _ y: Double) -> Int { Int(((x * opacity + y * (1 - opacity)) * 255).rounded()) }
        return "#" + [mix(t.r, b.r), mix(t.g, b.g), mix(t.b, b.b)].map { hex($0) }.joined()
    }

    /// A `#RRGGBB` colour's channels in 0…1.
    private static func components(_ colour: String) -> (r: Double, g: Double, b: Double)? {
        guard Tokenizer.isColorLiteral(colour), let v = UInt32(colour.dropFirst(), radix: 16) else { return nil }
        return (Double((v >> 16) & 0xFF) / 255, Double((v >> 8) & 0xFF) / 255, Double(v & 0xFF) / 255)
    }

    private static func hex(_ v: Int) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[(v >> 4) & 0xF], digits[v & 0xF]])
    }
}
