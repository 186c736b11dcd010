import OpenSwiftDataMacros
import SwiftSyntaxMacroExpansion
import Testing

/// `@Model` on a subclass of a `@Model` class: the compiler asks for no `PersistentModel`
/// conformance (the superclass has it), so the subclass's members override the superclass's.
@Suite struct ModelMacroInheritanceTests {
    /// As the compiler registers `@Model` for a class that already conforms through its superclass.
    private var subclassMacros: [String: MacroSpec] {
        var macros = openSwiftDataMacros
        macros["Model"] = MacroSpec(type: ModelMacro.self, conformances: [])
        return macros
    }

    @Test func subclassOverridesSchemaMetadataAndChainsBackingDataInitializer() {
        assertExpansion(
            #"""
            @Model class BusinessTrip: Trip {
                var perdiem: Double = 0.0

                init(name: String, perdiem: Double) {
                    self.perdiem = perdiem
                    super.init(name: name)
                }
            }
            """#,
            expandedSource: #"""
            class BusinessTrip: Trip {
                var perdiem: Double {
                    @storageRestrictions(accesses: _$backingData, initializes: _perdiem)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.perdiem, to: initialValue)
                        _perdiem = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.perdiem)
                        return self.getValue(forKey: \.perdiem)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.perdiem) {
                            self.setValue(forKey: \.perdiem, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _perdiem: _SwiftDataNoType = _SwiftDataNoType()

                init(name: String, perdiem: Double) {
                    self.perdiem = perdiem
                    super.init(name: name)
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<BusinessTrip> = BusinessTrip._stagedBackingData()

                public override class var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return (Trip.self as any OpenSwiftData.PersistentModel.Type).schemaMetadata + [
                        OpenSwiftData.Schema.PropertyMetadata(name: "perdiem", keypath: \BusinessTrip.perdiem, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\BusinessTrip.perdiem, 0.0), metadata: nil)
                    ]
                }

                required public init(backingData: any OpenSwiftData.BackingData<BusinessTrip.Root>) {
                    _perdiem = _SwiftDataNoType()
                    super.init(backingData: backingData)
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<BusinessTrip, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<BusinessTrip, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }
            """#,
            macros: subclassMacros
        )
    }

    @Test func finalSubclassWithConstraintsAndNoPropertiesKeepsInheritedMetadataFirst() {
        assertExpansion(
            #"""
            @Model final class PersonalTrip: Trip {
                #Index<PersonalTrip>([\.name])
                init(name: String) {
                    super.init(name: name)
                }
            }
            """#,
            expandedSource: #"""
            final class PersonalTrip: Trip {
                init(name: String) {
                    super.init(name: name)
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<PersonalTrip> = PersonalTrip._stagedBackingData()

                public override class var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    let storedProperties: [OpenSwiftData.Schema.PropertyMetadata] = []
                    var otherProperties = [OpenSwiftData.Schema.PropertyMetadata]()
                    otherProperties.append(OpenSwiftData.Schema.PropertyMetadata(name: "SwiftData.Schema.Index", keypath: \OpenSwiftData.Schema.encodingVersion, defaultValue: nil, metadata: OpenSwiftData.Schema.Index<PersonalTrip>([\.name])))
                    return (Trip.self as any OpenSwiftData.PersistentModel.Type).schemaMetadata + storedProperties + otherProperties
                }

                required public init(backingData: any OpenSwiftData.BackingData<PersonalTrip.Root>) {
                    super.init(backingData: backingData)
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<PersonalTrip, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<PersonalTrip, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }
            """#,
            macros: subclassMacros
        )
    }
}
