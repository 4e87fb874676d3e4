import Foundation
import GRDB
import Layout
@testable import Store
import Testing
import StackDocTestSupport

/// Corrupt and foreign files (issue 6 item 3): one clear error naming the file and the
/// problem, and the file is never written.
@Suite(.offThePool) struct FileErrorTests {
    var dir = temporaryDirectory()

    func path(_ name: String) -> String { dir.appending(path: name).path }

    /// Opening `file` fails with exactly `message`, leaving its bytes as they were.
    func expectRefused(_ file: String, _ message: String) throws {
        let before = FileManager.default.contents(atPath: file)
        #expect(thrownMessage { _ = try DocumentStore(path: file) } == message)
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
        let bytes = Data((0..<5000).map { _ in UInt8.random(in: 0...255, using: &rng) })
        #expect(FileManager.default.createFile(atPath: file, contents: bytes))
        try expectRefused(file, "database '\(file)' is not a StackDoc database: not an SQLite file")
    }

    @Test func textFile() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("notes.txt")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("hello\n".utf8)))
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
        } catch let error as any UserFacingError {
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

    /// Root can write anything: the check only means something for other users.
    @Test(.enabled(if: getuid() != 0, "root may write a read-only file"))
    func readOnlyFile() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("ro.sqlite")
        try makeDatabase(file)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file) }
        try #require(!FileManager.default.isWritableFile(atPath: file), "this user may write a read-only file")
        try expectRefused(file, "cannot open database '\(file)': the file is read-only")
    }

    /// Values of the wrong type in a tampered file are errors, never a crash.
    @Test(arguments: [
        "UPDATE document SET version = 'abc'",
        "UPDATE document SET axis = 'diagonal'",
        "UPDATE document SET padding = '1,2'",
        "UPDATE row SET fields = X'04' WHERE id = 'r1'",
        "UPDATE row SET fields = X'0100' WHERE id = 'r1'",
        "UPDATE row SET fields = 'sideways' WHERE id = 'r1'",
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
        } catch let error as any UserFacingError {
            #expect(error.message.contains("'\(file)'") || error.message.contains("internal store error") || error.message.contains("document 'd'"),
                    "\(error.message)")
        }
    }

    @Test func directoryInsteadOfFile() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("adir")
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: true)
        #expect(thrownMessage { _ = try DocumentStore(path: file) } == "cannot open database '\(file)': it is a directory")
    }

    @Test func emptyFileBecomesADatabase() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let store = try DocumentStore(path: file)
        #expect(try store.schemaVersion() == Schema.currentVersion)
        #expect(try store.integrityCheck() == [])
    }
}

// MARK: Issue 10: every file kind, links, tampering, damage; refused files stay untouched

/// The bytes of a file and of its companions (nil: absent), to compare before and after.
func snapshot(_ file: String) -> [Data?] {
    ["", "-wal", "-shm", "-journal"].map { FileManager.default.contents(atPath: file + $0) }
}

/// Copies the database `source` with the frames `body` writes still pending in its WAL (the
/// copy has a `-wal` with frames and no `-shm`), as a crashed writer leaves it.
func copyWithPendingWAL(_ source: String, to file: String, _ body: (Database) throws -> Void) throws {
    let queue = try DatabaseQueue(path: source)
    try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA journal_mode = WAL")
        try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        try body(db)
    }
    for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: source + suffix, toPath: file + suffix) }
    try queue.close()
}

@Suite(.offThePool) struct FileKindTests {
    let dir = temporaryDirectory()

    func path(_ name: String) -> String { dir.appending(path: name).path }

    @Test func emptyPathIsRefused() throws {
        #expect(thrownMessage {
            _ = try DocumentStore(path: "")
        } == "the database path is empty: name a file (or ':memory:' for a database that is not saved)")
    }

    @Test func devNullIsRefusedAndNothingIsCreatedBesideIt() throws {
        #expect(thrownMessage {
            _ = try DocumentStore(path: "/dev/null")
        } == "cannot open database '/dev/null': it is not a regular file (a character device)")
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal"))
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-wal"))
    }

    @Test func fifoIsRefusedWithoutOpeningIt() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("fifo.sqlite")
        #expect(mkfifo(file, 0o644) == 0)
        // Opening a FIFO for reading waits for a writer: the check must not open it.
        #expect(thrownMessage {
            _ = try DocumentStore(path: file)
        } == "cannot open database '\(file)': it is not a regular file (a FIFO)")
    }

    @Test func symlinkToADatabaseIsThatDatabase() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("real.sqlite"), link = path("link.sqlite")
        try FileErrorTests(dir: dir).makeDatabase(file)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.sqlite")
        let store = try DocumentStore(path: link)
        #expect(try store.open("d").document.rowCount == 401)
        try store.create("e")
        #expect(try DocumentStore(path: file).documentNames() == ["d", "e"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.sqlite")
    }

    @Test func danglingSymlinkIsRefusedAndNothingIsCreatedAtItsTarget() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = path("dangling.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "missing.sqlite")
        #expect(thrownMessage {
            _ = try DocumentStore(path: link)
        } == "cannot open database '\(link)': it is a symbolic link to 'missing.sqlite', which does not exist")
        #expect(!FileManager.default.fileExists(atPath: path("missing.sqlite")))
    }

    @Test func symlinkToADirectoryOrADeviceIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createSymbolicLink(atPath: path("d"), withDestinationPath: dir.path)
        try FileManager.default.createSymbolicLink(atPath: path("z"), withDestinationPath: "/dev/zero")
        #expect(thrownMessage { _ = try DocumentStore(path: path("d")) } == "cannot open database '\(path("d"))': it is a directory")
        #expect(thrownMessage {
            _ = try DocumentStore(path: path("z"))
        } == "cannot open database '\(path("z"))': it is not a regular file (a character device)")
    }

    /// The store knows its own files however they are named (`export` must not replace them).
    @Test func ownFilesAreRecognisedUnderEverySpelling() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("own.sqlite")
        let store = try DocumentStore(path: file)
        try store.create("d")
        try FileManager.default.createSymbolicLink(atPath: path("alias"), withDestinationPath: file)
        #expect(link(file, path("hard")) == 0)
        for own in [file, path("./own.sqlite"), path("sub/../own.sqlite"), path("alias"), path("hard"),
                    file + "-wal", file + "-shm", file + "-journal"] {
            if own.contains("sub/") { try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true) }
            #expect(store.isOwnFile(own), "\(own)")
        }
        for other in [path("other.sqlite"), file + ".json", path("own.sqlite-wal2"), path("alias-journal")] {
            #expect(!store.isOwnFile(other), "\(other)")
        }
        #expect(try DocumentStore(path: ":memory:").isOwnFile(file) == false)
    }
}

@Suite(.offThePool) struct UntouchedFileTests {
    let dir = temporaryDirectory()

    func path(_ name: String) -> String { dir.appending(path: name).path }

    /// Opening `file` (and adding a row to document `d`) fails with a message starting with
    /// `prefix`; the file and its companions are byte for byte as before.
    func expectRefusedUntouched(_ file: String, _ prefix: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = snapshot(file)
        do {
            try DocumentStore(path: file).open("d").run(Ops.add("more", at: 0))
            Issue.record("opened and written", sourceLocation: sourceLocation)
        } catch let error as any UserFacingError {
            #expect(error.message.hasPrefix(prefix), "\(error.message)", sourceLocation: sourceLocation)
        }
        #expect(snapshot(file) == before, sourceLocation: sourceLocation)
    }

    /// A foreign database whose table is still in its WAL: refused, and neither the file nor its
    /// WAL changes (it used to be checkpointed, its WAL deleted), and no `-shm` is left behind.
    @Test func foreignWALFileIsRefusedUntouched() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("foreign.db")
        try copyWithPendingWAL(path("source.db"), to: file) { db in
            try db.execute(sql: "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers VALUES (1, 'x')")
        }
        let before = snapshot(file)
        #expect((before[1]?.count ?? 0) > 0 && before[2] == nil)
        #expect(thrownMessage { _ = try DocumentStore(path: file) } == "database '\(file)' is an SQLite database but not a StackDoc database")
        #expect(snapshot(file) == before)
    }

    /// A truncated StackDoc file with a WAL: the WAL is not checkpointed into it.
    @Test func truncatedFileWithWALIsRefusedUntouched() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = path("source.sqlite"), file = path("trunc.sqlite")
        try FileErrorTests(dir: dir).makeDatabase(source)
        try copyWithPendingWAL(source, to: file) { db in try db.execute(sql: "UPDATE document SET modified = modified + 1") }
        let data = try #require(FileManager.default.contents(atPath: file))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: file))
        #expect((snapshot(file)[1]?.count ?? 0) > 0)
        try expectRefusedUntouched(file, "database '\(file)' is corrupt: SQLite's check of the file finds: ")
    }

    /// A sound StackDoc file with pending WAL frames opens, with the frames' content.
    @Test func soundFileWithWALOpens() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = path("source.sqlite"), file = path("wal.sqlite")
        try FileErrorTests(dir: dir).makeDatabase(source)
        // The rows are what opening reads once no snapshot stands in for them (docs/store.md).
        try copyWithPendingWAL(source, to: file) { db in
            try db.execute(sql: "UPDATE row SET fields = \(Schema.rowFieldsLiteral(RowConfig(type: "fromwal"))) WHERE id = 'r7'; DELETE FROM snapshot")
        }
        #expect(try DocumentStore(path: file).open("d").document.config(of: "r7")?.type == "fromwal")
    }

    /// Garbage in a page of the log table that opening a document does not read (its first
    /// leaf: opening reads only the right-most path, and a write goes on there; it used to be
    /// opened and written). The document still opens for reading (so it can be exported), but
    /// SQLite's check before the first write finds the damage: nothing is written, ever.
    /// The file is left as a writer that did not close leaves it (its mark set): only then is
    /// the check due (`cleanlyClosedFileIsWrittenWithoutReadingItWhole`).
    @Test func malformedLogTreeIsNeverWritten() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("malformed.sqlite")
        do {
            let doc = try DocumentStore(path: file).create("d")
            for i in 0..<300 { try doc.run(Ops.add("row\(i)", RowConfig(type: String(repeating: "t", count: 40)), at: 0)) }
        }
        try Tamper.markHeldByAWriterThatDidNotClose(file)
        let (leaf, kind) = try Tamper.scribbleOnFirstLeaf(of: "log", in: file)
        #expect(leaf != 1 && kind == 0x0A, "an index leaf page")
        let before = snapshot(file)
        do {
            let store = try DocumentStore(path: file)
            let opened = try store.open("d")
            #expect(opened.document.rowCount == 300)
            do {
                try opened.run(Ops.add("more", at: 0))
                Issue.record("a malformed database was written")
            } catch let error as any UserFacingError {
                #expect(error.message.hasPrefix("database '\(file)' is corrupt: SQLite's check of the file finds: On tree page \(leaf) "), "\(error.message)")
            }
            #expect(store.damage != nil)
            #expect(throws: StoreError.self) { try store.create("other") }
            #expect(opened.document.rowCount == 300)
        }
        #expect(snapshot(file) == before)
    }

    /// A writer that closes cleanly clears its mark (`WriterMark`), and the next session's first
    /// write does not read the file whole: damage where that write does not go (the log's first
    /// leaf) is not found before it — the limit of the guarantee; `integrityCheck` (the REPL's
    /// `check`) still finds it. The mark is set while a writer holds the file, and stays while
    /// another store of this process has it open.
    @Test func cleanlyClosedFileIsWrittenWithoutReadingItWhole() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("clean.sqlite")
        do {
            let store = try DocumentStore(path: file)
            let doc = try store.create("d")
            #expect(try Tamper.writerMark(file) == WriterMark.held)
            for i in 0..<300 { try doc.run(Ops.add("row\(i)", RowConfig(type: String(repeating: "t", count: 40)), at: 0)) }
            do {
                let second = try DocumentStore(path: file)
                try second.create("e")
            }
            #expect(try Tamper.writerMark(file) == WriterMark.held, "another store of this process still holds the file")
        }
        #expect(try Tamper.writerMark(file) == 0)
        try Tamper.scribbleOnFirstLeaf(of: "log", in: file)
        let store = try DocumentStore(path: file)
        try store.create("other")
        #expect(store.damage == nil)
        #expect(try store.open("other").document.rowCount == 0)
        #expect(try store.integrityCheck().joined().contains("On tree page"))
    }

    /// A session that only reads leaves the mark as it found it: a file a killed writer left is
    /// still checked whole before the first write of a later session.
    @Test func aReadingSessionLeavesTheMark() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("reading.sqlite")
        try FileErrorTests(dir: dir).makeDatabase(file)
        #expect(try Tamper.writerMark(file) == 0)
        try Tamper.markHeldByAWriterThatDidNotClose(file)
        do {
            let store = try DocumentStore(path: file)
            _ = try store.open("d").document.rowCount
        }
        #expect(try Tamper.writerMark(file) == WriterMark.held)
    }

    /// A log entry whose text cannot be read back: the message names the document, the entry
    /// and the way out; from then on the store writes nothing (the file stays as it was).
    @Test func damagedLogEntryIsNamedAndStopsWrites() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("damaged.sqlite")
        let doc = try DocumentStore(path: file).create("d")
        for i in 0..<3 { try doc.run(Ops.add("r\(i)", at: 0)) }
        try Tamper.sql(file, "UPDATE log SET payload = '{not json' WHERE seq = 3")
        try Tamper.sql(file, "PRAGMA wal_checkpoint(TRUNCATE)")
        let store = try DocumentStore(path: file)
        let opened = try store.open("d")
        let damage = "document 'd': log entry 3 is damaged (payload: not valid JSON); "
            + "`export FILE` saves the document as stored, `verify` tells whether its log still replays to it"
        #expect(thrownMessage { _ = try opened.history() } == "database '\(file)' is corrupt: " + damage)
        #expect(store.damage == damage)
        let before = FileManager.default.contents(atPath: file)
        #expect(thrownMessage {
            try opened.run(Ops.add("x", at: 0))
        } == "database '\(file)' is not written to any more: it was found damaged (\(damage))")
        #expect(thrownMessage {
            try store.create("other")
        } == "database '\(file)' is not written to any more: it was found damaged (\(damage))")
        #expect(opened.document.rowCount == 3)
        #expect(try opened.verify().first?.contains("log entry 3 is damaged") == true)
        #expect(FileManager.default.contents(atPath: file) == before)
    }

    /// A migration id no StackDoc ever had is tampering, not a newer schema.
    @Test func unknownMigrationIDIsNamed() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("tampered.sqlite")
        try FileErrorTests(dir: dir).makeDatabase(file)
        try Tamper.sql(file, "INSERT INTO grdb_migrations VALUES ('tampered'); PRAGMA wal_checkpoint(TRUNCATE)")
        try FileErrorTests(dir: dir).expectRefused(file, "database '\(file)' is corrupt: its table of applied migrations records 'tampered', which is no StackDoc migration")
        try Tamper.sql(file, "DELETE FROM grdb_migrations WHERE identifier = 'tampered'; INSERT INTO grdb_migrations VALUES ('0001_other'); PRAGMA wal_checkpoint(TRUNCATE)")
        try FileErrorTests(dir: dir).expectRefused(file, "database '\(file)' is corrupt: its table of applied migrations records '0001_other', which is no StackDoc migration")
    }

    /// A deleted record of the newest migration that changes the tables (and of those after
    /// it): the tables are those of a newer version than the table records (it used to re-run
    /// the migration: "duplicate column name"). (A migration that changes no table — 0018 — leaves
    /// a file whose tables are its version's without its record: the next open applies it again,
    /// which changes nothing.)
    @Test func deletedNewestMigrationRecordIsNamed() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("tampered.sqlite")
        try FileErrorTests(dir: dir).makeDatabase(file)
        let all = Schema.migrations
        try #require(all.count >= 2)
        var newest = all.count - 1
        while newest > 1, try Schema.objects(ofVersion: all[newest].version) == Schema.objects(ofVersion: all[newest - 1].version) {
            newest -= 1
        }
        let deleted = all[newest...].map { "'\($0.name)'" }.joined(separator: ", ")
        try Tamper.sql(file, "DELETE FROM grdb_migrations WHERE identifier IN (\(deleted)); PRAGMA wal_checkpoint(TRUNCATE)")
        try expectRefusedUntouched(file, "database '\(file)' is corrupt: its tables do not match schema version \(all[newest - 1].version), which its table of applied migrations records (")
    }

    /// A deleted record of an earlier migration, with later ones recorded.
    @Test func deletedEarlierMigrationRecordIsNamed() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = path("tampered.sqlite")
        try FileErrorTests(dir: dir).makeDatabase(file)
        let first = Schema.migrations[0].name
        try Tamper.sql(file, "DELETE FROM grdb_migrations WHERE identifier = '\(first)'; PRAGMA wal_checkpoint(TRUNCATE)")
        try FileErrorTests(dir: dir).expectRefused(file, "database '\(file)' is corrupt: its table of applied migrations lacks '\(first)' but records later ones")
    }
}
