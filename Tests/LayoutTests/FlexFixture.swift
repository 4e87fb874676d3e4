import Foundation
import Layout

/// One entry of `Fixtures/flex-fixtures.json` (format: /work/shared/conformance/README.md).
struct FlexFixture: Decodable {
    let id: String
    let root: FlexFixtureNode

    /// All fixtures of `Fixtures/<name>.json`, loaded from the test bundle.
    static func loadAll(_ name: String = "flex-fixtures") throws -> [FlexFixture] {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures") else {
            throw FixtureError("Fixtures/\(name).json is missing from the test bundle")
        }
        return try JSONDecoder().decode([FlexFixture].self, from: Data(contentsOf: url))
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A node: its explicit style, Chromium's frame and its children.
struct FlexFixtureNode: Decodable {
    let style: FlexStyle
    let chrome: Rect
    let children: [FlexFixtureNode]

    private enum Keys: String, CodingKey { case style, chrome, children }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        style = try c.decode(FixtureStyle.self, forKey: .style).style
        chrome = try c.decode(Rect.self, forKey: .chrome)
        children = try c.decode([FlexFixtureNode].self, forKey: .children)
    }
}

/// The fixture's camelCase CSS style; omitted keys keep CSS initial values; an unknown key or
/// value is an error (so the test cannot silently ignore a property).
struct FixtureStyle: Decodable {
    var style = FlexStyle()

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private struct FixtureEdges: Decodable {
        var top = 0.0, right = 0.0, bottom = 0.0, left = 0.0
        private enum K: String, CodingKey { case top, right, bottom, left }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: K.self)
            top = try c.decodeIfPresent(Double.self, forKey: .top) ?? 0
            right = try c.decodeIfPresent(Double.self, forKey: .right) ?? 0
            bottom = try c.decodeIfPresent(Double.self, forKey: .bottom) ?? 0
            left = try c.decodeIfPresent(Double.self, forKey: .left) ?? 0
        }
        var edges: Edges { Edges(top: top, left: left, bottom: bottom, right: right) }
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        for key in c.allKeys {
            func number() throws -> Double { try c.decode(Double.self, forKey: key) }
            func word() throws -> String { try c.decode(String.self, forKey: key) }
            func bad(_ value: String) -> Error { FixtureError("unknown value \(value) for \(key.stringValue)") }
            switch key.stringValue {
            case "display":
                let v = try word()
                guard v == "none" || v == "flex" else { throw bad(v) }
                style.display = v != "none"
            case "flexDirection":
                switch try word() {
                case "row": style.direction = .row
                case "column": style.direction = .column
                case let v: throw bad(v)
                }
            case "justifyContent":
                switch try word() {
                case "flex-start": style.justifyContent = .flexStart
                case "flex-end": style.justifyContent = .flexEnd
                case "center": style.justifyContent = .center
                case "space-between": style.justifyContent = .spaceBetween
                case "space-around": style.justifyContent = .spaceAround
                case "space-evenly": style.justifyContent = .spaceEvenly
                case let v: throw bad(v)
                }
            case "alignItems":
                switch try word() {
                case "flex-start": style.alignItems = .flexStart
                case "flex-end": style.alignItems = .flexEnd
                case "center": style.alignItems = .center
                case "stretch": style.alignItems = .stretch
                case let v: throw bad(v)
                }
            case "alignSelf":
                switch try word() {
                case "auto": style.alignSelf = .auto
                case "flex-start": style.alignSelf = .flexStart
                case "flex-end": style.alignSelf = .flexEnd
                case "center": style.alignSelf = .center
                case "stretch": style.alignSelf = .stretch
                case let v: throw bad(v)
                }
            case "width": style.width = .points(try number())
            case "height": style.height = .points(try number())
            case "minWidth": style.minWidth = .points(try number())
            case "minHeight": style.minHeight = .points(try number())
            case "flexGrow": style.flexGrow = try number()
            case "flexShrink": style.flexShrink = try number()
            case "flexBasis": style.flexBasis = .points(try number())
            case "rowGap": style.rowGap = try number()
            case "columnGap": style.columnGap = try number()
            case "margin": style.margin = try c.decode(FixtureEdges.self, forKey: key).edges
            case "padding": style.padding = try c.decode(FixtureEdges.self, forKey: key).edges
            default: throw FixtureError("unknown style key \(key.stringValue)")
            }
        }
    }
}

extension FlexFixture {
    /// Builds the fixture's tree; returns it with the expected frame of every node (by id).
    func buildTree() -> (tree: FlexTree, expected: [(id: FlexNodeID, path: String, chrome: Rect)]) {
        var tree = FlexTree()
        var expected: [(id: FlexNodeID, path: String, chrome: Rect)] = []
        var stack: [(node: FlexFixtureNode, parent: FlexNodeID?, path: String)] = [(root, nil, "root")]
        while let (node, parent, path) = stack.popLast() {
            let id = tree.addNode(node.style, parent: parent)
            expected.append((id, path, node.chrome))
            for (k, child) in node.children.enumerated().reversed() {
                stack.append((child, id, "\(path).children[\(k)]"))
            }
        }
        return (tree, expected)
    }
}
