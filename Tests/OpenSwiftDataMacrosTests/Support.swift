import OpenSwiftDataMacros
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Every macro of the plugin, registered as `OpenSwiftData/Macros.swift` declares it, so that
/// tests see the same nested expansions (`@Model` attaching `@_PersistedProperty`) as the compiler.
let openSwiftDataMacros: [String: MacroSpec] = [
    "Model": MacroSpec(type: ModelMacro.self, conformances: ["Observable", "PersistentModel", "Sendable"]),
    "_PersistedProperty": MacroSpec(type: PersistedPropertyMacro.self),
    "_TransformablePersistedProperty": MacroSpec(type: TransformablePersistedPropertyMacro.self),
    "Attribute": MacroSpec(type: AttributeMacro.self),
    "Relationship": MacroSpec(type: RelationshipMacro.self),
    "Transient": MacroSpec(type: TransientMacro.self),
    "Unique": MacroSpec(type: UniqueMacro.self),
    "Index": MacroSpec(type: IndexMacro.self),
    "ModelActor": MacroSpec(type: ModelActorMacro.self, conformances: ["ModelActor"]),
]

/// Asserts the whole expanded source and every diagnostic, reporting mismatches as Swift Testing issues.
func assertExpansion(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec] = [],
    macros: [String: MacroSpec] = openSwiftDataMacros,
    applyFixIts: [String]? = nil,
    fixedSource: String? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    assertMacroExpansion(
        source,
        expandedSource: expandedSource,
        diagnostics: diagnostics,
        macroSpecs: macros,
        applyFixIts: applyFixIts,
        fixedSource: fixedSource,
        indentationWidth: .spaces(4),
        failureHandler: { spec in
            Issue.record(
                Comment(rawValue: spec.message),
                sourceLocation: SourceLocation(
                    fileID: spec.location.fileID,
                    filePath: spec.location.filePath,
                    line: spec.location.line,
                    column: spec.location.column
                )
            )
        },
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
    )
}

/// The members and extensions `@Model` adds to a final class that persists no property, indented
/// for a top-level class; diagnostic tests compare against it so they can focus on the diagnostic.
func expandedModelWithoutPersistedProperties(_ name: String, members: String) -> String {
    #"""
    final class \#(name) {
    \#(members)

        @OpenSwiftDataSurface.Transient
        @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<\#(name)> = \#(name).createBackingData()

        public var persistentBackingData: any OpenSwiftData.BackingData<\#(name)> {
            get {
                return _$backingData
            }
            set {
                _$backingData = newValue
            }
        }

        public static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
            return []
        }

        public init(backingData: any OpenSwiftData.BackingData<\#(name)>) {
            self.persistentBackingData = backingData
        }

        @OpenSwiftDataSurface.Transient
        @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()

        internal nonisolated func access<_M>(keyPath: KeyPath<\#(name), _M>) {
            _$observationRegistrar.access(self, keyPath: keyPath)
        }

        internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<\#(name), _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
            try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
        }

        struct _SwiftDataNoType {
        }
    }

    extension \#(name): OpenSwiftData.PersistentModel {
    }

    extension \#(name): Observation.Observable {
    }

    @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use \#(name)'s persistentModelID instead")
    extension \#(name): Sendable {
    }
    """#
}
