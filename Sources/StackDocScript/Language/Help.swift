import Layout

/// `help` and `help COMMAND`, generated from `CommandTable` and the spec word tables.
enum Help {
    /// The list of every command by group.
    static func overview() -> String {
        var lines = ["Commands (words in CAPS are values, [] optional; 'help COMMAND' for more):"]
        // Usages up to `width` characters share a line with their summary; longer ones put the
        // summary on the next line, in the same column.
        let width = 46
        for group in CommandTable.groups {
            lines.append("")
            lines.append("\(group):")
            for spec in CommandTable.all where spec.group == group {
                for (i, usage) in spec.usage.enumerated() {
                    let summary = i == 0 ? spec.summary : ""
                    if summary.isEmpty {
                        lines.append("  " + usage)
                    } else if usage.count <= width {
                        lines.append("  " + usage.padded(to: width) + "  " + summary)
                    } else {
                        lines.append("  " + usage)
                        lines.append(String(repeating: " ", count: width + 4) + summary)
                    }
                }
            }
        }
        lines.append("")
        lines.append("ROWSPEC and SEPSPEC words: 'help rowspec', 'help sepspec'. Quote odd ids and paths with \"…\" or '…'; # starts a comment.")
        return lines.joined(separator: "\n")
    }

    /// The description of one command or topic; throws for an unknown one.
    static func topic(_ word: String) throws -> String {
        switch word.lowercased() {
        case "rowspec":
            return specTable("ROWSPEC: words that configure a row (used by add, replace, set); later words win:",
                             RowSpecWords.table.map { ($0.usage, $0.summary) })
        case "sepspec":
            return specTable("SEPSPEC: separator overrides (after 'separator' in ROWSPEC, one each; after 'defaults separator', any number):",
                             SeparatorWords.table.map { ($0.usage, $0.summary) })
        default:
            break
        }
        let words = word.split(separator: " ").map(String.init)
        guard let first = words.first, let spec = CommandTable.find(first) else {
            throw CommandError(.syntax(.noHelp(word, suggestion: words.first.flatMap(CommandTable.suggestion),
                                                commands: CommandTable.all.map(\.name))))
        }
        var usages = spec.usage
        var examples = spec.examples
        if words.count > 1 {
            // One form of the command: the usage lines whose second word is the one asked for.
            let form = words[1].lowercased()
            func secondWord(_ text: String) -> String? {
                let parts = text.split(separator: " ")
                return parts.count > 1 ? parts[1].lowercased() : nil
            }
            usages = spec.usage.filter { secondWord($0) == form }
            guard !usages.isEmpty else {
                throw CommandError(.syntax(.noHelpForm(word, command: spec.name, forms: spec.usage)))
            }
            let matching = spec.examples.filter { secondWord($0) == form }
            if !matching.isEmpty { examples = matching }
        }
        var lines = usages.map { "usage: " + $0 }
        if !spec.aliases.isEmpty { lines.append("also: " + spec.aliases.joined(separator: ", ")) }
        lines.append("")
        lines.append(spec.summary.prefix(1).uppercased() + spec.summary.dropFirst() + ".")
        if !spec.details.isEmpty { lines.append(spec.details) }
        lines.append("")
        lines.append("examples:")
        lines += examples.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    private static func specTable(_ title: String, _ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return ([title] + rows.map { "  " + $0.0.padded(to: width) + "  " + $0.1 })
            .joined(separator: "\n")
    }
}

extension String {
    /// This string without its trailing spaces: O(the spaces), not O(the string) per space.
    func trimmingTrailingSpaces() -> String {
        guard let last = lastIndex(where: { $0 != " " }) else { return "" }
        return String(self[...last])
    }
}

extension String {
    /// This string padded with spaces to `width` characters (never cut).
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
