import Layout

/// The flat-stack workload of /work/shared/tools/peer_bench.py: a column root 390 wide with
/// `rows` children, each `h + 24` tall (h seeded in 20...200) with padding 12/15/12/15 and
/// `flex-shrink: 0`.
enum FlatWorkload {
    /// Seeded row heights 20...200 (SplitMix64, so every run lays out the same rows).
    static func heights(_ rows: Int, seed: UInt64 = 42) -> [Double] {
        var state = seed
        var result: [Double] = []
        result.reserveCapacity(rows)
        for _ in 0..<rows {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            result.append(Double(20 + z % 181))
        }
        return result
    }

    static func tree(heights: [Double]) -> FlexTree {
        var tree = FlexTree(capacity: heights.count + 1)
        var root = FlexStyle()
        root.direction = .column
        root.width = .points(390)
        let rootID = tree.addNode(root, parent: nil)
        var row = FlexStyle()
        row.padding = Edges(top: 12, left: 15, bottom: 12, right: 15)
        row.flexShrink = 0
        for h in heights {
            row.height = .points(h + 24)
            tree.addNode(row, parent: rootID)
        }
        return tree
    }
}

/// A nested workload: a column root 390 wide holding `stacks` row stacks (insets 12/15/12/15),
/// each holding `rowsPerStack` column stacks of two fixed rows: 1 + stacks · (1 + 3 · rowsPerStack)
/// nodes, three levels of containers, with growing and shrinking items.
enum NestedWorkload {
    static func tree(stacks: Int, rowsPerStack: Int) -> FlexTree {
        let heights = FlatWorkload.heights(stacks * rowsPerStack * 2)
        var tree = FlexTree(capacity: 1 + stacks * (1 + 3 * rowsPerStack))
        var root = FlexStyle()
        root.direction = .column
        root.width = .points(390)
        let rootID = tree.addNode(root, parent: nil)
        var stack = FlexStyle()
        stack.padding = Edges(top: 12, left: 15, bottom: 12, right: 15)
        stack.columnGap = 4
        stack.flexShrink = 0
        var cell = FlexStyle()
        cell.direction = .column
        cell.flexGrow = 1
        cell.flexBasis = .points(10)
        var leaf = FlexStyle()
        leaf.padding = Edges(top: 2, left: 3, bottom: 2, right: 3)
        var k = 0
        for _ in 0..<stacks {
            let s = tree.addNode(stack, parent: rootID)
            for _ in 0..<rowsPerStack {
                let c = tree.addNode(cell, parent: s)
                for _ in 0..<2 {
                    leaf.height = .points(heights[k])
                    k += 1
                    tree.addNode(leaf, parent: c)
                }
            }
        }
        return tree
    }
}
