/// CSS Flexbox §9.7 — Resolving Flexible Lengths, for the single line of container `i`.
/// The resulting target main sizes are written into the items' frames (main-axis size).
extension FlexLayoutPass {
    /// Runs §9.7 for the visible children of `i`. `innerMain` is the container's inner main
    /// size, `gaps` the total of the main-axis gaps between its items.
    func resolveFlexibleLengths(of i: Int, _ column: Bool, innerMain: Double, gaps: Double) {
        // 1. Determine the used flex factor.
        let growing = childHypotheticalSum[i] + gaps < innerMain

        // 2. Size inflexible items; 3. calculate the initial free space.
        var unfrozen = 0
        var occupied = 0.0 // outer targets of frozen items + outer bases of unfrozen ones
        var c = Int(firstChild[i])
        while c >= 0 {
            if state[c] == Self.laidOut {
                let base = flexBase[c]
                let hypothetical = hypotheticalMain[c]
                let factor = growing ? flexGrow[c] : flexShrink[c]
                let inflexible = factor == 0 || (growing ? base > hypothetical : base < hypothetical)
                if inflexible {
                    frozen[c] = 1
                    setFrameMain(c, column, hypothetical)
                    occupied += hypothetical + marginMain(c, column)
                } else {
                    frozen[c] = 0
                    occupied += base + marginMain(c, column)
                    unfrozen += 1
                }
            }
            c = Int(nextSibling[c])
        }
        let initialFreeSpace = innerMain - gaps - occupied

        // 4. Loop until every item is frozen.
        while unfrozen > 0 {
            // b. Calculate the remaining free space.
            var used = 0.0
            var sumFactors = 0.0
            var sumScaledShrink = 0.0
            c = Int(firstChild[i])
            while c >= 0 {
                if state[c] == Self.laidOut {
                    if frozen[c] == 1 {
                        used += frameMain(c, column) + marginMain(c, column)
                    } else {
                        let base = flexBase[c]
                        used += base + marginMain(c, column)
                        if growing {
                            sumFactors += flexGrow[c]
                        } else {
                            sumFactors += flexShrink[c]
                            sumScaledShrink += (base - paddingMain(c, column)) * flexShrink[c]
                        }
                    }
                }
                c = Int(nextSibling[c])
            }
            var remaining = innerMain - gaps - used
            if sumFactors < 1 {
                let scaled = initialFreeSpace * sumFactors
                if abs(scaled) < abs(remaining) { remaining = scaled }
            }

            // c. Distribute free space proportional to the flex factors;
            // d. fix min and max violations (clamp by max, then min). The added or removed
            // space is truncated to layout units (`LayoutUnit.truncate`): flexed items stay
            // exact sums.
            var totalViolation = 0.0
            c = Int(firstChild[i])
            while c >= 0 {
                if state[c] == Self.laidOut && frozen[c] != 1 {
                    let base = flexBase[c]
                    var target = base
                    if growing {
                        if remaining > 0 && sumFactors > 0 {
                            target = base + LayoutUnit.truncate(remaining * (flexGrow[c] / sumFactors))
                        }
                    } else if remaining < 0 && sumScaledShrink > 0 {
                        let scaled = (base - paddingMain(c, column)) * flexShrink[c]
                        target = base + LayoutUnit.truncate(remaining * (scaled / sumScaledShrink))
                    }
                    let clamped = clampMain(c, column, target)
                    if clamped > target {
                        frozen[c] = 2 // min violation in this round
                    } else if clamped < target {
                        frozen[c] = 3 // max violation in this round
                    } else {
                        frozen[c] = 0
                    }
                    totalViolation += clamped - target
                    target = clamped
                    setFrameMain(c, column, target)
                }
                c = Int(nextSibling[c])
            }

            // e. Freeze over-flexed items: all when the total violation is zero, the items
            // with a min violation when it is positive, those with a max violation when
            // negative; the others are thawed for the next round.
            let freezing: UInt8 = totalViolation > 0 ? 2 : totalViolation < 0 ? 3 : 0
            c = Int(firstChild[i])
            while c >= 0 {
                if state[c] == Self.laidOut {
                    let f = frozen[c]
                    if f == 1 {
                        // frozen in an earlier round
                    } else if freezing == 0 || f == freezing {
                        frozen[c] = 1
                        unfrozen -= 1
                    }
                }
                c = Int(nextSibling[c])
            }
        }
    }
}
