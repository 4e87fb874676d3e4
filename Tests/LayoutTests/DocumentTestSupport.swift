import Testing
@testable import Layout

/// Builders and checks shared by the Document*Tests suites.
enum DocFixture {
    /// A document with the given settings and row trees (inserted with the model's primitives).
    static func make(_ settings: DocumentSettings = DocumentSettings(), _ rows: [RowTree]) throws -> Document {
        var doc = Document(name: "t", settings: settings)
        func insert(_ tree: RowTree, parent: RowID?, at index: Int) throws {
            try doc.insertRow(tree.id, config: tree.config, parent: parent, at: index)
            for (i, child) in tree.rows.enumerated() { try insert(child, parent: tree.id, at: i) }
        }
        for (i, tree) in rows.enumerated() { try insert(tree, parent: nil, at: i) }
        return doc
    }

    /// A document with default settings and the given row trees.
    static func make(_ rows: [RowTree]) throws -> Document { try make(DocumentSettings(), rows) }

    /// Settings with zero default insets (keeps hand-worked numbers short).
    static func bare(axis: Axis = .vertical, viewport: Size, offset: Double = 0) -> DocumentSettings {
        var s = DocumentSettings(axis: axis, viewport: viewport, offset: offset)
        s.defaults.insets = .zero
        return s
    }

    /// Three stacks deep with every kind of flex setting (grow, shrink, justify, align, spacing,
    /// insets, a hidden row) under a 400 × 600 viewport; Chromium-checked in
    /// DocumentCompileTests.nestingThreeDeepVertical.
    static func threeDeepNested() throws -> Document {
        try make(bare(viewport: Size(width: 400, height: 600)), [
            stack("S1", .horizontal, size: .fixed(100), justify: .spaceBetween, align: .center, spacing: 10, insets: Edges(all: 5), [
                leaf("x1", .fixed(50), content: Size(width: 0, height: 20)),
                stack("S2", .vertical, size: .fixed(200), justify: .end, align: .stretch, spacing: 2,
                      insets: Edges(top: 1, left: 2, bottom: 3, right: 4), alignSelf: .stretch, [
                    leaf("y1", .fixed(10), content: Size(width: 30, height: 0), align: .start),
                    stack("S3", .horizontal, size: .fixed(40), justify: .center, align: .end, [
                        leaf("z1", .fixed(50), content: Size(width: 0, height: 8), grow: 1),
                        leaf("z2", .fixed(30), content: Size(width: 0, height: 12), align: .center),
                    ]),
                    leaf("y2", .fixed(10), hidden: true),
                ]),
                leaf("x2", .fixed(60), content: Size(width: 0, height: 30), shrink: 1, align: .stretch),
            ]),
        ])
    }

    /// A leaf row.
    static func leaf(_ id: RowID, _ size: RowSize = .fit, content: Size = .zero, insets: Edges? = nil,
                     margin: Edges = .zero, grow: Double = 0, shrink: Double = 0, align: AlignSelf = .auto,
                     hidden: Bool = false, separator: SeparatorOverrides = SeparatorOverrides(),
                     type: String = "view") -> RowTree {
        RowTree(id: id, config: RowConfig(type: type, size: size, content: content, insets: insets, margin: margin,
                                          grow: grow, shrink: shrink, alignSelf: align, hidden: hidden,
                                          separator: separator))
    }

    /// A stack row.
    static func stack(_ id: RowID, _ axis: Axis, size: RowSize = .fit, justify: Justify = .start,
                      align: Align = .stretch, spacing: Double = 0, insets: Edges? = nil, margin: Edges = .zero,
                      grow: Double = 0, shrink: Double = 0, alignSelf: AlignSelf = .auto, hidden: Bool = false,
                      _ rows: [RowTree]) -> RowTree {
        RowTree(id: id, config: RowConfig(size: size, insets: insets, margin: margin, grow: grow, shrink: shrink,
                                          alignSelf: alignSelf, hidden: hidden,
                                          stack: StackSettings(axis: axis, justify: justify, align: align,
                                                               spacing: spacing)),
                rows: rows)
    }
}

func R(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

/// True when both are nil or every coordinate agrees within `tolerance`.
func close(_ a: Rect?, _ b: Rect?, _ tolerance: Double = 1e-6) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
        && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}

extension DocumentLayout {
    /// The row's layout; records a test issue and returns a placeholder when it is missing.
    func at(_ id: RowID, sourceLocation: SourceLocation = #_sourceLocation) -> RowLayout {
        guard let r = row(id)?.layout else {
            Issue.record("no row \(id) in layout", sourceLocation: sourceLocation)
            return RowLayout(id: id, parent: nil, index: -1, type: "", hidden: true, frame: nil, content: nil,
                             separator: nil, visibility: .hidden, percent: 0)
        }
        return r
    }

    func frame(_ id: RowID, sourceLocation: SourceLocation = #_sourceLocation) -> Rect? {
        at(id, sourceLocation: sourceLocation).frame
    }
}

extension RowTree {
    /// This row tree with its config changed by `change` (for fields the builders do not take).
    func with(_ change: (inout RowConfig) -> Void) -> RowTree {
        var t = self
        change(&t.config)
        return t
    }
}
