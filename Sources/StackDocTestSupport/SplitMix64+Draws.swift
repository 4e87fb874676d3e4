import Layout
import OrderStatistics

/// The one seeded generator of the tests is `SplitMix64` (OrderStatistics: a test that draws
/// imports it): a run reproduces from its seed in any process. These are the short draws the
/// generators use.
extension SplitMix64 {
    /// A uniform integer in `range`.
    public mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
    /// True once in `oneIn` draws on average.
    public mutating func chance(_ oneIn: Int) -> Bool { Int.random(in: 0..<oneIn, using: &self) == 0 }
    /// A uniform element of the non-empty `items`.
    public mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
}
