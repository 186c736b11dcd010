// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A path dependency is known by its directory's name, whatever the clone is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// OpenSwiftData for Vapor apps, in its own package so that users of OpenSwiftData never resolve
// Vapor. Depend on it with .package(url: "https://github.com/openswiftdata/openswiftdata.git", …)
// and the path OpenSwiftDataVapor, or from a checkout with .package(path: "…/OpenSwiftDataVapor").
let package = Package(
    name: "OpenSwiftDataVapor",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OpenSwiftDataVapor", targets: ["OpenSwiftDataVapor"]),
    ],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "OpenSwiftDataVapor",
            dependencies: [
                .product(name: "OpenSwiftData", package: root),
                .product(name: "StoreServer", package: root),
                .product(name: "StoreBrowser", package: root),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "OpenSwiftDataVaporTests",
            dependencies: [
                "OpenSwiftDataVapor",
                .product(name: "VaporTesting", package: "vapor"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
