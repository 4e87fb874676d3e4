import Foundation
import Layout

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
    private let depth: Int
    private let minimum: Int
    /// Small pieces gathered until they reach `minimum` bytes (the caller's thread only).
    private var staged: [UInt8] = []
    private let condition = NSCondition()
    private var pending: [Piece] = []
    private var closing = false
    private var stopped = false
    private var failure: Int32?
    /// Bytes handed to `fwrite` so far, and the end of the space reserved (the writing thread's,
    /// read by `finish` once that thread has ended).
    private var written = 0
    private var reservedEnd = 0
    private var reserving = LinuxFileCalls.fallocate != nil

    /// Starts the writing thread on `handle` (still the caller's to close, after `finish`).
    init(_ handle: UnsafeMutablePointer<FILE>, depth: Int = 2, minimum: Int = 1 << 18) {
        self.handle = handle
        self.depth = max(1, depth)
        self.minimum = max(1, minimum)
        let thread = Thread { [self] in run() }
        thread.start()
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
        condition.lock()
        defer { condition.unlock() }
        while pending.count >= depth { condition.wait() }
        pending.append(piece)
        condition.broadcast()
    }

    /// Waits until every queued piece is written (or dropped after a failure) and the thread has
    /// ended; the errno of the first failed write, nil when all were written.
    func finish() -> Int32? {
        flushStaged()
        condition.lock()
        defer { condition.unlock() }
        closing = true
        condition.broadcast()
        while !stopped { condition.wait() }
        if failure == nil, reservedEnd > written { failure = giveBackReserved() }
        return failure
    }

    /// Reserves the space of the next `count` bytes ahead of writing them, once the file is
    /// large (the writing thread).
    private func reserve(_ count: Int) {
        guard reserving, written + count > reservedEnd, written + count >= Self.preallocateFrom,
              let fallocate = LinuxFileCalls.fallocate else { return }
        let start = max(reservedEnd, written), end = written + count + Self.preallocationStep
        if fallocate(fileno(handle), LinuxFileCalls.keepSize, start, end - start) == 0 {
            reservedEnd = end
        } else {
            reserving = false  // not supported here, or no room: write without
        }
    }

    /// Frees the space reserved past the last byte written (`ftruncate` to the size, which on
    /// ext4 also drops the blocks past the end); the errno of a failure, else nil.
    private func giveBackReserved() -> Int32? {
        guard fflush(handle) == 0 else { return errno }
        return ftruncate(fileno(handle), off_t(written)) == 0 ? nil : errno
    }

    private func run() {
        // A FIFO whose reader went away fails the write (EPIPE) instead of ending the process:
        // SIGPIPE is held back on this thread (and dropped with it).
        var pipeOnly = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeOnly, nil)
        condition.lock()
        while true {
            while pending.isEmpty && !closing { condition.wait() }
            guard !pending.isEmpty else { break }
            let piece = pending.removeFirst()
            let skip = failure != nil
            condition.unlock()
            var failed: Int32?
            if !skip {
                reserve(piece.count)
                if piece.write(to: handle) { written += piece.count } else { failed = errno }
            }
            condition.lock()
            if let failed, failure == nil { failure = failed }
            condition.broadcast()
        }
        // What stdio still buffers goes out here, not in the caller's `fclose` (where a SIGPIPE
        // would not be held back).
        condition.unlock()
        let flushed = fflush(handle) == 0 ? nil : errno
        condition.lock()
        if let flushed, failure == nil { failure = flushed }
        stopped = true
        condition.broadcast()
        condition.unlock()
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
