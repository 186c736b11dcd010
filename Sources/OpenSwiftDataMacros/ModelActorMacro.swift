import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ModelActor`: gives an actor a model container and a context of its own, and runs the actor
/// on that context's serial executor so the context is only touched from the actor.
public enum ModelActorMacro {}

extension ModelActorMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self) else {
            context.diagnose(nonActorDiagnostic(node, declaration))
            return []
        }
        let access = memberAccessPrefix(declaration.modifiers)
        return [
            "\(raw: access)nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor",
            "\(raw: access)nonisolated let modelContainer: OpenSwiftData.ModelContainer",
            """
            \(raw: access)init(modelContainer: OpenSwiftData.ModelContainer) {
                let modelContext = OpenSwiftData.ModelContext(modelContainer)
                self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                self.modelContainer = modelContainer
            }
            """,
        ]
    }

    /// The members witness `ModelActor`'s requirements, so they must be as visible as the actor
    /// (a `public actor` in a library would not compile otherwise), and the initializer is how
    /// other modules create it. A `private` actor's members become `fileprivate`: `private` would
    /// hide them from the conformance, which needs the actor's own file-wide visibility. `open` is
    /// invalid on an actor and the compiler says so; `public` keeps that the only error.
    private static func memberAccessPrefix(_ modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers where modifier.detail == nil {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open):
                return "public "
            case .keyword(.package):
                return "package "
            case .keyword(.fileprivate), .keyword(.private):
                return "fileprivate "
            default:
                continue
            }
        }
        return ""
    }

    private static func nonActorDiagnostic(_ node: AttributeSyntax, _ declaration: some DeclGroupSyntax) -> Diagnostic {
        let keyword = declaration.introducer
        let name = declaration.asProtocol(NamedDeclSyntax.self)?.name.text ?? keyword.text
        let message = MacroError.modelActorAppliedToNonActor(kind: keyword.text, name: name)
        guard [.keyword(.class), .keyword(.struct)].contains(keyword.tokenKind) else {
            return Diagnostic(node: node, message: message)
        }
        return Diagnostic(
            node: node,
            message: message,
            fixIt: FixIt(
                message: MacroFixIt(message: "replace '\(keyword.text)' with 'actor'"),
                changes: [.replace(oldNode: Syntax(keyword), newNode: Syntax(keyword.with(\.tokenKind, .keyword(.actor))))]
            )
        )
    }
}

extension ModelActorMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self), protocols.contains(where: { $0.unqualifiedName == "ModelActor" }) else {
            return []
        }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): OpenSwiftDataCore.ModelActor") {}]
    }
}
