// swift-tools-version: 6.1
// Stand-alone measurement of the Document storage at scale: memory, build, lookups, layout, per-edit costs (not part of the main build):
//   cd scripts/docstore-bench && swift run -c release docstore-bench 1000000 5
import Foundation
import PackageDescription

// A path dependency is named after its directory: the checkout's own name.
let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../..").standardized

let package = Package(
    name: "docstore-bench",
    dependencies: [.package(path: repo.path)],
    targets: [
        .executableTarget(name: "docstore-bench",
                          dependencies: [.product(name: "Layout", package: repo.lastPathComponent)]),
    ]
)
