import Foundation

/// The PostgreSQL server of this test run: `STACKDOC_TEST_POSTGRES` (a `postgresql://` URI), set
/// by `scripts/with-postgres` around a throwaway cluster on loopback. Without it the PostgreSQL
/// tests are skipped, saying so (`.enabled(if: TestPostgres.available, TestPostgres.skipReason)`).
public enum TestPostgres {
    /// The server's URI, nil when the variable is unset or empty.
    public static var url: String? {
        guard let value = ProcessInfo.processInfo.environment["STACKDOC_TEST_POSTGRES"], !value.isEmpty else { return nil }
        return value
    }

    /// True when a server was given.
    public static var available: Bool { url != nil }

    /// Why a PostgreSQL test did not run.
    public static let skipReason = "STACKDOC_TEST_POSTGRES is not set: run under scripts/with-postgres to test against PostgreSQL"

    /// A name no other test of this run uses (for tables, channels, documents), from `prefix`.
    public static func uniqueName(_ prefix: String) -> String {
        "\(prefix)_\(getpid())_\(UInt32.random(in: 0 ... .max))"
    }
}
