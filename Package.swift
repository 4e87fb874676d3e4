// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "StackDoc",
    products: [
        .executable(name: "stackdoc", targets: ["repl"]),
        .library(name: "Layout", targets: ["Layout"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .target(name: "Layout"),
        .executableTarget(
            name: "repl",
            dependencies: [
                "Layout",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "ReplTests",
            dependencies: ["repl", "Layout"],
            resources: [.copy("scripts")]
        ),
        .testTarget(
            name: "LayoutTests",
            dependencies: ["Layout"],
            resources: [.copy("Fixtures")]
        ),
    ]
)
