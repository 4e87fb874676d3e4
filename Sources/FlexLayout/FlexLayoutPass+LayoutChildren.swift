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
            }
        }

        // §9.5: main-axis alignment.
        let (leading, between) = Self.mainAxisDistribution(
            justify: FlexStylePacking.justify(containerFlags),
            freeSpace: innerMain - gaps - usedMain, itemCount: itemCount)

        // §9.4 cross sizes and §9.6 cross-axis alignment, then the frames.
        let pad = padding[i]
        var cursor = (column ? pad.top : pad.left) + leading
        let crossStart = column ? pad.left : pad.top
        let step = gap + between
        var c = Int(firstChild[i])
        while c >= 0 {
            if state[c] == Self.laidOut {
                let main = inflexible ? hypotheticalMain[c] : frameMain(c, column)
                let alignment = resolvedAlignment(c, containerFlags: containerFlags)
                let cross = usedCrossSize(c, column, alignment: alignment, lineCross: innerCross)
                let m = margin[c]
                if column {
                    let offset = Self.crossAxisOffset(alignment: alignment, freeSpace: innerCross - cross - m.horizontal)
                    let y = cursor + m.top
                    frame[c] = Rect(x: crossStart + m.left + offset, y: y, width: cross, height: main)
                    cursor = y + main + m.bottom + step
                } else {
                    let offset = Self.crossAxisOffset(alignment: alignment, freeSpace: innerCross - cross - m.vertical)
                    let x = cursor + m.left
                    frame[c] = Rect(x: x, y: crossStart + m.top + offset, width: main, height: cross)
                    cursor = x + main + m.right + step
                }
            }
            c = Int(nextSibling[c])
        }
    }
}
