/// A piece of an export's text (`Document.exportJSONPieces`) in memory of its own: the bytes an
/// `ExportSink` wrote, handed over as they lie, without a copy. The memory is freed with the
/// last copy of the piece, on whatever thread that is, so a piece can be queued and written
/// to a file on another thread. Its bytes never change.
public struct ExportPiece: Sendable {
    private let storage: Storage
    /// The number of bytes.
    public let count: Int

    /// The bytes at `base` (`count` of them, written), owned from now on by the piece.
    init(adopting base: UnsafeMutablePointer<UInt8>, count: Int) {
        storage = Storage(base)
        self.count = count
    }

    /// A piece holding a copy of `bytes`.
    public init(copying bytes: [UInt8]) {
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        bytes.withUnsafeBufferPointer { if let from = $0.baseAddress { base.initialize(from: from, count: $0.count) } }
        self.init(adopting: base, count: bytes.count)
    }

    /// Calls `body` with the bytes (valid only during the call).
    /// - Throws: What `body` throws.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(UnsafeRawBufferPointer(start: storage.base, count: count)) }
    }

    /// A copy of the bytes as an array.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The memory a piece owns (never written once the piece is made).
    private final class Storage: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
        init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }
        deinit { base.deallocate() }
    }
}
