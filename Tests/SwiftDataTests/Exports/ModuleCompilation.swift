import Foundation

/// Compiles an app's module and a file that uses it beside this package's modules, with the
/// `swiftc` of the toolchain and the modules `swift build` made for this test process: the check
/// sees what an app depending on the `SwiftData` product would see.
enum ModuleCompilation {
    struct Result {
        let succeeded: Bool
        let diagnostics: String
    }

    /// Builds `appModule` (a module named `AppTypes`) from its source, then type-checks `use`
    /// against it and this package's modules.
    static func typecheck(appModule: String, use: String) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-exports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let appSource = directory.appendingPathComponent("AppTypes.swift")
        let useSource = directory.appendingPathComponent("Use.swift")
        try appModule.write(to: appSource, atomically: true, encoding: .utf8)
        try use.write(to: useSource, atomically: true, encoding: .utf8)

        let built = try swiftc(["-emit-module", "-parse-as-library", "-module-name", "AppTypes", appSource.path,
                                "-emit-module-path", directory.appendingPathComponent("AppTypes.swiftmodule").path])
        guard built.succeeded else { return Result(succeeded: false, diagnostics: "AppTypes: " + built.diagnostics) }
        return try swiftc(["-typecheck", "-parse-as-library", "-I", directory.path] + packageModuleFlags() + [useSource.path])
    }

    /// `-I` for the package's compiled modules, and the module maps of the C libraries they
    /// import (GRDB's SQLite), which `swift build` passed to the compiler on its own.
    private static func packageModuleFlags() throws -> [String] {
        ["-I", try SymbolGraphExtraction.modulesDirectory(holding: "SwiftData").path] + SymbolGraphExtraction.moduleMapFlags()
    }

    private static func swiftc(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc"] + arguments
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Result(succeeded: process.terminationStatus == 0, diagnostics: text)
    }
}
