import Foundation
import GRDB
import Layout
import StackDocRuntime
import StoreFormat

/// Reading a log row's changes (the part of `LogFormat` that reads GRDB rows). The running code
/// reads entries of today's format only: migration 0020 converted every older one
/// (`Sources/Store/SQLite/Upgrade/LegacyLog.swift`).
extension LogFormat {
    /// `format`, the format recorded with an entry, when it is today's.
    /// - Throws: when it is another (an older one a migration should have converted, or a newer
    ///   one this StackDoc cannot read).
    static func current(_ format: Int) throws -> Int {
        guard format == version else {
            throw StackDocError(format > version ? "format \(format) is not one this StackDoc reads (\(version)); use a newer stackdoc"
                                                 : "format \(format), which migration 0020 converts to \(version), in a file of schema 20")
        }
        return format
    }

    /// The `[Change]` of a log row's `forward` column (a `ChangeBlob`), nil when it is NULL. With
    /// `inverse`, the changes that take them back (`ChangeBlob.decode(_:inverse:)`).
    static func changes(in row: GRDB.Row, column: String, format: Int, inverse: Bool = false) throws -> [Change]? {
        _ = try current(format)
        let value: DatabaseValue = row[column]
        switch value.storage {
        case .null:
            return nil
        case .blob:
            do {
                return try row.withUnsafeData(named: column) { data in
                    try (data ?? Data()).withUnsafeBytes { try ChangeBlob.decode($0, inverse: inverse, halves: OnTwoThreads()) }
                }
            } catch let error as LogFormatError {
                throw StackDocError("\(column): \(error)")
            }
        case .string, .int64, .double:
            throw StackDocError("\(column): not a list of changes in binary")
        }
    }
}

/// Decodes a long change blob's first half on a thread of its own (`BackgroundTask`) while the
/// caller's thread decodes the second (`ChangeBlob.splitMinimum`).
struct OnTwoThreads: HalvesRunner {
    func both<T: Sendable>(_ first: @escaping @Sendable () -> T, _ second: () -> T) -> (T, T) {
        let background = BackgroundTask(.ownThread(), first)
        let other = second()
        return (background.value, other)
    }
}

