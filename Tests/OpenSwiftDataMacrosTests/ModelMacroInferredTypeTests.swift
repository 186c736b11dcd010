import OpenSwiftDataMacros
import Testing

/// Stored properties typed by their initial value: `@Model` needs no type from the declaration's
/// text, because the schema entry types the initial value by the property's key path and the
/// `_name` peer of a property with an initial value is never optional.
@Suite struct ModelMacroInferredTypeTests {
    @Test func propertiesTypedByTheirInitialValueArePersisted() {
        assertExpansion(
            #"""
            @Model final class Chore {
                var priority = 0
                public private(set) var content = ""
                var income = Decimal.zero
                var repeatID = UUID()
                var labels = ["home"]
                var scores = [Int]()
                @available(macOS 14, *) var minutes = -15
            }
            """#,
            expandedSource: #"""
            final class Chore {
                var priority {
                    @storageRestrictions(accesses: _$backingData, initializes: _priority)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.priority, to: initialValue)
                        _priority = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.priority)
                        return self.getValue(forKey: \.priority)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.priority) {
                            self.setValue(forKey: \.priority, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _priority: _SwiftDataNoType = _SwiftDataNoType()
                public private(set) var content {
                    @storageRestrictions(accesses: _$backingData, initializes: _content)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.content, to: initialValue)
                        _content = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.content)
                        return self.getValue(forKey: \.content)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.content) {
                            self.setValue(forKey: \.content, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _content: _SwiftDataNoType = _SwiftDataNoType()
                var income {
                    @storageRestrictions(accesses: _$backingData, initializes: _income)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.income, to: initialValue)
                        _income = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.income)
                        return self.getValue(forKey: \.income)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.income) {
                            self.setValue(forKey: \.income, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _income: _SwiftDataNoType = _SwiftDataNoType()
                var repeatID {
                    @storageRestrictions(accesses: _$backingData, initializes: _repeatID)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.repeatID, to: initialValue)
                        _repeatID = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.repeatID)
                        return self.getValue(forKey: \.repeatID)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.repeatID) {
                            self.setValue(forKey: \.repeatID, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _repeatID: _SwiftDataNoType = _SwiftDataNoType()
                var labels {
                    @storageRestrictions(accesses: _$backingData, initializes: _labels)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.labels, to: initialValue)
                        _labels = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.labels)
                        return self.getValue(forKey: \.labels)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.labels) {
                            self.setValue(forKey: \.labels, to: newValue)
                        }
                    }
                    _modify {
                        _$observationRegistrar.access(self, keyPath: \.labels)
                        _$observationRegistrar.willSet(self, keyPath: \.labels)
                        defer {
                            _$observationRegistrar.didSet(self, keyPath: \.labels)
                        }
                        var value = self.getValue(forKey: \.labels)
                        self._beginInPlaceModification(forKey: \.labels)
                        defer {
                            self.setValue(forKey: \.labels, to: value)
                        }
                        yield &value
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _labels: _SwiftDataNoType = _SwiftDataNoType()
                var scores {
                    @storageRestrictions(accesses: _$backingData, initializes: _scores)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.scores, to: initialValue)
                        _scores = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.scores)
                        return self.getValue(forKey: \.scores)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.scores) {
                            self.setValue(forKey: \.scores, to: newValue)
                        }
                    }
                    _modify {
                        _$observationRegistrar.access(self, keyPath: \.scores)
                        _$observationRegistrar.willSet(self, keyPath: \.scores)
                        defer {
                            _$observationRegistrar.didSet(self, keyPath: \.scores)
                        }
                        var value = self.getValue(forKey: \.scores)
                        self._beginInPlaceModification(forKey: \.scores)
                        defer {
                            self.setValue(forKey: \.scores, to: value)
                        }
                        yield &value
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _scores: _SwiftDataNoType = _SwiftDataNoType()
                @available(macOS 14, *)
                var minutes {
                    @storageRestrictions(accesses: _$backingData, initializes: _minutes)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.minutes, to: initialValue)
                        _minutes = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.minutes)
                        return self.getValue(forKey: \.minutes)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.minutes) {
                            self.setValue(forKey: \.minutes, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _minutes: _SwiftDataNoType = _SwiftDataNoType()

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Chore> = Chore.createBackingData()

                public var persistentBackingData: any OpenSwiftData.BackingData<Chore> {
                    get {
                        return _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                public static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "priority", keypath: \Chore.priority, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Chore.priority, 0), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "content", keypath: \Chore.content, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Chore.content, ""), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "income", keypath: \Chore.income, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Chore.income, Decimal.zero), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "repeatID", keypath: \Chore.repeatID, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Chore.repeatID, UUID()), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "labels", keypath: \Chore.labels, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Chore.labels, ["home"]), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "scores", keypath: \Chore.scores, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Chore.scores, [Int]()), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "minutes", keypath: \Chore.minutes, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Chore.minutes, -15), metadata: nil)
                    ]
                }

                public init(backingData: any OpenSwiftData.BackingData<Chore>) {
                    _priority = _SwiftDataNoType()
                    _content = _SwiftDataNoType()
                    _income = _SwiftDataNoType()
                    _repeatID = _SwiftDataNoType()
                    _labels = _SwiftDataNoType()
                    _scores = _SwiftDataNoType()
                    _minutes = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Chore, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Chore, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Chore: OpenSwiftData.PersistentModel {
            }

            extension Chore: Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Chore's persistentModelID instead")
            extension Chore: Sendable {
            }
            """#
        )
    }
}
