import SwiftSyntax

extension AttributeSyntax {
    /// Whether this is `@name`, `@OpenSwiftData.name` or `@SwiftData.name` (the `SwiftData` product's
    /// module re-exports ours); users qualify the macros when a type of theirs (or `Schema.Attribute`)
    /// shadows the short name.
    func isNamed(_ name: String) -> Bool {
        attributeName.isOpenSwiftDataName(name)
    }

    /// The arguments exactly as written, without the parentheses.
    var argumentsText: String {
        guard case .argumentList(let arguments) = arguments else { return "" }
        return arguments.trimmedDescription
    }
}

extension TypeSyntax {
    /// `Observable` for both `Observable` and `Observation.Observable`.
    var unqualifiedName: String {
        self.as(MemberTypeSyntax.self)?.name.text ?? trimmedDescription
    }

    fileprivate func isOpenSwiftDataName(_ name: String) -> Bool {
        if let identifier = self.as(IdentifierTypeSyntax.self) {
            return identifier.name.text == name
        }
        if let member = self.as(MemberTypeSyntax.self), let module = member.baseType.as(IdentifierTypeSyntax.self) {
            return ["OpenSwiftData", "OpenSwiftDataSurface", "SwiftData"].contains(module.name.text) && member.name.text == name
        }
        return false
    }
}

extension AttributeListSyntax {
    func first(named name: String) -> AttributeSyntax? {
        for case .attribute(let attribute) in self where attribute.isNamed(name) {
            return attribute
        }
        return nil
    }
}

extension DeclModifierListSyntax {
    func contains(_ keyword: Keyword) -> Bool {
        contains { $0.name.tokenKind == .keyword(keyword) }
    }
}

extension TokenSyntax {
    /// The name without the backticks of an escaped identifier, as it appears in strings and prefixed names.
    var bareName: String {
        identifier?.name ?? text
    }
}

extension PatternBindingSyntax {
    /// Computed properties have a getter or other real accessors; observers alone keep a property stored.
    var isComputed: Bool {
        switch accessorBlock?.accessors {
        case nil:
            return false
        case .getter:
            return true
        case .accessors(let accessors):
            return accessors.contains { !$0.isObserver }
        }
    }

    var firstObserver: AccessorDeclSyntax? {
        guard case .accessors(let accessors) = accessorBlock?.accessors else { return nil }
        return accessors.first { $0.isObserver }
    }
}

extension AccessorDeclSyntax {
    fileprivate var isObserver: Bool {
        [.keyword(.willSet), .keyword(.didSet)].contains(accessorSpecifier.tokenKind)
    }
}

/// How a declared type is spelled optional, which decides the optionality of the `_name` peer
/// and whether a `var` can go without an initializer.
enum Optionality {
    case none
    case optional
    case implicitlyUnwrapped

    init(_ type: TypeSyntax) {
        if type.is(OptionalTypeSyntax.self) {
            self = .optional
        } else if type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            self = .implicitlyUnwrapped
        } else if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
                  identifier.genericArgumentClause != nil {
            self = .optional
        } else if let member = type.as(MemberTypeSyntax.self), member.name.text == "Optional",
                  member.baseType.trimmedDescription == "Swift", member.genericArgumentClause != nil {
            self = .optional
        } else {
            self = .none
        }
    }
}
