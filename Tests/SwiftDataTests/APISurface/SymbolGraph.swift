import Foundation

/// The public declarations of one module as `swift-symbolgraph-extract` writes them: each symbol's
/// path, kind and declaration text, and which symbols are a protocol's requirements.
struct SymbolGraph {
    struct Symbol {
        let path: String
        let kind: String
        let declaration: String
        let isRequirement: Bool
    }

    private(set) var symbolsByPath: [String: [Symbol]] = [:]
    private(set) var kindsByPath: [String: String] = [:]

    /// Reads every `*.symbols.json` in `directory`: the module's own file and those of its
    /// extensions to other modules' types (`Array.PersistentElement` lives in `…@Swift`).
    init(directory: URL) throws {
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(".symbols.json") }
        for file in files {
            let graph = try JSONDecoder().decode(File.self, from: Data(contentsOf: file))
            let requirements = Set(graph.relationships
                .filter { $0.kind == "requirementOf" || $0.kind == "optionalRequirementOf" }
                .map(\.source))
            for symbol in graph.symbols {
                let path = symbol.pathComponents.joined(separator: ".")
                let declaration = symbol.declarationFragments?.map(\.spelling).joined() ?? ""
                symbolsByPath[path, default: []].append(Symbol(
                    path: path, kind: symbol.kind.identifier, declaration: declaration,
                    isRequirement: requirements.contains(symbol.identifier.precise)))
                kindsByPath[path] = symbol.kind.identifier
            }
        }
    }

    private struct File: Decodable {
        let symbols: [RawSymbol]
        let relationships: [Relationship]
    }

    private struct RawSymbol: Decodable {
        struct Kind: Decodable { let identifier: String }
        struct Identifier: Decodable { let precise: String }
        struct Fragment: Decodable { let spelling: String }
        let kind: Kind
        let identifier: Identifier
        let pathComponents: [String]
        let declarationFragments: [Fragment]?
    }

    private struct Relationship: Decodable {
        let kind: String
        let source: String
    }
}
