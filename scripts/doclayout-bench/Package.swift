// swift-tools-version: 6.1
// Stand-alone timing of Document.layout() on flat documents (not part of the main build):
//   cd scripts/doclayout-bench && swift run -c release doclayout-bench 1000000 5
import Foundation
import PackageDescription

// A path dependency is named after its directory: the checkout's own name.
let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../..").standardized

let package = Package(
    name: "doclayout-bench",
    dependencies: [.package(path: repo.path)],
    targets: [
        .executableTarget(name: "doclayout-bench",
                          dependencies: [.product(name: "Layout", package: repo.lastPathComponent)]),
    ]
)
