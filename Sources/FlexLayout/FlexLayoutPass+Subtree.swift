extension FlexLayoutPass {
    /// Step 0: classifies nodes from `root` on as outside the subtree, laid out, or
    /// `display: none` (itself or through an ancestor). `display: none` boxes get a zero frame.
    /// One forward sweep: a parent's id is smaller than its children's, so its state is known.
    func markSubtree(root: Int) {
        let rootHidden = FlexStylePacking.isHidden(flags[root])
        state[root] = rootHidden ? Self.none : Self.laidOut
        if rootHidden { frame[root] = .zero }
        var i = root + 1
        while i < count {
            let p = Int(parent[i])
            if p < root {
                state[i] = Self.outside
            } else {
                let ps = state[p]
                if ps == Self.outside {
                    state[i] = Self.outside
                } else if ps == Self.none || FlexStylePacking.isHidden(flags[i]) {
                    state[i] = Self.none
                    frame[i] = .zero
                } else {
                    state[i] = Self.laidOut
                }
            }
            i += 1
        }
    }
}
