/// What an `ImplicitTreap` keeps for every subtree: the summary of a sequence of elements, a
/// monoid whose `count` is the number of elements (the metric positions are counted in).
///
/// `+` must be associative with `zero` as its identity; it need not be commutative (a summary
/// may hold extents relative to the sequence's start). The tree stores each element's own
/// summary and each subtree's total, and recomputes a total as `left + own + right`.
public protocol TreapSummary: Equatable, Sendable {
    /// The summary of no elements.
    static var zero: Self { get }
    /// Number of elements summarised.
    var count: Int { get }
    /// The summary of the elements of `lhs` followed by those of `rhs`.
    static func + (lhs: Self, rhs: Self) -> Self
    /// The one summary every element has, when all elements have the same (as for
    /// `ElementCount`); nil (the default) when elements differ. With it, the tree does not read
    /// its column of element summaries when it recombines a total.
    static var uniformElement: Self? { get }
}

extension TreapSummary {
    @inlinable
    public static var uniformElement: Self? { nil }
}

/// A summary whose `+` is commutative and can be undone (an abelian group: `(a + b) - b == a`,
/// `a + b == b + a`), such as counts and plain sums. `ImplicitTreap.remove` then updates the
/// ancestors of a removed node by one subtraction each instead of recombining their children.
public protocol SubtractableTreapSummary: TreapSummary {
    /// The summary of `lhs` without the elements of `rhs` (which it contains).
    static func - (lhs: Self, rhs: Self) -> Self
}

/// The plain order-statistics summary: how many elements (every element counts 1).
public struct ElementCount: SubtractableTreapSummary, Hashable {
    @usableFromInline var value: Int32

    @inlinable
    public init(_ count: Int) { value = Int32(truncatingIfNeeded: count) }

    @inlinable
    init(value: Int32) { self.value = value }

    /// One element.
    public static let one = ElementCount(1)
    /// Every element counts one.
    @inlinable
    public static var uniformElement: ElementCount? { ElementCount(value: 1) }
    public static let zero = ElementCount(0)

    @inlinable
    public var count: Int { Int(value) }

    @inlinable @inline(__always)
    public static func + (lhs: ElementCount, rhs: ElementCount) -> ElementCount {
        ElementCount(value: lhs.value &+ rhs.value)
    }

    @inlinable @inline(__always)
    public static func - (lhs: ElementCount, rhs: ElementCount) -> ElementCount {
        ElementCount(value: lhs.value &- rhs.value)
    }
}
