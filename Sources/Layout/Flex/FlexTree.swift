/// Index of a node in a `FlexTree`.
public typealias FlexNodeID = Int

/// A tree of flex boxes and the CSS Flexible Box Layout algorithm over it (CSS Flexbox §9,
/// single line, no wrap, left to right, border-box sizing, automatic minimum size §4.5).
///
/// Nodes are appended in order (a child after its parent); `computeLayout` fills every node's
/// frame relative to its parent's border box.
public struct FlexTree: Sendable {
    public init() {
        fatalError("FlexTree: not implemented yet")
    }

    /// Appends a node as the last child of `parent` (`nil` makes a root) and returns its id.
    @discardableResult
    public mutating func addNode(_ style: FlexStyle, parent: FlexNodeID?) -> FlexNodeID {
        fatalError("FlexTree: not implemented yet")
    }

    /// Lays out the tree under `root`. A `nil` available size is max-content (the root is then
    /// sized like an absolutely positioned box); the root's own margin offsets its frame.
    public mutating func computeLayout(root: FlexNodeID, availableWidth: Double?, availableHeight: Double?) {
        fatalError("FlexTree: not implemented yet")
    }

    /// The node's border box after `computeLayout`, relative to its parent's border box;
    /// `display: none` nodes and their subtrees are `Rect.zero`.
    public func frame(of node: FlexNodeID) -> Rect {
        fatalError("FlexTree: not implemented yet")
    }
}
