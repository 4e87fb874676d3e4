import Foundation
import GRDB
import Layout
import Store
import Testing

/// Corrupt and foreign files (issue 6 item 3): one clear error naming the file and the
/// problem, and the file is never written.
@Suite struct FileErrorTests {
    let dir = temporaryDirectory()

    func path(_ name: String) -> String { dir.appending(path: name).path }

    /// Opening `file` fails with exactly `message`, leaving its bytes as they were.
    func expectRefused(_ file: String, _ message: String) throws {
        let before = FileManager.default.contents(atPath: file)
        #expect(throws: StackDocError(message)) { _ = try DocumentStore(path: file) }
        #expect(FileManager.default.contents(atPath: file) == before)
    }

    /// A valid StackDoc database with a few rows.
    func makeDatabase(_ file: String) throws {
        var d = Document(name: "d")
        for i in 0..<400 { try d.insertRow("r\(i)", config: RowConfig(type: String(repeating: "t", count: 50)), parent: nil, at: i) }
        let doc = try DocumentStore(path: file).importDocument(d)
        try doc.run(Ops.add("extra", at: 0))
        try Tamper.sql(file, "PRAGMA wal_checkpoint(TRUNCATE)")
    }

    @Test func missingDirectory() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("nope/sub/x.sqlite")
        try expectRefused(file, "cannot open database '\(file)': directory '\(path("nope/sub"))' does not exist")
        #expect(!FileManager.default.fileExists(atPath: path("nope")))
    }

    @Test func randomBytes() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("random.sqlite")
        var rng = SystemRandomNumberGenerator()
        FileManager.default.createFile(atPath: file, contents: Data((0..<5000).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        try expectRefused(file, "database '\(file)' is not a StackDoc database: not an SQLite file")
    }

    @Test func textFile() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("notes.txt")
        FileManager.default.createFile(atPath: file, contents: Data("hello\n".utf8))
        try expectRefused(file, "database '\(file)' is not a StackDoc database: not an SQLite file")
    }

    @Test func truncatedDatabase() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("trunc.sqlite")
        try makeDatabase(file)
        let data = try #require(FileManager.default.contents(atPath: file))
        #expect(data.count > 8192)
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: file))
        try expectRefused(file, "database '\(file)' is corrupt: the file is truncated (\(data.count / 2) bytes, the header says \(data.count))")
        try data.prefix(60).write(to: URL(fileURLWithPath: file))
        try expectRefused(file, "database '\(file)' is corrupt: the file is truncated (60 bytes)")
    }

    @Test func corruptPages() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("corrupt.sqlite")
        try makeDatabase(file)
        var data = try #require(FileManager.default.contents(atPath: file))
        // Scribble over every page but the first: the schema page survives, the rows do not.
        for i in stride(from: 4096, to: data.count, by: 7) { data[i] = 0xA5 }
        try data.write(to: URL(fileURLWithPath: file))
        let before = FileManager.default.contents(atPath: file)
        do {
            let store = try DocumentStore(path: file)
            _ = try store.open("d")
            Issue.record("a corrupt database opened without error")
        } catch let error as StackDocError {
            #expect(error.message.hasPrefix("database '\(file)' is corrupt: "), "\(error.message)")
        }
        // The whole-file check finds the damage too (when the file opens at all).
        if let store = try? DocumentStore(path: file) {
            let problems = (try? store.integrityCheck()) ?? ["unreadable"]
            #expect(!problems.isEmpty)
        }
        #expect(FileManager.default.contents(atPath: file) == before)
    }

    @Test func foreignSQLiteDatabase() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("foreign.db")
        try Tamper.sql(file, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers VALUES (1, 'x')")
        try expectRefused(file, "database '\(file)' is an SQLite database but not a StackDoc database")
        let names = try DatabaseQueue(path: file).read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master") }
        #expect(names == ["customers"])
    }

    @Test func newerSchemaVersion() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("newer.sqlite")
        try makeDatabase(file)
        try Tamper.sql(file, "INSERT INTO grdb_migrations VALUES ('0042_from_the_future')")
        try expectRefused(file, "database '\(file)' has schema version 42, newer than this StackDoc supports (\(Schema.currentVersion)); use a newer stackdoc")
    }

    @Test func readOnlyFile() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("ro.sqlite")
        try makeDatabase(file)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file) }
        // root can write anything: the check only means something for other users.
        guard !FileManager.default.isWritableFile(atPath: file) else { return }
        try expectRefused(file, "cannot open database '\(file)': the file is read-only")
    }

    /// Values of the wrong type in a tampered file are errors, never a crash.
    @Test(arguments: [
        "UPDATE document SET version = 'abc'",
        "UPDATE document SET axis = 'diagonal'",
        "UPDATE document SET padding = '1,2'",
        "UPDATE row SET insets = 'x,y,z,w' WHERE id = 'r1'",
        "UPDATE row SET align_self = 'sideways' WHERE id = 'r1'",
        "UPDATE log SET time = 'noon', payload = '{not json' WHERE seq = 2",
        "UPDATE step SET first_seq = 'one'",
        "UPDATE row SET parent = 'nobody' WHERE id = 'r2'",
    ])
    func wronglyTypedValues(_ damage: String) throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("typed.sqlite")
        try makeDatabase(file)
        try Tamper.sql(file, damage)
        do {
            let doc = try DocumentStore(path: file).open("d")
            _ = try doc.log()
            _ = try doc.history()
            let problems = try doc.verify()
            _ = try doc.undo()
            #expect(!problems.isEmpty, "\(damage) went unnoticed")
        } catch let error as StackDocError {
            #expect(error.message.contains("'\(file)'") || error.message.contains("internal store error") || error.message.contains("document 'd'"),
                    "\(error.message)")
        }
    }

    @Test func directoryInsteadOfFile() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("adir")
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: true)
        #expect(throws: StackDocError("cannot open database '\(file)': it is a directory")) { _ = try DocumentStore(path: file) }
    }

    @Test func emptyFileBecomesADatabase() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("empty.sqlite")
        FileManager.default.createFile(atPath: file, contents: Data())
        let store = try DocumentStore(path: file)
        #expect(try store.schemaVersion() == Schema.currentVersion)
        #expect(try store.integrityCheck() == [])
    }
}
