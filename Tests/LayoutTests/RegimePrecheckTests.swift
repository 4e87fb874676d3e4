import Testing
import OrderStatistics
@testable import Layout
import StackDocTestSupport

/// `LiveLayout.certainlyOutsideRegime`: what `rebuild` decides before laying any slice out (a
/// sticky row, or free space the root distributes) only ever says "outside" where the full layout
/// proves it, so a document it sends straight to the full layout is one the slices would have sent
/// there too; and it does say so for the documents it is for.
@Suite(.offThePool) struct RegimePrecheckTests {
    /// The root rows' outer lengths and the gaps between the shown ones, from the full layout:
    /// the inner length the slices' proof compares with the viewport.
    static func innerLength(_ doc: Document) -> Double {
        let layout = doc.layout()
        let vertical = doc.settings.axis == .vertical
        var sum = 0.0, shown = 0
        for r in layout.rows where r.parent == nil {
            guard let f = r.frame, let c = doc.config(of: r.id) else { continue }
            let m = c.layoutMargin
            sum += vertical ? m.top + f.height + m.bottom : m.left + f.width + m.right
            shown += 1
        }
        return sum + Double(max(0, shown - 1)) * doc.settings.layoutSpacing
    }

    static func hasSticky(_ doc: Document) -> Bool {
        var sticky = false
        doc.forEachRow { _, _, _, c in if c.sticky { sticky = true } }
        return sticky
    }

    /// Random documents (every edit kind, root justify and padding, grow, sticky, fit, text and
    /// aspect rows, nesting), before and after each edit: when the check says outside, the
    /// document has a sticky row or its root distributes free space the full layout leaves.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func saysOutsideOnlyWhereTheFullLayoutDoes(seed: UInt64) throws {
        var gen = DocumentEdits(rng: SplitMix64(seed: seed), nested: seed % 2 == 0)
        var doc = Document(name: "d", settings: DocumentSettings(viewport: Size(width: 390, height: 600)))
        var outside = 0, freeSpace = 0
        for step in 0..<400 {
            let edit = gen.rng.chance(6) ? Edit.setStack(.justify(gen.rng.pick(Justify.allCases))) : gen.edit(for: doc)
            guard let changes = try? doc.plan(edit), (try? doc.apply(changes)) != nil else { continue }
            guard LiveLayout.certainlyOutsideRegime(doc) else { continue }
            outside += 1
            if Self.hasSticky(doc) { continue }
            freeSpace += 1
            let s = doc.settings
            let main = s.axis == .vertical ? s.viewport.height - s.layoutPadding.vertical : s.viewport.width - s.layoutPadding.horizontal
            // Without growing rows the free space stays free; growing rows take it: then one of
            // them is longer than its fixed size and insets allow without growing.
            let inner = Self.innerLength(doc)
            var grows = false, grew = false
            let layout = doc.layout()
            doc.forEachRow { id, parent, _, c in
                guard parent == nil, !c.hidden, c.grow > 0 else { return }
                grows = true
                if case .fixed(let n) = c.size, let f = layout.rows.first(where: { $0.id == id })?.frame {
                    let i = c.effectiveInsets(s.defaults)
                    let length = s.axis == .vertical ? f.height : f.width
                    if length > n + (s.axis == .vertical ? i.top + i.bottom : i.left + i.right) { grew = true }
                }
            }
            #expect(inner < main || grew, "seed \(seed) step \(step) \(edit): the root has no free space (\(inner) of \(main))")
            let content = layout.contentSize
            #expect((s.axis == .vertical ? content.height : content.width) == (s.axis == .vertical ? s.viewport.height : s.viewport.width),
                    "seed \(seed) step \(step) \(edit): the content is longer than the viewport")
            #expect(s.justify != .start || grows, "seed \(seed) step \(step) \(edit): nothing distributes the free space")
            #expect(!LiveLayout(doc).isIncremental)
        }
        #expect(outside > 0 && freeSpace > 0, "seed \(seed): the check never fired (\(outside), \(freeSpace))")
    }

    func rows(_ n: Int, _ spec: [RowSpecItem], justify: Justify = .start) throws -> Document {
        var doc = Document(name: "d", settings: DocumentSettings(viewport: Size(width: 390, height: 844), justify: justify))
        try doc.apply(try doc.plan(.add(ids: (0..<n).map { "r\($0)" }, spec: spec, position: nil, parent: nil)))
        return doc
    }

    /// The cases it is for, and the doubtful ones it leaves to the slices.
    @Test func theDocumentsItIsFor() throws {
        // Short content in a root that centres it or grows a row: outside (20 × (10 + insets 24)).
        #expect(LiveLayout.certainlyOutsideRegime(try rows(20, [.fixed(10)], justify: .center)))
        #expect(LiveLayout.certainlyOutsideRegime(try rows(3, [.fixed(10), .grow(1)])))
        // A sticky row anywhere (here the last of 10,000): outside however long.
        var sticky = try rows(10_000, [.fixed(30)])
        try sticky.apply(try sticky.plan(.set(id: "r9999", spec: [.sticky(true)])))
        #expect(LiveLayout.certainlyOutsideRegime(sticky))
        // Long content, or a start root without growing rows: left to the slices (which keep it incremental).
        #expect(!LiveLayout.certainlyOutsideRegime(try rows(100, [.fixed(10)], justify: .center)))
        #expect(LiveLayout(try rows(100, [.fixed(10)], justify: .center)).isIncremental)
        #expect(!LiveLayout.certainlyOutsideRegime(try rows(3, [.fixed(10)])))
        // Lengths it cannot bound without the engine (fit, text), or content within a point of
        // the viewport: in doubt, left to the slices.
        #expect(!LiveLayout.certainlyOutsideRegime(try rows(3, [.content(Size(width: 10, height: 10))], justify: .center)))
        #expect(!LiveLayout.certainlyOutsideRegime(try rows(1, [.fixed(843.5), .insets(.zero)], justify: .center)))
        #expect(LiveLayout.certainlyOutsideRegime(try rows(1, [.fixed(842.5), .insets(.zero)], justify: .center)))
    }
}
