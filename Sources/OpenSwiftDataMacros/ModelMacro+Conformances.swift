import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

extension ModelMacro: ExtensionMacro {
    /// `protocols` holds only the conformances the class still lacks, so a model that already
    /// declares `Observable` gets no second conformance.
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ClassDeclSyntax.self) else { return [] }
        let requested = Set(protocols.map(\.unqualifiedName))
        let type = type.trimmed
        var extensions: [ExtensionDeclSyntax] = []
        if requested.contains("PersistentModel") {
            extensions.append(try ExtensionDeclSyntax("extension \(type): OpenSwiftData.PersistentModel") {})
        }
        if requested.contains("Observable") {
            extensions.append(try ExtensionDeclSyntax("extension \(type): Observation.Observable") {})
        }
        if requested.contains("Sendable") {
            // Models are reference types mutated by their context; the unavailable conformance turns
            // an accidental cross-isolation send into an error that names the sendable alternative.
            let message = "PersistentModels are not Sendable, consider utilizing a ModelActor or use \(type.trimmedDescription)'s persistentModelID instead"
            extensions.append(try ExtensionDeclSyntax(
                """
                @available(*, unavailable, message: \(literal: message))
                extension \(type): Sendable
                """
            ) {})
        }
        return extensions
    }
}
