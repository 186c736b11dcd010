import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `#Unique<T>(...)`: expands to nothing; `@Model` reads its arguments into `schemaMetadata`.
public enum UniqueMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        diagnoseMissingKeyPaths(node, macro: "Unique", context)
        return []
    }
}

/// `#Index<T>(...)`: expands to nothing; `@Model` reads its arguments into `schemaMetadata`.
public enum IndexMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        diagnoseMissingKeyPaths(node, macro: "Index", context)
        return []
    }
}

/// The variadic parameter accepts an empty call, which would declare a constraint on nothing.
/// A module-qualified `#OpenSwiftData::Unique` reaches the plugin as `#OpenSwiftData` followed by
/// tokens swift-syntax 602 cannot parse: its arguments are unknown rather than missing.
private func diagnoseMissingKeyPaths(
    _ node: some FreestandingMacroExpansionSyntax,
    macro: String,
    _ context: some MacroExpansionContext
) {
    guard node.arguments.isEmpty, node.macroName.text == macro else { return }
    let model = node.genericArgumentClause?.arguments.first?.argument.trimmedDescription
        ?? context.lexicalContext.lazy.compactMap { $0.as(ClassDeclSyntax.self)?.name.text }.first
        ?? "Model"
    context.diagnose(Diagnostic(
        node: node,
        message: MacroError.constraintWithoutKeyPaths(macro: macro, model: model)
    ))
}
