import Foundation
import Layout
import Store

/// Reading and writing the files commands name, with one-line errors that name the file.
///
/// Reading takes a regular file (its size is checked before it is read) or a pipe/FIFO (read to
/// its end, at most the limit: a FIFO no process writes reads as empty); a device (`/dev/zero`,
/// a terminal), a socket or a directory is refused before a byte is read. Writing follows the
/// rule of `WriteTarget` (only a regular file or a new name is ever replaced by a rename; a link
/// is followed; a character device or FIFO is written into) and never writes the open database or
/// its `-wal`/`-shm`/`-journal` files, however the path is spelt.
public enum FileIO {
    /// The text of the file at `path` (UTF-8), at most `limit` bytes (the size limit of a saved
    /// document, 1 GiB, unless told otherwise).
    /// - Parameters:
    ///   - path: The file (a regular file or a pipe).
    ///   - shown: The name messages give it (nil: `path`).
    ///   - limit: The most bytes read.
    /// - Throws: `CommandError.Kind.cannotRead` naming the file: missing, unreadable, a device or
    ///   directory, over the limit, or not UTF-8.
    public static func read(_ path: String, shown: String? = nil, limit: Int = DocumentLimits.maxJSONBytes) throws -> String {
        String(decoding: try readText(path, shown: shown, limit: limit), as: UTF8.self)
    }

    /// The bytes of the text file at `path`, checked to be UTF-8 (what `read` gives, without a
    /// copy into a `String`).
    /// - Throws: as `read`.
    public static func readText(_ path: String, shown: String? = nil, limit: Int = DocumentLimits.maxJSONBytes) throws -> [UInt8] {
        let data = try readBytes(path, shown: shown, limit: limit)
        guard String(validating: data, as: UTF8.self) != nil else {
            throw CommandError(.cannotRead(path: shown ?? path, problem: "not UTF-8 text"))
        }
        return data
    }

    /// The bytes of the file at `path`; more than `limit` bytes is refused (a regular file before
    /// it is read, a pipe as soon as it has given `limit + 1` bytes).
    /// - Parameters:
    ///   - path: The file (a regular file or a pipe).
    ///   - shown: The name messages give it (nil: `path`).
    ///   - limit: The most bytes read.
    /// - Throws: `CommandError.Kind.cannotRead` naming the file: missing, unreadable, a device or
    ///   directory, or over the limit.
    public static func readBytes(_ path: String, shown: String? = nil, limit: Int = DocumentLimits.maxJSONBytes) throws -> [UInt8] {
        let name = shown ?? path
        func failure(_ problem: String) -> CommandError { CommandError(.cannotRead(path: name, problem: problem)) }
        // O_NONBLOCK: opening a FIFO no process writes must not wait for a writer.
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if Int(info.st_size) > limit { throw failure(sizeProblem(Int(info.st_size), limit: limit)) }
        case S_IFIFO:
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        case S_IFDIR:
            throw failure("it is a directory")
        default:
            throw failure("it is not a regular file or a pipe (\(FileKind.describe(info.st_mode)))")
        }
        var data = [UInt8]()
        if info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 {
            // A file's bytes read straight into one array of its size: no chunk copied, no array
            // grown and copied again (a 37 MB file: ≈ 0.1 s less). A file that grew since
            // `fstat` is read on below.
            let size = Int(info.st_size)
            data = try [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                while count < size {
                    let n = Glibc.read(fd, buffer.baseAddress! + count, size - count)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw failure(String(cString: strerror(errno)))
                    }
                    if n == 0 { break }
                    count += n
                }
            }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(String(cString: strerror(errno)))
            }
            if n == 0 { return data }
            data.append(contentsOf: chunk[0..<n])
            if data.count > limit { throw failure(sizeProblem(nil, limit: limit)) }
        }
    }

    /// The message for a file over `limit` bytes (`bytes` nil: a pipe that went past it).
    static func sizeProblem(_ bytes: Int?, limit: Int) -> String {
        if limit == DocumentLimits.maxJSONBytes, let bytes, let problem = DocumentLimits.jsonSizeProblem(bytes) { return problem }
        guard let bytes else { return "it goes on past the limit of \(limit) bytes (read from a pipe)" }
        return "the file is \(bytes) bytes, more than the limit of \(limit) bytes"
    }

    /// Writes `text` to `path` (replacing it); the file is written whole or not at all. Refused
    /// when `path` (or the temporary file beside it) is `database` or one of its companions.
    /// - Parameters:
    ///   - text: What to write.
    ///   - path: The file (replaced).
    ///   - shown: The name messages give it (nil: `path`).
    ///   - database: The open database, which must not be overwritten.
    /// - Throws: `CommandError.Kind.cannotWrite` naming the file; the file is then as before.
    public static func write(_ text: String, to path: String, shown: String? = nil, sparing database: DocumentStore? = nil) throws {
        try write(bytes: Array(text.utf8), to: path, shown: shown, sparing: database)
    }

    /// `write(_:to:shown:sparing:)` for bytes.
    /// - Parameters:
    ///   - bytes: What to write.
    ///   - path: The file (replaced).
    ///   - shown: The name messages give it (nil: `path`).
    ///   - database: The open database, which must not be overwritten.
    /// - Throws: `CommandError.Kind.cannotWrite` naming the file; the file is then as before.
    public static func write(bytes: [UInt8], to path: String, shown: String? = nil, sparing database: DocumentStore? = nil) throws {
        try write(to: path, shown: shown, sparing: database) { sink in try sink(bytes) }
    }

    /// `write(_:to:shown:sparing:)` for bytes made in pieces: `produce` hands each piece to the
    /// sink it gets, in order (a large export never holds its whole text).
    /// - Parameters:
    ///   - path: The file (replaced).
    ///   - shown: The name messages give it (nil: `path`).
    ///   - database: The open database, which must not be overwritten.
    ///   - produce: Calls the sink with each piece, in order.
    /// - Throws: `CommandError.Kind.cannotWrite` naming the file, or what `produce` throws; the
    ///   file is then as before.
    public static func write(to path: String, shown: String? = nil, sparing database: DocumentStore? = nil,
                             _ produce: (_ sink: ([UInt8]) throws -> Void) throws -> Void) throws {
        try write(path, shown: shown, sparing: database) { writer in try produce { writer.write($0) } }
    }

    /// `write(to:shown:sparing:_:)` for an export's pieces (`Document.exportJSONPieces`): each
    /// piece is queued for the writing thread as it is, without a copy.
    /// - Parameters:
    ///   - path: The file (replaced).
    ///   - shown: The name messages give it (nil: `path`).
    ///   - database: The open database, which must not be overwritten.
    ///   - produce: Calls the sink with each piece, in order.
    /// - Throws: `CommandError.Kind.cannotWrite` naming the file, or what `produce` throws; the
    ///   file is then as before.
    public static func writePieces(to path: String, shown: String? = nil, sparing database: DocumentStore? = nil,
                                   _ produce: (_ sink: (ExportPiece) throws -> Void) throws -> Void) throws {
        try write(path, shown: shown, sparing: database) { writer in try produce { writer.write($0) } }
    }

    /// The one way a file is written, by the rule of `WriteTarget` (docs/hardening.md): a
    /// regular file or a new name into a temporary file beside it (beside a link's target for a
    /// link), by a writing thread (`ChunkFileWriter`) that `produce` feeds, then put in its place
    /// (`FileSwap`: a large new file is swapped in, anything else renamed over it; a large file it
    /// replaces is freed on another thread: `ReplacedFile`); a character device or a FIFO written
    /// into in place, by the same thread.
    private static func write(_ path: String, shown: String?, sparing database: DocumentStore?,
                              _ produce: (ChunkFileWriter) throws -> Void) throws {
        let name = shown ?? path
        let target = try WriteTarget.find(path, shown: name)
        let temporary = target.path + ".stackdoc-tmp"
        try checkNotDatabase([path, target.path, temporary], shown: name, database: database)
        let handle: UnsafeMutablePointer<FILE>
        switch target {
        case let .stream(device):
            handle = try WriteTarget.openStream(device, shown: name)
        case .file:
            guard let opened = fopen(temporary, "wb") else {
                throw CommandError(.cannotWrite(path: name, problem: String(cString: strerror(errno))))
            }
            handle = opened
        }
        let inPlace: Bool
        if case .stream = target { inPlace = true } else { inPlace = false }
        // The pieces are written on a second thread while the next ones are made.
        let writer = ChunkFileWriter(handle)
        do {
            try produce(writer)
        } catch {
            _ = writer.finish()
            fclose(handle)
            if !inPlace { unlink(temporary) }
            throw error
        }
        let failed = writer.finish()
        let closed = withoutSIGPIPE { fclose(handle) }
        guard failed == nil, closed == 0 else {
            let message = String(cString: strerror(failed ?? errno))
            if !inPlace { unlink(temporary) }
            throw CommandError(.cannotWrite(path: name, problem: message))
        }
        if inPlace { return }
        // A large file replaced is freed on another thread (`ReplacedFile`), not in `rename`; a
        // large new file is swapped in, not renamed over the old one (`FileSwap`).
        let replaced = ReplacedFile(target.path)
        defer { replaced.release() }
        let installed = FileSwap.install(temporary, at: target.path)
        guard installed == 0 else {
            let message = String(cString: strerror(installed))
            unlink(temporary)
            throw CommandError(.cannotWrite(path: name, problem: message))
        }
    }

    /// Opens `path` for `output`/`once` by the rule of `WriteTarget`: a regular file or a new
    /// name truncated (or created) and written as lines come, a link followed, a character
    /// device or a FIFO written in place (a FIFO no process reads is refused at once).
    /// - Parameters:
    ///   - path: The file.
    ///   - shown: The name messages give it (nil: `path`).
    ///   - database: The open database, which must not be written.
    /// - Returns: The open stream (the caller closes it); write to it inside `withoutSIGPIPE`.
    /// - Throws: `CommandError.Kind.cannotWrite` naming the file.
    public static func openForOutput(_ path: String, shown: String? = nil, sparing database: DocumentStore? = nil) throws
        -> UnsafeMutablePointer<FILE> {
        let name = shown ?? path
        let target = try WriteTarget.find(path, shown: name)
        try checkNotDatabase([path, target.path], shown: name, database: database)
        switch target {
        case let .stream(device):
            return try WriteTarget.openStream(device, shown: name)
        case let .file(file):
            guard let handle = fopen(file, "we") else {
                throw CommandError(.cannotWrite(path: name, problem: String(cString: strerror(errno))))
            }
            return handle
        }
    }

    /// Runs `body` (writes to a stream `openForOutput` gave) so that a FIFO whose reader went
    /// away makes the write fail (`EPIPE`) instead of ending the process.
    /// - Throws: What `body` throws.
    public static func withoutBrokenPipeSignal<T>(_ body: () throws -> T) rethrows -> T {
        try withoutSIGPIPE(body)
    }

    /// Refuses a write when any of `paths` is `database` or one of its companion files.
    static func checkNotDatabase(_ paths: [String], shown: String, database: DocumentStore?) throws {
        guard let database, paths.contains(where: database.isOwnFile) else { return }
        throw CommandError(.cannotWrite(path: shown, problem: "it is the open database \(Validation.quotedPath(database.path)) or one of its files"))
    }
}

/// A file's bytes handed once to another thread (`take`), so that they are freed as soon as
/// that thread is done with them, not when the one that read them returns.
final class FileBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8]?

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The bytes, the first time; empty after.
    func take() -> [UInt8] {
        lock.withLock {
            defer { bytes = nil }
            return bytes ?? []
        }
    }
}
