import CStackDocSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Starts the kernel's writeback of a database file and its WAL while a large commit writes
/// them, so that the `fdatasync`s that end SQLite's checkpoint find most of the bytes on their
/// way to the disk already, instead of all of them still in the page cache (what PostgreSQL's
/// `checkpoint_flush_after` does for its own checkpoints). An import of a million rows commits
/// ≈ 66 MB: SQLite writes it to the WAL, syncs the WAL, copies it into the file and syncs the
/// file, and each sync waited ≈ 0.15 s for the disk with the CPU idle (Benchmarks/RESULTS.md).
///
/// Linux only (`sync_file_range(SYNC_FILE_RANGE_WRITE)`, elsewhere nothing): it starts writing
/// dirty pages and waits for nothing; what any reader sees, and what is durable when, stay as
/// SQLite makes them — SQLite still syncs each file itself. It runs on a thread of its own and
/// touches no SQL: it uses SQLite's own descriptors of the two files (found in `/proc/self/fd`)
/// and never closes them (a descriptor of its own for the database file would drop SQLite's
/// POSIX locks when closed).
package final class WriteBackStarter: Sendable {
    private final class Flag: Sendable {
        let stopped = Atomic<Bool>(false)
    }
    private let flag = Flag()
    private let task: BackgroundTask<Void>

    /// Starts writeback of the database at `path` and of its WAL every `interval` seconds on a
    /// thread of its own, until `stop()`.
    package init(path: String, interval: Double = 0.01) {
        let file = Self.resolved(path)
        let files = [file, file + "-wal"]
        let flag = self.flag
        task = BackgroundTask {
            #if os(Linux)
            let pause = useconds_t(max(interval, 0.001) * 1e6)
            while !flag.stopped.load(ordering: .acquiring) {
                for fd in Self.descriptors(of: files) { _ = stackdoc_sync_file_range(fd, 0, 0, stackdoc_sync_file_range_write) }
                usleep(pause)
            }
            #endif
        }
    }

    /// Stops the writeback thread and waits for it (at most one `interval`).
    package func stop() {
        flag.stopped.store(true, ordering: .releasing)
        task.value
    }

    /// `path` with its links and `.`/`..` resolved (as `/proc/self/fd` names files), or as it
    /// is when it cannot be resolved.
    package static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    #if os(Linux)
    /// This process's descriptors of `files` (resolved paths), read from `/proc/self/fd`.
    package static func descriptors(of files: [String]) -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        let listing = dirfd(directory)
        var found: [Int32] = []
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let fd = Int32(name), fd != listing else { continue }
            let n = readlink("/proc/self/fd/" + name, &target, target.count - 1)
            guard n > 0 else { continue }
            let linked = String(decoding: target[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if files.contains(linked) { found.append(fd) }
        }
        return found
    }
    #endif
}
