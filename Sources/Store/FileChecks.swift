import Foundation
import Layout

/// Checks a database path before SQLite touches it, so that a bad path gives one clear error
/// and a file that is not a StackDoc database is never written.
enum FileChecks {
    static func check(_ path: String) throws {
        let fm = FileManager.default
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw StackDocError("cannot open database '\(path)': directory '\(dir)' does not exist")
        }
        guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
            guard fm.isWritableFile(atPath: dir) else {
                throw StackDocError("cannot create database '\(path)': directory '\(dir)' is not writable")
            }
            return
        }
        if isDir.boolValue { throw StackDocError("cannot open database '\(path)': it is a directory") }
        guard fm.isReadableFile(atPath: path) else {
            throw StackDocError("cannot open database '\(path)': the file is not readable")
        }
        guard fm.isWritableFile(atPath: path) else {
            throw StackDocError("cannot open database '\(path)': the file is read-only")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StackDocError("cannot open database '\(path)': the file cannot be read")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        if header.isEmpty { return }  // an empty file is an empty database
        let magic = Array("SQLite format 3\u{0}".utf8)
        guard header.count >= magic.count, Array(header.prefix(magic.count)) == magic else {
            throw StackDocError("database '\(path)' is not a StackDoc database: not an SQLite file")
        }
        guard header.count == 100 else {
            throw StoreFailure.corrupt(path, "the file is truncated (\(header.count) bytes)")
        }
        let bytes = Array(header)
        // Page size at offset 16 (1 means 65536); page count at offset 28 (valid when the
        // change counter at 24 equals the version-valid-for number at 92).
        var pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        if pageSize == 1 { pageSize = 65536 }
        func u32(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
        let pages = u32(28)
        let size = (try? fm.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        // A WAL with frames may legitimately hold pages the main file has not received yet.
        let walSize = (try? fm.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        if walSize == 0, u32(24) == u32(92), pages > 0, pageSize >= 512, size < pages * pageSize {
            throw StoreFailure.corrupt(path, "the file is truncated (\(size) bytes, the header says \(pages * pageSize))")
        }
    }
}
