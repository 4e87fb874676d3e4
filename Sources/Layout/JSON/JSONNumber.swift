/// The one number format of StackDoc's output (saved documents, `--json` results, text tables):
/// integral values without a decimal point, `-0` as `0`, otherwise the shortest text that reads
/// back as the same Double, exponents without leading zeros (`1e-7`, `1.5e+300`).
public enum JSONNumber {
    /// Canonical text of a finite number. Non-finite values (never written by StackDoc) give
    /// `null` so that the output stays valid JSON.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(.towardZero), abs(value) < 9_007_199_254_740_992 {  // 2^53
            return String(Int64(value))  // -0 becomes "0"
        }
        return clean(value.description)
    }

    /// Text of any number for messages: like `format`, with `nan`, `inf`, `-inf` for the rest.
    public static func describe(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return format(value)
    }

    /// Swift's shortest round-trip description, normalised: `1e-07` → `1e-7`, `1.0e+16` → `1e+16`,
    /// `1234.0` → `1234`.
    private static func clean(_ text: String) -> String {
        var mantissa = Substring(text)
        var exponent: Substring = ""
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = text[text.index(after: e)...]
        }
        if mantissa.hasSuffix(".0") { mantissa = mantissa.dropLast(2) }
        guard !exponent.isEmpty else { return String(mantissa) }
        var sign = "+"
        if let first = exponent.first, first == "+" || first == "-" {
            sign = String(first)
            exponent = exponent.dropFirst()
        }
        let digits = exponent.drop(while: { $0 == "0" })
        return String(mantissa) + "e" + sign + (digits.isEmpty ? "0" : String(digits))
    }
}
