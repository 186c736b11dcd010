import OpenSwiftDataMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct ModelActorMacroTests {
    @Test func actorGetsExecutorContainerAndInitializer() {
        assertExpansion(
            """
            @ModelActor actor Worker {
                func run() {}
            }
            """,
            expandedSource: """
            actor Worker {
                func run() {}

                nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                nonisolated let modelContainer: OpenSwiftData.ModelContainer

                init(modelContainer: OpenSwiftData.ModelContainer) {
                    let modelContext = OpenSwiftData.ModelContext(modelContainer)
                    self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }

            extension Worker: OpenSwiftDataCore.ModelActor {
            }
            """
        )
    }

    /// The generated members witness `ModelActor` and the initializer creates the actor from other
    /// modules, so they take the actor's visibility; `private` widens to the file the conformance needs.
    @Test(arguments: [
        (declared: "public ", generated: "public "),
        (declared: "package ", generated: "package "),
        (declared: "internal ", generated: ""),
        (declared: "fileprivate ", generated: "fileprivate "),
        (declared: "private ", generated: "fileprivate "),
    ])
    func generatedMembersTakeTheActorsAccessLevel(declared: String, generated: String) {
        assertExpansion(
            """
            @ModelActor \(declared)actor Worker {
            }
            """,
            expandedSource: """
            \(declared)actor Worker {

                \(generated)nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                \(generated)nonisolated let modelContainer: OpenSwiftData.ModelContainer

                \(generated)init(modelContainer: OpenSwiftData.ModelContainer) {
                    let modelContext = OpenSwiftData.ModelContext(modelContainer)
                    self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }

            extension Worker: OpenSwiftDataCore.ModelActor {
            }
            """
        )
    }

    @Test func accessLevelIsFoundAmongOtherAttributesAndModifiers() {
        assertExpansion(
            """
            @ModelActor @available(macOS 15, *) public final actor Worker {
            }
            """,
            expandedSource: """
            @available(macOS 15, *) public final actor Worker {

                public nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                public nonisolated let modelContainer: OpenSwiftData.ModelContainer

                public init(modelContainer: OpenSwiftData.ModelContainer) {
                    let modelContext = OpenSwiftData.ModelContext(modelContainer)
                    self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }

            extension Worker: OpenSwiftDataCore.ModelActor {
            }
            """
        )
    }

    @Test func actorAlreadyConformingGetsNoExtension() {
        var macros = openSwiftDataMacros
        macros["ModelActor"] = MacroSpec(type: ModelActorMacro.self)
        assertExpansion(
            """
            @ModelActor actor Worker: ModelActor {
            }
            """,
            expandedSource: """
            actor Worker: ModelActor {

                nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                nonisolated let modelContainer: OpenSwiftData.ModelContainer

                init(modelContainer: OpenSwiftData.ModelContainer) {
                    let modelContext = OpenSwiftData.ModelContext(modelContainer)
                    self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }
            """,
            macros: macros
        )
    }

    @Test func modelActorOnClassIsRejectedWithActorFixIt() {
        assertExpansion(
            """
            @ModelActor final class Worker {
            }
            """,
            expandedSource: """
            final class Worker {
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@ModelActor' cannot be applied to class type 'Worker'; model actors must be actors: declare it as 'actor Worker'",
                    line: 1,
                    column: 1,
                    fixIts: [FixItSpec(message: "replace 'class' with 'actor'")]
                ),
            ],
            applyFixIts: ["replace 'class' with 'actor'"],
            fixedSource: """
            @ModelActor final actor Worker {
            }
            """
        )
    }

    @Test func modelActorOnEnumIsRejected() {
        assertExpansion(
            """
            @ModelActor enum Worker {
            }
            """,
            expandedSource: """
            enum Worker {
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@ModelActor' cannot be applied to enum type 'Worker'; model actors must be actors: declare it as 'actor Worker'",
                    line: 1,
                    column: 1
                ),
            ]
        )
    }
}
