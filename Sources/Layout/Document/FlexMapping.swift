// How the document vocabulary maps onto the engine's CSS vocabulary (SPEC §2.3).

extension Axis {
    /// The `flex-direction` of a stack with this axis.
    var flexDirection: FlexDirection { self == .vertical ? .column : .row }
}

extension Justify {
    /// The `justify-content` value of this justify.
    var flex: JustifyContent {
        switch self {
        case .start: return .flexStart
        case .end: return .flexEnd
        case .center: return .center
        case .spaceBetween: return .spaceBetween
        case .spaceAround: return .spaceAround
        case .spaceEvenly: return .spaceEvenly
        }
    }
}

extension Align {
    /// The `align-items` value of this align.
    var flex: AlignItems {
        switch self {
        case .start: return .flexStart
        case .center: return .center
        case .end: return .flexEnd
        case .stretch: return .stretch
        }
    }
}

extension AlignSelf {
    /// The `align-self` value of this alignSelf.
    var flex: AlignSelfValue {
        switch self {
        case .auto: return .auto
        case .start: return .flexStart
        case .center: return .center
        case .end: return .flexEnd
        case .stretch: return .stretch
        }
    }

    /// The alignment that applies to a row in a stack aligned `parent` (`auto` → the parent's).
    func resolved(in parent: Align) -> Align {
        switch self {
        case .auto: return parent
        case .start: return .start
        case .center: return .center
        case .end: return .end
        case .stretch: return .stretch
        }
    }
}

extension Edges {
    /// Sum of the two edges along `axis` (top + bottom for vertical, left + right for horizontal).
    func sum(along axis: Axis) -> Double { axis == .vertical ? vertical : horizontal }
}
