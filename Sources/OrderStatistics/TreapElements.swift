/// Where an `AugmentedTreap` keeps its elements and reads each element's summary: one element
/// per node, numbered like the nodes (`0..<count`).
///
/// `StoredSummaries` stores each element's summary in a column (the plain `ImplicitTreap`). A
/// client that already keeps per-element data supplies its own conformance instead and computes
/// an element's summary from that data, so the tree stores no second copy of it: only links and
/// subtree totals. After changing an element in place (`AugmentedTreap.elements`), the client
/// calls `AugmentedTreap.elementChanged(_:)` so that the totals above it follow.
public protocol TreapElements: Sendable {
    /// The subtree summary the tree keeps.
    associatedtype Summary: TreapSummary
    /// What the client hands over for a new node (`AugmentedTreap.makeNode(_:)`).
    associatedtype Element

    /// Number of nodes elements are kept for.
    var count: Int { get }
    /// The summary of node `x`'s element. Must be a pure function of the stored element.
    func summary(of x: Int32) -> Summary
    /// `summary(of: x).count`, without computing the rest of the summary when the client can.
    func count(of x: Int32) -> Int
    /// Keeps `element` for node `x`: replaces it for `x < count`, appends for `x == count`.
    mutating func store(_ element: Element, at x: Int32)
    /// Forgets node `x`'s element (the node is freed; its number will be reused).
    mutating func release(_ x: Int32)
    /// Makes room for `n` elements.
    mutating func reserveCapacity(_ n: Int)
}

extension TreapElements {
    @inlinable @inline(__always)
    public func count(of x: Int32) -> Int { summary(of: x).count }

    @inlinable
    public mutating func reserveCapacity(_ n: Int) {}
}

/// The elements of the plain `ImplicitTreap`: each node's element summary in one column (not
/// read at all when the summary type has a `uniformElement`).
public struct StoredSummaries<Summary: TreapSummary>: TreapElements {
    @usableFromInline var own: [Summary] = []

    @inlinable
    public init() {}

    @inlinable
    public var count: Int { own.count }

    @inlinable @inline(__always)
    public func summary(of x: Int32) -> Summary { Summary.uniformElement ?? own[Int(x)] }

    @inlinable
    public mutating func store(_ element: Summary, at x: Int32) {
        assert(Summary.uniformElement == nil || Summary.uniformElement == element,
               "ImplicitTreap.makeNode: this summary type has one uniform element")
        if Int(x) == own.count { own.append(element) } else { own[Int(x)] = element }
    }

    @inlinable
    public mutating func release(_ x: Int32) { own[Int(x)] = .zero }

    @inlinable
    public mutating func reserveCapacity(_ n: Int) { own.reserveCapacity(n) }

    /// True when both share one buffer. O(1).
    func sharesStorage(with other: StoredSummaries) -> Bool {
        own.withUnsafeBufferPointer { x in
            other.own.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress && x.count == y.count }
        }
    }
}

/// The augmented implicit treap that stores each element's summary itself.
public typealias ImplicitTreap<Summary: TreapSummary> = AugmentedTreap<StoredSummaries<Summary>>
