import SwiftDiagnostics

/// An error reported by one of the OpenSwiftData macros. Every message names the offending
/// declaration and says what to write instead, because the user cannot see the expansion.
struct MacroError: DiagnosticMessage {
    let message: String
    let diagnosticID: MessageID
    var severity: DiagnosticSeverity { .error }

    private init(_ id: String, _ message: String) {
        self.message = message
        self.diagnosticID = MessageID(domain: "OpenSwiftDataMacros", id: id)
    }

    static func modelAppliedToNonClass(kind: String, name: String) -> MacroError {
        MacroError(
            "modelAppliedToNonClass",
            "'@Model' cannot be applied to \(kind) type '\(name)'; persistent models must be classes: declare it as 'final class \(name)'"
        )
    }

    static func modelActorAppliedToNonActor(kind: String, name: String) -> MacroError {
        MacroError(
            "modelActorAppliedToNonActor",
            "'@ModelActor' cannot be applied to \(kind) type '\(name)'; model actors must be actors: declare it as 'actor \(name)'"
        )
    }

    static func missingTypeAnnotation(property: String) -> MacroError {
        MacroError(
            "missingTypeAnnotation",
            "stored property '\(property)' of a @Model class needs a type annotation or an initial value"
        )
    }

    static func propertyObservers(property: String) -> MacroError {
        MacroError(
            "propertyObservers",
            "property observers are not supported on persisted property '\(property)' of a @Model class; mark it @Transient or move the logic into a method"
        )
    }

    static func persistedConstant(property: String) -> MacroError {
        MacroError(
            "persistedConstant",
            "persisted property '\(property)' of a @Model class must be declared with 'var'; use 'private(set) var \(property)' to keep it read-only, or mark it @Transient to keep it out of the store"
        )
    }

    static func severalPropertiesInOneDeclaration(declaration: String) -> MacroError {
        MacroError(
            "severalPropertiesInOneDeclaration",
            "a @Model class needs each stored property in its own declaration; split '\(declaration)' into one declaration per property"
        )
    }

    static func schemaAttributeOnNonStoredProperty(attribute: String, declarationName: String?) -> MacroError {
        let remedy = declarationName.map { "remove it or make '\($0)' a stored property" } ?? "remove it"
        return MacroError(
            "schemaAttributeOnNonStoredProperty",
            "'@\(attribute)' can only be applied to a stored property of a @Model class; \(remedy)"
        )
    }

    static func transientWithoutDefault(example: String) -> MacroError {
        MacroError(
            "transientWithoutDefault",
            "a @Transient property needs a default value, e.g. '\(example)'"
        )
    }

    static func constraintWithoutKeyPaths(macro: String, model: String) -> MacroError {
        MacroError(
            "constraintWithoutKeyPaths",
            "'#\(macro)' needs at least one list of key paths, e.g. #\(macro)<\(model)>([\\.name])"
        )
    }
}

struct MacroFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "OpenSwiftDataMacros", id: message) }
}
