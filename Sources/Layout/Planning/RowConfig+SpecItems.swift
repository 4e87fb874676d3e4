// The inverse of `RowConfig.applying`: the ROWSPEC items that make a config.

extension RowConfig {
    /// The ROWSPEC items that give a fresh row (`RowConfig()`) exactly this config:
    /// `RowConfig().applying(c.specItems) == c` for every valid `c`. `log export` writes an
    /// imported document (and a compacted history's base) as one `add ID ROWSPEC` per row.
    /// Written from `forEachField`, the list the saved format's writer walks too (issue 35): a
    /// field the saved format holds is never left out here.
    public var specItems: [RowSpecItem] {
        let base = RowConfig()
        var items: [RowSpecItem] = []
        forEachField { field, value in
            switch value {
            case let .type(t): if t != base.type { items.append(.type(t)) }
            case .size(.fit): break
            case let .size(.fixed(n)): items.append(.fixed(n))
            case let .content(s): if s != base.content { items.append(.content(s)) }
            case let .insets(e): if let e { items.append(.insets(e)) }
            case let .margin(e): if e != base.margin { items.append(.margin(e)) }
            case let .grow(g): if g != base.grow { items.append(.grow(g)) }
            case let .shrink(s): if s != base.shrink { items.append(.shrink(s)) }
            case let .alignSelf(a): if a != base.alignSelf { items.append(.align(a)) }
            case let .hidden(h): if h { items.append(.hidden) }
            case let .sticky(on): if on { items.append(.sticky(true)) }
            case let .separator(o):
                items += o.specs.map(RowSpecItem.separator)
            case let .optional(v):
                if field == .rowSeparator {
                    items += (rowSeparator?.specs ?? []).map(RowSpecItem.rowSeparator)
                } else if let v, let item = RowSpecItem(field, v) {
                    items.append(item)
                }
            case let .stack(stack):
                guard let stack else { break }
                let b = StackSettings()
                stack.forEachField { member in
                    switch member {
                    case let .axis(a): items.append(.stack(a))  // (first: it makes the row a stack)
                    case let .justify(j): if j != b.justify { items.append(.justify(j)) }
                    case let .align(a): if a != b.align { items.append(.alignItems(a)) }
                    case let .spacing(n): if n != b.spacing { items.append(.spacing(n)) }
                    }
                }
            }
        }
        return items
    }
}

extension SeparatorOverrides {
    /// The SEPSPEC items that give empty overrides exactly these, in field order.
    public var specs: [SeparatorSpec] {
        var specs: [SeparatorSpec] = []
        if let hidden { specs.append(hidden ? .hidden : .shown) }
        if let insets { specs.append(.insets(insets)) }
        if let thickness { specs.append(.thickness(thickness)) }
        if let color { specs.append(.color(color)) }
        return specs
    }
}
