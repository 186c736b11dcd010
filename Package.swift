// swift-tools-version: 6.0
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "OpenSwiftData",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OpenSwiftData", targets: ["OpenSwiftData"]),
        .library(name: "JSONStore", targets: ["JSONStore"]),
        .library(name: "DataStoreTesting", targets: ["DataStoreTesting"]),
        .executable(name: "trips", targets: ["trips"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax.git", from: "603.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .macro(
            name: "OpenSwiftDataMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "OpenSwiftData",
            dependencies: ["OpenSwiftDataMacros", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(name: "JSONStore", dependencies: ["OpenSwiftData"]),
        .target(name: "DataStoreTesting", dependencies: ["OpenSwiftData"]),
        .target(name: "SampleTrips", dependencies: ["OpenSwiftData"]),
        .executableTarget(
            name: "trips",
            dependencies: ["OpenSwiftData", "SampleTrips", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The child process SQLiteCrashTests kills; not a product.
        .executableTarget(name: "SQLiteCrashChild", dependencies: ["OpenSwiftData"]),
        // The child process JSONStoreTests kills; not a product.
        .executableTarget(name: "JSONStoreCrashWriter", dependencies: ["JSONStore"]),
        .testTarget(name: "OpenSwiftDataTests", dependencies: ["OpenSwiftData"]),
        .testTarget(name: "JSONStoreTests", dependencies: ["JSONStore", "DataStoreTesting", "JSONStoreCrashWriter"]),
        .testTarget(name: "DataStoreTestingTests", dependencies: ["DataStoreTesting"]),
        .testTarget(name: "QueryTranslationTests", dependencies: ["OpenSwiftData"]),
        .testTarget(name: "TripsTests", dependencies: ["trips"]),
        .testTarget(
            name: "OpenSwiftDataMacrosTests",
            dependencies: [
                "OpenSwiftDataMacros",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
