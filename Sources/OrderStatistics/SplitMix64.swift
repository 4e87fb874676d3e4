/// SplitMix64: a small, fast, seedable random generator. `ImplicitTreap` draws its node
/// priorities from its mixing function, and every randomised test and fuzzer uses it so that a
/// run reproduces from its seed.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.mix(state)
    }

    /// The generator's state step (the golden ratio in 64-bit fixed point).
    @usableFromInline static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The generator's output function: a bijection of 64-bit words that scatters nearby
    /// inputs, so `mix(i &* increment)` for i = 0, 1, 2… looks random and never repeats.
    @inlinable @inline(__always)
    public static func mix(_ state: UInt64) -> UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
