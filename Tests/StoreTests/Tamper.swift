import GRDB

/// Direct SQL on a database file, bypassing the store (to damage it on purpose).
enum Tamper {
    static func sql(_ path: String, _ sql: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
    }
}
