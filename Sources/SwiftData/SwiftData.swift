// `import SwiftData` gives SwiftData's API: OpenSwiftData where Apple's framework does not exist,
// Apple's framework where it does (Package.swift names this module differently there, so that it
// never hides the framework).
#if canImport(Darwin)
@_exported import SwiftData
#else
// Apple's module re-exports Foundation and Observation, which apps then use without importing.
@_exported import Foundation
@_exported import Observation
// The macros and the operators on models and errors: a scoped import below carries neither.
@_exported import OpenSwiftDataSurface

// SwiftData's names, one by one, and no other of OpenSwiftData's: an app's own type named like one
// of this package's additions (`MigrationStep`, `QueryValue`, …) must not become ambiguous.
// `SwiftDataExportsTests` checks this list against SwiftData's API reference, both ways. The
// protocol `ModelActor` comes from the core, as `OpenSwiftData.ModelActor` also names the macro.
@_exported import protocol OpenSwiftData.BackingData
@_exported import protocol OpenSwiftData.DataStore
@_exported import struct OpenSwiftData.DataStoreBatchDeleteRequest
@_exported import protocol OpenSwiftData.DataStoreBatching
@_exported import protocol OpenSwiftData.DataStoreConfiguration
@_exported import enum OpenSwiftData.DataStoreError
@_exported import struct OpenSwiftData.DataStoreFetchRequest
@_exported import struct OpenSwiftData.DataStoreFetchResult
@_exported import struct OpenSwiftData.DataStoreSaveChangesRequest
@_exported import class OpenSwiftData.DataStoreSaveChangesResult
@_exported import protocol OpenSwiftData.DataStoreSnapshot
@_exported import enum OpenSwiftData.DataStoreSnapshotCodingKey
@_exported import typealias OpenSwiftData.DataStoreSnapshotValue
@_exported import struct OpenSwiftData.DefaultHistoryDelete
@_exported import struct OpenSwiftData.DefaultHistoryInsert
@_exported import struct OpenSwiftData.DefaultHistoryToken
@_exported import struct OpenSwiftData.DefaultHistoryTransaction
@_exported import struct OpenSwiftData.DefaultHistoryUpdate
@_exported import class OpenSwiftData.DefaultSerialModelExecutor
@_exported import struct OpenSwiftData.DefaultSnapshot
@_exported import class OpenSwiftData.DefaultStore
@_exported import struct OpenSwiftData.EditingState
@_exported import struct OpenSwiftData.FetchDescriptor
@_exported import struct OpenSwiftData.FetchResultsCollection
@_exported import enum OpenSwiftData.HistoryChange
@_exported import protocol OpenSwiftData.HistoryDelete
@_exported import struct OpenSwiftData.HistoryDescriptor
@_exported import protocol OpenSwiftData.HistoryInsert
@_exported import class OpenSwiftData.HistoryObserver
@_exported import protocol OpenSwiftData.HistoryProviding
@_exported import protocol OpenSwiftData.HistoryToken
@_exported import struct OpenSwiftData.HistoryTombstone
@_exported import protocol OpenSwiftData.HistoryTransaction
@_exported import protocol OpenSwiftData.HistoryUpdate
@_exported import enum OpenSwiftData.MigrationStage
@_exported import protocol OpenSwiftDataCore.ModelActor
@_exported import struct OpenSwiftData.ModelConfiguration
@_exported import class OpenSwiftData.ModelContainer
@_exported import class OpenSwiftData.ModelContext
@_exported import protocol OpenSwiftData.ModelExecutor
@_exported import struct OpenSwiftData.PersistentIdentifier
@_exported import protocol OpenSwiftData.PersistentModel
@_exported import protocol OpenSwiftData.RelationshipCollection
@_exported import class OpenSwiftData.ResultsObserver
@_exported import class OpenSwiftData.Schema
@_exported import protocol OpenSwiftData.SchemaMigrationPlan
@_exported import protocol OpenSwiftData.SchemaProperty
@_exported import struct OpenSwiftData.SectionedResults
@_exported import protocol OpenSwiftData.SerialModelExecutor
@_exported import struct OpenSwiftData.SwiftDataError
@_exported import protocol OpenSwiftData.VersionedSchema

// Named by `@Model`'s expansion, which has to compile in a file that imports only SwiftData.
@_exported import struct OpenSwiftData._ModelObservationRegistrar
#endif
