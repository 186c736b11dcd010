import SwiftSyntax
import SwiftSyntaxBuilder

extension ModelClass {
    /// `schemaMetadata`: one entry per persisted property, then the `#Index` and `#Unique`
    /// constraints as pseudo-properties, in the shape Apple's macro emits so that schema code
    /// written against SwiftData reads them the same way.
    ///
    /// Its key paths name every stored property, so a deprecated one would warn here, in code the
    /// app cannot change. `schemaMetadata` carries the properties' deprecations instead: a
    /// reference inside a deprecated declaration does not warn, and the library reads it through
    /// the `PersistentModel` requirement, which does not warn either.
    var schemaMetadata: DeclSyntax {
        let keyword = isSubclass ? "override class" : isFinal ? "static" : "class"
        let body = schemaMetadataBody.map { "    \($0)\n" }.joined()
        var deprecations: [String] = []
        for deprecation in properties.compactMap(\.deprecation) where !deprecations.contains(deprecation) {
            deprecations.append(deprecation)
        }
        let attributes = deprecations.map { "\($0)\n" }.joined()
        return """
            \(raw: attributes)public \(raw: keyword) var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
            \(raw: body)}
            """
    }

    private var schemaMetadataBody: [String] {
        let stored = properties.map { $0.metadataEntry(model: name) }
        let constraints = constraintEntries(macro: "Index") + constraintEntries(macro: "Unique")
        // A subclass's entity lists the inherited properties first, as the superclass describes
        // them; read through the protocol, as the superclass's may be deprecated.
        let inherited = isSubclass ? superclass.map { "(\($0).self as any OpenSwiftData.PersistentModel.Type).schemaMetadata + " } ?? "" : ""
        guard !constraints.isEmpty else {
            return arrayLiteralLines(stored, after: "return " + inherited)
        }
        // An empty literal alone would not tell the compiler its element type.
        let storedLines = stored.isEmpty
            ? ["let storedProperties: [OpenSwiftData.Schema.PropertyMetadata] = []"]
            : arrayLiteralLines(stored, after: "let storedProperties = ")
        return storedLines
            + ["var otherProperties = [OpenSwiftData.Schema.PropertyMetadata]()"]
            + constraints.map { "otherProperties.append(\($0))" }
            + ["return \(inherited)storedProperties + otherProperties"]
    }

    private func arrayLiteralLines(_ elements: [String], after prefix: String) -> [String] {
        guard let last = elements.indices.last else { return [prefix + "[]"] }
        let lines = elements.indices.map { "    \(elements[$0])\($0 == last ? "" : ",")" }
        return ["\(prefix)["] + lines + ["]"]
    }

    private func constraintEntries(macro: String) -> [String] {
        members.compactMap { member in
            guard let expansion = member.decl.as(MacroExpansionDeclSyntax.self),
                  expansion.macroName.text == macro
            else { return nil }
            let constraint = "OpenSwiftData.Schema.\(macro)<\(name)>(\(expansion.arguments.trimmedDescription))"
            return """
                OpenSwiftData.Schema.PropertyMetadata(name: "SwiftData.Schema.\(macro)", \
                keypath: \\OpenSwiftData.Schema.encodingVersion, defaultValue: nil, metadata: \(constraint))
                """
        }
    }
}

extension PersistedProperty {
    fileprivate func metadataEntry(model: String) -> String {
        let keyPath = "\\\(model).\(identifier.text)"
        return "OpenSwiftData.Schema.PropertyMetadata(name: \"\(name)\", keypath: \(keyPath), "
            + "defaultValue: \(defaultValue(keyPath: keyPath)), metadata: \(metadata))"
    }

    /// The initializer, typed by the property's key path rather than by the declaration's text,
    /// which an untyped `var count = 0` does not have.
    private func defaultValue(keyPath: String) -> String {
        guard let initializer else { return "nil" }
        return "OpenSwiftData.Schema.PropertyMetadata._defaultValue(\(keyPath), \(initializer.trimmedDescription))"
    }

    private var metadata: String {
        guard let attribute = schemaAttribute else { return "nil" }
        let schemaType = attribute.isNamed("Attribute") ? "Attribute" : "Relationship"
        return "OpenSwiftData.Schema.\(schemaType)(\(attribute.argumentsText))"
    }
}

extension PersistedProperty {
    /// The deprecation of the property's `@available` attributes, as an attribute for
    /// `schemaMetadata`: `@available(*, deprecated, …)` or `@available(iOS, deprecated: 18, …)`.
    fileprivate var deprecation: String? {
        for attribute in declaration.attributes {
            guard case .attribute(let attribute) = attribute, attribute.attributeName.trimmedDescription == "available",
                  case .availability(let arguments) = attribute.arguments, let platform = arguments.first?.argument.trimmedDescription
            else { continue }
            for argument in arguments {
                if case .token(let token) = argument.argument, token.text == "deprecated" {
                    return "@available(\(platform), deprecated, message: \"names the deprecated stored property '\(name)'\")"
                }
                if case .availabilityLabeledArgument(let labeled) = argument.argument, labeled.label.text == "deprecated" {
                    return "@available(\(platform), deprecated: \(labeled.value.trimmedDescription), message: \"names the deprecated stored property '\(name)'\")"
                }
            }
        }
        return nil
    }
}
