import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct ModelMacroDiagnosticsTests {
    @Test func modelOnStructIsRejectedWithFinalClassFixIt() {
        assertExpansion(
            """
            @Model struct Trip {
                var name: String
            }
            """,
            expandedSource: """
            struct Trip {
                var name: String
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Model' cannot be applied to struct type 'Trip'; persistent models must be classes: declare it as 'final class Trip'",
                    line: 1,
                    column: 1,
                    fixIts: [FixItSpec(message: "replace 'struct' with 'final class'")]
                ),
            ],
            applyFixIts: ["replace 'struct' with 'final class'"],
            fixedSource: """
            @Model final class Trip {
                var name: String
            }
            """
        )
    }

    @Test(arguments: ["enum", "actor", "protocol"])
    func modelOnOtherNonClassTypesIsRejected(kind: String) {
        assertExpansion(
            """
            @Model \(kind) Trip {
            }
            """,
            expandedSource: """
            \(kind) Trip {
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Model' cannot be applied to \(kind) type 'Trip'; persistent models must be classes: declare it as 'final class Trip'",
                    line: 1,
                    column: 1
                ),
            ]
        )
    }

    @Test func propertyWithoutTypeOrInitializerIsRejected() {
        assertExpansion(
            """
            @Model final class Trip {
                var name
            }
            """,
            expandedSource: expandedModelWithoutPersistedProperties("Trip", members: "    var name"),
            diagnostics: [
                DiagnosticSpec(
                    message: "stored property 'name' of a @Model class needs a type annotation or an initial value",
                    line: 2,
                    column: 9
                ),
            ]
        )
    }

    @Test func propertyObserversOnPersistedPropertyAreRejected() {
        assertExpansion(
            """
            @Model final class Trip {
                var name: String = "" {
                    didSet { print(name) }
                }
            }
            """,
            expandedSource: expandedModelWithoutPersistedProperties(
                "Trip",
                members: """
                    var name: String = "" {
                        didSet { print(name) }
                    }
                """
            ),
            diagnostics: [
                DiagnosticSpec(
                    message: "property observers are not supported on persisted property 'name' of a @Model class; mark it @Transient or move the logic into a method",
                    line: 3,
                    column: 9
                ),
            ]
        )
    }

    @Test func severalPropertiesInOneDeclarationAreRejected() {
        assertExpansion(
            """
            @Model final class Point {
                var x, y: Double
            }
            """,
            expandedSource: expandedModelWithoutPersistedProperties("Point", members: "    var x, y: Double"),
            diagnostics: [
                DiagnosticSpec(
                    message: "a @Model class needs each stored property in its own declaration; split 'var x, y: Double' into one declaration per property",
                    line: 2,
                    column: 9
                ),
            ]
        )
    }

    @Test func persistedLetIsRejectedWithVarFixIt() {
        assertExpansion(
            """
            @Model final class Trip {
                let code: String
            }
            """,
            expandedSource: expandedModelWithoutPersistedProperties("Trip", members: "    let code: String"),
            diagnostics: [
                DiagnosticSpec(
                    message: "persisted property 'code' of a @Model class must be declared with 'var'; use 'private(set) var code' to keep it read-only, or mark it @Transient to keep it out of the store",
                    line: 2,
                    column: 5,
                    fixIts: [FixItSpec(message: "replace 'let' with 'var'")]
                ),
            ],
            applyFixIts: ["replace 'let' with 'var'"],
            fixedSource: """
            @Model final class Trip {
                var code: String
            }
            """
        )
    }
}
