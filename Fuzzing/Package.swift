// swift-tools-version: 6.1
// Coverage-guided fuzzing (libFuzzer) of StackDoc: the command parser, the executor on an
// in-memory store, and the JSON importer. A separate package so that `swift build` / `swift test`
// of the root package never build it; `scripts/fuzz` builds it with `-sanitize=fuzzer` into
// `.build-fuzz` and runs it (docs/hardening.md, "Coverage-guided fuzzing").
//
// The REPL is an executable target of the root package, which another package cannot import, so
// `Sources/ReplUnderTest` is a symlink to the root's `Sources/repl`, compiled here as a library
// (its `@main` entry point renamed so that libFuzzer's `main` is the program's; target names
// must be unique across the package graph, hence the new names, also for libedit's module map).
import PackageDescription

let package = Package(
    name: "StackDocFuzz",
    dependencies: [
        .package(name: "StackDoc", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .systemLibrary(name: "CEditLineForFuzzing"),
        .target(
            name: "ReplUnderTest",
            dependencies: [
                "CEditLineForFuzzing",
                .product(name: "Layout", package: "StackDoc"),
                .product(name: "Store", package: "StackDoc"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [
                .unsafeFlags(["-enable-testing", "-Xfrontend", "-entry-point-function-name", "-Xfrontend", "stackdoc_repl_main"]),
            ]
        ),
        .target(
            name: "FuzzSupport",
            dependencies: ["ReplUnderTest", .product(name: "Layout", package: "StackDoc"), .product(name: "Store", package: "StackDoc")]
        ),
        // The fuzz targets call libFuzzer's driver (`LLVMFuzzerRunDriver`) from their main.swift;
        // `scripts/fuzz` links libFuzzer (without its `main`) and instruments every module.
        .target(name: "CLibFuzzer"),
        .executableTarget(name: "fuzz-command", dependencies: ["FuzzSupport", "CLibFuzzer"]),
        .executableTarget(name: "fuzz-executor", dependencies: ["FuzzSupport", "CLibFuzzer"]),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", "CLibFuzzer"]),
    ]
)
