// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A path dependency is known by its directory's name, whatever the clone is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// Benchmarks live in their own package so that users of OpenSwiftData never build them (or GRDB's
// record layer they are compared with). Run: swift run -c release --package-path Benchmarks bench
let package = Package(
    name: "OpenSwiftDataBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "bench",
            dependencies: [
                .product(name: "OpenSwiftData", package: root),
                .product(name: "JSONStore", package: root),
                .product(name: "DataStoreTesting", package: root),
                .product(name: "RemoteStore", package: root),
                .product(name: "StoreServer", package: root),
                .product(name: "StoreBrowser", package: root),
                .product(name: "StoreSync", package: root),
                .product(name: "PostgresStore", package: root),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
