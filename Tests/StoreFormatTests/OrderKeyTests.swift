import OrderStatistics
import Layout
@testable import StoreFormat
import StackDocTestSupport
import Testing

/// The keys `OrderKey` hands out (the keys in a file: StoreTests' `OrderKeyTests`).
@Suite(.longRunning) struct OrderKeyTests {
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

    /// Keys made between random neighbours (either end open) lie strictly between them, and a
    /// run of keys made between two neighbours (`keyList`) is increasing and inside them.
    @Test func keysMadeBetweenNeighboursStayBetweenThem() throws {
        var rng = SplitMix64(seed: 31)
        var keys = [OrderKey.first]
        for _ in 0..<3000 {
            let i = rng.int(0..<(keys.count + 1))
            let a = i == 0 ? nil : keys[i - 1], b = i == keys.count ? nil : keys[i]
            let key = try OrderKey.between(a, b)
            #expect(a.map { $0.utf8.lexicographicallyPrecedes(key.utf8) } ?? true, "\(a ?? "-") < \(key)")
            #expect(b.map { key.utf8.lexicographicallyPrecedes($0.utf8) } ?? true, "\(key) < \(b ?? "-")")
            keys.insert(key, at: i)
        }
        var runs = 0
        for _ in 0..<200 {
            let i = rng.int(0..<(keys.count - 1))
            guard let list = try OrderKey.keyList(rng.int(1..<300), between: keys[i], keys[i + 1]) else { continue }
            let all = [Array(keys[i].utf8)] + list.arrays + [Array(keys[i + 1].utf8)]
            #expect(zip(all, all.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) })
            runs += 1
        }
        #expect(runs > 100)
    }
}
