import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model`: stores a class's persisted properties in its backing data, describes them in
/// `schemaMetadata`, and makes the class `PersistentModel` and `Observable`.
public enum ModelMacro {}

extension ModelMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let model = ModelClass(declaration) else {
            context.diagnose(nonClassDiagnostic(node, declaration))
            return []
        }
        for case .rejected(let diagnostic) in model.persistence {
            context.diagnose(diagnostic)
        }
        let name = model.name
        // A class that inherits `PersistentModel` rather than asking for it is a subclass of a
        // `@Model` class: it keeps the superclass's backing data and adds to its schema.
        let inheritsPersistence = !protocols.contains { $0.unqualifiedName == "PersistentModel" }
        if inheritsPersistence, model.superclass != nil {
            var subclass = model
            subclass.isSubclass = true
            return subclassMembers(subclass)
        }
        return [
            """
            @OpenSwiftDataSurface.Transient
            @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<\(raw: name)> = \(raw: name).createBackingData()
            """,
            """
            public var persistentBackingData: any OpenSwiftData.BackingData<\(raw: name)> {
                get {
                    return _$backingData
                }
                set {
                    _$backingData = newValue
                }
            }
            """,
            model.schemaMetadata,
            model.backingDataInitializer,
        ] + observationMembers(name)
    }

    /// The members of a `@Model` subclass. Its `_$backingData` is the hierarchy's one backing data,
    /// staged by the first initializer to run (the most derived class's), so that the subclass's
    /// own properties have somewhere to go before `super.init`; the superclass's initializer then
    /// adopts it (``PersistentModel/_stagedBackingData()``).
    private static func subclassMembers(_ model: ModelClass) -> [DeclSyntax] {
        let name = model.name
        return [
            """
            @OpenSwiftDataSurface.Transient
            @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<\(raw: name)> = \(raw: name)._stagedBackingData()
            """,
            model.schemaMetadata,
            model.backingDataInitializer,
        ] + observationMembers(name)
    }

    private static func observationMembers(_ name: String) -> [DeclSyntax] {
        [
            """
            @OpenSwiftDataSurface.Transient
            @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()
            """,
            """
            internal nonisolated func access<_M>(keyPath: KeyPath<\(raw: name), _M>) {
                _$observationRegistrar.access(self, keyPath: keyPath)
            }
            """,
            """
            internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<\(raw: name), _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
            }
            """,
            """
            struct _SwiftDataNoType {
            }
            """,
        ]
    }

    private static func nonClassDiagnostic(_ node: AttributeSyntax, _ declaration: some DeclGroupSyntax) -> Diagnostic {
        let keyword = declaration.introducer
        let name = declaration.asProtocol(NamedDeclSyntax.self)?.name.text ?? keyword.text
        let message = MacroError.modelAppliedToNonClass(kind: keyword.text, name: name)
        guard keyword.tokenKind == .keyword(.struct) else {
            return Diagnostic(node: node, message: message)
        }
        return Diagnostic(
            node: node,
            message: message,
            fixIt: FixIt(
                message: MacroFixIt(message: "replace 'struct' with 'final class'"),
                changes: [.replaceText(range: keyword.trimmedRange, with: "final class", in: Syntax(keyword))]
            )
        )
    }
}

extension ModelMacro: MemberAttributeMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard declaration.is(ClassDeclSyntax.self),
              case .persisted(let property) = member.as(VariableDeclSyntax.self)?.persistence
        else { return [] }
        return [property.isTransformable ? "@_TransformablePersistedProperty" : "@_PersistedProperty"]
    }
}

/// The parts of a `@Model` class body that its generated members are built from.
struct ModelClass {
    let name: String
    let isFinal: Bool
    /// The first type of the inheritance clause, when there is one: the superclass of a subclass.
    let superclass: String?
    /// Set for a subclass of a `@Model` class (see ``ModelMacro``), whose generated members
    /// override the superclass's.
    var isSubclass = false
    let persistence: [PropertyPersistence]
    let members: MemberBlockItemListSyntax

    init?(_ declaration: some DeclGroupSyntax) {
        guard let declaration = declaration.as(ClassDeclSyntax.self) else { return nil }
        name = declaration.name.text
        isFinal = declaration.modifiers.contains(.final)
        members = declaration.memberBlock.members
        // A class that names `PersistentModel` first declares the conformance itself: no superclass.
        superclass = declaration.inheritanceClause?.inheritedTypes.first
            .flatMap { $0.type.unqualifiedName == "PersistentModel" ? nil : $0.type.trimmedDescription }
        persistence = members.compactMap { $0.decl.as(VariableDeclSyntax.self)?.persistence }
    }

    var properties: [PersistedProperty] {
        persistence.compactMap { persistence in
            guard case .persisted(let property) = persistence else { return nil }
            return property
        }
    }

    var backingDataInitializer: DeclSyntax {
        let assignments = properties.map { "    \($0.storageName) = _SwiftDataNoType()\n" }.joined()
        guard !isSubclass else {
            // The superclass's required initializer takes the hierarchy root's backing data.
            return """
                required public init(backingData: any OpenSwiftData.BackingData<\(raw: name).Root>) {
                \(raw: assignments)    super.init(backingData: backingData)
                }
                """
        }
        let modifiers = isFinal ? "public" : "required public"
        return """
            \(raw: modifiers) init(backingData: any OpenSwiftData.BackingData<\(raw: name)>) {
            \(raw: assignments)    self.persistentBackingData = backingData
            }
            """
    }
}
