import OrderStatistics
import Layout
@testable import StoreFormat
import StackDocTestSupport
import Testing

/// Column `row.fields` (migrations/0016, `RowFields`): every config comes back equal, the default
/// one (size apart) is NULL, and damaged bytes are refused with a clear error, never a crash.
@Suite(.offThePool) struct RowFieldsTests {
    /// `config` as `fields` keeps it: all but the size (column `size`).
    static func withoutSize(_ config: RowConfig) -> RowConfig {
        var c = config
        c.size = .fit
        return c
    }

    @Test func randomConfigsRoundTrip() throws {
        var g = RandomChanges(rng: SplitMix64(seed: 16_0016))
        var nulls = 0
        for round in 0..<3000 {
            var config = g.config()
            // Every tenth config at the defaults but for its size: NULL.
            if round % 10 == 0 { config = RowConfig(size: config.size) }
            let blob = RowFields.encode(config)
            if Self.withoutSize(config) == RowConfig() {
                #expect(blob == nil, "round \(round)")
                nulls += 1
            } else {
                let bytes = try #require(blob, "round \(round)")
                #expect(bytes.first != 0)
            }
            #expect(try RowFields.decode(blob) == Self.withoutSize(config), "round \(round)")
        }
        #expect(nulls >= 300)
        // Each field away from its default alone gives a blob (nothing is mistaken for a default).
        let every = EveryRowField.config
        var one: [RowConfig] = []
        for field in RowField.allCases where field != .size {
            var c = RowConfig()
            switch field {
            case .type: c.type = every.type
            case .content: c.content = every.content
            case .insets: c.insets = every.insets
            case .margin: c.margin = every.margin
            case .grow: c.grow = every.grow
            case .shrink: c.shrink = every.shrink
            case .alignSelf: c.alignSelf = every.alignSelf
            case .hidden: c.hidden = true
            case .sticky: c.sticky = true
            case .separator: c.separator = every.separator
            case .stack: c.stack = every.stack
            default: field.set(field.value(every), &c)
            }
            one.append(c)
        }
        for c in one {
            #expect(c != RowConfig())
            #expect(try RowFields.decode(RowFields.encode(c)) == c)
        }
    }

    /// Truncated blobs, trailing bytes, unknown or no flags, and flipped bytes: a clear error
    /// (`RowFields.Damage`, which the loader reports as a corrupt file naming the row; a flipped
    /// byte may also give another valid config), never a crash.
    @Test func damagedBlobsAreRefused() throws {
        var g = RandomChanges(rng: SplitMix64(seed: 0xDA4A6E))
        func refused(_ bytes: [UInt8]) -> Bool {
            do {
                _ = try RowFields.decode(bytes)
                return false
            } catch let damage as RowFields.Damage {
                #expect(!damage.description.isEmpty)
                return true
            } catch {
                Issue.record("unexpected error \(error)")
                return true
            }
        }
        #expect(refused([]))
        #expect(refused([0]))
        #expect(refused([8]))
        #expect(refused([1, 0]))
        var flipsRefused = 0, flips = 0
        for _ in 0..<500 {
            guard let bytes = RowFields.encode(g.config()) else { continue }
            for n in 0..<bytes.count { #expect(refused(Array(bytes[..<n])), "truncated at \(n) of \(bytes.count)") }
            #expect(refused(bytes + [0]))
            #expect(refused(bytes + [UInt8(g.rng.int(0..<256))]))
            for _ in 0..<8 {
                var damaged = bytes
                let k = g.rng.int(0..<bytes.count)
                damaged[k] ^= UInt8(1 << g.rng.int(0..<8))
                flips += 1
                if refused(damaged) { flipsRefused += 1 }
            }
        }
        // Flags and lengths are checked: many flips are caught (a flip inside a Double is not).
        #expect(flipsRefused > flips / 10)
    }
}
