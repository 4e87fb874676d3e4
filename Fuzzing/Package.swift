// swift-tools-version: 6.1
// Coverage-guided fuzzing (libFuzzer) of StackDoc: the command parser, the executor on an
// in-memory store, and the JSON importer. A separate package so that `swift build` / `swift test`
// of the root package never build it; `scripts/fuzz` builds it with `-sanitize=fuzzer` into
// `.build-fuzz` and runs it (docs/hardening.md, "Coverage-guided fuzzing").
//
// The command language, its session and renderers are the root package's `StackDocScript`
// library product, which the harnesses import like any other client.
import PackageDescription

let package = Package(
    name: "StackDocFuzz",
    dependencies: [
        .package(name: "StackDoc", path: ".."),
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "StackDocScript", package: "StackDoc"),
                .product(name: "Layout", package: "StackDoc"),
                .product(name: "Store", package: "StackDoc"),
            ]
        ),
        // The fuzz targets call libFuzzer's driver (`LLVMFuzzerRunDriver`) from their main.swift;
        // `scripts/fuzz` links libFuzzer (without its `main`) and instruments every module.
        .target(name: "CLibFuzzer"),
        .executableTarget(name: "fuzz-command", dependencies: ["FuzzSupport", "CLibFuzzer"]),
        .executableTarget(name: "fuzz-executor", dependencies: ["FuzzSupport", "CLibFuzzer"]),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", "CLibFuzzer"]),
    ]
)
