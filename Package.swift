// swift-tools-version: 6.0
import CompilerPluginSupport
import PackageDescription

// The `SwiftData` product lets SwiftData code compile unchanged (`import SwiftData`) where Apple's
// framework does not exist, and lets a cross-platform package depend on it unconditionally. Its
// module is named SwiftData only off Apple platforms: a package module of that name would shadow
// Apple's framework for every target depending on the product (the package's module search paths
// come before the SDK's), which no guard inside its sources could prevent. Read on an Apple host,
// the manifest gives the product a module of another name that re-exports Apple's framework (the
// manifest sees the host, not the destination: a Mac cross-compiling for Linux gets that branch).
#if canImport(Darwin)
let swiftDataModule = "SwiftDataOnApplePlatforms"
let swiftDataDependencies: [Target.Dependency] = []
#else
let swiftDataModule = "SwiftData"
let swiftDataDependencies: [Target.Dependency] = ["OpenSwiftData", "OpenSwiftDataSurface"]
#endif

let package = Package(
    name: "OpenSwiftData",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OpenSwiftData", targets: ["OpenSwiftData"]),
        .library(name: "SwiftData", targets: [swiftDataModule]),
        .library(name: "JSONStore", targets: ["JSONStore"]),
        .library(name: "DataStoreTesting", targets: ["DataStoreTesting"]),
        .library(name: "RemoteStore", targets: ["RemoteStore"]),
        .library(name: "StoreServer", targets: ["StoreServer"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "StoreBrowser", targets: ["StoreBrowser"]),
        .library(name: "StoreSync", targets: ["StoreSync"]),
        .executable(name: "trips", targets: ["trips"]),
        .executable(name: "openswiftdata-server", targets: ["openswiftdata-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax.git", from: "603.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
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
        // The model layer, context, container, DataStore API, query tree and in-memory store: it knows
        // no concrete store, so every store, ours and users', plugs in through its public protocols.
        .target(
            name: "OpenSwiftDataCore",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The macros (`@Model`, `#Unique`, …) and the operators apps use on models and errors: the
        // part of the core that `import SwiftData`, which re-exports the core's types one by one,
        // must re-export whole, because a scoped import carries neither macros nor operators.
        .target(name: "OpenSwiftDataSurface", dependencies: ["OpenSwiftDataCore", "OpenSwiftDataMacros"]),
        // The query tree and the DDL (tables, indexes, migrations' column diffs) rendered as SQL, per
        // dialect (SQLite, PostgreSQL): shared by the SQL stores.
        .target(name: "OpenSwiftDataSQL", dependencies: ["OpenSwiftDataCore"]),
        // The SQLite store (DefaultStore, ModelConfiguration); re-exports the core and the SQL layer
        // so that `import OpenSwiftData` gives everything `import SwiftData` does.
        .target(
            name: "OpenSwiftData",
            dependencies: [
                "OpenSwiftDataCore",
                "OpenSwiftDataSurface",
                "OpenSwiftDataSQL",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The save binds and steps rows through SQLite's C API on GRDB's cached statements.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .target(name: swiftDataModule, dependencies: swiftDataDependencies, path: "Sources/SwiftData"),
        .target(name: "JSONStore", dependencies: ["OpenSwiftData"]),
        .target(name: "DataStoreTesting", dependencies: ["OpenSwiftData"]),
        .target(name: "SampleTrips", dependencies: ["OpenSwiftData"]),
        // Only the network products depend on NIO; the model layer and the file stores never build it.
        // The HTTP API's message types, shared by the client and the server; not a product.
        .target(name: "StoreWire", dependencies: ["OpenSwiftData"]),
        .target(
            name: "RemoteStore",
            dependencies: [
                "OpenSwiftData", "StoreWire",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "StoreServer",
            dependencies: [
                "OpenSwiftData",
                "StoreWire",
                "JSONStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("openapi.yaml")]
        ),
        // The data browser: server-rendered pages over a StoreServer's store, for any schema.
        .target(
            name: "StoreBrowser",
            dependencies: [
                "OpenSwiftData",
                "StoreServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Templates"), .copy("Assets")]
        ),
        .target(
            name: "PostgresStore",
            dependencies: [
                "OpenSwiftDataCore",
                "OpenSwiftDataSQL",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Offline-first sync of a local container through a StoreServer. It imports SwiftData and
        // Foundation only, and uses only SwiftData's public names (StoreSyncTests checks), so the
        // same source builds against Apple's framework.
        .target(name: "StoreSync", dependencies: [.target(name: swiftDataModule)]),
        .executableTarget(
            name: "trips",
            dependencies: [
                "OpenSwiftData", "SampleTrips", "RemoteStore", "PostgresStore", "StoreSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `trips sync --ca-certificate`: URLSession on Linux cannot trust a private CA.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(
            name: "openswiftdata-server",
            dependencies: [
                "StoreServer", "StoreBrowser", "SampleTrips", "JSONStore", "PostgresStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The child process SQLiteCrashTests kills; not a product.
        .executableTarget(name: "SQLiteCrashChild", dependencies: ["OpenSwiftData", "TestModels"]),
        // The child process JSONStoreTests kills; not a product.
        .executableTarget(name: "JSONStoreCrashWriter", dependencies: ["JSONStore", "TestModels"]),
        .executableTarget(name: "MigrationCrashChild", dependencies: ["OpenSwiftData", "SampleTrips", "JSONStore"]),
        // Public, package and fileprivate models and model actors in a library of their own, so that
        // CrossModuleTests checks the macros' access levels from another module; not a product.
        .target(name: "CrossModuleModels", dependencies: ["OpenSwiftData"]),
        .testTarget(
            name: "OpenSwiftDataTests",
            dependencies: [
                "OpenSwiftData",
                "DataStoreTesting",
                "JSONStore",
                "PostgresStore",
                "PostgresTestSupport",
                "TestModels",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(name: "CrossModuleTests", dependencies: ["CrossModuleModels", "OpenSwiftData"]),
        // Model code that imports only SwiftData, as written for Apple's framework.
        .testTarget(name: "SwiftDataTests", dependencies: [.target(name: swiftDataModule), "OpenSwiftData", "JSONStore", "PostgresStore", "PostgresTestSupport"]),
        .testTarget(name: "JSONStoreTests", dependencies: ["JSONStore", "DataStoreTesting", "JSONStoreCrashWriter", "TestModels"]),
        .testTarget(name: "DataStoreTestingTests", dependencies: ["DataStoreTesting"]),
        .testTarget(name: "QueryTranslationTests", dependencies: ["OpenSwiftData", "TestModels"]),
        // The models several test targets and their child processes share, declared once: entity
        // names are global in the test process, so copies had to be renamed apart; not a product.
        .target(name: "TestModels", dependencies: ["OpenSwiftData"], path: "Tests/TestModels"),
        // The throw-away PostgreSQL server of the tests that need one.
        .target(
            name: "PostgresTestSupport",
            dependencies: [
                "PostgresStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/PostgresTestSupport"
        ),
        // The private CA and server certificate of the tests that serve TLS, made at test time.
        .target(name: "TLSTestSupport", path: "Tests/TLSTestSupport"),
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: [
                "PostgresStore", "DataStoreTesting", "PostgresTestSupport", "TestModels",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "TripsTests",
            dependencies: ["trips", "openswiftdata-server", "SampleTrips", "JSONStore", "RemoteStore", "DataStoreTesting", "PostgresTestSupport",
                           "TLSTestSupport"]
        ),
        .testTarget(
            name: "RemoteStoreTests",
            dependencies: [
                "RemoteStore", "StoreServer", "StoreWire", "DataStoreTesting", "SampleTrips", "JSONStore", "TLSTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "StoreBrowserTests",
            dependencies: [
                "StoreBrowser", "StoreServer", "SampleTrips", "JSONStore", "RemoteStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "StoreSyncTests",
            dependencies: [
                "StoreSync", "StoreServer", "OpenSwiftData", "JSONStore", "PostgresStore", "PostgresTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "OpenSwiftDataMacrosTests",
            dependencies: [
                "OpenSwiftDataMacros",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]
        ),
        // `swift package generate-documentation`: documents this package's products, not its
        // dependencies (see the plugin's comment).
        .plugin(name: "GenerateDocumentation", capability: .command(intent: .documentationGeneration())),
    ],
    swiftLanguageModes: [.v6]
)
