import SwiftDiagnostics
import SwiftSyntax

/// A stored instance property that `@Model` turns into an accessor over the backing data.
struct PersistedProperty {
    let declaration: VariableDeclSyntax
    let identifier: TokenSyntax
    let type: TypeSyntax
    let initializer: ExprSyntax?

    var name: String { identifier.bareName }

    /// `_name`, the peer whose `init` accessor makes definite initialisation work.
    var storageName: String { "_\(name)" }

    /// The `@Attribute` or `@Relationship` whose arguments become the schema metadata.
    var schemaAttribute: AttributeSyntax? {
        declaration.attributes.first(named: "Attribute") ?? declaration.attributes.first(named: "Relationship")
    }

    /// Whether the declared type is an array (`[T]`, `Array<T>`, or an optional of one): such a
    /// property gets a `_modify` accessor, so that appending to it works on the array in place.
    var isArray: Bool {
        var type = type
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
        guard let type = binding.typeAnnotation?.type else {
            return .rejected(missingTypeAnnotation(binding, identifier))
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

    private func missingTypeAnnotation(_ binding: PatternBindingSyntax, _ identifier: TokenSyntax) -> Diagnostic {
        guard let initializer = binding.initializer?.value else {
            return Diagnostic(
                node: identifier,
                message: MacroError.missingTypeAnnotation(property: identifier.bareName, example: nil)
            )
        }
        let literalType = initializer.literalTypeName
        let example = "\(bindingSpecifier.text) \(identifier.text): \(literalType ?? "T") = \(initializer.trimmedDescription)"
        let message = MacroError.missingTypeAnnotation(property: identifier.bareName, example: example)
        guard let literalType else {
            return Diagnostic(node: identifier, message: message)
        }
        let annotated = binding
            .with(\.pattern, binding.pattern.with(\.trailingTrivia, []))
            .with(\.typeAnnotation, TypeAnnotationSyntax(
                colon: .colonToken(trailingTrivia: .space),
                type: IdentifierTypeSyntax(name: .identifier(literalType), trailingTrivia: binding.pattern.trailingTrivia)
            ))
        return Diagnostic(
            node: identifier,
            message: message,
            fixIt: FixIt(
                message: MacroFixIt(message: "insert ': \(literalType)'"),
                changes: [.replace(oldNode: Syntax(binding), newNode: Syntax(annotated))]
            )
        )
    }
}

extension ExprSyntax {
    /// The type Swift infers for a literal, when that is certain enough to offer as a Fix-It.
    fileprivate var literalTypeName: String? {
        if let negated = self.as(PrefixOperatorExprSyntax.self), negated.operator.text == "-",
           [.integerLiteralExpr, .floatLiteralExpr].contains(negated.expression.kind) {
            return negated.expression.literalTypeName
        }
        switch kind {
        case .integerLiteralExpr: return "Int"
        case .floatLiteralExpr: return "Double"
        case .stringLiteralExpr: return "String"
        case .booleanLiteralExpr: return "Bool"
        default: return nil
        }
    }
}
