import Layout

/// A script of the command language (SPEC §4.1), parsed whole before anything runs: one command
/// per line; blank lines and `#` comments are skipped. What `log export` writes is a script.
///
/// ```swift
/// let script = try Script(contentsOf: "Fixtures/feed.sd")
/// let session = try Session(database: ":memory:")
/// let run = try session.run(script)
/// ```
public struct Script: Hashable, Sendable {
    /// One command of a script and the line it was read from.
    public struct Line: Hashable, Sendable {
        /// The line's number in the script's text, from 1.
        public var number: Int
        /// The line as written (without its line break).
        public var text: String
        /// The command the line holds.
        public var command: Command

        /// A line holding `command`; `text` defaults to the command's canonical text.
        public init(number: Int, text: String? = nil, command: Command) {
            self.number = number
            self.text = text ?? Printer.text(command)
            self.command = command
        }
    }

    /// Where the script was read from, as errors name it (nil for a script given as text).
    public var file: String?
    /// The script's commands in order.
    public var lines: [Line]

    /// Parses `text` (UTF-8 text; lines end with `\n` or `\r\n`; a leading byte order mark is
    /// ignored).
    ///
    /// - Parameters:
    ///   - text: The script.
    ///   - file: The name errors give the script (`FILE:LINE: MESSAGE`); nil for none.
    /// - Throws: `ScriptError` naming the first line that does not parse (nothing has run).
    public init(_ text: String, file: String? = nil) throws(ScriptError) {
        self.file = file
        lines = []
        for (i, raw) in Script.split(text).enumerated() {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
            do {
                guard let command = try Parser.parse(line) else { continue }
                lines.append(Line(number: i + 1, text: line, command: command))
            } catch {
                throw ScriptError(file: file, line: i + 1, error: error)
            }
        }
    }

    /// Reads and parses the script in the file at `path`.
    ///
    /// - Parameter path: The script file (at most 1 GiB of UTF-8 text).
    /// - Throws: `ScriptError` with line 0 when the file cannot be read, else naming the first
    ///   line that does not parse.
    public init(contentsOf path: String) throws(ScriptError) {
        let text: String
        do {
            text = try FileIO.read(path)
        } catch {
            throw ScriptError(file: path, line: 0, error: error)
        }
        try self.init(text, file: path)
    }

    /// The lines of a script's text as batch mode reads them: split at the byte `\n` (a
    /// `\r\n` pair is one `Character`, so splitting at characters would miss it), a leading
    /// UTF-8 byte order mark ignored, no empty last line after a final `\n`. A line keeps a
    /// final `\r`: the reader of each line drops it.
    /// - Parameter text: A script's text.
    public static func split(_ text: String) -> [String] {
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        var lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(Substring($0)) }
        if text.hasSuffix("\n") { lines.removeLast() }
        return lines
    }
}

/// A script that could not be read, parsed or run: where (`file`, `line`) and why (`error`).
public struct ScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The script's file, if it has one.
    public var file: String?
    /// The line's number, from 1 (0: the script as a whole, e.g. a file that cannot be read).
    public var line: Int
    /// What went wrong (whose error it is, and its kind).
    public var error: ErrorReport

    /// An error at `line` of `file`; an error of no StackDoc layer is kept as its text.
    public init(file: String?, line: Int, error: any Error) {
        self.file = file
        self.line = line
        self.error = ErrorReport(error)
    }

    /// `FILE:LINE: MESSAGE` (without the parts it has not).
    public var description: String {
        let place = [file, line > 0 ? "\(line)" : nil].compactMap { $0 }.joined(separator: ":")
        return place.isEmpty ? error.message : "\(place): \(error.message)"
    }
}
