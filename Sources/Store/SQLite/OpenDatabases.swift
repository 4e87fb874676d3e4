import Foundation

/// The database files this process has open, by device and inode.
///
/// SQLite's POSIX locks belong to the process, and closing ANY descriptor of a file releases
/// all of them. `FileChecks` reads a file's header through a descriptor of its own; doing that
/// while another connection of this process has the file open would silently drop that
/// connection's locks (another process could then checkpoint under it: "database disk image is
/// malformed", "disk I/O error"). So a file this process already has open is not checked again:
/// it was checked when first opened, and SQLite holds it.
enum OpenDatabases {
    struct FileID: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var counts: [FileID: Int] = [:]

    /// The identity of the file at `path` (stat(2): no descriptor is opened), nil when missing.
    static func id(of path: String) -> FileID? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// True when a connection of this process has the file at `path` open.
    static func isOpen(_ path: String) -> Bool {
        guard let id = id(of: path) else { return false }
        return lock.withLock { counts[id, default: 0] > 0 }
    }

    /// How many connections of this process have the file `id` open.
    static func count(of id: FileID) -> Int {
        lock.withLock { counts[id, default: 0] }
    }

    /// Records a connection to the file at `path`; returns what `closed` needs.
    static func opened(_ path: String) -> FileID? {
        guard let id = id(of: path) else { return nil }
        lock.withLock { counts[id, default: 0] += 1 }
        return id
    }

    /// Records that a connection recorded by `opened` was closed.
    static func closed(_ id: FileID) {
        lock.withLock {
            counts[id, default: 1] -= 1
            if counts[id] == 0 { counts[id] = nil }
        }
    }
}
