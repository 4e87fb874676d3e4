import Layout
@testable import StoreFormat
import Testing

/// The keys `OrderKey` hands out (the keys in a file: StoreTests' `OrderKeyTests`).
@Suite struct OrderKeyTests {
    /// `spread` hands out increasing keys under the prefix, within the height, never ending in
    /// the zero digit, and `between` still finds keys between any two of them.
    @Test func spreadKeysAreOrderedAndSplittable() throws {
        for (count, height) in [(1, 1), (7, 1), (60, 2), (3600, 5), (200_000, 12)] {
            let keys = try OrderKey.spread(count, under: "a0V", height: height)
            #expect(keys.count == count)
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(keys.allSatisfy { $0.hasPrefix("a0V") && $0.utf8.count <= 3 + height && !$0.hasSuffix("0") })
            #expect(keys.first!.utf8.lexicographicallyPrecedes("a0W".utf8))
            let mid = try OrderKey.between(keys[0], keys.count > 1 ? keys[1] : "a0W")
            #expect(keys[0].utf8.lexicographicallyPrecedes(mid.utf8))
        }
    }
}
