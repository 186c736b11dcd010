import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct PeerMarkerMacroTests {
    @Test func attributeOnStoredPropertyExpandsToNothing() {
        assertExpansion(
            """
            final class Trip {
                @Attribute(.unique) var name: String
                @Relationship(deleteRule: .cascade) var items: [Item] = []
            }
            """,
            expandedSource: """
            final class Trip {
                var name: String
                var items: [Item] = []
            }
            """
        )
    }

    @Test func attributeOnComputedPropertyIsRejectedWithRemovalFixIt() {
        assertExpansion(
            """
            final class Trip {
                @Attribute(.unique) var summary: String { "trip" }
            }
            """,
            expandedSource: """
            final class Trip {
                var summary: String { "trip" }
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Attribute' can only be applied to a stored property of a @Model class; remove it or make 'summary' a stored property",
                    line: 2,
                    column: 5,
                    fixIts: [FixItSpec(message: "remove '@Attribute'")]
                ),
            ],
            applyFixIts: ["remove '@Attribute'"],
            fixedSource: """
            final class Trip {
                var summary: String { "trip" }
            }
            """
        )
    }

    @Test func relationshipOnMethodIsRejectedWithRemovalFixIt() {
        assertExpansion(
            """
            final class Trip {
                @Relationship(deleteRule: .cascade)
                func items() -> [Item] { [] }
            }
            """,
            expandedSource: """
            final class Trip {
                func items() -> [Item] { [] }
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Relationship' can only be applied to a stored property of a @Model class; remove it or make 'items' a stored property",
                    line: 2,
                    column: 5,
                    fixIts: [FixItSpec(message: "remove '@Relationship'")]
                ),
            ],
            applyFixIts: ["remove '@Relationship'"],
            fixedSource: """
            final class Trip {
                func items() -> [Item] { [] }
            }
            """
        )
    }

    @Test func attributeOnInitializerIsRejected() {
        assertExpansion(
            """
            final class Trip {
                @MainActor @Attribute(.unique) init() {}
            }
            """,
            expandedSource: """
            final class Trip {
                @MainActor init() {}
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Attribute' can only be applied to a stored property of a @Model class; remove it",
                    line: 2,
                    column: 16,
                    fixIts: [FixItSpec(message: "remove '@Attribute'")]
                ),
            ],
            applyFixIts: ["remove '@Attribute'"],
            fixedSource: """
            final class Trip {
                @MainActor init() {}
            }
            """
        )
    }

    @Test(arguments: [("var", "cache", "[String]"), ("let", "flag", "Bool?")])
    func transientPropertyWithoutDefaultValueIsRejected(specifier: String, name: String, type: String) {
        assertExpansion(
            """
            final class Trip {
                @Transient \(specifier) \(name): \(type)
            }
            """,
            expandedSource: """
            final class Trip {
                \(specifier) \(name): \(type)
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a @Transient property needs a default value, e.g. '@Transient \(specifier) \(name): \(type) = …'",
                    line: 2,
                    column: 20
                ),
            ]
        )
    }

    @Test func generatedStoragePeerNeedsNoDefaultValue() {
        assertExpansion(
            """
            final class Trip {
                @Transient private var _name: _SwiftDataNoType
            }
            """,
            expandedSource: """
            final class Trip {
                private var _name: _SwiftDataNoType
            }
            """
        )
    }

    @Test func transientOptionalVariableDefaultsToNil() {
        assertExpansion(
            """
            final class Trip {
                @Transient var selection: String?
                @Transient var draft: Optional<String>
                @Transient var isSelected = false
            }
            """,
            expandedSource: """
            final class Trip {
                var selection: String?
                var draft: Optional<String>
                var isSelected = false
            }
            """
        )
    }
}
