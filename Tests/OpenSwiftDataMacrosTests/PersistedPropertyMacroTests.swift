import Testing

@Suite struct PersistedPropertyMacroTests {
    @Test(arguments: [("Optional<String>", "?"), ("Swift.Optional<String>", "?"), ("String?", "?"), ("String!", "!")])
    func optionalPropertyGetsOptionalStoragePeer(type: String, suffix: String) {
        assertExpansion(
            """
            final class Trip {
                @_PersistedProperty var nickname: \(type)
            }
            """,
            expandedSource: #"""
            final class Trip {
                var nickname: \#(type) {
                    @storageRestrictions(accesses: _$backingData, initializes: _nickname)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.nickname, to: initialValue)
                        _nickname = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.nickname)
                        return self.getValue(forKey: \.nickname)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.nickname) {
                            self.setValue(forKey: \.nickname, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _nickname: _SwiftDataNoType\#(suffix)
            }
            """#
        )
    }

    @Test func propertyWithInitializerGetsInitializedPeer() {
        assertExpansion(
            """
            final class Trip {
                @_PersistedProperty var id: UUID = UUID()
            }
            """,
            expandedSource: #"""
            final class Trip {
                var id: UUID {
                    @storageRestrictions(accesses: _$backingData, initializes: _id)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.id, to: initialValue)
                        _id = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.id)
                        return self.getValue(forKey: \.id)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.id) {
                            self.setValue(forKey: \.id, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _id: _SwiftDataNoType = _SwiftDataNoType()
            }
            """#
        )
    }

    @Test func persistedPropertyOnALetExpandsToNothing() {
        // @Model rejects the `let` with a Fix-It; the accessor macro must not add a second error.
        assertExpansion(
            """
            final class Trip {
                @_PersistedProperty let id: UUID = UUID()
            }
            """,
            expandedSource: """
            final class Trip {
                let id: UUID = UUID()
            }
            """
        )
    }

    @Test func transformablePropertyUsesTransformableAccessors() {
        assertExpansion(
            """
            final class Sketch {
                @_TransformablePersistedProperty var tint: UIColor
            }
            """,
            expandedSource: #"""
            final class Sketch {
                var tint: UIColor {
                    @storageRestrictions(accesses: _$backingData, initializes: _tint)
                    init(initialValue) {
                        _$backingData.setTransformableValue(forKey: \.tint, to: initialValue)
                        _tint = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.tint)
                        return self.getTransformableValue(forKey: \.tint)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.tint) {
                            self.setTransformableValue(forKey: \.tint, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _tint: _SwiftDataNoType
            }
            """#
        )
    }
}
