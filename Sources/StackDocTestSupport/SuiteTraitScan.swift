import Foundation

/// Finds, in Swift test sources, the types with `@Test` functions whose `@Suite` attribute names
/// none of given traits (`.offThePool`, `.longRunning`): what `SuiteTraitTests` checks over `Tests/`.
///
/// The scan reads declarations at the start of a line (the test files' style): attribute lines
/// (`@Suite(…)`) belong to the type that follows; `@Test` functions belong to the enclosing
/// top-level type or extension, and an extension's tests to the type it extends (wherever in the
/// scanned files that type is declared). A `@Test` outside any type is reported as `(top level)`.
public struct SuiteTraitScan {
    /// A type with tests, where its tests were found, and whether its attributes name a trait.
    public struct Suite: Equatable, Sendable {
        public var name: String
        public var file: String
        public var hasTrait: Bool
    }

    /// Every type that holds tests (directly or through an extension), by name.
    public private(set) var suites: [String: Suite] = [:]
    /// Tests found outside any type, by file.
    public private(set) var topLevelTests: [String] = []
    private var declared: [String: (file: String, attributes: String)] = [:]
    private var extended: [String: String] = [:]
    private let traits: [String]

    /// A scan looking for any of `traits` (their text in an attribute, e.g. `.offThePool`).
    public init(traits: [String]) { self.traits = traits }

    /// Scans every `.swift` file under `directory`.
    public mutating func scan(directory: URL) throws {
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files.sorted(by: { $0.path < $1.path }) {
            scan(source: try String(contentsOf: file, encoding: .utf8), file: file.path)
        }
    }

    /// Scans one file's text.
    public mutating func scan(source: String, file: String) {
        var attributes = ""
        var current: (name: String, isExtension: Bool)?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("@Test") {
                if let current {
                    if current.isExtension { extended[current.name] = extended[current.name] ?? file }
                    else { suites[current.name] = Suite(name: current.name, file: file, hasTrait: false) }
                } else {
                    topLevelTests.append(file)
                }
                continue
            }
            guard let first = line.first, !first.isWhitespace else { continue }
            if first == "}" { current = nil; continue }  // the end of a top-level declaration
            if trimmed.hasPrefix("//") { continue }
            if let declaration = Self.declaration(in: line) {
                if !declaration.isExtension { declared[declaration.name] = (file, attributes + " " + line) }
                current = declaration
                attributes = ""
            } else if line.hasPrefix("@") {
                attributes += " " + line
            } else {
                attributes = ""
                current = nil
            }
        }
    }

    /// The types with tests whose `@Suite` names none of the traits (an extension's tests count for the
    /// type it extends), sorted by name, and the files with tests outside any type.
    public func missing() -> [Suite] {
        var all = suites
        for (name, file) in extended where all[name] == nil {
            all[name] = Suite(name: name, file: declared[name]?.file ?? file, hasTrait: false)
        }
        return all.values.map { suite in
            var suite = suite
            suite.hasTrait = declared[suite.name].map { $0.attributes.contains("@Suite") && traits.contains(where: $0.attributes.contains) } ?? false
            return suite
        }.filter { !$0.hasTrait }.sorted { $0.name < $1.name }
            + topLevelTests.map { Suite(name: "(top level)", file: $0, hasTrait: false) }
    }

    /// How many types with tests the scan found.
    public var suiteCount: Int { Set(suites.keys).union(extended.keys).count }

    /// The type a line declares (`struct X`, `@Suite(…) final class X`, `extension X`), if any.
    static func declaration(in line: String) -> (name: String, isExtension: Bool)? {
        var words = line.replacingOccurrences(of: "{", with: " ").replacingOccurrences(of: ":", with: " ")
            .split(separator: " ").map(String.init)
        // Drop leading attributes (`@Suite(…)` may hold spaces: skip to its closing parenthesis).
        while let word = words.first, word.hasPrefix("@") {
            var depth = 0
            repeat {
                let w = words.removeFirst()
                depth += w.filter { $0 == "(" }.count - w.filter { $0 == ")" }.count
            } while depth > 0 && !words.isEmpty
        }
        let modifiers: Set = ["public", "internal", "fileprivate", "private", "final", "nonisolated"]
        while let word = words.first, modifiers.contains(word) { words.removeFirst() }
        guard words.count >= 2, ["struct", "class", "enum", "actor", "extension"].contains(words[0]) else { return nil }
        let name = String(words[1].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
        return name.isEmpty ? nil : (name, words[0] == "extension")
    }
}
