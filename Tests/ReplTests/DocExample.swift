import Foundation

/// An example session of a documentation page, as docs/guide.md ("Example sessions") defines
/// it: a fenced block whose first line starts with `$ `. Each `$ ` line is a command; the lines
/// under it, up to the next `$ ` line or the fence, are what it prints.
struct DocExample: Equatable {
    /// One `$ ` line and the lines printed under it.
    struct Command: Equatable {
        /// The page's line number of the `$ ` line (1-based).
        var line: Int
        /// The command after `$ `.
        var text: String
        /// The lines under it, without their line breaks.
        var output: [String]
    }

    /// The page's line number of the opening fence (1-based).
    var line: Int
    var commands: [Command]

    /// Every example session of `text`, in page order. A fence is a line that starts with
    /// three backticks (an info string such as `sh` may follow); blocks whose first line does not
    /// start with `$ ` are not examples.
    static func examples(in text: String) -> [DocExample] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var examples: [DocExample] = []
        var index = 0
        while index < lines.count {
            guard lines[index].hasPrefix("```") else { index += 1; continue }
            let open = index
            var body: [(line: Int, text: String)] = []
            index += 1
            while index < lines.count, !lines[index].hasPrefix("```") {
                body.append((index + 1, lines[index]))
                index += 1
            }
            index += 1  // the closing fence
            guard let first = body.first, first.text.hasPrefix("$ ") else { continue }
            var commands: [Command] = []
            for (line, text) in body {
                if text.hasPrefix("$ ") {
                    commands.append(Command(line: line, text: String(text.dropFirst(2)), output: []))
                } else {
                    commands[commands.count - 1].output.append(text)
                }
            }
            examples.append(DocExample(line: open + 1, commands: commands))
        }
        return examples
    }
}

/// A command line of an example split as a POSIX shell splits it, for the few forms examples
/// use: words separated by blanks, `'…'` taken literally, `"…"` with `\"` and `\\`, a backslash
/// escaping the next character, a word starting with `#` opening a comment, and `< FILE`
/// feeding a file on standard input.
struct ShellLine: Equatable {
    var words: [String]
    /// The file named by `< FILE`, if any.
    var input: String?

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    init(words: [String], input: String? = nil) {
        self.words = words
        self.input = input
    }

    init(_ text: String) throws {
        var words: [String] = []
        var redirect: Int?  // the index of an unquoted `<`
        var word = ""
        var inWord = false
        var quoted = false  // the word holds a quoted or escaped part
        var chars = Array(text)[...]
        func finish() throws {
            if inWord, !quoted, word.hasPrefix("<") {
                guard word == "<", redirect == nil else { throw Malformed(description: "write '< FILE', once, with a blank after '<': \(text)") }
                redirect = words.count
            }
            if inWord { words.append(word) }
            word = ""
            inWord = false
            quoted = false
        }
        while let c = chars.popFirst() {
            switch c {
            case " ", "\t":
                try finish()
            case "#" where !inWord:
                chars = []
            case "'":
                inWord = true; quoted = true
                guard let end = chars.firstIndex(of: "'") else { throw Malformed(description: "an unclosed ' in: \(text)") }
                word += String(chars[..<end])
                chars = chars[(end + 1)...]
            case "\"":
                inWord = true; quoted = true
                var closed = false
                while let d = chars.popFirst() {
                    if d == "\"" { closed = true; break }
                    if d == "\\", let e = chars.first, e == "\"" || e == "\\" { word.append(e); chars.removeFirst(); continue }
                    word.append(d)
                }
                guard closed else { throw Malformed(description: "an unclosed \" in: \(text)") }
            case "\\":
                inWord = true; quoted = true
                guard let e = chars.popFirst() else { throw Malformed(description: "a trailing backslash in: \(text)") }
                word.append(e)
            case "|", ">", "&", ";", "$", "`", "*", "?":
                throw Malformed(description: "'\(c)' is not part of the example convention (docs/guide.md, \"Example sessions\"): \(text)")
            default:
                inWord = true
                word.append(c)
            }
        }
        try finish()
        var input: String?
        if let redirect {
            guard redirect + 1 < words.count, redirect + 2 == words.count else {
                throw Malformed(description: "'<' takes one file, at the end of the line: \(text)")
            }
            input = words[redirect + 1]
            words.removeSubrange(redirect...)
        }
        self.init(words: words, input: input)
    }
}
