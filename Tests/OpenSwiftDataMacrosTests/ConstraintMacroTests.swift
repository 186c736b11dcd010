import OpenSwiftDataMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct ConstraintMacroTests {
    @Test(arguments: ["Unique", "Index"])
    func constraintExpandsToNothingInPlace(macro: String) {
        assertExpansion(
            #"""
            final class Trip {
                #\#(macro)<Trip>([\.name], [\.start, \.end])
                var name: String
            }
            """#,
            expandedSource: """
            final class Trip {
                var name: String
            }
            """
        )
    }

    @Test(arguments: ["Unique", "Index"])
    func constraintWithoutKeyPathsIsRejected(macro: String) {
        assertExpansion(
            """
            final class Trip {
                #\(macro)<Trip>()
            }
            """,
            expandedSource: """
            final class Trip {
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: #"'#\#(macro)' needs at least one list of key paths, e.g. #\#(macro)<Trip>([\.name])"#,
                    line: 2,
                    column: 5
                ),
            ]
        )
    }

    @Test func constraintWithoutGenericArgumentNamesTheEnclosingClassInItsExample() {
        assertExpansion(
            """
            final class Trip {
                #Unique()
            }
            """,
            expandedSource: """
            final class Trip {
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: #"'#Unique' needs at least one list of key paths, e.g. #Unique<Trip>([\.name])"#,
                    line: 2,
                    column: 5
                ),
            ]
        )
    }

    @Test func moduleQualifiedConstraintIsNotMistakenForAnEmptyOne() {
        // The compiler resolves `OpenSwiftData::Unique` itself; swift-syntax 602 sees a macro named
        // `OpenSwiftData` with no arguments.
        var macros = openSwiftDataMacros
        macros["OpenSwiftData"] = MacroSpec(type: UniqueMacro.self)
        assertExpansion(
            #"""
            final class Trip {
                #OpenSwiftData::Unique<Trip>([\.name])
            }
            """#,
            expandedSource: """
            final class Trip {
            }
            """,
            macros: macros
        )
    }
}
