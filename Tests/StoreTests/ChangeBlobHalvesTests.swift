import Foundation
import Layout
@testable import Store
import StackDocTestSupport
import Testing

/// Issue 15 item 8: a list of at least `ChangeBlob.parallelMinimum` changes (the changes of a
/// `clear`, which its undo and redo read back) is decoded in two halves at once. The halves must
/// give exactly what one pass gives: the same changes (and inverse), and on bytes that are
/// wrong under a valid checksum, the same error — the first half's when both halves hold one.
@Suite struct ChangeBlobHalvesTests {
    struct Failure: Error, Equatable { var text: String }

    static func decode(_ bytes: [UInt8], inverse: Bool, inTwoHalves: Bool) -> Result<[Change], Failure> {
        do {
            return .success(try bytes.withUnsafeBytes { try ChangeBlob.decode($0, inverse: inverse, inTwoHalves: inTwoHalves) })
        } catch {
            return .failure(Failure(text: "\(error)"))
        }
    }

    /// A long list of random row changes of every kind (configs of every field), with a
    /// settings change (written as JSON) in its second half, or — `jsonFirst` — in its first,
    /// which keeps the list to one pass.
    static func longList(seed: UInt64, jsonFirst: Bool) -> [Change] {
        var g = ChangeCodingTests.Generator(rng: SplitMix64(seed: seed))
        var changes: [Change] = []
        let n = ChangeBlob.parallelMinimum + Int(seed % 977)
        while changes.count < n {
            let change = g.change()
            if case .updateSettings = change { continue }
            changes.append(change)
        }
        var settings = DocumentSettings()
        settings.spacing = 3
        changes.insert(.updateSettings(old: DocumentSettings(), new: settings), at: jsonFirst ? 10 : n - 10)
        return changes
    }

    /// `bytes` with a valid checksum again.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        let sum = SnapshotImage.checksum(out[..<(out.count - 8)])
        withUnsafeBytes(of: sum.littleEndian) { out.replaceSubrange((out.count - 8)..., with: $0) }
        return out
    }

    @Test(arguments: [(1, false), (2, false), (3, true)] as [(UInt64, Bool)])
    func twoHalvesDecodeAsOnePass(seed: UInt64, jsonFirst: Bool) throws {
        let changes = Self.longList(seed: seed, jsonFirst: jsonFirst)
        let bytes = try ChangeBlob.encode(changes)
        for inverse in [false, true] {
            let halves = Self.decode(bytes, inverse: inverse, inTwoHalves: true)
            #expect(halves == .success(inverse ? changes.inverse : changes), "inverse \(inverse)")
            #expect(halves == Self.decode(bytes, inverse: inverse, inTwoHalves: false))
        }
        // Wrong bytes under a valid checksum, anywhere (both halves, the header), one or two
        // places: the same changes or the same error as one pass.
        var rng = SplitMix64(seed: seed)
        var failures = 0
        for round in 0..<60 {
            var damaged = bytes
            for _ in 0..<(round % 2 + 1) {
                let at = Int.random(in: 5..<(damaged.count - 8), using: &rng)
                damaged[at] = round % 3 == 0 ? UInt8.random(in: 0...255, using: &rng) : damaged[at] ^ UInt8(1 << Int.random(in: 0..<8, using: &rng))
            }
            if round % 10 == 9 { damaged.insert(0x80, at: damaged.count - 8 - Int.random(in: 1..<100, using: &rng)) }
            damaged = Self.resealed(damaged)
            let inverse = round % 4 == 1
            let halves = Self.decode(damaged, inverse: inverse, inTwoHalves: true)
            #expect(halves == Self.decode(damaged, inverse: inverse, inTwoHalves: false), "round \(round)")
            if case .failure = halves { failures += 1 }
        }
        #expect(failures > 10, "wrong bytes found: \(failures)")
    }
}
