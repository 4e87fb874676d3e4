import Foundation
import GRDB
import Layout
import StackDocRuntime
import StoreFormat

/// Reading a log row's changes (the part of `LogFormat` that reads GRDB rows).
extension LogFormat {
    /// The `[Change]` of a log row's `forward` or `inverse` column, nil when it is NULL: the
    /// binary coding of format 3 (`ChangeBlob`) or the JSON text of formats 1 and 2, each only in
    /// its own format. With `inverse`, the changes that take them back (`[Change].inverse`).
    static func changes(in row: GRDB.Row, column: String, format: Int, inverse: Bool = false) throws -> [Change]? {
        let value: DatabaseValue = row[column]
        switch value.storage {
        case .null:
            return nil
        case .blob:
            do {
                guard format >= 3, format <= version else {
                    throw LogFormatError(format > version ? "format \(format) is not one this StackDoc reads (1...\(version)); use a newer stackdoc"
                                                          : "binary changes in an entry of format \(format)")
                }
                return try row.withUnsafeData(named: column) { data in
                    try (data ?? Data()).withUnsafeBytes { try ChangeBlob.decode($0, inverse: inverse, halves: OnTwoThreads()) }
                }
            } catch let error as LogFormatError {
                throw StackDocError("\(column): \(error)")
            }
        case let .string(text):
            guard format <= 2 else { throw StackDocError("\(column): text changes in an entry of format \(format), which stores them in binary") }
            let changes = try decodeChanges(text, format: format, column: column)
            return inverse ? changes.inverse : changes
        case .int64, .double:
            throw StackDocError("\(column): expected a list of changes")
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

