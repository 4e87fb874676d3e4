import Foundation
import Layout

/// Reading and writing the files commands name, with one-line errors that name the file.
enum FileIO {
    /// The text of the file at `path`. With `limit`, a file larger than `limit` bytes is refused
    /// before it is read (the message is `sizeProblem`'s).
    static func read(_ path: String, shown: String? = nil, limit: Int? = nil) throws -> String {
        let name = shown ?? path
        guard let handle = fopen(path, "rb") else {
            throw StackDocError("cannot read '\(name)': \(String(cString: strerror(errno)))")
        }
        defer { fclose(handle) }
        if let limit { try checkSize(handle, name: name, limit: limit) }
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&buffer, 1, buffer.count, handle)
            if n > 0 { data.append(contentsOf: buffer[0..<n]) }
            if n < buffer.count {
                if ferror(handle) != 0 { throw StackDocError("cannot read '\(name)': \(String(cString: strerror(errno)))") }
                break
            }
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw StackDocError("cannot read '\(name)': not UTF-8 text")
        }
        return text
    }

    /// Throws when the open file is bigger than `limit` bytes (a saved document: a message from
    /// `DocumentLimits.jsonSizeProblem`).
    static func checkSize(_ handle: UnsafeMutablePointer<FILE>, name: String, limit: Int) throws {
        var info = stat()
        guard fstat(fileno(handle), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > limit else { return }
        let problem = limit == DocumentLimits.maxJSONBytes ? DocumentLimits.jsonSizeProblem(Int(info.st_size))
            : "the file is \(info.st_size) bytes, more than the limit of \(limit)"
        throw StackDocError("cannot read '\(name)': \(problem ?? "too big")")
    }

    /// Writes `text` to `path` (replacing it); the file is written whole or not at all.
    static func write(_ text: String, to path: String, shown: String? = nil) throws {
        try write(bytes: Array(text.utf8), to: path, shown: shown)
    }

    /// Writes `bytes` to `path` (replacing it); the file is written whole or not at all.
    static func write(bytes: [UInt8], to path: String, shown: String? = nil) throws {
        let name = shown ?? path
        let temporary = path + ".stackdoc-tmp"
        guard let handle = fopen(temporary, "wb") else {
            throw StackDocError("cannot write '\(name)': \(String(cString: strerror(errno)))")
        }
        let written = bytes.isEmpty ? 0 : fwrite(bytes, 1, bytes.count, handle)
        let closed = fclose(handle)
        guard written == bytes.count, closed == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw StackDocError("cannot write '\(name)': \(message)")
        }
        guard rename(temporary, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw StackDocError("cannot write '\(name)': \(message)")
        }
    }
}
