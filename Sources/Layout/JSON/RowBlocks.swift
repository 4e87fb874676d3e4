import StackDocRuntime
import Synchronization

/// The root rows of an export written by two threads (issue 15 item 6: `export --at` of a
/// million rows ≤ 0.5 s on two cores). The root rows are cut into blocks of `blockRows`
/// consecutive rows, which the two threads take in turn from one counter (`BlockCounter`), in
/// increasing order: the caller writes the blocks it takes and hands its bytes on as it makes
/// them; a helper thread writes the blocks it takes into pieces it queues (a `HandOverQueue`, a
/// few at most), which the caller hands on in their turn. So the thread with time to spare
/// writes more blocks: the caller, which also hands every piece on (and a caller that writes
/// them to a file spends most of its time there), takes a block only when the helper has not
/// taken it yet. Every block is written by the one row writer
/// (`RowExportWriter.writeRows(from:count:first:level:into:flush:)`), and a run of rows is byte
/// for byte its part of the whole text, so the joined pieces are the one-thread text whoever
/// wrote each block. With fewer than two blocks of root rows the caller writes them alone. A
/// block holds its root rows' subtrees, so a document whose rows sit under a few root stacks
/// gains little.
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
               flush: (inout ExportSink, _ force: Bool) throws -> Void, emit: (ExportPiece) throws -> Void) rethrows {
        let total = rows.childCount(of: -1)
        let blocks = total == 0 ? 0 : 1 + (total - 1) / max(blockRows, 1)  // (no overflow for blockRows = .max)
        guard blocks >= 2 else {
            try writer.writeRows(root: rows.rootRoot, level: 2, into: &out) { try flush(&$0, false) }
            return
        }
        // The helper's pieces, at most 8 waiting.
        let pieces = HandOverQueue<ExportPiece?>(capacity: 8)
        let counter = BlockCounter()
        let helper = startHelper(blocks: blocks, counter: counter, pieces: pieces)
        // Stops the helper when `flush` or `emit` throws, and waits for it either way.
        defer {
            pieces.close(stop: true)
            helper.value
        }
        // Every block in order: the caller's own as it writes them, the helper's from the queue.
        var next = 0
        while next < blocks {
            let mine = counter.take()
            // The blocks before `mine` that are not yet written here are the helper's, in order.
            while next < min(mine, blocks) {
                try flush(&out, true)
                while case let piece?? = pieces.take() { try emit(piece) }
                next += 1
            }
            guard mine < blocks else { break }
            try writer.writeRows(from: Self.start(of: mine, rows, blockRows), count: blockRows, first: mine == 0, level: 2,
                                 into: &out) { try flush(&$0, false) }
            next = mine + 1
        }
    }

    /// The slot of the first root row of `block`.
    private static func start(of block: Int, _ rows: DocumentRows, _ blockRows: Int) -> Int32 {
        rows.order.node(at: block * blockRows, in: rows.rootRoot)
    }

    /// Writes the blocks the helper takes on a thread of the shared pool (it waits only for
    /// room in `pieces`, which the caller empties), each as pieces of about `chunkBytes` then a
    /// block end (nil), until every block is taken or the caller closed `pieces`.
    private func startHelper(blocks: Int, counter: BlockCounter, pieces: HandOverQueue<ExportPiece?>) -> BackgroundTask<Void> {
        let rows = rows, pretty = pretty, blockRows = blockRows, chunkBytes = chunkBytes
        return BackgroundTask(.pool) {
            var writer = RowExportWriter(rows, pretty: pretty)
            var sink = ExportSink(capacity: min(chunkBytes, 1 << 20) + 4096)
            defer {
                writer.deallocate()
                sink.deallocate()
                pieces.finish()
            }
            do {
                while true {
                    let block = counter.take()
                    guard block < blocks else { break }
                    try writer.writeRows(from: Self.start(of: block, rows, blockRows), count: blockRows, first: block == 0, level: 2,
                                         into: &sink) { sink in
                        if sink.count >= chunkBytes { try Self.send(sink.takePiece(), to: pieces) }
                    }
                    if sink.count > 0 { try Self.send(sink.takePiece(), to: pieces) }
                    try Self.send(nil, to: pieces)
                }
            } catch {
                // `Closed`: the caller stopped; nothing more to write.
            }
        }
    }

    /// Thrown by `send` once the caller has closed the queue.
    private struct Closed: Error {}

    /// Queues `piece` (nil: a block ends), waiting for room.
    /// - Throws: `Closed` when the caller has closed the queue (nothing is queued).
    private static func send(_ piece: ExportPiece?, to pieces: HandOverQueue<ExportPiece?>) throws {
        guard pieces.put(piece) else { throw Closed() }
    }
}

/// The next block of an export to write, shared by the caller and the helper of `RowBlocks`:
/// each takes blocks in increasing order, and every block is taken once.
final class BlockCounter: Sendable {
    private let next = Mutex<Int>(0)

    /// The next block not taken yet (past the last block once all are).
    func take() -> Int {
        next.withLock { n in
            defer { n += 1 }
            return n
        }
    }
}
