import Layout

/// The one formatting namespace of the text outputs: numbers, sizes, rects, edges, row sizes
/// and percentages, each written one way everywhere (tables, summaries, captions, messages).
enum Format {
    /// StackDoc's one number format (`JSONNumber`: integers without a fraction, else the
    /// shortest round-trip text), with `nan`/`inf` for non-finite values.
    static func number(_ v: Double) -> String { JSONNumber.describe(v) }

    /// `WxH`.
    static func size(_ s: Size) -> String { "\(number(s.width))x\(number(s.height))" }

    /// `x,y WxH`, or `-` for no rect.
    static func rect(_ r: Rect?) -> String {
        guard let r else { return "-" }
        return "\(number(r.x)),\(number(r.y)) \(size(Size(width: r.width, height: r.height)))"
    }

    /// `top,left,bottom,right`.
    static func edges(_ e: Edges) -> String {
        "\(number(e.top)),\(number(e.left)),\(number(e.bottom)),\(number(e.right))"
    }

    /// `fit` or `fixed N`.
    static func rowSize(_ s: RowSize) -> String {
        switch s {
        case .fit: return "fit"
        case .fixed(let n): return "fixed \(number(n))"
        }
    }

    /// `1 row`, `2 rows`, `0 rows`: a count and its noun, singular for exactly one (`plural`
    /// when it is not the noun with an `s`: `entry`/`entries`).
    static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
    }

    /// The one percent rule: two decimals at most, rounded to the nearest, except that a
    /// percentage strictly between 0 and 100 never reads as 0 or 100 (`99.995` is `99.99`,
    /// `0.001` is `0.01`): a partial row never looks entire or offscreen.
    static func percent(_ p: Double) -> String {
        var shown = (p * 100).rounded() / 100
        if p > 0, p < 100 { shown = min(max(shown, 0.01), 99.99) }
        return number(shown)
    }
}
