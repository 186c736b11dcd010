import Foundation

/// Runs `swift-symbolgraph-extract` on a module this test process was built with, reading the
/// compiled modules beside the test executable, so the check sees exactly what `swift build` made.
enum SymbolGraphExtraction {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The modules `OpenSwiftData` re-exports, whose symbols users see as its own.
    static let reexportedModules = ["OpenSwiftDataCore", "OpenSwiftDataSurface", "OpenSwiftDataSQL"]

    /// The symbol graph files of `module` in a new temporary directory, with the symbols of the
    /// ``reexportedModules`` it re-exports.
    static func extract(module: String) throws -> URL {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let buildDirectory = executable.deletingLastPathComponent()
        let modules = buildDirectory.appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("\(module).swiftmodule").path) else {
            throw Failure(description: "no \(module).swiftmodule in \(modules.path); run the check through `swift test`")
        }
        let triple = buildDirectory.deletingLastPathComponent().lastPathComponent
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("api-surface-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var arguments = ["swift-symbolgraph-extract", "-module-name", module, "-I", modules.path,
                         "-target", triple, "-minimum-access-level", "public", "-output-dir", output.path,
                         "-experimental-allowed-reexported-modules=\(reexportedModules.joined(separator: ","))"]
        for moduleMap in systemLibraryModuleMaps(scratch: buildDirectory.deletingLastPathComponent().deletingLastPathComponent()) {
            arguments += ["-Xcc", "-fmodule-map-file=\(moduleMap)"]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: """
                swift-symbolgraph-extract failed (\(process.terminationStatus)); it ships with the Swift \
                toolchain and must be on PATH. \(message)
                """)
        }
        return output
    }

    /// Module maps of the dependencies' system-library targets (GRDB's `GRDBSQLite`): the compiler
    /// found them through `swift build`'s flags, which the extractor does not get.
    static func systemLibraryModuleMaps(scratch: URL) -> [String] {
        let checkouts = scratch.appendingPathComponent("checkouts")
        let manager = FileManager.default
        guard let packages = try? manager.contentsOfDirectory(atPath: checkouts.path) else { return [] }
        return packages.sorted().flatMap { package -> [String] in
            let sources = checkouts.appendingPathComponent(package).appendingPathComponent("Sources")
            let targets = (try? manager.contentsOfDirectory(atPath: sources.path)) ?? []
            return targets.sorted()
                .map { sources.appendingPathComponent($0).appendingPathComponent("module.modulemap").path }
                .filter { manager.fileExists(atPath: $0) }
        }
    }
}
