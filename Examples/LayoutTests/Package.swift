// swift-tools-version: 6.1
// An app's layout tests on top of StackDoc, as a package of its own would write them: it
// depends on StackDoc by path (a clone of this repository would use `.package(url:…)`) and
// replays a committed op-log script (`log export`) in a Swift Testing test.
// `swift test --package-path Examples/LayoutTests` runs it; `.ci/run` does.
import PackageDescription

let package = Package(
    name: "LayoutTests",
    dependencies: [
        .package(name: "StackDoc", path: "../.."),
    ],
    targets: [
        .testTarget(
            name: "FeedLayoutTests",
            dependencies: [
                .product(name: "StackDocScript", package: "StackDoc"),
                .product(name: "Layout", package: "StackDoc"),
            ],
            resources: [.copy("Logs")]
        ),
    ]
)
