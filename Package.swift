// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "StackDoc",
    products: [
        .executable(name: "stackdoc", targets: ["repl"]),
        .library(name: "Layout", targets: ["Layout"]),
        .library(name: "FlexLayout", targets: ["FlexLayout"]),
        .library(name: "Store", targets: ["Store"]),
        .library(name: "StackDocScript", targets: ["StackDocScript"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
    ],
    targets: [
        // The CSS flexbox engine and its geometry: knows nothing of documents (Layout re-exports it).
        .target(name: "FlexLayout"),
        // One augmented implicit treap (order statistics over sequences) and the seeded RNG
        // that draws its priorities; used by Layout's child order and incremental layout
        // (imported internally: not part of Layout's API; tests that draw import it).
        .target(name: "OrderStatistics"),
        // The C calls Swift cannot make itself: Linux's `sync_file_range`, `renameat2`,
        // `fallocate`, glibc's `mallopt`, SQLite's variadic `sqlite3_db_config`.
        .target(name: "CStackDocSystem", linkerSettings: [.linkedLibrary("sqlite3")]),
        // Every thread, queue and platform knob (internal: `package` access only): background
        // tasks, the bounded hand-over queue, the halves split, late release, heap growth,
        // writeback, the Linux file calls (Sources/StackDocRuntime/README.md).
        .target(name: "StackDocRuntime", dependencies: ["CStackDocSystem"], exclude: ["README.md"]),
        // Documents, edit planning, the stackdoc/1 format, document layout (pure, no I/O;
        // threads through StackDocRuntime).
        .target(name: "Layout", dependencies: ["FlexLayout", "OrderStatistics", "StackDocRuntime"]),
        // The command language (SPEC §4.1) as a library: parse and run commands against a
        // DocumentStore, typed results (CommandResult) and their text and JSON renderers.
        .target(name: "StackDocScript", dependencies: ["Layout", "Store", "StackDocRuntime"]),
        // The `stackdoc` executable: command line, batch runner, interactive prompt, one-shot commands.
        .executableTarget(
            name: "repl",
            dependencies: [
                "StackDocScript",
                "Layout",
                "Store",
                "StackDocRuntime",
                "CEditLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // libedit (libedit-dev) for line editing and history in the interactive REPL.
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // libpq (libpq-dev), PostgreSQL's own client library, for the shared store.
        .systemLibrary(
            name: "CPostgreSQL",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // The store's byte codecs (log format, change blobs, row fields, snapshot images, order
        // keys): pure, no database, no Foundation; Store reads and writes them through SQLite.
        .target(name: "StoreFormat", dependencies: ["Layout"]),
        // Store: SQLite persistence (migrations embedded by the EmbedMigrations plugin).
        .target(
            name: "Store",
            dependencies: [
                "Layout",
                "StoreFormat",
                "CStackDocSystem",
                "StackDocRuntime",
                "CPostgreSQL",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            exclude: ["SQLite/Bulk/README.md"],
            plugins: ["EmbedMigrations"]
        ),
        .executableTarget(name: "embed-migrations", path: "Sources/embed-migrations"),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["embed-migrations"]
        ),
        // What every test target shares (tests only): the seeded generator's draws, random
        // operations and edits from the real planner (also used by store-torture), scratch
        // directories, finding and running the built binaries, golden files that fail when recording.
        .target(name: "StackDocTestSupport", dependencies: ["Store", "Layout", "OrderStatistics"]),
        // A writer process used only by StoreTests (concurrency and crash tests).
        .executableTarget(
            name: "store-torture",
            dependencies: ["Store", "Layout", "OrderStatistics", "StackDocTestSupport"]
        ),
        .testTarget(
            name: "StoreTests",
            dependencies: [
                "Store", "StoreFormat", "Layout", "OrderStatistics", "StackDocTestSupport", "store-torture",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")]
        ),
        // The codecs of StoreFormat on their own: round trips, order keys, invariants (no database).
        .testTarget(
            name: "StoreFormatTests",
            dependencies: ["StoreFormat", "Layout", "OrderStatistics", "StackDocTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ReplTests",
            dependencies: ["repl", "StackDocScript", "Layout", "OrderStatistics", "Store", "StackDocTestSupport"],
            exclude: ["scripts", "remote-watch"]
        ),
        // The StackDocScript library through its public API only (no @testable import).
        .testTarget(name: "StackDocScriptTests", dependencies: ["StackDocScript", "Layout", "Store", "StackDocTestSupport"]),
        // Fuzzing and hostile input (issue 6): the command parser and executor, the JSON importer,
        // limits, and corrupt files through the binary. STACKDOC_FUZZ_COUNT/SEED: docs/hardening.md.
        .testTarget(
            name: "FuzzTests",
            dependencies: ["repl", "StackDocScript", "Layout", "OrderStatistics", "Store", "StackDocTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The runtime's threads and queues, writeback and late release (package access).
        .testTarget(name: "StackDocRuntimeTests", dependencies: ["StackDocRuntime", "StackDocTestSupport"]),
        .testTarget(name: "OrderStatisticsTests", dependencies: ["OrderStatistics", "StackDocTestSupport"]),
        .testTarget(
            name: "LayoutTests",
            dependencies: ["Layout", "OrderStatistics", "StackDocRuntime", "StackDocTestSupport"],
            resources: [.copy("Fixtures")]
        ),
    ]
)
