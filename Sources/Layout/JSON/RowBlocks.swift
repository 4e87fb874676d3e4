import Dispatch
import Synchronization

/// The root rows of an export written by two threads (issue 15 item 6: `export --at` of a
/// million rows ≤ 0.5 s on two cores). The root rows are cut into blocks of `blockRows`
/// consecutive rows; the caller writes blocks 0, 2, 4, … and hands its bytes on as it makes them,
/// a helper thread writes blocks 1, 3, 5, … into pieces it queues (`PieceChannel`, a few at
/// most), which the caller hands on in their turn. Every block is written by the one row
/// writer (`RowExportWriter.writeRows(from:count:first:level:into:flush:)`), and a run of
/// rows is byte for byte its part of the whole text, so the joined pieces are the one-thread
/// text. With fewer than two blocks of root rows the caller writes them alone. A block holds
/// its root rows' subtrees, so a document whose rows sit under a few root stacks gains little.
struct RowBlocks {
    /// The root rows of a block by default: ≈ 1.4 MB of pretty text for rows like
    /// `{"id": "r1", "size": {"fixed": 20}, …}`, so a million rows make ≈ 245 blocks and the
    /// two threads finish within a block of each other.
    static let defaultRows = 4096

    let rows: DocumentRows
    let pretty: Bool
    let blockRows: Int
    let chunkBytes: Int

    /// Writes every root row (each at level 2, separated as the elements of an expanded array)
    /// into `out` through `writer`, calling `flush(&out, false)` after each of the caller's rows
    /// and `flush(&out, true)` before each of the helper's blocks, whose pieces go to `emit`.
    func write(with writer: inout RowExportWriter, into out: inout ExportSink,
               flush: (inout ExportSink, _ force: Bool) throws -> Void, emit: ([UInt8]) throws -> Void) rethrows {
        let total = rows.childCount(of: -1)
        let blocks = total == 0 ? 0 : 1 + (total - 1) / max(blockRows, 1)  // (no overflow for blockRows = .max)
        guard blocks >= 2 else {
            try writer.writeRows(root: rows.rootRoot, level: 2, into: &out) { try flush(&$0, false) }
            return
        }
        let channel = PieceChannel(depth: 4)
        startHelper(blocks: blocks, channel: channel)
        // Stops the helper when `flush` or `emit` throws, and waits for it either way.
        defer { channel.close() }
        for block in 0..<blocks {
            if block % 2 == 0 {
                try writer.writeRows(from: Self.start(of: block, rows, blockRows), count: blockRows, first: block == 0, level: 2,
                                     into: &out) { try flush(&$0, false) }
            } else {
                try flush(&out, true)
                while let piece = channel.receive() { try emit(piece) }
            }
        }
    }

    /// The slot of the first root row of `block`.
    private static func start(of block: Int, _ rows: DocumentRows, _ blockRows: Int) -> Int32 {
        rows.order.node(at: block * blockRows, in: rows.rootRoot)
    }

    /// Writes the odd blocks on a thread of the global pool, each as pieces of about
    /// `chunkBytes` then a block end, until they are done or the channel is closed.
    private func startHelper(blocks: Int, channel: PieceChannel) {
        let rows = rows, pretty = pretty, blockRows = blockRows, chunkBytes = chunkBytes
        DispatchQueue.global(qos: .userInitiated).async {
            var writer = RowExportWriter(rows, pretty: pretty)
            var sink = ExportSink(capacity: min(chunkBytes, 1 << 20) + 4096)
            defer {
                writer.deallocate()
                sink.deallocate()
                channel.senderDone()
            }
            do {
                for block in stride(from: 1, to: blocks, by: 2) {
                    try writer.writeRows(from: Self.start(of: block, rows, blockRows), count: blockRows, first: false, level: 2,
                                         into: &sink) { sink in
                        if sink.count >= chunkBytes {
                            try channel.send(sink.bytes)
                            sink.removeAll()
                        }
                    }
                    if sink.count > 0 { try channel.send(sink.bytes) }
                    sink.removeAll()
                    try channel.send(nil)
                }
            } catch {
                // `PieceChannel.Closed`: the caller stopped; nothing more to write.
            }
        }
    }
}

/// Pieces of bytes handed in order from one sending thread to one receiving thread, at most
/// `depth` waiting (the sender waits for room); `nil` marks the end of a block.
final class PieceChannel: Sendable {
    /// Thrown by `send` once the receiver has closed the channel.
    struct Closed: Error {}

    private let queue = Mutex<[[UInt8]?]>([])
    private let items = DispatchSemaphore(value: 0)
    /// Made at 0 and signalled `depth` times: libdispatch traps when a semaphore is freed
    /// below the value it was made with, as this one is when pieces are left queued.
    private let room = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let closed = Atomic<Bool>(false)

    init(depth: Int) {
        for _ in 0..<max(depth, 1) { room.signal() }
    }

    /// Queues `piece` (nil: a block ends), waiting for room.
    /// - Throws: `Closed` when the receiver has closed the channel (nothing is queued).
    func send(_ piece: [UInt8]?) throws {
        room.wait()
        guard !closed.load(ordering: .acquiring) else { throw Closed() }
        queue.withLock { $0.append(piece) }
        items.signal()
    }

    /// The next piece, waiting for it (nil: the end of a block).
    func receive() -> [UInt8]? {
        items.wait()
        let piece = queue.withLock { $0.removeFirst() }
        room.signal()
        return piece
    }

    /// Called by the sender once it sends nothing more.
    func senderDone() { done.signal() }

    /// Called by the receiver once: the sender's next `send` throws (one waiting for room is
    /// woken), and this waits until the sender is done.
    func close() {
        closed.store(true, ordering: .releasing)
        room.signal()
        done.wait()
    }
}
