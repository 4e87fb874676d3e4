/// One container's flex line, end to end (CSS Flexbox §9.2–§9.6): the container's border box
/// is final; this sizes and positions its visible children relative to it.
extension FlexLayoutPass {
    func layoutChildren(of i: Int) {
        let column = isColumn(i)
        let containerFlags = flags[i]
        // §9.2 step 2: available space.
        let (innerMain, innerCross) = innerSizes(of: i, column)
        let itemCount = Int(visibleChildCount[i])
        guard itemCount > 0 else { return }
        let gap = mainGap(i, column)
        let gaps = gap * Double(itemCount - 1)
        if heightForWidth && sizing[i] & Self.dependsOnWidth != 0 {
            prepareItems(of: i, column, innerCross: innerCross, definite: sizing[i] & Self.definiteHeight != 0)
        }

        // §9.2 step 3 (flex base and hypothetical main sizes) ran in the intrinsic sweep.
        // §9.7: resolve flexible lengths, unless it cannot change anything: the items exactly
        // fill the line at their hypothetical sizes, or none of them can flex the needed way.
        let hypotheticalSum = childHypotheticalSum[i]
        let growing = hypotheticalSum + gaps < innerMain
        let flexFlags = childFlexFlags[i]
        let inflexible = hypotheticalSum + gaps == innerMain
            || (growing ? flexFlags & 1 == 0 : flexFlags & 2 == 0)
        var usedMain = hypotheticalSum
        if !inflexible {
            resolveFlexibleLengths(of: i, column, innerMain: innerMain, gaps: gaps)
            usedMain = 0
            var c = Int(firstChild[i])
            while c >= 0 {
                if state[c] == Self.laidOut { usedMain += frameMain(c, column) + marginMain(c, column) }
                c = Int(nextSibling[c])
            }
        }
        if heightForWidth && sizing[i] & Self.dependsOnWidth != 0 {
            if column {
                widthsAfterFlexing(of: i, inflexible: inflexible)
            } else {
                measureItems(of: i, inflexible: inflexible)
                stretchedHeightsAreDefinite(of: i)
            }
        }

        // §9.5: main-axis alignment.
        let distribution = Self.mainAxisDistribution(
            justify: FlexStylePacking.justify(containerFlags),
            freeSpace: innerMain - gaps - usedMain, itemCount: itemCount)

        // §9.4 cross sizes and §9.6 cross-axis alignment, then the frames. `cursor` is where
        // item k would start without the distributed space; `extra(before: k)` adds its share.
        let pad = padding[i]
        var cursor = (column ? pad.top : pad.left) + distribution.leading
        let crossStart = column ? pad.left : pad.top
        var k = 0
        var c = Int(firstChild[i])
        while c >= 0 {
            if state[c] == Self.laidOut {
                let main = inflexible ? hypotheticalMain[c] : frameMain(c, column)
                let alignment = resolvedAlignment(c, containerFlags: containerFlags)
                let cross = usedCrossSize(c, column, alignment: alignment, lineCross: innerCross)
                let m = margin[c]
                let start = cursor + distribution.extra(before: k)
                k += 1
                if column {
                    let offset = Self.crossAxisOffset(alignment: alignment, freeSpace: innerCross - cross - m.horizontal)
                    frame[c] = Rect(x: crossStart + m.left + offset, y: start + m.top, width: cross, height: main)
                    cursor += m.top + main + m.bottom + gap
                } else {
                    let offset = Self.crossAxisOffset(alignment: alignment, freeSpace: innerCross - cross - m.vertical)
                    frame[c] = Rect(x: start + m.left, y: crossStart + m.top + offset, width: main, height: cross)
                    cursor += m.left + main + m.right + gap
                }
            }
            c = Int(nextSibling[c])
        }
    }
}
