/// How each listed SwiftData declaration fares against the module's symbol graph.
struct APISurfaceReport {
    enum Status: Equatable {
        case present
        /// Symbols of that path exist, but none is declared as listed; their spellings, normalised.
        case spelledOtherwise([String])
        case missing
    }

    let statuses: [(declaration: ListedDeclaration, status: Status)]

    init(_ declarations: [ListedDeclaration], against graph: SymbolGraph) {
        statuses = declarations.map { ($0, Self.status(of: $0, in: graph)) }
    }

    var presentCount: Int { statuses.filter { $0.status == .present }.count }

    var absent: [(declaration: ListedDeclaration, status: Status)] { statuses.filter { $0.status != .present } }

    private static func status(of listed: ListedDeclaration, in graph: SymbolGraph) -> Status {
        var candidates = graph.symbolsByPath[listed.path] ?? []
        if let parent = listed.parentPath, graph.kindsByPath[parent] == "swift.protocol",
           !DeclarationText.normalized(listed.declaration).hasPrefix("typealias ") {
            // A protocol's requirement and its default implementation share a path; a type alias
            // in a protocol is neither.
            candidates = candidates.filter { $0.isRequirement != listed.isDeclaredPublic }
        }
        guard !candidates.isEmpty else { return .missing }
        let wanted = DeclarationText.normalized(listed.declaration)
        let spellings = candidates.map { DeclarationText.normalized($0.declaration) }
        return spellings.contains(wanted) ? .present : .spelledOtherwise(spellings)
    }
}
