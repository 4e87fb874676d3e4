// Building a LiveLayout from a document: `rebuild(_:)`.

extension LiveLayout {
    /// What decides a leaf root row's layout on its own (no nested rows): its document style
    /// record, hidden and fit flags, size and content. Under the `alone` settings two leaf root
    /// rows with the same key have the same frame (but for its main-axis position), so one of
    /// them is laid out by the engine for all.
    struct LeafKey: Hashable {
        var style: Int32
        var flags: UInt8
        var size: UInt64
        var contentWidth: UInt64
        var contentHeight: UInt64

        /// A cheap mix of the fields (for `LeafKeyCache`; the dictionary hashes with `Hasher`)
        /// whose every bit depends on every bit of the fields. The lengths are `Double` bit
        /// patterns: a whole number of points has its low 40-odd bits zero, so the fields are
        /// folded together and then finished with MurmurHash3's `fmix64` (a multiply and a
        /// shift down, twice), which carries their high bits into the low ones the cache indexes
        /// with. (The mix before kept the low bits of every whole size equal: all keys of a
        /// `fixed 20…200` document shared one bucket and the cache never hit.)
        @inline(__always) var mixed: UInt64 {
            var x = size ^ (contentWidth &* 0x9E37_79B9_7F4A_7C15) ^ (contentHeight &* 0xBF58_476D_1CE4_E5B9)
            x ^= UInt64(truncatingIfNeeded: UInt32(bitPattern: style)) &<< 8 | UInt64(flags)
            x ^= x &>> 33
            x &*= 0xFF51_AFD7_ED55_8CCD
            x ^= x &>> 33
            x &*= 0xC4CE_B9FE_1A85_EC53
            return x ^ (x &>> 33)
        }
    }

    /// A small cache in front of the leaf keys' dictionary: a million root rows with a few
    /// hundred distinct keys find theirs here without hashing each key with `Hasher`. Two-way
    /// set-associative: a key may sit in either bucket of its pair (`bucket(_:)` and the one
    /// beside it), so two keys whose mixes collide do not evict each other row after row.
    struct LeafKeyCache {
        private var keys: [LeafKey]
        private var values: [Int32]
        static let size = 1024

        init() {
            keys = Array(repeating: LeafKey(style: -1, flags: 0, size: 0, contentWidth: 0, contentHeight: 0), count: Self.size)
            values = Array(repeating: -1, count: Self.size)
        }

        /// The first bucket of `key`'s pair (`bucket ^ 1` is the other).
        @inline(__always) static func bucket(_ key: LeafKey) -> Int { Int(truncatingIfNeeded: key.mixed) & (size - 1) }

        /// The value cached for `key`, or nil.
        @inline(__always) func value(_ key: LeafKey) -> Int32? {
            let h = Self.bucket(key)
            if values[h] >= 0 && keys[h] == key { return values[h] }
            return values[h ^ 1] >= 0 && keys[h ^ 1] == key ? values[h ^ 1] : nil
        }

        /// Caches `value` (≥ 0) for `key` (not cached) in the first bucket of its pair; what that
        /// bucket held moves to the other one, replacing what it held.
        @inline(__always) mutating func set(_ key: LeafKey, _ value: Int32) {
            let h = Self.bucket(key)
            if values[h] >= 0 {
                keys[h ^ 1] = keys[h]
                values[h ^ 1] = values[h]
            }
            keys[h] = key
            values[h] = value
        }
    }

    /// The layout of a leaf: its interned `LeafStyle` number and border-box main length.
    struct LeafResult {
        var style: Int32 = -1
        var mainLength = 0.0
    }

    /// Root rows between two that need the engine, at most, laid out with them rather than
    /// starting another slice (a slice has a fixed cost).
    static let sliceGap = 32

    /// Lays the whole document out and rebuilds the index (or keeps the full layout when the
    /// incremental regime does not hold). In the regime a root row's layout does not depend on
    /// its siblings (no main-axis free space, as for `LocalRows.compute`), so:
    ///
    /// 1. the root's rows are walked once: a root row with nested rows needs the engine; a leaf
    ///    gets the number of its `LeafKey`, and only the first leaf of each key needs the engine;
    /// 2. the root rows that need it are laid out by the engine in slices (`chunk` root rows at
    ///    most, with their subtrees, under the `alone` settings; nearby ones share a slice);
    /// 3. the entries are appended in order, leaves from their key's result.
    ///
    /// A flat document of a million rows with a few hundred distinct sizes so lays out a few
    /// hundred rows instead of a million. No `DocumentLayout` and never the whole engine tree at
    /// once. Outside the regime, one full layout: when that is certain before the slices
    /// (`certainlyOutsideRegime`: a sticky row, or free space the root distributes), only that.
    mutating func rebuild(_ doc: Document) {
        rowsLaidOut += doc.rowCount
        document = doc.name
        settings = doc.settings
        let s = settings
        // Outside the regime for sure: one full layout, no slices first.
        if Self.certainlyOutsideRegime(doc) {
            growing = 0
            line = RootLine()
            rootTable = DocumentIndexTable()
            nestedLocation = [:]
            full = doc.layout()
            return
        }
        let alone = LocalRows.alone(s)
        let store = doc.rows
        let rootCount = doc.childCount(of: nil)

        // 1. Root slots, leaf keys, and the root rows the engine must lay out.
        // Root row i's slot: i itself while `slotsInOrder` (every root row so far at its own
        // slot, as in a flat load: no column of a million slots then), else `rootSlots[i]`.
        var rootSlots: [Int32] = []
        var slotsInOrder = true
        var resultOf: [Int32] = []          // per root row: its leaf result, -1 with nested rows
        resultOf.reserveCapacity(rootCount)
        var results: [LeafResult] = []
        var resultOfKey: [LeafKey: Int32] = [:]
        var recent = LeafKeyCache()
        var needed: [Int] = []              // root indexes, ascending
        var slot = store.order.first(store.rootRoot)
        while slot >= 0 {
            let i = resultOf.count
            if slotsInOrder && slot != Int32(truncatingIfNeeded: i) {
                slotsInOrder = false
                rootSlots.reserveCapacity(rootCount)
                rootSlots.append(contentsOf: 0..<Int32(truncatingIfNeeded: i))
            }
            if !slotsInOrder { rootSlots.append(slot) }
            if store.childRoot[Int(slot)] >= 0 {
                resultOf.append(-1)
                needed.append(i)
            } else {
                let content = store.content[Int(slot)]
                let key = LeafKey(style: store.style[Int(slot)], flags: store.flags[Int(slot)],
                                  size: store.sizeValue[Int(slot)].bitPattern,
                                  contentWidth: content.width.bitPattern, contentHeight: content.height.bitPattern)
                if let known = recent.value(key) {
                    resultOf.append(known)
                } else if let known = resultOfKey[key] {
                    recent.set(key, known)
                    resultOf.append(known)
                } else {
                    let n = Int32(truncatingIfNeeded: results.count)
                    results.append(LeafResult())
                    resultOfKey[key] = n
                    recent.set(key, n)
                    resultOf.append(n)
                    needed.append(i)
                }
            }
            slot = store.order.successor(slot)
        }
        resultOfKey = [:]

        // 2. The engine, slice by slice.
        var entries = LiveEntries(axis: s.axis)
        var subtreeOf: [Int: LocalRows] = [:]
        var sticky = false
        var laidOutOnce = false
        var leafOfStyle = [Int32](repeating: -1, count: store.styles.records.count)
        var n = 0
        while n < needed.count {
            let lower = needed[n]
            var upper = lower + 1
            n += 1
            while n < needed.count, needed[n] - upper <= Self.sliceGap, needed[n] + 1 - lower <= chunk {
                upper = needed[n] + 1
                n += 1
            }
            layOutSlice(doc, alone, lower..<upper, resultOf: resultOf, results: &results, subtreeOf: &subtreeOf,
                        entries: &entries, leafOfStyle: &leafOfStyle, sticky: &sticky)
            laidOutOnce = true
        }
        if !laidOutOnce {
            let rootFrame = doc.laidOut(settings: alone, roots: 0..<0)
            crossSize = vertical ? rootFrame.tree.frame(of: rootFrame.rootNode).width : rootFrame.tree.frame(of: rootFrame.rootNode).height
        }

        // 3. The entries in order.
        // Node i is root row i; when that is slot i of a document of root rows only, the
        // document's id table (slot → id) is this layout's (node → id) as it stands.
        let nodesAreSlots = store.count == rootCount && store.ids.count == rootCount && slotsInOrder
        var contributions: [Double] = []
        var grow = 0
        let gap = self.gap
        if nodesAreSlots {
            // Every root row a leaf (no nested rows) at its own slot: one pass over the results,
            // and the entries' ids the document's own column (shared until either changes it).
            let leafResults = results, leafOf = resultOf
            (contributions, grow) = entries.setLeaves(ids: store.ids, count: rootCount, gap: gap) { i in
                let leaf = leafResults[Int(leafOf[i])]
                return (leaf.style, leaf.mainLength)
            }
        }
        if !nodesAreSlots {
            entries.reserveCapacity(rootCount)
            contributions.reserveCapacity(rootCount)
        }
        for i in nodesAreSlots ? rootCount..<rootCount : 0..<rootCount {
            let r = resultOf[i]
            if r >= 0 {
                let leaf = results[Int(r)]
                entries.appendLeaf(store.ids[slotsInOrder ? i : Int(rootSlots[i])], style: leaf.style, mainLength: leaf.mainLength)
            } else {
                let e = subtreeOf.removeValue(forKey: i)!
                if let sl = stackLine(of: e, config: store.config(slotsInOrder ? Int32(truncatingIfNeeded: i) : rootSlots[i]), in: doc) {
                    entries.appendLine(e.id, sl)
                } else {
                    entries.append(e, config: nil, defaults: s.defaults)
                }
            }
            let e = entries.count - 1
            if entries.shown(e) {
                if entries.grow(e) > 0 { grow += 1 }
                contributions.append(entries.outerLength(e) + gap)
            } else {
                contributions.append(0)
            }
        }
        rootSlots = []
        resultOf = []
        growing = grow
        line = RootLine(entries: entries, contributions: contributions)
        rootTable = DocumentIndexTable()
        nestedLocation = [:]
        links = []
        // A full layout may have grown rows when the root had free space: with grow, only
        // content strictly longer than the viewport proves the rows kept their own lengths.
        let inner = innerLength
        let proven = (settings.justify == .start && growing == 0)
            || (inner >= 0 && (growing == 0 ? inner >= viewportMain - paddingMain : inner > viewportMain - paddingMain))
        // Sticky rows (SPEC §2.7) are shown where the offset puts them: kept by the full layout,
        // which scrolls them without a relayout (`atOffset`).
        if proven && !sticky {
            full = nil
            let ids = line.entries.ids
            if nodesAreSlots {
                rootTable = store.table
            } else {
                // Root ids are distinct (they are the document's), so the bulk build finds no duplicate.
                _ = rootTable.build(count: line.entries.count, hashOf: { DocumentIndexTable.hash(ids[Int($0)]) },
                                    isEqual: { ids[Int($0)] == ids[Int($1)] })
            }
            // Root rows only (`nodesAreSlots`): no rows below them to index.
            if !nodesAreSlots {
                for node in 0..<Int32(line.entries.count) { indexNested(node) }
            }
        } else {
            full = doc.layout()
            line = RootLine()
        }
    }

    /// True when `doc` is outside the incremental regime whatever its rows' layouts, decided
    /// before any of them is laid out, so that `rebuild` pays for one full layout instead of the
    /// slices and then the full layout:
    ///
    /// - a row is sticky or a stack scrolls on its own, at any depth, shown or not (SPEC §2.7,
    ///   §2.8: the full layout keeps them);
    ///   O(styles in use);
    /// - or the root distributes free space (`justify` other than start, or a shown root row
    ///   that grows) and certainly has some: every shown root row is `fixed N` without text or
    ///   aspect ratio, and even counted at N plus its insets and margins (an upper bound of its
    ///   outer length) they and the gaps fall short of the viewport by more than a point. The
    ///   walk stops at the first root row whose length it cannot bound or once the bound reaches
    ///   the viewport, so a long document pays for the rows of about one viewport.
    ///
    /// False when in doubt: the slices' result decides, as before.
    static func certainlyOutsideRegime(_ doc: Document) -> Bool {
        let store = doc.rows
        let records = store.styles.records
        if records.contains(where: { $0.rest.sticky || $0.rest.scrollOffset != nil }) { return true }
        let s = doc.settings
        let vertical = s.axis == .vertical
        var distributes = s.justify != .start
        if !distributes && !records.contains(where: { $0.rest.grow > 0 }) { return false }
        let padding = s.layoutPadding
        let limit = (vertical ? s.viewport.height - padding.vertical : s.viewport.width - padding.horizontal) - 1
        let gap = s.layoutSpacing
        // Per style record: insets and margins along the main axis, nil when the record's
        // length follows its width (text, aspect ratio).
        var extraOfStyle = [Double?](repeating: nil, count: records.count)
        var known = [Bool](repeating: false, count: records.count)
        var bound = 0.0
        var shown = 0
        var slot = store.order.first(store.rootRoot)
        while slot >= 0 {
            defer { slot = store.order.successor(slot) }
            let flags = store.flags[Int(slot)]
            if flags & DocumentRows.hidden != 0 { continue }
            if flags & DocumentRows.fit != 0 { return false }
            let style = Int(store.style[Int(slot)])
            if !known[style] {
                known[style] = true
                let c = records[style].rest
                if !c.hasHeightForWidth {
                    let i = LayoutUnit.snap(c.effectiveInsets(s.defaults)), m = c.layoutMargin
                    extraOfStyle[style] = vertical ? i.top + i.bottom + m.top + m.bottom : i.left + i.right + m.left + m.right
                }
            }
            guard let extra = extraOfStyle[style] else { return false }
            if records[style].rest.grow > 0 { distributes = true }
            bound += (shown > 0 ? gap : 0) + LayoutUnit.snap(store.sizeValue[Int(slot)]) + extra
            shown += 1
            if bound >= limit { return false }
        }
        return distributes
    }

    /// Lays root rows `roots` out with the engine under `alone` settings: fills the result of
    /// each leaf's key not known yet (interning its `LeafStyle`) and keeps the `LocalRows` of
    /// every root row with nested rows, by root index.
    private mutating func layOutSlice(_ doc: Document, _ alone: DocumentSettings, _ roots: Range<Int>,
                                      resultOf: [Int32], results: inout [LeafResult], subtreeOf: inout [Int: LocalRows],
                                      entries: inout LiveEntries, leafOfStyle: inout [Int32], sticky: inout Bool) {
        let s = settings
        let store = doc.rows
        let c = doc.laidOut(settings: alone, roots: roots)
        if c.hasSticky || c.hasScroller { sticky = true }
        let rootFrame = c.tree.frame(of: c.rootNode)
        crossSize = vertical ? rootFrame.width : rootFrame.height
        let n = c.count
        var k = 0
        var i = roots.lowerBound
        while k < n {
            var end = k + 1
            while end < n, c.parentSlot[end] >= 0 { end += 1 }
            let slot = c.slots[k]
            let r = resultOf[i]
            if r >= 0 {
                if results[Int(r)].style < 0 {
                    let hidden = c.flags[k] & CompiledDocument.ownHidden != 0
                    let frame: Rect? = hidden ? nil : c.tree.frame(of: c.firstRowNode + k)
                    let cross = frame.map { vertical ? ($0.x, $0.width) : ($0.y, $0.height) } ?? (0, 0)
                    // The leaf style last interned for this document style (rows sharing one mostly share it).
                    let docStyle = Int(store.style[Int(slot)])
                    var number = leafOfStyle[docStyle]
                    if number < 0 || entries.styles[Int(number)].hidden != hidden
                        || entries.styles[Int(number)].crossStart != cross.0 || entries.styles[Int(number)].crossLength != cross.1 {
                        number = entries.intern(LiveEntries.leafStyle(store.config(slot), frame: frame, axis: s.axis,
                                                                      defaults: s.defaults))
                        leafOfStyle[docStyle] = number
                    }
                    results[Int(r)] = LeafResult(style: number, mainLength: frame.map { vertical ? $0.height : $0.width } ?? 0)
                }
            } else {
                let config = store.config(slot)
                let rows = LayoutAssembly.rows(of: c, range: k..<end, viewport: Rect(x: 0, y: 0, width: 0, height: 0),
                                               autoHideLast: s.defaults.autoHideLastSeparator)
                var shift = 0.0
                if let f = rows[0].frame {
                    shift = vertical ? f.y - config.layoutMargin.top : f.x - config.layoutMargin.left
                }
                subtreeOf[i] = LocalRows(id: c.ids[k], config: config, rows: rows[...], shift: shift, axis: s.axis,
                                         defaults: s.defaults)
            }
            k = end
            i += 1
        }
    }
}
