import OpenSwiftDataMacros
import Testing

/// `@Model` members that witness `PersistentModel` (`persistentBackingData`, `schemaMetadata`,
/// `init(backingData:)`) are `public` whatever the class's own access level: a member may be more
/// visible than its type, and `public` is what a `public` or `open` class in a library needs for
/// the conformance to hold in other modules. The conformance extensions carry no modifier, so
/// they take the class's visibility.
@Suite struct ModelMacroAccessLevelTests {
    @Test(arguments: [
        "public final class",
        "public class",
        "open class",
        "package class",
        "internal class",
        "fileprivate final class",
        "private class",
    ])
    func witnessesArePublicForEveryAccessLevel(declaration: String) {
        assertExpansion(
            """
            @Model \(declaration) Note {
                public var title: String

                public init(title: String) {
                    self.title = title
                }
            }
            """,
            expandedSource: expandedNote(declaration: declaration)
        )
    }

    private func expandedNote(declaration: String) -> String {
        let isFinal = declaration.contains("final")
        let metadataKeyword = isFinal ? "static" : "class"
        let initModifiers = isFinal ? "public" : "required public"
        return #"""
            \#(declaration) Note {
                public var title: String {
                    @storageRestrictions(accesses: _$backingData, initializes: _title)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.title, to: initialValue)
                        _title = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.title)
                        return self.getValue(forKey: \.title)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.title) {
                            self.setValue(forKey: \.title, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _title: _SwiftDataNoType

                public init(title: String) {
                    self.title = title
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Note> = Note.createBackingData()

                public var persistentBackingData: any OpenSwiftData.BackingData<Note> {
                    get {
                        return _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                public \#(metadataKeyword) var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "title", keypath: \Note.title, defaultValue: nil, metadata: nil)
                    ]
                }

                \#(initModifiers) init(backingData: any OpenSwiftData.BackingData<Note>) {
                    _title = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Note, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Note, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Note: OpenSwiftData.PersistentModel {
            }

            extension Note: Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Note's persistentModelID instead")
            extension Note: Sendable {
            }
            """#
    }
}
