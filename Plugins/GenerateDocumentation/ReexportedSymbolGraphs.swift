import Foundation
import PackagePlugin

/// The symbol graphs of a target that re-exports other targets of this package (`OpenSwiftData`
/// re-exports `OpenSwiftDataCore`, `OpenSwiftDataSurface` and `OpenSwiftDataSQL`), their symbols included as the target's
/// own: what `import OpenSwiftData` gives is documented as one module, as users see it.
///
/// SwiftPM's symbol graphs leave re-exported modules out and take no option to keep them, so this
/// runs `swift-symbolgraph-extract` with `-experimental-allowed-reexported-modules` on the modules
/// that `getSymbolGraph` has just built.
struct ReexportedSymbolGraphs {
    let extractor: URL

    /// The package targets `target` re-exports (`@_exported import`), in the order written.
    static func reexportedTargets(of target: SourceModuleTarget, in package: Package) throws -> [String] {
        let targetNames = Set(package.targets.map(\.name))
        var names: [String] = []
        for file in target.sourceFiles where file.url.pathExtension == "swift" {
            let text = try String(contentsOf: file.url, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("@_exported import ") {
                let name = String(line.dropFirst("@_exported import ".count)).trimmingCharacters(in: .whitespaces)
                if targetNames.contains(name), !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// Extracts `target`'s graphs with `reexported` included into a new directory under `workDirectory`.
    ///
    /// `built` is the directory `getSymbolGraph` wrote `target`'s graphs to,
    /// `<scratch>/<triple>/extracted-symbols/<package>/<target>`; the modules it built are in
    /// `<scratch>/<triple>/debug/Modules`.
    func extract(_ target: SourceModuleTarget, reexporting reexported: [String], built: URL, workDirectory: URL,
                 options: PackageManager.SymbolGraphOptions) throws -> URL {
        let tripleDirectory = built.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scratch = tripleDirectory.deletingLastPathComponent()
        let modules = tripleDirectory.appending(components: "debug", "Modules", directoryHint: .isDirectory)
        guard FileManager.default.fileExists(atPath: modules.appending(component: "\(target.moduleName).swiftmodule").path) else {
            throw DocumentationUsageError("no \(target.moduleName).swiftmodule in \(modules.path), where the symbol graphs' build should have left it")
        }
        let output = workDirectory.appending(components: "symbol-graphs", target.name, directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: output)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)

        var arguments = [
            "-module-name", target.moduleName,
            "-I", modules.path,
            "-target", tripleDirectory.lastPathComponent,
            "-minimum-access-level", "\(options.minimumAccessLevel)",
            "-output-dir", output.path,
            "-experimental-allowed-reexported-modules=\(reexported.joined(separator: ","))",
        ]
        if !options.includeSynthesized { arguments.append("-skip-synthesized-members") }
        if options.includeSPI { arguments.append("-include-spi-symbols") }
        if options.emitExtensionBlocks { arguments.append("-emit-extension-block-symbols") }
        for moduleMap in Self.moduleMaps(scratch: scratch) {
            arguments += ["-Xcc", "-fmodule-map-file=\(moduleMap)"]
        }
        let process = try Process.run(extractor, arguments: arguments)
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw DocumentationUsageError("swift-symbolgraph-extract failed for \(target.name); its messages are above")
        }
        return output
    }

    /// The module maps of the dependencies' system libraries (GRDB's `GRDBSQLite`): the build found
    /// them through its own flags, which the extractor does not get.
    private static func moduleMaps(scratch: URL) -> [String] {
        let manager = FileManager.default
        func children(_ directory: URL) -> [URL] {
            ((try? manager.contentsOfDirectory(atPath: directory.path)) ?? []).sorted().map { directory.appending(component: $0) }
        }
        return children(scratch.appending(component: "checkouts"))
            .flatMap { children($0.appending(component: "Sources")) }
            .map { $0.appending(component: "module.modulemap").path }
            .filter { manager.fileExists(atPath: $0) }
    }
}
