import SwiftDiagnostics
import SwiftSyntax

/// A stored instance property that `@Model` turns into an accessor over the backing data.
struct PersistedProperty {
    let declaration: VariableDeclSyntax
    let identifier: TokenSyntax
    /// The declared type; nil for a property typed by its initial value (`var count = 0`), whose
    /// type the compiler infers, as Apple's macro leaves it to: the generated code names the
    /// type only through key paths and the initializer.
    let type: TypeSyntax?
    let initializer: ExprSyntax?

    var name: String { identifier.bareName }

    /// `_name`, the peer whose `init` accessor makes definite initialisation work.
    var storageName: String { "_\(name)" }

    /// The `@Attribute` or `@Relationship` whose arguments become the schema metadata.
    var schemaAttribute: AttributeSyntax? {
        declaration.attributes.first(named: "Attribute") ?? declaration.attributes.first(named: "Relationship")
    }

    /// Whether the declared type is an array (`[T]`, `Array<T>`, or an optional of one), or the
    /// initial value of an untyped property makes one (`[…]`, `[T]()`, `Array<T>(…)`): such a
    /// property gets a `_modify` accessor, so that appending to it works on the array in place.
    var isArray: Bool {
        guard var type else { return initializer?.makesArray ?? false }
        if let optional = type.as(OptionalTypeSyntax.self) { type = optional.wrappedType }
        if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { type = optional.wrappedType }
        if type.is(ArrayTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return identifier.name.text == "Array" && identifier.genericArgumentClause != nil
        }
        return false
    }

    var isTransformable: Bool {
        guard let attribute = declaration.attributes.first(named: "Attribute"),
              case .argumentList(let arguments) = attribute.arguments
        else { return false }
        return arguments.contains { argument in
            argument.expression.as(FunctionCallExprSyntax.self)?
                .calledExpression.as(MemberAccessExprSyntax.self)?
                .declName.baseName.text == "transformable"
        }
    }
}

/// What `@Model` makes of one `var`/`let` in its class body.
enum PropertyPersistence {
    case persisted(PersistedProperty)
    /// A stored property `@Model` would have to persist but cannot; it is left as written so the
    /// user sees only this diagnostic.
    case rejected(Diagnostic)
}

extension VariableDeclSyntax {
    /// `nil` for declarations that are not persisted at all: static, lazy, `@Transient` and computed properties.
    var persistence: PropertyPersistence? {
        if modifiers.contains(.static) || modifiers.contains(.class) || modifiers.contains(.lazy)
            || attributes.first(named: "Transient") != nil || bindings.contains(where: \.isComputed) {
            return nil
        }
        guard bindings.count == 1, let binding = bindings.first,
              let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier
        else {
            let written = "\(bindingSpecifier.text) \(bindings.trimmedDescription)"
            return .rejected(Diagnostic(
                node: bindings,
                message: MacroError.severalPropertiesInOneDeclaration(declaration: written)
            ))
        }
        if let observer = binding.firstObserver {
            return .rejected(Diagnostic(
                node: observer.accessorSpecifier,
                message: MacroError.propertyObservers(property: identifier.bareName)
            ))
        }
        let type = binding.typeAnnotation?.type
        if type == nil, binding.initializer == nil {
            return .rejected(Diagnostic(node: identifier, message: MacroError.missingTypeAnnotation(property: identifier.bareName)))
        }
        if bindingSpecifier.tokenKind == .keyword(.let) {
            // Swift 6 cannot attach the accessors persistence needs to a `let`.
            return .rejected(Diagnostic(
                node: bindingSpecifier,
                message: MacroError.persistedConstant(property: identifier.bareName),
                fixIt: FixIt(
                    message: MacroFixIt(message: "replace 'let' with 'var'"),
                    changes: [.replace(oldNode: Syntax(bindingSpecifier), newNode: Syntax(bindingSpecifier.with(\.tokenKind, .keyword(.var))))]
                )
            ))
        }
        return .persisted(PersistedProperty(
            declaration: self, identifier: identifier, type: type, initializer: binding.initializer?.value
        ))
    }
}

extension ExprSyntax {
    /// Whether the expression makes an array: a literal, or a call of `[T]` or `Array`.
    fileprivate var makesArray: Bool {
        if self.is(ArrayExprSyntax.self) { return true }
        guard let call = self.as(FunctionCallExprSyntax.self) else { return false }
        let called = call.calledExpression
        if called.is(ArrayExprSyntax.self) { return true }
        if let specialized = called.as(GenericSpecializationExprSyntax.self) {
            return specialized.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Array"
        }
        return called.as(DeclReferenceExprSyntax.self)?.baseName.text == "Array"
    }
}
