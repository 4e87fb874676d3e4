/// A PostgreSQL connection URI as StackDoc takes it (`--db postgresql://USER@HOST:PORT/DB`, or
/// `postgres://…`): libpq reads the URI itself — every parameter it knows passes through, and a
/// password missing from the URI comes from `PGPASSWORD` or `~/.pgpass` as libpq does —; this
/// type only recognises one and spells it for messages with its password hidden.
struct PostgreSQLURL: Hashable, Sendable, CustomStringConvertible {
    /// The URI exactly as given (it may hold a password: never print it).
    let text: String

    /// The two schemes libpq accepts for a URI.
    static let schemes = ["postgresql://", "postgres://"]

    /// The URI `text`, or nil when it is not a PostgreSQL URI (a path of a SQLite file).
    init?(_ text: String) {
        guard Self.schemes.contains(where: { text.hasPrefix($0) }) else { return nil }
        self.text = text
    }

    /// The URI with any password replaced by `***`: in the user-info part
    /// (`postgresql://alice:secret@host` → `postgresql://alice:***@host`) and in a `password`
    /// query parameter (`?password=secret` → `?password=***`). This is how every message names it.
    var description: String { redacted }

    /// See `description`.
    var redacted: String {
        guard let (scheme, authority, rest) = parts else { return text }
        var out = scheme
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                out += userInfo[..<colon] + ":***"
            } else {
                out += userInfo
            }
            out += authority[at...]
        } else {
            out += authority
        }
        guard let question = rest.firstIndex(of: "?") else { return out + rest }
        out += rest[...question]
        let parameters = rest[rest.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
        out += parameters.map { parameter -> String in
            let key = parameter.prefix { $0 != "=" }
            return key == "password" && parameter.contains("=") ? "password=***" : String(parameter)
        }.joined(separator: "&")
        return out
    }

    /// The password written in the URI (user info or query parameter), percent-decoded, if any:
    /// what messages from the server or libpq must never show either.
    var password: String? {
        guard let (_, authority, rest) = parts else { return nil }
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            return Self.percentDecoded(authority[authority.index(after: colon)..<at])
        }
        guard let question = rest.firstIndex(of: "?") else { return nil }
        for parameter in rest[rest.index(after: question)...].split(separator: "&") where parameter.hasPrefix("password=") {
            return Self.percentDecoded(parameter.dropFirst("password=".count))
        }
        return nil
    }

    /// The URI split after its scheme: the scheme, the authority (up to the first '/', '?' or the
    /// end; its user info ends at the last '@' in it) and the rest (path and query).
    private var parts: (scheme: String, authority: Substring, rest: Substring)? {
        guard let scheme = Self.schemes.first(where: { text.hasPrefix($0) }) else { return nil }
        let afterScheme = text.dropFirst(scheme.count)
        let end = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
        return (scheme, afterScheme[..<end], afterScheme[end...])
    }

    /// `s` with its `%XX` escapes decoded (an escape that is not two hex digits stays as written).
    static func percentDecoded(_ s: Substring) -> String {
        var bytes: [UInt8] = []
        var i = s.utf8.startIndex
        let utf8 = s.utf8
        while i < utf8.endIndex {
            let byte = utf8[i]
            if byte == UInt8(ascii: "%"),
               let h = utf8.index(i, offsetBy: 1, limitedBy: utf8.endIndex), h < utf8.endIndex,
               let l = utf8.index(h, offsetBy: 1, limitedBy: utf8.endIndex), l < utf8.endIndex,
               let high = hexValue(utf8[h]), let low = hexValue(utf8[l]) {
                bytes.append(high << 4 | low)
                i = utf8.index(after: l)
            } else {
                bytes.append(byte)
                i = utf8.index(after: i)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `message` with every occurrence of this URI's password replaced by `***`.
    func scrub(_ message: String) -> String {
        var message = message.replacingAll(text, with: redacted)
        if let password, !password.isEmpty { message = message.replacingAll(password, with: "***") }
        return message
    }
}

extension String {
    /// `self` with every occurrence of `target` (non-empty) replaced by `replacement`, without
    /// Foundation.
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
