import Foundation
import Layout
import StackDocRuntime

/// Writes the pieces of a file on a thread of its own while the caller makes the next ones (a
/// million-row export spends about 40 % of its time in `write`): at most `depth` pieces wait,
/// in order. An export's pieces (`ExportPiece`) are queued as they are, without a copy. Small
/// pieces (an SVG's rows) are gathered into pieces of at least `minimum` bytes first, so the
/// thread is woken once per piece, not once per row; a large piece after small ones goes
/// whole, after the gathered ones. The first failed write is kept (its errno); the pieces
/// after it are dropped. `write` and `finish` are called from one thread.
///
/// Once a file has `preallocateFrom` bytes, the writing thread reserves its disk space ahead of
/// the writes, `preallocationStep` bytes at a time (`fallocate` keeping the size): ext4 then
/// puts each page written into blocks already allocated instead of reserving a delayed
/// allocation per page, which took about a third of `write`'s kernel time (≈ 100 → 70 ms for a
/// 345 MB export). `finish` gives back what was reserved past the end. Where the file system
/// cannot reserve (or the disk is full), the writes go on without.
final class ChunkFileWriter: @unchecked Sendable {
    /// The size from which space is reserved ahead (a large file: `ReplacedFile.minimumBytes`).
    static let preallocateFrom = ReplacedFile.minimumBytes
    /// How much is reserved at a time.
    static let preallocationStep = 64 << 20

    private let handle: UnsafeMutablePointer<FILE>
    private let minimum: Int
    /// Small pieces gathered until they reach `minimum` bytes (the caller's thread only).
    private var staged: [UInt8] = []
    /// The pieces waiting for the writing thread.
    private let pieces: HandOverQueue<Piece>
    /// The writing thread, which ends once `pieces` is finished and drained.
    private let writing: BackgroundTask<Written>

    /// Starts the writing thread on `handle` (still the caller's to close, after `finish`).
    init(_ handle: UnsafeMutablePointer<FILE>, depth: Int = 2, minimum: Int = 1 << 18) {
        self.handle = handle
        self.minimum = max(1, minimum)
        let pieces = HandOverQueue<Piece>(capacity: max(1, depth))
        self.pieces = pieces
        let file = File(handle: handle)
        writing = BackgroundTask { Self.run(file, pieces) }
    }

    /// Queues `bytes`, gathered with the small pieces before it until they reach `minimum` bytes
    /// (waits while `depth` pieces are waiting).
    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        guard bytes.count < minimum else {
            flushStaged()
            return enqueue(.bytes(bytes))
        }
        staged.append(contentsOf: bytes)
        if staged.count >= minimum { flushStaged() }
    }

    /// Queues `piece` as it is when it holds at least `minimum` bytes (after the small pieces
    /// gathered before it), else gathers it as `write(_:)` gathers bytes.
    func write(_ piece: ExportPiece) {
        guard piece.count > 0 else { return }
        guard piece.count >= minimum else {
            piece.withUnsafeBytes { staged.append(contentsOf: $0) }
            if staged.count >= minimum { flushStaged() }
            return
        }
        flushStaged()
        enqueue(.export(piece))
    }

    private func flushStaged() {
        guard !staged.isEmpty else { return }
        enqueue(.bytes(staged))
        staged = []
    }

    private func enqueue(_ piece: Piece) {
        _ = pieces.put(piece)  // (never closed: after a failure the writing thread drops them)
    }

    /// Waits until every queued piece is written (or dropped after a failure) and the thread has
    /// ended; the errno of the first failed write, nil when all were written.
    func finish() -> Int32? {
        flushStaged()
        pieces.finish()
        let written = writing.value
        if written.failure == nil, written.reservedEnd > written.bytes { return giveBackReserved(written) }
        return written.failure
    }

    /// The file, lent to the writing thread.
    private struct File: @unchecked Sendable {
        let handle: UnsafeMutablePointer<FILE>
    }

    /// What the writing thread did: the bytes handed to `fwrite`, the end of the space reserved,
    /// the errno of the first failure.
    private struct Written: Sendable {
        var bytes = 0
        var reservedEnd = 0
        var reserving = FileCalls.canReserve
        var failure: Int32?
    }

    /// Reserves the space of the next `count` bytes ahead of writing them, once the file is
    /// large (the writing thread).
    private static func reserve(_ count: Int, _ file: File, _ written: inout Written) {
        guard written.reserving, written.bytes + count > written.reservedEnd,
              written.bytes + count >= preallocateFrom else { return }
        let start = max(written.reservedEnd, written.bytes), end = written.bytes + count + preallocationStep
        if FileCalls.reserve(fileno(file.handle), offset: start, count: end - start) {
            written.reservedEnd = end
        } else {
            written.reserving = false  // not supported here, or no room: write without
        }
    }

    /// Frees the space reserved past the last byte written (`ftruncate` to the size, which on
    /// ext4 also drops the blocks past the end); the errno of a failure, else nil.
    private func giveBackReserved(_ written: Written) -> Int32? {
        guard fflush(handle) == 0 else { return errno }
        return ftruncate(fileno(handle), off_t(written.bytes)) == 0 ? nil : errno
    }

    /// The writing thread: writes the pieces in order until `pieces` is finished and drained,
    /// dropping those after a failed write, then flushes what stdio still buffers.
    private static func run(_ file: File, _ pieces: HandOverQueue<Piece>) -> Written {
        // A FIFO whose reader went away fails the write (EPIPE) instead of ending the process:
        // SIGPIPE is held back on this thread (and dropped with it).
        var pipeOnly = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeOnly, nil)
        var written = Written()
        while let piece = pieces.take() {
            guard written.failure == nil else { continue }
            reserve(piece.count, file, &written)
            if piece.write(to: file.handle) { written.bytes += piece.count } else { written.failure = errno }
        }
        // What stdio still buffers goes out here, not in the caller's `fclose` (where a SIGPIPE
        // would not be held back).
        if fflush(file.handle) != 0, written.failure == nil { written.failure = errno }
        return written
    }

    /// A queued piece: bytes of an array, or an export's piece in its own memory.
    private enum Piece {
        case bytes([UInt8])
        case export(ExportPiece)

        /// The number of bytes.
        var count: Int {
            switch self {
            case let .bytes(bytes): return bytes.count
            case let .export(piece): return piece.count
            }
        }

        /// Writes the whole piece to `handle`; false when `fwrite` wrote less.
        func write(to handle: UnsafeMutablePointer<FILE>) -> Bool {
            switch self {
            case let .bytes(bytes): return fwrite(bytes, 1, bytes.count, handle) == bytes.count
            case let .export(piece): return piece.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) == $0.count }
            }
        }
    }
}
