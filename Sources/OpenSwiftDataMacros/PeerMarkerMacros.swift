import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Attribute`: a marker that `@Model` reads into `Schema.Attribute`; expands to nothing.
public enum AttributeMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        diagnoseUnlessStoredProperty(node, "Attribute", declaration, context)
        return []
    }
}

/// `@Relationship`: a marker that `@Model` reads into `Schema.Relationship`; expands to nothing.
public enum RelationshipMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        diagnoseUnlessStoredProperty(node, "Relationship", declaration, context)
        return []
    }
}

/// `@Transient`: a marker that keeps `@Model` from persisting a property; expands to nothing.
public enum TransientMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self) else { return [] }
        // `init(backingData:)` assigns only persisted storage, so a transient property without a
        // default value would be left uninitialised when a context materialises the model.
        let isVar = variable.bindingSpecifier.tokenKind == .keyword(.var)
        for binding in variable.bindings where binding.initializer == nil && !binding.isComputed {
            guard let type = binding.typeAnnotation?.type, !type.isStorageMarker else { continue }
            if isVar && Optionality(type) != .none { continue }
            let example = "@Transient \(variable.bindingSpecifier.text) \(binding.pattern.trimmed): \(type.trimmed) = …"
            context.diagnose(Diagnostic(node: binding.pattern, message: MacroError.transientWithoutDefault(example: example)))
        }
        return []
    }
}

extension TypeSyntax {
    /// The `_name: _SwiftDataNoType` peers of persisted properties are `@Transient` without a
    /// default on purpose: the init accessor and `init(backingData:)` assign them.
    fileprivate var isStorageMarker: Bool {
        self.as(IdentifierTypeSyntax.self)?.name.text == "_SwiftDataNoType"
    }
}

/// `@Attribute` and `@Relationship` only mean something on a stored property: anywhere else
/// `@Model` would silently ignore them.
private func diagnoseUnlessStoredProperty(
    _ node: AttributeSyntax,
    _ attribute: String,
    _ declaration: some DeclSyntaxProtocol,
    _ context: some MacroExpansionContext
) {
    let variable = declaration.as(VariableDeclSyntax.self)
    if let variable, !variable.bindings.contains(where: \.isComputed) { return }
    let name = variable?.bindings.first?.pattern.trimmedDescription
        ?? declaration.asProtocol(NamedDeclSyntax.self)?.name.text
    context.diagnose(Diagnostic(
        node: node,
        message: MacroError.schemaAttributeOnNonStoredProperty(attribute: attribute, declarationName: name),
        fixIts: [removal(of: attribute, from: declaration)].compactMap { $0 }
    ))
}

/// Replaces the declaration by itself without the attribute, keeping the declaration's leading
/// trivia so that the code after the removed attribute stays on its line and indentation. The
/// attribute is matched by name because macro hosts hand the attribute and the declaration over
/// as separate copies.
private func removal(of name: String, from declaration: some DeclSyntaxProtocol) -> FixIt? {
    guard var withAttributes = declaration.asProtocol(WithAttributesSyntax.self) else { return nil }
    withAttributes.attributes = withAttributes.attributes.filter { element in
        guard case .attribute(let attribute) = element else { return true }
        return !attribute.isNamed(name)
    }
    var fixed = Syntax(withAttributes)
    fixed.leadingTrivia = declaration.leadingTrivia
    return FixIt(
        message: MacroFixIt(message: "remove '@\(name)'"),
        changes: [.replace(oldNode: Syntax(declaration), newNode: fixed)]
    )
}
