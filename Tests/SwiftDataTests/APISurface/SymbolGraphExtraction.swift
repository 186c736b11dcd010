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
        let modules = try modulesDirectory(holding: module)
        let triple = modules.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("api-surface-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var arguments = ["swift-symbolgraph-extract", "-module-name", module, "-I", modules.path,
                         "-target", triple, "-minimum-access-level", "public", "-output-dir", output.path,
                         "-experimental-allowed-reexported-modules=\(reexportedModules.joined(separator: ","))"]
        arguments += moduleMapFlags()
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

    /// The directory beside the test executable where `swift build` left the compiled modules,
    /// which must hold `module`.
    static func modulesDirectory(holding module: String) throws -> URL {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let modules = executable.deletingLastPathComponent().appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("\(module).swiftmodule").path) else {
            throw Failure(description: "no \(module).swiftmodule in \(modules.path); run the check through `swift test`")
        }
        return modules
    }

    /// `-Xcc -fmodule-map-file=` for the module maps of the dependencies' system-library targets
    /// (GRDB's `GRDBSQLite`): the compiler found them through `swift build`'s flags, which a tool
    /// run from a test does not get.
    static func moduleMapFlags() -> [String] {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        // <scratch>/<triple>/debug/<tests>.xctest
        let scratch = executable.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return systemLibraryModuleMaps(scratch: scratch).flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] }
    }

    private static func systemLibraryModuleMaps(scratch: URL) -> [String] {
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
