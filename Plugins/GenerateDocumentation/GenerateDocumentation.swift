import Foundation
import PackagePlugin

/// `swift package generate-documentation`: a DocC archive for each library product of this package,
/// or for the targets named with `--target`.
///
/// The swift-docc-plugin, given no target, documents every target of every dependency too
/// (swift-syntax, SwiftNIO, GRDB, …) and prints their warnings; this command documents what this
/// package publishes, so the bare command is the one to run. A target's archive includes the
/// symbols of the package targets it re-exports (``ReexportedSymbolGraphs``).
@main
struct GenerateDocumentation: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let options = try DocumentationOptions(parsing: arguments)
        guard !options.showsHelp else { return print(DocumentationOptions.usage) }
        let targets = try options.targets(in: context.package)
        let docc = try context.tool(named: "docc").url
        let outputDirectory = options.outputDirectory
            ?? context.pluginWorkDirectoryURL.appending(component: "documentation", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)

        let reexports = ReexportedSymbolGraphs(extractor: try context.tool(named: "swift-symbolgraph-extract").url)
        let graphOptions = PackageManager.SymbolGraphOptions(
            minimumAccessLevel: .public, includeSynthesized: true, includeSPI: false, emitExtensionBlocks: true
        )

        var failed: [String] = []
        for target in targets {
            print("Building documentation for '\(target.name)'...")
            let symbolGraphs = try packageManager.getSymbolGraph(for: target, options: graphOptions)
            let catalog = target.documentationCatalog
            guard try catalog != nil || declaresSymbols(in: symbolGraphs.directoryURL) else {
                // The `SwiftData` product's module only re-exports `OpenSwiftData`.
                print("Skipped '\(target.name)': it declares nothing of its own.")
                continue
            }
            var symbolGraphDirectory = symbolGraphs.directoryURL
            let reexported = try ReexportedSymbolGraphs.reexportedTargets(of: target, in: context.package)
            if !reexported.isEmpty {
                symbolGraphDirectory = try reexports.extract(
                    target, reexporting: reexported, built: symbolGraphs.directoryURL,
                    workDirectory: context.pluginWorkDirectoryURL, options: graphOptions
                )
            }
            let archive = outputDirectory.appending(component: "\(target.name).doccarchive", directoryHint: .isDirectory)
            try? FileManager.default.removeItem(at: archive)
            var doccArguments = ["convert"]
            if let catalog { doccArguments.append(catalog.path) }
            doccArguments += [
                "--additional-symbol-graph-dir", symbolGraphDirectory.path,
                "--output-path", archive.path,
                "--fallback-display-name", target.name,
                "--fallback-bundle-identifier", target.name,
            ]
            if options.warningsAsErrors { doccArguments.append("--warnings-as-errors") }
            let process = try Process.run(docc, arguments: doccArguments)
            process.waitUntilExit()
            if process.terminationReason == .exit, process.terminationStatus == 0 {
                print("Generated \(archive.path)")
            } else {
                failed.append(target.name)
            }
        }
        if !failed.isEmpty {
            Diagnostics.error("docc failed for \(failed.joined(separator: ", ")); its messages are above.")
            throw DocumentationFailure(targets: failed)
        }
    }
}

/// Whether any symbol graph in `directory` declares a symbol.
private func declaresSymbols(in directory: URL) throws -> Bool {
    struct Graph: Decodable { let symbols: [Symbol] }
    struct Symbol: Decodable {}
    return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "json" }
        .contains { try !JSONDecoder().decode(Graph.self, from: Data(contentsOf: $0)).symbols.isEmpty }
}

/// The command's exit with the targets whose documentation failed, so scripts and CI stop.
struct DocumentationFailure: Error, CustomStringConvertible {
    let targets: [String]

    var description: String { "documentation failed for \(targets.joined(separator: ", "))" }
}

extension SourceModuleTarget {
    /// The target's `.docc` catalog, which holds its articles and landing page.
    var documentationCatalog: URL? {
        sourceFiles.first { $0.url.pathExtension.lowercased() == "docc" }?.url
    }
}
