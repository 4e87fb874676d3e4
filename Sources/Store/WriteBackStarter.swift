import Foundation
import Synchronization

/// Starts the kernel's writeback of a database file and its WAL while a large commit writes
/// them, so that the `fdatasync`s that end SQLite's checkpoint find most of the bytes on their
/// way to the disk already, instead of all of them still in the page cache (what PostgreSQL's
/// `checkpoint_flush_after` does for its own checkpoints). An import of a million rows commits
/// ≈ 66 MB: SQLite writes it to the WAL, syncs the WAL, copies it into the file and syncs the
/// file, and each sync waited ≈ 0.15 s for the disk with the CPU idle (RESULTS.md, 2026-11-28).
///
/// Linux only (`sync_file_range(SYNC_FILE_RANGE_WRITE)`, elsewhere nothing): it starts writing
/// dirty pages and waits for nothing; what any reader sees, and what is durable when, stay as
/// SQLite makes them — SQLite still syncs each file itself. It uses SQLite's own descriptors of
/// the two files (found in `/proc/self/fd`) and never closes them: a descriptor of its own for
/// the database file would drop SQLite's POSIX locks when closed (`OpenDatabases`).
final class WriteBackStarter: Sendable {
    private final class Flag: Sendable {
        let stopped = Atomic<Bool>(false)
    }
    private let flag = Flag()
    private let task: BackgroundTask<Void>

    /// Starts writeback of the database at `path` and of its WAL every `interval` seconds on a
    /// thread of its own, until `stop()`.
    init(path: String, interval: TimeInterval = 0.01) {
        let file = FileChecks.resolved(path)
        let files = [file, file + "-wal"]
        let flag = self.flag
        task = BackgroundTask {
            #if os(Linux)
            let pause = useconds_t(max(interval, 0.001) * 1e6)
            while !flag.stopped.load(ordering: .acquiring) {
                for fd in Self.descriptors(of: files) { _ = syncFileRange(fd, 0, 0, syncFileRangeWrite) }
                usleep(pause)
            }
            #endif
        }
    }

    /// Stops the writeback thread and waits for it (at most one `interval`).
    func stop() {
        flag.stopped.store(true, ordering: .releasing)
        task.value
    }

    #if os(Linux)
    /// This process's descriptors of `files` (resolved paths), read from `/proc/self/fd`.
    static func descriptors(of files: [String]) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        var found: [Int32] = []
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        for entry in entries {
            guard let fd = Int32(entry) else { continue }
            let n = readlink("/proc/self/fd/" + entry, &target, target.count - 1)
            guard n > 0 else { continue }
            let name = String(decoding: target[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if files.contains(name) { found.append(fd) }
        }
        return found
    }
    #endif
}

#if os(Linux)
/// `SYNC_FILE_RANGE_WRITE` of <fcntl.h>: start writing the range's dirty pages, do not wait.
private let syncFileRangeWrite: UInt32 = 2

/// glibc's `sync_file_range(2)` (declared only with `_GNU_SOURCE`, which Swift's Glibc module
/// does not define).
@_silgen_name("sync_file_range")
private func syncFileRange(_ fd: Int32, _ offset: Int64, _ count: Int64, _ flags: UInt32) -> Int32
#endif
