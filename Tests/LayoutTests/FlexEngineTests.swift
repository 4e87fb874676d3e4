import Testing
import Layout
import StackDocTestSupport

/// Focused tests of each step of the flex algorithm, with numbers worked out by hand from the
/// CSS Flexbox rules (and checked against Chromium where noted).
@Suite("Flex engine steps", .offThePool)
struct FlexEngineTests {
    static func style(_ configure: (inout FlexStyle) -> Void) -> FlexStyle {
        var s = FlexStyle()
        configure(&s)
        return s
    }

    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
        Rect(x: x, y: y, width: w, height: h)
    }

    // MARK: max sizes and intrinsic boxes (issue 14)

    @Test func growFreezesMaxViolatorsThenRedistributes() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.width = .points(300); $0.height = .points(10) }, parent: nil)
        let a = t.addNode(Self.style { $0.flexGrow = 1; $0.flexBasis = .points(0); $0.maxWidth = .points(50) }, parent: root)
        let b = t.addNode(Self.style { $0.flexGrow = 1; $0.flexBasis = .points(0) }, parent: root)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        // Round 1 gives 150 each; a violates its max and freezes at 50; b takes the rest.
        #expect(t.frame(of: a) == Self.rect(0, 0, 50, 10))
        #expect(t.frame(of: b) == Self.rect(50, 0, 250, 10))
    }

    @Test func minLargerThanMaxWins() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.direction = .column; $0.width = .points(100) }, parent: nil)
        let a = t.addNode(Self.style { $0.height = .points(100); $0.minHeight = .points(60); $0.maxHeight = .points(40)
            $0.minWidth = .points(30); $0.maxWidth = .points(20) }, parent: root)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        // Stretched to 100, clamped by max-width 20, then by min-width 30; height 100 → 40 → 60.
        #expect(t.frame(of: a) == Self.rect(0, 0, 30, 60))
        #expect(t.frame(of: root) == Self.rect(0, 0, 100, 60))
    }

    @Test func intrinsicSizeIsTheContentOfAChildlessNode() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.direction = .row }, parent: nil)
        let a = t.addNode(Self.style { $0.intrinsicSize = Size(width: 130, height: 74); $0.padding = Edges(all: 5) }, parent: root)
        let b = t.addNode(Self.style { $0.intrinsicSize = Size(width: 100, height: 50) }, parent: root)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        // Max-content root: 140 + 100 wide, as tall as the tallest content; b is stretched.
        #expect(t.frame(of: root) == Self.rect(0, 0, 240, 84))
        #expect(t.frame(of: a) == Self.rect(0, 0, 140, 84))
        #expect(t.frame(of: b) == Self.rect(140, 0, 100, 84))
        #expect(t.style(of: a).intrinsicSize == Size(width: 130, height: 74))
        var s = FlexStyle()
        s.maxWidth = .points(-1)
        s.maxHeight = .points(7)
        s.intrinsicSize = Size(width: .nan, height: 3)
        let c = t.addNode(s, parent: root)
        #expect(t.style(of: c).maxWidth == .auto)
        #expect(t.style(of: c).maxHeight == .points(7))
        #expect(t.style(of: c).intrinsicSize == Size(width: 0, height: 3))
    }

    // MARK: §9.7 resolving flexible lengths

    @Test func growFreezesMinViolatorsThenRedistributes() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.width = .points(300); $0.height = .points(10) }, parent: nil)
        let item = Self.style { $0.flexGrow = 1; $0.flexBasis = .points(0) }
        let a = t.addNode(item, parent: root)
        let b = t.addNode(item, parent: root)
        let c = t.addNode(Self.style { $0.flexGrow = 1; $0.flexBasis = .points(0); $0.minWidth = .points(150) }, parent: root)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        // Round 1 gives 100 each; c violates its min (150) and freezes; a and b share 150.
        #expect(t.frame(of: a) == Self.rect(0, 0, 75, 10))
        #expect(t.frame(of: b) == Self.rect(75, 0, 75, 10))
        #expect(t.frame(of: c) == Self.rect(150, 0, 150, 10))
    }

    @Test func shrinkStopsAtAutomaticMinimumSize() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.width = .points(100); $0.height = .points(10) }, parent: nil)
        let a = t.addNode(Self.style { $0.width = .points(100) }, parent: root)
        t.addNode(Self.style { $0.width = .points(80) }, parent: a) // content: min-content 80
        let b = t.addNode(Self.style { $0.width = .points(100) }, parent: root)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        // Each would shrink by 50; a's automatic minimum is min(100, 80) = 80, so it freezes
        // there and b takes the rest of the deficit: 100 - 80 = 20.
        #expect(t.frame(of: a).width == 80)
        #expect(t.frame(of: b) == Self.rect(80, 0, 20, 10))
    }

    @Test func shrinkIsWeightedByBaseSize() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.width = .points(100); $0.height = .points(10) }, parent: nil)
        let a = t.addNode(Self.style { $0.width = .points(150) }, parent: root)
        let b = t.addNode(Self.style { $0.width = .points(50) }, parent: root)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        // Deficit 100 split 3:1 by scaled shrink factors (150·1 : 50·1).
        #expect(t.frame(of: a).width == 75)
        #expect(t.frame(of: b) == Self.rect(75, 0, 25, 10))
    }

    @Test func flexGrowSumBelowOneLeavesSpace() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.width = .points(100); $0.height = .points(10) }, parent: nil)
        let a = t.addNode(Self.style { $0.flexGrow = 0.25 }, parent: root)
        let b = t.addNode(Self.style { $0.flexGrow = 0.25 }, parent: root)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        // Sum of factors 0.5 < 1: only half the free space is distributed.
        #expect(t.frame(of: a) == Self.rect(0, 0, 25, 10))
        #expect(t.frame(of: b) == Self.rect(25, 0, 25, 10))
    }

    @Test func flexBasisSmallerThanContentIsClampedByAutomaticMinimum() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.direction = .column; $0.width = .points(50) }, parent: nil)
        let a = t.addNode(Self.style { $0.flexBasis = .points(20) }, parent: root)
        t.addNode(Self.style { $0.height = .points(60) }, parent: a)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        #expect(t.frame(of: a).height == 60)
        #expect(t.frame(of: root).height == 60)
    }

    // MARK: §9.5 main-axis alignment

    func justified(_ j: JustifyContent, itemWidths: [Double] = [20, 20], width: Double = 100) -> [Double] {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.width = .points(width); $0.height = .points(10); $0.justifyContent = j }, parent: nil)
        let ids = itemWidths.map { w in t.addNode(Self.style { $0.width = .points(w); $0.flexShrink = 0 }, parent: root) }
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        return ids.map { t.frame(of: $0).x }
    }

    @Test func justifyContentDistributesFreeSpace() {
        #expect(justified(.flexStart) == [0, 20])
        #expect(justified(.flexEnd) == [60, 80])
        #expect(justified(.center) == [30, 50])
        #expect(justified(.spaceBetween) == [0, 80])
        #expect(justified(.spaceAround) == [15, 65])
        #expect(justified(.spaceEvenly) == [20, 60])
        #expect(justified(.spaceBetween, itemWidths: [20]) == [0])
        #expect(justified(.spaceAround, itemWidths: [20]) == [40])
    }

    @Test func justifyContentWithNegativeFreeSpace() {
        // 2 × 80 in 100: free space −60 (items do not shrink).
        #expect(justified(.flexEnd, itemWidths: [80, 80]) == [-60, 20])
        #expect(justified(.center, itemWidths: [80, 80]) == [-30, 50])
        #expect(justified(.spaceBetween, itemWidths: [80, 80]) == [0, 80])
        #expect(justified(.spaceAround, itemWidths: [80, 80]) == [0, 80])
        #expect(justified(.spaceEvenly, itemWidths: [80, 80]) == [0, 80])
    }

    // MARK: §9.4 / §9.6 cross sizes and alignment

    @Test func alignSelfAndStretch() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.direction = .column; $0.width = .points(100); $0.alignItems = .center }, parent: nil)
        let centered = t.addNode(Self.style { $0.width = .points(40); $0.height = .points(10) }, parent: root)
        let end = t.addNode(Self.style { $0.width = .points(40); $0.height = .points(10); $0.alignSelf = .flexEnd }, parent: root)
        let stretched = t.addNode(Self.style {
            $0.height = .points(10); $0.alignSelf = .stretch; $0.margin = Edges(top: 0, left: 10, bottom: 0, right: 5)
        }, parent: root)
        let start = t.addNode(Self.style { $0.width = .points(40); $0.height = .points(10); $0.alignSelf = .flexStart }, parent: root)
        let overflow = t.addNode(Self.style { $0.width = .points(140); $0.height = .points(10) }, parent: root)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        #expect(t.frame(of: centered) == Self.rect(30, 0, 40, 10))
        #expect(t.frame(of: end) == Self.rect(60, 10, 40, 10))
        #expect(t.frame(of: stretched) == Self.rect(10, 20, 85, 10))
        #expect(t.frame(of: start) == Self.rect(0, 30, 40, 10))
        #expect(t.frame(of: overflow) == Self.rect(-20, 40, 140, 10)) // unsafe centre
    }

    @Test func stretchRespectsMinCrossSizeAndPadding() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.width = .points(100); $0.height = .points(20) }, parent: nil)
        let a = t.addNode(Self.style { $0.width = .points(10); $0.minHeight = .points(50) }, parent: root)
        let b = t.addNode(Self.style { $0.width = .points(10); $0.padding = Edges(top: 15, left: 0, bottom: 15, right: 0) }, parent: root)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        #expect(t.frame(of: a).height == 50)
        #expect(t.frame(of: b).height == 30)
    }

    // MARK: container sizing, gaps, display none, box model

    @Test func maxContentRootSizesToItsItems() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.padding = Edges(all: 5); $0.columnGap = 3 }, parent: nil)
        t.addNode(Self.style { $0.width = .points(30); $0.height = .points(10) }, parent: root)
        let b = t.addNode(Self.style {
            $0.width = .points(40); $0.height = .points(20); $0.margin = Edges(top: 1, left: 2, bottom: 3, right: 4)
        }, parent: root)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        #expect(t.frame(of: root) == Self.rect(0, 0, 5 + 30 + 3 + 2 + 40 + 4 + 5, 5 + 1 + 20 + 3 + 5))
        #expect(t.frame(of: b) == Self.rect(5 + 30 + 3 + 2, 6, 40, 20))
    }

    @Test func minHeightRootGrowsItemsAndNestedItems() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.direction = .column; $0.width = .points(390); $0.minHeight = .points(844) }, parent: nil)
        let header = t.addNode(Self.style { $0.height = .points(100) }, parent: root)
        let body = t.addNode(Self.style { $0.direction = .column; $0.flexGrow = 1 }, parent: root)
        let inner = t.addNode(Self.style { $0.flexGrow = 1 }, parent: body)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        #expect(t.frame(of: root) == Self.rect(0, 0, 390, 844))
        #expect(t.frame(of: header) == Self.rect(0, 0, 390, 100))
        #expect(t.frame(of: body) == Self.rect(0, 100, 390, 744))
        #expect(t.frame(of: inner) == Self.rect(0, 0, 390, 744))
    }

    @Test func contentLongerThanMinHeightWins() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.direction = .column; $0.width = .points(390); $0.minHeight = .points(100) }, parent: nil)
        for _ in 0..<3 { t.addNode(Self.style { $0.height = .points(50); $0.flexShrink = 0 }, parent: root) }
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        #expect(t.frame(of: root).height == 150)
    }

    @Test func displayNoneTakesNoSpaceAndNoGap() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.columnGap = 10; $0.height = .points(10) }, parent: nil)
        let a = t.addNode(Self.style { $0.width = .points(10) }, parent: root)
        let hidden = t.addNode(Self.style { $0.width = .points(10); $0.display = false }, parent: root)
        let hiddenChild = t.addNode(Self.style { $0.width = .points(5) }, parent: hidden)
        let c = t.addNode(Self.style { $0.width = .points(10) }, parent: root)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        #expect(t.frame(of: root).width == 30)
        #expect(t.frame(of: a).x == 0)
        #expect(t.frame(of: c).x == 20)
        #expect(t.frame(of: hidden) == .zero)
        #expect(t.frame(of: hiddenChild) == .zero)
    }

    @Test func borderBoxNeverSmallerThanPadding() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.direction = .column; $0.width = .points(10); $0.padding = Edges(all: 20) }, parent: nil)
        let child = t.addNode(Self.style { $0.height = .points(5); $0.padding = Edges(all: 4) }, parent: root)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        #expect(t.frame(of: root) == Self.rect(0, 0, 40, 48))
        #expect(t.frame(of: child) == Self.rect(20, 20, 8, 8))
    }

    @Test func availableWidthIsFilledByAnAutoWidthRoot() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.direction = .column; $0.margin = Edges(all: 10) }, parent: nil)
        let child = t.addNode(Self.style { $0.height = .points(30) }, parent: root)
        t.computeLayout(root: root, availableWidth: 200, availableHeight: 500)
        #expect(t.frame(of: root) == Self.rect(10, 10, 180, 30))
        #expect(t.frame(of: child) == Self.rect(0, 0, 180, 30))
    }

    @Test func hiddenRootAndNonFiniteAvailableSizes() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.display = false; $0.width = .points(10); $0.height = .points(10) }, parent: nil)
        let child = t.addNode(Self.style { $0.width = .points(5); $0.height = .points(5) }, parent: root)
        t.computeLayout(root: root, availableWidth: 100, availableHeight: 100)
        #expect(t.frame(of: root) == .zero)
        #expect(t.frame(of: child) == .zero)

        var u = FlexTree()
        let r = u.addNode(Self.style { $0.columnGap = 2 }, parent: nil)
        u.addNode(Self.style { $0.width = .points(30); $0.height = .points(4) }, parent: r)
        u.addNode(Self.style { $0.width = .points(20); $0.height = .points(6) }, parent: r)
        u.computeLayout(root: r, availableWidth: .nan, availableHeight: .infinity) // = max-content
        #expect(u.frame(of: r) == Self.rect(0, 0, 52, 6))
        u.computeLayout(root: r, availableWidth: -5, availableHeight: nil) // floors at padding (0)
        #expect(u.frame(of: r).width == 0)
    }

    @Test func invalidValuesFallBackToInitialValues() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.width = .points(100); $0.height = .points(10) }, parent: nil)
        let a = t.addNode(Self.style {
            $0.width = .points(-5); $0.flexGrow = .nan; $0.flexShrink = -1; $0.padding = Edges(all: .infinity)
        }, parent: root)
        let stored = t.style(of: a)
        #expect(stored.width == .auto)
        #expect(stored.flexGrow == 0)
        #expect(stored.flexShrink == 1)
        #expect(stored.padding == .zero)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        #expect(t.frame(of: a) == Self.rect(0, 0, 0, 10))
    }

    // MARK: tree mechanics

    @Test func deepTreesDoNotRecurse() {
        var t = FlexTree()
        let depth = 5000
        var node = t.addNode(Self.style { $0.direction = .column; $0.padding = Edges(all: 1) }, parent: nil)
        for _ in 1..<depth - 1 {
            node = t.addNode(Self.style { $0.direction = .column; $0.padding = Edges(all: 1) }, parent: node)
        }
        let leaf = t.addNode(Self.style { $0.height = .points(10); $0.width = .points(7) }, parent: node)
        t.computeLayout(root: 0, availableWidth: nil, availableHeight: nil)
        #expect(t.frame(of: 0) == Self.rect(0, 0, 7 + 2 * Double(depth - 1), 10 + 2 * Double(depth - 1)))
        #expect(t.frame(of: leaf) == Self.rect(1, 1, 7, 10))
    }

    @Test func copiesAreIndependent() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.width = .points(100); $0.height = .points(10) }, parent: nil)
        let a = t.addNode(Self.style { $0.width = .points(30) }, parent: root)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        var copy = t
        copy.setStyle(Self.style { $0.width = .points(60) }, of: a)
        copy.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        #expect(copy.frame(of: a).width == 60)
        #expect(t.frame(of: a).width == 30)
        #expect(t.style(of: a).width == .points(30))
    }

    @Test func marginsAndPaddingsRoundTripThroughTheInternTable() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.direction = .column; $0.width = .points(100) }, parent: nil)
        var ids: [FlexNodeID] = []
        for k in 0..<40 { // more distinct values than the table's first capacity
            let e = Edges(top: Double(k), left: 1, bottom: Double(k % 3), right: 2)
            ids.append(t.addNode(Self.style { $0.margin = e; $0.padding = Edges(all: Double(k % 5)) }, parent: root))
        }
        var copy = t
        copy.setStyle(Self.style { $0.margin = Edges(all: 99) }, of: ids[0])
        for (k, id) in ids.enumerated() {
            #expect(t.style(of: id).margin == Edges(top: Double(k), left: 1, bottom: Double(k % 3), right: 2))
            #expect(t.style(of: id).padding == Edges(all: Double(k % 5)))
        }
        #expect(copy.style(of: ids[0]).margin == Edges(all: 99))
        #expect(copy.style(of: ids[0]).padding == .zero)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        var y = 0.0
        for (k, id) in ids.enumerated() {
            y += Double(k)
            #expect(t.frame(of: id) == Self.rect(1, y, 97, 2 * Double(k % 5)))
            y += 2 * Double(k % 5) + Double(k % 3)
        }
    }

    @Test func treeQueries() {
        var t = FlexTree(capacity: 2)
        let root = t.addNode(FlexStyle(), parent: nil)
        let a = t.addNode(FlexStyle(), parent: root)
        let b = t.addNode(FlexStyle(), parent: root)
        let c = t.addNode(FlexStyle(), parent: a)
        #expect(t.nodeCount == 4)
        #expect(t.children(of: root) == [a, b])
        #expect(t.childCount(of: root) == 2)
        #expect(t.parent(of: c) == a)
        #expect(t.parent(of: root) == nil)
    }

    @Test func layingOutASubtreeLeavesOthersAlone() {
        var t = FlexTree()
        let root = t.addNode(Self.style { $0.width = .points(100); $0.height = .points(10) }, parent: nil)
        let a = t.addNode(Self.style { $0.width = .points(30) }, parent: root)
        let other = t.addNode(Self.style { $0.width = .points(50); $0.height = .points(5) }, parent: nil)
        t.computeLayout(root: other, availableWidth: nil, availableHeight: nil)
        #expect(t.frame(of: other) == Self.rect(0, 0, 50, 5))
        #expect(t.frame(of: a) == .zero)
        t.computeLayout(root: root, availableWidth: nil, availableHeight: nil)
        #expect(t.frame(of: a) == Self.rect(0, 0, 30, 10))
        #expect(t.frame(of: other) == Self.rect(0, 0, 50, 5))
    }
}
