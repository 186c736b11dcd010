import Foundation
import PackagePlugin

/// The command line of `generate-documentation`: `--target NAME` (repeatable), `--output-path DIR`
/// and `--warnings-as-errors`.
struct DocumentationOptions {
    let targetNames: [String]
    let outputDirectory: URL?
    let warningsAsErrors: Bool
    let showsHelp: Bool

    static let usage = """
        USAGE: swift package generate-documentation [--target <name> ...] [--output-path <dir>] [--warnings-as-errors]

        Builds a DocC archive for each named target, or for every library product of this package
        when no target is named.
        """

    init(parsing arguments: [String]) throws {
        var extractor = ArgumentExtractor(arguments)
        targetNames = extractor.extractOption(named: "target")
        outputDirectory = extractor.extractOption(named: "output-path").last.map {
            URL(fileURLWithPath: $0, isDirectory: true)
        }
        warningsAsErrors = extractor.extractFlag(named: "warnings-as-errors") > 0
        showsHelp = extractor.extractFlag(named: "help") > 0
        guard extractor.remainingArguments.isEmpty else {
            throw DocumentationUsageError(
                "unknown arguments \(extractor.remainingArguments.joined(separator: " ")); "
                    + "use --target NAME, --output-path DIR and --warnings-as-errors"
            )
        }
    }

    /// The named targets, or else the targets of every library product.
    func targets(in package: Package) throws -> [SourceModuleTarget] {
        let modules = package.targets.compactMap { $0 as? SourceModuleTarget }
        guard !targetNames.isEmpty else {
            let published = Set(package.products.filter { $0 is LibraryProduct }.flatMap { $0.targets.map(\.name) })
            return modules.filter { published.contains($0.name) }
        }
        return try targetNames.map { name in
            guard let target = modules.first(where: { $0.name == name }) else {
                throw DocumentationUsageError(
                    "no target '\(name)' in this package; its targets: "
                        + modules.filter { $0.kind != .test }.map(\.name).joined(separator: ", ")
                )
            }
            return target
        }
    }
}

/// A command line the command cannot run, with what to type instead.
struct DocumentationUsageError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
