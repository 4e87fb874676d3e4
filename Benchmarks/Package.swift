// swift-tools-version: 6.1
// Benchmarks for StackDoc (ordo-one/benchmark). A separate package so that `swift build` /
// `swift test` of the root package never builds them. Run from this directory:
//   swift package --allow-writing-to-package-directory benchmark
import PackageDescription

let package = Package(
    name: "StackDocBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "StackDoc", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "LayoutBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Layout", package: "StackDoc"),
            ],
            path: "Benchmarks/LayoutBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Layout", package: "StackDoc"),
                .product(name: "Store", package: "StackDoc"),
                .product(name: "StackDocScript", package: "StackDoc"),
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .executableTarget(
            name: "ModelBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Layout", package: "StackDoc"),
            ],
            path: "Benchmarks/ModelBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ]
)
