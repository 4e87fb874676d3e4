import Foundation
import Layout
import Store

/// Where a write to a path goes: the one rule for every file StackDoc writes (`export`, `log
/// export`, `export svg`, `output`, `once`; docs/hardening.md "Special files and links").
///
/// - A **new name** or a **regular file** is written whole or not at all: into a temporary file
///   beside it, then renamed over it (`FileIO`); `output`/`once` truncate it and write it as
///   they go.
/// - A **symbolic link** is followed (through every link of a chain) and its target written by
///   the same rule, in the target's directory: the link stays a link.
/// - A **character device** (`/dev/null`, a terminal) or a **FIFO** is written into, in place;
///   nothing is renamed over it. A FIFO that no process reads is refused at once (never waited
///   on).
/// - Anything else (a directory, a block device, a socket, a link loop) is refused before a byte
///   is written.
///
/// So nothing but a regular file, or a new name, is ever replaced by a rename.
enum WriteTarget: Equatable {
    /// A regular file or a new name, at this path (a link's target when the path named a link).
    case file(String)
    /// A character device or a FIFO at this path (a link's target when the path named a link).
    case stream(String)

    /// The path written (the link's target when `path` named a link).
    var path: String {
        switch self {
        case let .file(path), let .stream(path): return path
        }
    }

    /// How many links a chain may hold (the system's own limit, `ELOOP`, is 40).
    static let maxLinks = 40

    /// Where a write to `path` goes.
    /// - Parameters:
    ///   - path: The path to write.
    ///   - shown: The name messages give it.
    /// - Throws: `CommandError.Kind.cannotWrite` naming `shown` when the path (or what its links
    ///   lead to) is not a regular file, a new name, a character device or a FIFO.
    static func find(_ path: String, shown: String) throws -> WriteTarget {
        func refused(_ problem: String) -> CommandError { CommandError(.cannotWrite(path: shown, problem: problem)) }
        var current = path
        for _ in 0...maxLinks {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                guard errno == ENOENT else { throw refused(String(cString: strerror(errno))) }
                return .file(current)  // a new name (or what a dangling link names)
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                return .file(current)
            case S_IFCHR, S_IFIFO:
                return .stream(current)
            case S_IFLNK:
                current = try linkTarget(current, refused: refused)
            case S_IFDIR:
                throw refused("it is a directory")
            default:
                throw refused("it is \(FileKind.describe(info.st_mode)), not a regular file, a character device or a FIFO")
            }
        }
        throw refused("it is a chain of more than \(maxLinks) symbolic links (a loop?)")
    }

    /// Where the link at `link` points, relative to the link's directory when relative.
    private static func linkTarget(_ link: String, refused: (String) -> CommandError) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(link, &buffer, buffer.count - 1)
        guard count >= 0 else { throw refused(String(cString: strerror(errno))) }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard !target.hasPrefix("/"), let slash = link.lastIndex(of: "/") else { return target }
        return String(link[...slash]) + target
    }

    /// Opens a character device or FIFO at `path` for writing, in place (no create, no rename):
    /// a FIFO that no process has open for reading is refused at once instead of waited on.
    /// - Throws: `CommandError.Kind.cannotWrite` naming `shown`.
    static func openStream(_ path: String, shown: String) throws -> UnsafeMutablePointer<FILE> {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            let problem = errno == ENXIO ? "it is a FIFO that no process is reading" : String(cString: strerror(errno))
            throw CommandError(.cannotWrite(path: shown, problem: problem))
        }
        var info = stat()
        guard fstat(fd, &info) == 0, [S_IFCHR, S_IFIFO].contains(info.st_mode & S_IFMT) else {
            close(fd)  // replaced by something else since it was looked at
            throw CommandError(.cannotWrite(path: shown, problem: "it changed while it was opened"))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)  // the writes wait for the reader
        guard let handle = fdopen(fd, "w") else {
            let problem = String(cString: strerror(errno))
            close(fd)
            throw CommandError(.cannotWrite(path: shown, problem: problem))
        }
        return handle
    }
}

/// Runs `body` with SIGPIPE held back on this thread, and drops a SIGPIPE it raised: a write to
/// a FIFO whose reader went away then fails with `EPIPE` (an error naming the file) instead of
/// ending the process.
func withoutSIGPIPE<T>(_ body: () throws -> T) rethrows -> T {
    var pipeOnly = sigset_t(), before = sigset_t()
    sigemptyset(&pipeOnly)
    sigaddset(&pipeOnly, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &pipeOnly, &before)
    defer {
        var pending = sigset_t()
        if sigpending(&pending) == 0, sigismember(&pending, SIGPIPE) == 1, sigismember(&before, SIGPIPE) == 0 {
            var zero = timespec()
            _ = sigtimedwait(&pipeOnly, nil, &zero)  // consume the SIGPIPE this body raised
        }
        pthread_sigmask(SIG_SETMASK, &before, nil)
    }
    return try body()
}
