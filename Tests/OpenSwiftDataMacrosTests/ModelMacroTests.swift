import OpenSwiftDataMacros
import SwiftSyntaxMacroExpansion
import Testing

@Suite struct ModelMacroTests {
    @Test func finalClassGetsBackingDataAndSchemaMetadata() {
        assertExpansion(
            #"""
            @Model final class Trip {
                #Unique<Trip>([\.name, \.startDate])
                #Index<Trip>([\.name])
                var name: String
                @Attribute(.unique, originalName: "dest") var destination: String
                var startDate: Date = Date.now
                var notes: String?
                @Relationship(deleteRule: .cascade, inverse: \Item.trip) var items: [Item] = []
                @Transient var isSelected = false

                init(name: String, destination: String) {
                    self.name = name
                    self.destination = destination
                }
            }
            """#,
            expandedSource: #"""
            final class Trip {
                var name: String {
                    @storageRestrictions(accesses: _$backingData, initializes: _name)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.name, to: initialValue)
                        _name = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.name)
                        return self.getValue(forKey: \.name)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.name) {
                            self.setValue(forKey: \.name, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _name: _SwiftDataNoType
                var destination: String {
                    @storageRestrictions(accesses: _$backingData, initializes: _destination)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.destination, to: initialValue)
                        _destination = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.destination)
                        return self.getValue(forKey: \.destination)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.destination) {
                            self.setValue(forKey: \.destination, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _destination: _SwiftDataNoType
                var startDate: Date {
                    @storageRestrictions(accesses: _$backingData, initializes: _startDate)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.startDate, to: initialValue)
                        _startDate = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.startDate)
                        return self.getValue(forKey: \.startDate)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.startDate) {
                            self.setValue(forKey: \.startDate, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _startDate: _SwiftDataNoType = _SwiftDataNoType()
                var notes: String? {
                    @storageRestrictions(accesses: _$backingData, initializes: _notes)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.notes, to: initialValue)
                        _notes = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.notes)
                        return self.getValue(forKey: \.notes)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.notes) {
                            self.setValue(forKey: \.notes, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _notes: _SwiftDataNoType?
                var items: [Item] {
                    @storageRestrictions(accesses: _$backingData, initializes: _items)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.items, to: initialValue)
                        _items = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.items)
                        return self.getValue(forKey: \.items)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.items) {
                            self.setValue(forKey: \.items, to: newValue)
                        }
                    }
                    _modify {
                        _$observationRegistrar.access(self, keyPath: \.items)
                        _$observationRegistrar.willSet(self, keyPath: \.items)
                        defer {
                            _$observationRegistrar.didSet(self, keyPath: \.items)
                        }
                        var value = self.getValue(forKey: \.items)
                        self._beginInPlaceModification(forKey: \.items)
                        defer {
                            self.setValue(forKey: \.items, to: value)
                        }
                        yield &value
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _items: _SwiftDataNoType = _SwiftDataNoType()
                var isSelected = false

                init(name: String, destination: String) {
                    self.name = name
                    self.destination = destination
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Trip> = Trip.createBackingData()

                public var persistentBackingData: any OpenSwiftData.BackingData<Trip> {
                    get {
                        return _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                public static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    let storedProperties = [
                        OpenSwiftData.Schema.PropertyMetadata(name: "name", keypath: \Trip.name, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "destination", keypath: \Trip.destination, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.unique, originalName: "dest")),
                        OpenSwiftData.Schema.PropertyMetadata(name: "startDate", keypath: \Trip.startDate, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Trip.startDate, Date.now), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "notes", keypath: \Trip.notes, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "items", keypath: \Trip.items, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Trip.items, []), metadata: OpenSwiftData.Schema.Relationship(deleteRule: .cascade, inverse: \Item.trip))
                    ]
                    var otherProperties = [OpenSwiftData.Schema.PropertyMetadata]()
                    otherProperties.append(OpenSwiftData.Schema.PropertyMetadata(name: "SwiftData.Schema.Index", keypath: \OpenSwiftData.Schema.encodingVersion, defaultValue: nil, metadata: OpenSwiftData.Schema.Index<Trip>([\.name])))
                    otherProperties.append(OpenSwiftData.Schema.PropertyMetadata(name: "SwiftData.Schema.Unique", keypath: \OpenSwiftData.Schema.encodingVersion, defaultValue: nil, metadata: OpenSwiftData.Schema.Unique<Trip>([\.name, \.startDate])))
                    return storedProperties + otherProperties
                }

                public init(backingData: any OpenSwiftData.BackingData<Trip>) {
                    _name = _SwiftDataNoType()
                    _destination = _SwiftDataNoType()
                    _startDate = _SwiftDataNoType()
                    _notes = _SwiftDataNoType()
                    _items = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Trip, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Trip, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Trip: OpenSwiftData.PersistentModel {
            }

            extension Trip: Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Trip's persistentModelID instead")
            extension Trip: Sendable {
            }
            """#
        )
    }

    @Test func nonFinalClassGetsRequiredInitAndClassSchemaMetadata() {
        assertExpansion(
            #"""
            @Model class Item {
                #Unique<Item>([\.id])
                var id: UUID
                var timestamp: Date

                init() {
                    id = UUID()
                    timestamp = .now
                }
            }
            """#,
            expandedSource: #"""
            class Item {
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
                private var _id: _SwiftDataNoType
                var timestamp: Date {
                    @storageRestrictions(accesses: _$backingData, initializes: _timestamp)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.timestamp, to: initialValue)
                        _timestamp = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.timestamp)
                        return self.getValue(forKey: \.timestamp)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.timestamp) {
                            self.setValue(forKey: \.timestamp, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _timestamp: _SwiftDataNoType

                init() {
                    id = UUID()
                    timestamp = .now
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Item> = Item.createBackingData()

                public var persistentBackingData: any OpenSwiftData.BackingData<Item> {
                    get {
                        return _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                public class var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    let storedProperties = [
                        OpenSwiftData.Schema.PropertyMetadata(name: "id", keypath: \Item.id, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "timestamp", keypath: \Item.timestamp, defaultValue: nil, metadata: nil)
                    ]
                    var otherProperties = [OpenSwiftData.Schema.PropertyMetadata]()
                    otherProperties.append(OpenSwiftData.Schema.PropertyMetadata(name: "SwiftData.Schema.Unique", keypath: \OpenSwiftData.Schema.encodingVersion, defaultValue: nil, metadata: OpenSwiftData.Schema.Unique<Item>([\.id])))
                    return storedProperties + otherProperties
                }

                required public init(backingData: any OpenSwiftData.BackingData<Item>) {
                    _id = _SwiftDataNoType()
                    _timestamp = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Item, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Item, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Item: OpenSwiftData.PersistentModel {
            }

            extension Item: Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Item's persistentModelID instead")
            extension Item: Sendable {
            }
            """#
        )
    }

    @Test func classWithoutStoredPropertiesGetsEmptySchemaMetadata() {
        assertExpansion(
            #"""
            @Model final class Marker {
                static var count: Int = 0
                lazy var cache: [String] = []
                var label: String { "marker" }
                func describe() -> String { label }
            }
            """#,
            expandedSource: #"""
            final class Marker {
                static var count: Int = 0
                lazy var cache: [String] = []
                var label: String { "marker" }
                func describe() -> String { label }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Marker> = Marker.createBackingData()

                public var persistentBackingData: any OpenSwiftData.BackingData<Marker> {
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

                public init(backingData: any OpenSwiftData.BackingData<Marker>) {
                    self.persistentBackingData = backingData
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Marker, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Marker, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Marker: OpenSwiftData.PersistentModel {
            }

            extension Marker: Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Marker's persistentModelID instead")
            extension Marker: Sendable {
            }
            """#
        )
    }

    @Test func constraintsKeepTheirArgumentListsIndexesFirst() {
        assertExpansion(
            #"""
            @Model final class Place {
                #Unique<Place>([\.a], [\.b, \.c])
                #Index<Place>(.binary([\.a]), .rtree([\.b]))
                #Unique<Place>([\.c])
            }
            """#,
            expandedSource: #"""
            final class Place {

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Place> = Place.createBackingData()

                public var persistentBackingData: any OpenSwiftData.BackingData<Place> {
                    get {
                        return _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                public static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    let storedProperties: [OpenSwiftData.Schema.PropertyMetadata] = []
                    var otherProperties = [OpenSwiftData.Schema.PropertyMetadata]()
                    otherProperties.append(OpenSwiftData.Schema.PropertyMetadata(name: "SwiftData.Schema.Index", keypath: \OpenSwiftData.Schema.encodingVersion, defaultValue: nil, metadata: OpenSwiftData.Schema.Index<Place>(.binary([\.a]), .rtree([\.b]))))
                    otherProperties.append(OpenSwiftData.Schema.PropertyMetadata(name: "SwiftData.Schema.Unique", keypath: \OpenSwiftData.Schema.encodingVersion, defaultValue: nil, metadata: OpenSwiftData.Schema.Unique<Place>([\.a], [\.b, \.c])))
                    otherProperties.append(OpenSwiftData.Schema.PropertyMetadata(name: "SwiftData.Schema.Unique", keypath: \OpenSwiftData.Schema.encodingVersion, defaultValue: nil, metadata: OpenSwiftData.Schema.Unique<Place>([\.c])))
                    return storedProperties + otherProperties
                }

                public init(backingData: any OpenSwiftData.BackingData<Place>) {
                    self.persistentBackingData = backingData
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Place, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Place, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Place: OpenSwiftData.PersistentModel {
            }

            extension Place: Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Place's persistentModelID instead")
            extension Place: Sendable {
            }
            """#
        )
    }

    @Test func defaultValuesAreCastToTheDeclaredType() {
        assertExpansion(
            #"""
            @Model final class Swatch {
                var color: Color = .red
                var nickname: String? = nil
                var total: Int = base ?? 0
                var legacy: String! = "old"
            }
            """#,
            expandedSource: #"""
            final class Swatch {
                var color: Color {
                    @storageRestrictions(accesses: _$backingData, initializes: _color)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.color, to: initialValue)
                        _color = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.color)
                        return self.getValue(forKey: \.color)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.color) {
                            self.setValue(forKey: \.color, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _color: _SwiftDataNoType = _SwiftDataNoType()
                var nickname: String? {
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
                private var _nickname: _SwiftDataNoType? = _SwiftDataNoType()
                var total: Int {
                    @storageRestrictions(accesses: _$backingData, initializes: _total)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.total, to: initialValue)
                        _total = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.total)
                        return self.getValue(forKey: \.total)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.total) {
                            self.setValue(forKey: \.total, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _total: _SwiftDataNoType = _SwiftDataNoType()
                var legacy: String! {
                    @storageRestrictions(accesses: _$backingData, initializes: _legacy)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.legacy, to: initialValue)
                        _legacy = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.legacy)
                        return self.getValue(forKey: \.legacy)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.legacy) {
                            self.setValue(forKey: \.legacy, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _legacy: _SwiftDataNoType! = _SwiftDataNoType()

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Swatch> = Swatch.createBackingData()

                public var persistentBackingData: any OpenSwiftData.BackingData<Swatch> {
                    get {
                        return _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                public static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "color", keypath: \Swatch.color, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Swatch.color, .red), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "nickname", keypath: \Swatch.nickname, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Swatch.nickname, nil), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "total", keypath: \Swatch.total, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Swatch.total, base ?? 0), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "legacy", keypath: \Swatch.legacy, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Swatch.legacy, "old"), metadata: nil)
                    ]
                }

                public init(backingData: any OpenSwiftData.BackingData<Swatch>) {
                    _color = _SwiftDataNoType()
                    _nickname = _SwiftDataNoType()
                    _total = _SwiftDataNoType()
                    _legacy = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Swatch, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Swatch, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Swatch: OpenSwiftData.PersistentModel {
            }

            extension Swatch: Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Swatch's persistentModelID instead")
            extension Swatch: Sendable {
            }
            """#
        )
    }

    @Test func transformableAttributeGetsTransformablePersistedProperty() {
        assertExpansion(
            #"""
            @Model final class Sketch {
                @Attribute(.transformable(by: "ColorTransformer")) var tint: UIColor
            }
            """#,
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

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Sketch> = Sketch.createBackingData()

                public var persistentBackingData: any OpenSwiftData.BackingData<Sketch> {
                    get {
                        return _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                public static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "tint", keypath: \Sketch.tint, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.transformable(by: "ColorTransformer")))
                    ]
                }

                public init(backingData: any OpenSwiftData.BackingData<Sketch>) {
                    _tint = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Sketch, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Sketch, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Sketch: OpenSwiftData.PersistentModel {
            }

            extension Sketch: Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Sketch's persistentModelID instead")
            extension Sketch: Sendable {
            }
            """#
        )
    }

    /// `SwiftData` is the module name code written for Apple's framework qualifies with; our
    /// `SwiftData` product re-exports this package under it.
    @Test(arguments: ["OpenSwiftData", "SwiftData"])
    func moduleQualifiedMarkersAreRecognised(module: String) {
        assertExpansion(
            #"""
            @Model final class Note {
                @\#(module).Attribute(.unique) var title: String
                @\#(module).Relationship(deleteRule: .cascade) var tags: [Tag] = []
                @\#(module).Transient var isEditing: Bool = false
            }
            """#,
            expandedSource: #"""
            final class Note {
                @\#(module).Attribute(.unique)
                var title: String {
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
                @\#(module).Relationship(deleteRule: .cascade)
                var tags: [Tag] {
                    @storageRestrictions(accesses: _$backingData, initializes: _tags)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.tags, to: initialValue)
                        _tags = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.tags)
                        return self.getValue(forKey: \.tags)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.tags) {
                            self.setValue(forKey: \.tags, to: newValue)
                        }
                    }
                    _modify {
                        _$observationRegistrar.access(self, keyPath: \.tags)
                        _$observationRegistrar.willSet(self, keyPath: \.tags)
                        defer {
                            _$observationRegistrar.didSet(self, keyPath: \.tags)
                        }
                        var value = self.getValue(forKey: \.tags)
                        self._beginInPlaceModification(forKey: \.tags)
                        defer {
                            self.setValue(forKey: \.tags, to: value)
                        }
                        yield &value
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _tags: _SwiftDataNoType = _SwiftDataNoType()
                @\#(module).Transient var isEditing: Bool = false

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

                public static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "title", keypath: \Note.title, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.unique)),
                        OpenSwiftData.Schema.PropertyMetadata(name: "tags", keypath: \Note.tags, defaultValue: OpenSwiftData.Schema.PropertyMetadata._defaultValue(\Note.tags, []), metadata: OpenSwiftData.Schema.Relationship(deleteRule: .cascade))
                    ]
                }

                public init(backingData: any OpenSwiftData.BackingData<Note>) {
                    _title = _SwiftDataNoType()
                    _tags = _SwiftDataNoType()
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
        )
    }

    @Test func onlyMissingConformancesGetExtensions() {
        var macros = openSwiftDataMacros
        macros["Model"] = MacroSpec(type: ModelMacro.self, conformances: ["Sendable"])
        assertExpansion(
            """
            @Model final class Tag: PersistentModel, Observable {
            }
            """,
            expandedSource: #"""
            final class Tag: PersistentModel, Observable {

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Tag> = Tag.createBackingData()

                public var persistentBackingData: any OpenSwiftData.BackingData<Tag> {
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

                public init(backingData: any OpenSwiftData.BackingData<Tag>) {
                    self.persistentBackingData = backingData
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Tag, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Tag, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Tag's persistentModelID instead")
            extension Tag: Sendable {
            }
            """#,
            macros: macros
        )
    }

    @Test func escapedPropertyNameKeepsBackticksOnlyInCode() {
        assertExpansion(
            """
            @Model final class Lesson {
                var `class`: String
            }
            """,
            expandedSource: #"""
            final class Lesson {
                var `class`: String {
                    @storageRestrictions(accesses: _$backingData, initializes: _class)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.`class`, to: initialValue)
                        _class = _SwiftDataNoType()
                    }
                    get {
                        _$observationRegistrar.access(self, keyPath: \.`class`)
                        return self.getValue(forKey: \.`class`)
                    }
                    set {
                        _$observationRegistrar.withMutation(of: self, keyPath: \.`class`) {
                            self.setValue(forKey: \.`class`, to: newValue)
                        }
                    }
                }

                @OpenSwiftDataSurface.Transient
                private var _class: _SwiftDataNoType

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Lesson> = Lesson.createBackingData()

                public var persistentBackingData: any OpenSwiftData.BackingData<Lesson> {
                    get {
                        return _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                public static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "class", keypath: \Lesson.`class`, defaultValue: nil, metadata: nil)
                    ]
                }

                public init(backingData: any OpenSwiftData.BackingData<Lesson>) {
                    _class = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @OpenSwiftDataSurface.Transient
                @exclusivity(unchecked) nonisolated(unsafe) private var _$observationRegistrar = OpenSwiftData._ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Lesson, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Lesson, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Lesson: OpenSwiftData.PersistentModel {
            }

            extension Lesson: Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Lesson's persistentModelID instead")
            extension Lesson: Sendable {
            }
            """#
        )
    }
}
