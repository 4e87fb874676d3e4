import Foundation
import Layout

/// What `FileChecks.check` found at a database path.
enum DatabaseFile: Equatable {
    /// No file yet: the store creates it.
    case missing
    /// An empty regular file: the store makes it a database.
    case empty
    /// A regular file with an SQLite header (through any symbolic links).
    case existing
}

/// Checks a database path before SQLite touches it, so that a bad path gives one clear error
/// and a file that is not a StackDoc database is never written. Symbolic links are followed for
/// every check (a link to a database is that database); a dangling link is refused, nothing is
/// created at its target. Only regular files are databases: a FIFO, a device (`/dev/null`,
/// `/dev/zero`) or a socket is refused before it is opened, so nothing blocks or grows.
enum FileChecks {
    /// A file that looks truncated: its size and header, to tell a damaged file (unchanged
    /// between two looks) from one that another process is writing at this moment.
    private struct Truncated: Error, Equatable {
        var problem: String
        var size: Int
        var header: [UInt8]
    }

    /// `checkOnce`, with one allowance: a file that looks truncated while another process is
    /// creating or committing to it (its `-journal` exists, or its size or header changes
    /// between two looks 20 ms apart) is looked at again, for up to 2 s. A truncated file that
    /// stays as it is is refused at the second look.
    static func check(_ path: String) throws -> DatabaseFile {
        let deadline = Date().addingTimeInterval(2)
        var previous: Truncated?
        while true {
            do {
                return try checkOnce(path)
            } catch let truncated as Truncated {
                let beingWritten = companionSize(path, "-journal") > 0 || previous.map { $0 != truncated } ?? true
                if !beingWritten || Date() > deadline {
                    throw StoreError.corrupt(path, truncated.problem)
                }
                previous = truncated
                usleep(20_000)
            }
        }
    }

    private static func checkOnce(_ path: String) throws -> DatabaseFile {
        guard !path.isEmpty else {
            throw StackDocError("the database path is empty: name a file (or ':memory:' for a database that is not saved)")
        }
        var link = stat()
        guard lstat(path, &link) == 0 else {
            let error = errno
            guard error == ENOENT else { throw StoreError(.cannotOpenDatabase(path: path, verb: "open", problem: "\(String(cString: strerror(error)))")) }
            return try checkNewFile(path)
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let error = errno
            if (link.st_mode & S_IFMT) == S_IFLNK, error == ENOENT {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                throw StoreError(.cannotOpenDatabase(path: path, verb: "open", problem: "it is a symbolic link to \(Validation.quotedPath(target)), which does not exist"))
            }
            throw StoreError(.cannotOpenDatabase(path: path, verb: "open", problem: "\(String(cString: strerror(error)))"))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw StoreError(.cannotOpenDatabase(path: path, verb: "open", problem: "it is a directory")) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw StoreError(.cannotOpenDatabase(path: path, verb: "open", problem: "it is not a regular file (\(FileKind.describe(info.st_mode)))"))
        }
        guard access(path, R_OK) == 0 else {
            throw StoreError(.cannotOpenDatabase(path: path, verb: "open", problem: "the file is not readable"))
        }
        guard access(path, W_OK) == 0 else {
            throw StoreError(.cannotOpenDatabase(path: path, verb: "open", problem: "the file is read-only"))
        }
        let size = Int(info.st_size)
        // An empty file is an empty database — unless its WAL holds pages: then the inspection
        // reads them.
        if size == 0 { return companionSize(path, "-wal") > 0 ? .existing : .empty }
        let header = try readHeader(path)
        let magic = Array("SQLite format 3\u{0}".utf8)
        guard header.count >= magic.count, Array(header.prefix(magic.count)) == magic else {
            throw StoreError(.notAStackDocDatabase(path: path, reason: "not an SQLite file"))
        }
        guard header.count == 100 else {
            throw Truncated(problem: "the file is truncated (\(header.count) bytes)", size: size, header: header)
        }
        // Page size at offset 16 (1 means 65536); page count at offset 28 (valid when the
        // change counter at 24 equals the version-valid-for number at 92).
        var pageSize = Int(header[16]) << 8 | Int(header[17])
        if pageSize == 1 { pageSize = 65536 }
        func u32(_ o: Int) -> Int { Int(header[o]) << 24 | Int(header[o + 1]) << 16 | Int(header[o + 2]) << 8 | Int(header[o + 3]) }
        let pages = u32(28)
        // A WAL with frames may legitimately hold pages the main file has not received yet
        // (then the read-only inspection checks every page: `DatabaseInspection`).
        if companionSize(path, "-wal") == 0, u32(24) == u32(92), pages > 0, pageSize >= 512, size < pages * pageSize {
            throw Truncated(problem: "the file is truncated (\(size) bytes, the header says \(pages * pageSize))", size: size, header: header)
        }
        return .existing
    }

    /// The size of the database's `-wal` (or other companion) file, 0 when there is none. SQLite
    /// keeps companions next to the link's target, so links are resolved first.
    static func companionSize(_ path: String, _ suffix: String) -> Int {
        var info = stat()
        guard stat(resolved(path) + suffix, &info) == 0 else { return 0 }
        return Int(info.st_size)
    }

    /// `path` with every symbolic link resolved (itself when it does not exist).
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// A database that does not exist yet: its directory must exist and be writable.
    private static func checkNewFile(_ path: String) throws -> DatabaseFile {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var info = stat()
        guard stat(dir, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw StoreError(.cannotOpenDatabase(path: path, verb: "open", problem: "directory \(Validation.quotedPath(dir)) does not exist"))
        }
        guard access(dir, W_OK) == 0 else {
            throw StoreError(.cannotOpenDatabase(path: path, verb: "create", problem: "directory \(Validation.quotedPath(dir)) is not writable"))
        }
        return .missing
    }

    /// The first 100 bytes of a regular file (opened without blocking).
    private static func readHeader(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else {
            throw StoreError(.cannotOpenDatabase(path: path, verb: "open", problem: "\(String(cString: strerror(errno)))"))
        }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 100)
        var count = 0
        while count < header.count {
            let n = header.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, 100 - count) }
            if n <= 0 { break }
            count += n
        }
        return Array(header.prefix(count))
    }
}

/// Names the kind of a file that is not a regular one, for messages.
public enum FileKind {
    /// What kind of file a mode describes, for messages ("a FIFO", "a character device").
    public static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        default: "not a plain file"
        }
    }
}
