import OrderStatistics
import Foundation
import Layout
@testable import StoreFormat
import StackDocTestSupport
import Testing

/// Issue 15 item 8, log format 3: the binary coding of an entry's changes (`ChangeBlob`) reads
/// back to exactly the changes written (and to their inverse directly), and damage is refused.
@Suite(.offThePool) struct ChangeBlobTests {
    static func roundTrip(_ changes: [Change], inverse: Bool = false) throws -> [Change] {
        try ChangeBlob.encode(changes).withUnsafeBytes { try ChangeBlob.decode($0, inverse: inverse) }
    }

    /// The JSON of changes with every negative zero (`-0`) written as zero.
    static func zeroed(_ json: String) -> String { json.replacing(/-0(?=[,}\]])/, with: "0") }

    /// Random changes of every case (configs using every field, hostile strings and numbers):
    /// decoded equal, field for field and bit for bit; the inverse read directly equals
    /// `[Change].inverse`; non-finite numbers are refused as the JSON writer refuses them.
    @Test func everyChangeReadsBackExactly() throws {
        var g = RandomChanges(rng: SplitMix64(seed: 15_0815))
        for round in 0..<1500 {
            let changes = (0..<g.rng.int(0..<12)).map { _ in g.change() }
            let decoded = try Self.roundTrip(changes)
            #expect(decoded == changes, "round \(round)")
            // Bit for bit (the JSON tells what Double's == does not), but for negative zero, which
            // reads as zero in a style or the content as in the row table and snapshot images.
            #expect(try Self.zeroed(LogFormat.encode(decoded)) == Self.zeroed(LogFormat.encode(changes)), "round \(round)")
            #expect(try Self.roundTrip(changes, inverse: true) == changes.inverse, "round \(round) inverse")
        }
        var bad = RowConfig()
        bad.grow = .infinity
        #expect(throws: (any Error).self) { try ChangeBlob.encode([.insertRow(id: "a", config: bad, parent: nil, index: 0)]) }
        bad = RowConfig(stack: StackSettings(axis: .vertical, justify: .start, align: .stretch, spacing: .nan))
        #expect(throws: (any Error).self) { try ChangeBlob.encode([.removeRow(id: "a", config: bad, parent: nil, index: 0)]) }
        #expect(throws: (any Error).self) { try ChangeBlob.encode([.insertRow(id: "a", config: RowConfig(size: .fixed(.nan)), parent: nil, index: 0)]) }
        #expect(throws: (any Error).self) {
            try ChangeBlob.encode([.updateRow(id: "a", old: RowConfig(), new: RowConfig(content: Size(width: .infinity, height: 0)))])
        }
    }

    /// Any byte changed, dropped or added, and any truncation, is refused (checksum, bounds),
    /// never read as other changes.
    @Test func everyDamagedBlobIsRefused() throws {
        var g = RandomChanges(rng: SplitMix64(seed: 4))
        for round in 0..<2000 {
            var bytes = try ChangeBlob.encode((0..<g.rng.int(1..<5)).map { _ in g.change() })
            let at = g.rng.int(0..<bytes.count)
            switch g.rng.int(0..<4) {
            case 0: bytes[at] ^= UInt8(1 << g.rng.int(0..<8))
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(UInt8(g.rng.int(0..<256)), at: at)
            default: bytes.removeLast(g.rng.int(1..<(bytes.count + 1)))
            }
            #expect(throws: (any Error).self, "round \(round)") { try bytes.withUnsafeBytes { try ChangeBlob.decode($0) } }
        }
    }

    /// A long list is decoded in two halves at once (`ChangeBlob.splitMinimum`): for lists of
    /// every case and length, split anywhere, the halves give exactly the one-pass answer,
    /// forward and inverse; a 20,000-row insert run (the undo of a `clear`) reads back whole.
    @Test func halvesDecodeAsOnePass() throws {
        var g = RandomChanges(rng: SplitMix64(seed: 20_2611))
        for round in 0..<600 {
            let changes = (0..<g.rng.int(2..<40)).map { _ in g.change() }
            let blob = try ChangeBlob.encode(changes)
            for inverse in [false, true] {
                let halves = try blob.withUnsafeBytes { try ChangeBlob.decode($0, inverse: inverse, splitMinimum: 2, halves: OnAThread()) }
                #expect(halves == (inverse ? changes.inverse : changes), "round \(round) inverse \(inverse)")
            }
        }
        let run = (0..<20_000).map { i in
            Change.removeRow(id: "r\(i)", config: RowConfig(size: i % 3 == 0 ? .fit : .fixed(Double(i % 200)), hidden: i % 7 == 0),
                             parent: i % 2 == 0 ? nil : "s", index: 19_999 - i)
        }
        #expect(run.count >= ChangeBlob.splitMinimum)
        let blob = try ChangeBlob.encode(run)
        for inverse in [false, true] {
            let decoded = try blob.withUnsafeBytes { try ChangeBlob.decode($0, inverse: inverse, halves: OnAThread()) }
            #expect(decoded == (inverse ? run.inverse : run))
        }
        #expect(try Self.roundTrip(run) == run)
    }

    /// Damage behind a valid checksum (a byte of the body changed, the checksum made again):
    /// decoded in halves, the outcome is the one pass's — the same changes, or the same error
    /// (the first in the blob's order, wherever the halves meet) — and nothing half made is
    /// returned.
    @Test func damageInEitherHalfIsReportedAsOnePassReportsIt() throws {
        var g = RandomChanges(rng: SplitMix64(seed: 8))
        func outcome(_ bytes: [UInt8], inverse: Bool, split: Int) -> String {
            do {
                return try "\(bytes.withUnsafeBytes { try ChangeBlob.decode($0, inverse: inverse, splitMinimum: split, halves: OnAThread()) })"
            } catch {
                return "error: \(error)"
            }
        }
        var errors = 0
        for round in 0..<1500 {
            var bytes = try ChangeBlob.encode((0..<g.rng.int(2..<12)).map { _ in g.change() })
            let body = bytes.count - 8
            let at = g.rng.int((ChangeBlob.magic.count + 1)..<body)
            bytes[at] = g.rng.int(0..<2) == 0 ? bytes[at] ^ UInt8(1 << g.rng.int(0..<8)) : UInt8(g.rng.int(0..<256))
            let sum = bytes.withUnsafeBytes { SnapshotImage.checksum(UnsafeRawBufferPointer(rebasing: $0[..<body])) }
            withUnsafeBytes(of: sum.littleEndian) { bytes.replaceSubrange(body..., with: $0) }
            for inverse in [false, true] {
                let one = outcome(bytes, inverse: inverse, split: .max)
                #expect(outcome(bytes, inverse: inverse, split: 2) == one, "round \(round) inverse \(inverse)")
                if one.hasPrefix("error") { errors += 1 }
            }
        }
        #expect(errors > 500, "damaged lists refused: \(errors)")
    }
}

/// Runs the first half on a thread of its own, as the store does (StoreFormat starts none).
struct OnAThread: HalvesRunner {
    final class Box<T>: @unchecked Sendable { var value: T? }

    func both<T: Sendable>(_ first: @escaping @Sendable () -> T, _ second: () -> T) -> (T, T) {
        let box = Box<T>(), done = DispatchSemaphore(value: 0)
        Thread { box.value = first(); done.signal() }.start()
        let other = second()
        done.wait()
        return (box.value!, other)
    }
}

